// Megatron-LM flags that a release accepts but that nothing reads: no Python file of the release
// names the argument's attribute, outside the argument parsers themselves and the tests (the config
// dataclasses a flag fills are Python files that name it, so a flag read through one is not caught
// here). `x-unread-from` is the first release of the run of releases, up to the newest that has the
// flag (for a removed flag, the last before its `x-removed`), in which nothing reads it (`{}` when no
// release that has the flag reads it): unread-key then says that setting it changes nothing there
// (for a deprecated or removed flag, only before deprecated-key takes over). A read the scan cannot
// see (an attribute name built at run time) would hide a real read, so every entry is printed for a
// look by hand.
import { catBlobs, compareVersions, gitLines } from './git.mjs';
import { printLists, setKey } from './write.mjs';

// The argument parsers, and (from 0.16.0) the config dataclasses whose fields ArgumentGroupFactory
// turns into flags: a field declaration defines a flag, it does not read it.
const PARSERS = /(^|\/)(arguments|argument_utils)\.py$|^megatron\/training\/(config\/[^/]+|[a-z_]+_config)\.py$/;
const TESTS = /(^|\/)tests?\//;
/** Megatron Core's model configs, whose fields the model code reads by name. */
const MODEL_CONFIGS = /^megatron\/core\/(transformer\/transformer_config|model_parallel_config)\.py$/;

/** The Python files of a release, tests aside: `[match, blob id, path]`. */
const pyFiles = (dir, rev) =>
  gitLines(dir, 'ls-tree', '-r', rev)
    .map((l) => /^\d+ blob ([0-9a-f]+)\t(.+)$/.exec(l))
    .filter((m) => m && m[2].endsWith('.py') && !TESTS.test(m[2]));

/** The modules a release's files make (`a/b.py` and the package `a/b` both as `a.b`). */
function modulesOf(files) {
  const modules = new Set();
  for (const m of files) {
    const parts = m[2].replace(/\.py$/, '').split('/');
    for (let i = 1; i <= parts.length; i++) modules.add(parts.slice(0, i).join('.').replace(/\.__init__$/, ''));
  }
  return modules;
}

/**
 * The identifiers the Python files of one release read, tests aside. A file whose top-level import
 * names a module of the repository that an earlier release had and this one lacks cannot run, so it
 * reads nothing (tools/bert_embedding/embed.py still imports pretrain_bert, which 0.18.0 removed with
 * the legacy BERT model); a module no release had (`megatron.energon`, an installed package) counts
 * as present. In the argument parsers only an attribute read counts (`args.recompute_activations` in
 * validate_args, `getattr(args, 'x')`): the parser names every flag it defines.
 */
function namesAt(dir, rev, everModule) {
  const files = pyFiles(dir, rev);
  const modules = modulesOf(files);
  const dead = (text) =>
    [...text.matchAll(/^(?:from\s+([A-Za-z_][\w.]*)\s+import|import\s+([A-Za-z_][\w.]*))/gm)].some((x) => {
      const mod = x[1] ?? x[2];
      return everModule.has(mod) && !modules.has(mod);
    });
  const parser = new Set(files.filter((m) => PARSERS.test(m[2])).map((m) => m[1]));
  const modelConfig = new Set(files.filter((m) => MODEL_CONFIGS.test(m[2])).map((m) => m[1]));
  const names = new Set();
  for (const [id, raw] of catBlobs(dir, files.map((m) => m[1]))) {
    if (dead(raw)) continue;
    // A comment reads nothing (`# fhwc: (num_frames, num_channels, height, width)` in the multimodal
    // example): whole-line comments and inline ones set off by two spaces are dropped.
    const text = raw.replace(/^[ \t]*#[^\n]*$/gm, '').replace(/ {2,}#[^\n]*$/gm, '');
    // A function or class of the argument's name defines it, it does not read it (`def openai_gelu`).
    // Setting an attribute (`args.vocab_extra_ids = 0`, a tool filling the namespace a tokenizer
    // builder takes) writes it, it does not read it.
    // A field's declaration in the model configs (`    apply_residual_connection_post_layernorm: bool =
    // False` in TransformerConfig) declares it, it does not read it: the model code reads their fields
    // by name. Other config dataclasses are read by built names too (the optimizer's `muon_*` fields
    // through `f"{prefix}_{name}"`), so there a declaration still counts.
    const fields = modelConfig.has(id) ? (t) => t.replace(/^[ \t]+[A-Za-z_]\w*\s*:\s*[^=\n]+=[^\n]*$/gm, '') : (t) => t;
    const body = fields(text.replace(/\b(def|class)\s+[A-Za-z_]\w*/g, '$1').replace(/\.[A-Za-z_]\w*(?=\s*=(?!=))/g, '.'));
    const words = parser.has(id) ? [...text.matchAll(/\.([A-Za-z_]\w*)|getattr\(\s*\w+\s*,\s*["']([A-Za-z_]\w*)["']/g)].map((x) => x[1] ?? x[2]) : body.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [];
    for (const w of words) names.add(w);
  }
  return names;
}

/**
 * The `x-unread-from` changes: flags of Megatron-LM's own parser that nothing reads in the last
 * releases that have them (the newest, or for a removed flag the last before its removal).
 */
export function megatronUnreadChanges(dir, releases, props, sourceOf, spellings) {
  const everModule = new Set(releases.flatMap((r) => [...modulesOf(pyFiles(dir, r.rev))]));
  const names = releases.map((r) => namesAt(dir, r.rev, everModule));
  const changes = [];
  const found = [];
  const removed = [];
  for (const [key, prop] of Object.entries(props)) {
    if (sourceOf(prop) !== 'main' || prop['x-cli'] === false) continue;
    // A fact written by hand with its reason (`why`: the attribute is read, but what the read sets is
    // overwritten before use) is one this scan of names cannot see, and is kept.
    if (prop['x-unread-from']?.why) continue;
    const dest = prop['x-dest'] ?? key;
    const from = prop['x-since'];
    const until = prop['x-removed']?.version;
    // The attribute each release's parser stores the flag under (a dataclass flag's `--disable-` form
    // stores into the field: 0.16.0's `--disable-ckpt-fully-parallel-save` sets ckpt_fully_parallel_save).
    const destsAt = (r) => {
      const got = spellings(prop).map((n) => r.dests?.main?.get(n)).filter(Boolean);
      return got.length ? got : [dest];
    };
    const within = releases.map((r, i) => ({ r, read: destsAt(r).some((d) => names[i].has(d)) })).filter(({ r }) => (!from || compareVersions(r.version, from) >= 0) && (!until || compareVersions(r.version, until) < 0));
    // A flag that arrived before its reader: nothing reads it in its first releases (`x-unread-before`,
    // the first release that reads it). A reason written by hand is kept.
    // Counted from the release that has the flag (a TransformerConfig field may come first, for `--yaml-cfg`).
    const flagSince = prop['x-flag-since']?.[prop['x-flag']];
    const flagged = flagSince ? within.filter(({ r }) => compareVersions(r.version, flagSince) >= 0) : within;
    const firstRead = flagged.findIndex((w) => w.read);
    if (firstRead > 0) {
      const want = { version: flagged[firstRead].r.version, why: `no code before ${flagged[firstRead].r.version} reads what argparse stores` };
      const have = prop['x-unread-before'];
      if (!have || (have.version !== want.version && !have.why?.startsWith('stores it as'))) changes.push({ key, field: 'x-unread-before', from: have, to: want, why: 'the flag arrived before the code that reads it', set: () => setKey(prop, 'x-unread-before', want, ['x-since', 'x-group']) });
    }
    if (!within.length || within.at(-1).read) continue;
    let k = within.length - 1;
    while (k > 0 && !within[k - 1].read) k--;
    const want = k === 0 ? {} : { version: within[k].r.version };
    (until ? removed : found).push(`${key}: ${k === 0 ? 'no release that has it reads it' : `nothing reads it from ${within[k].r.version}`}${until ? ` (removed in ${until})` : ''}`);
    const have = prop['x-unread-from'];
    if (JSON.stringify(have) !== JSON.stringify(want)) changes.push({ key, field: 'x-unread-from', from: have, to: want, why: 'no Python file of the release names the attribute (parsers and tests aside)', set: () => setKey(prop, 'x-unread-from', want, ['x-since', 'x-group']) });
  }
  console.log('\nFlags nothing reads (x-unread-from):');
  printLists([
    ['flags accepted that nothing reads, up to the newest release', found],
    ['removed flags that nothing read in their last releases', removed],
  ]);
  return changes;
}
