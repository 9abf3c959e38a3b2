// Megatron-LM's `--yaml-cfg` reader (megatron/training/yaml_arguments.py, core_transformer_config_from_yaml)
// builds the model's config from the fields of TransformerConfig alone: it copies each of them from
// `language_model` and `model_parallel`, then builds an MLATransformerConfig from that same set when
// `multi_latent_attention` is on. A field only the MLA subclass declares (q_lora_rank, kv_lora_rank, …)
// is therefore never copied: written under `language_model` it keeps its default. Such properties get
// `x-yaml-cfg-unread` (the sentence unread-key says), computed at the newest release; every release
// with the reader builds the config the same way. A field the reader sets itself at every release
// (`pipeline_dtype` from `params_dtype`, `variable_seq_lengths` to False) gets it too.
//
// A top-level key is an attribute of the run's arguments, read wherever the training code reads
// `args.<name>`. One that only Megatron-LM's command-line side reads (validate_args and the
// command-line config builder, in arguments.py and argument_utils.py: `--recompute-activations`
// turned into a granularity, `--decoder-first-pipeline-num-layers` into a TransformerConfig field)
// is not read from a `--yaml-cfg` file, which neither runs: such properties get the same key, with
// their own sentence, when no other Python file of any release from 0.6.0 (the reader's first) to
// the newest names them (tests aside; config dataclasses count as readers, as a field may be read
// through them); one whose other readers went away at some release (the legacy models, removed in
// 0.18.0) gets it with `x-yaml-cfg-unread-since`, that release. An MLATransformerConfig field a model
// builder also reads from the run's arguments (`rotary_base`, which gpt_builders.py hands GPTModel for
// its own rotary embedding) is read: the reader merges `language_model` into those arguments.
//
// Where a key goes (`x-yaml-cfg`) follows the config dataclasses of each release: a field of
// ModelParallelConfig in `model_parallel`, one of TransformerConfig in `language_model` (the reader
// builds the config from those two sections and stops on a field missing from both, "Missing argument
// … config"), any other key at the top level. The section at the last release that has the property
// is `x-yaml-cfg` (a key that is no config field keeps the schema's own: the MLA-only fields stay
// beside their TransformerConfig siblings, and the few names the reader takes from `language_model`
// itself stay there); a run of earlier releases with another section is `x-yaml-cfg-before`
// (`{ "<release>": "<section>" }`, the section of the releases before that one, as x-default-before):
// `qk_l2_norm` is a top-level argument until TransformerConfig gets the field in 0.16.0.
import { catBlobs, compareVersions, gitLines } from './git.mjs';
import { classFields } from './megatron-parser.mjs';
import { ranges, setKey } from './write.mjs';

const WHY = "Megatron-LM's `--yaml-cfg` reader copies only TransformerConfig's own fields from `language_model` (yaml_arguments.py, core_transformer_config_from_yaml), and builds the multi-latent-attention config from that same set, so this field of MLATransformerConfig keeps its default";

const TOP_WHY = "only Megatron-LM's command-line side reads it (its argument checks and the config it builds from the flags, in arguments.py and argument_utils.py), and a `--yaml-cfg` file runs neither: the training code reads nothing of that name from the file";
const CLI_SIDE = /^megatron\/training\/(arguments|argument_utils)\.py$/;

const OVERWRITTEN_WHY = "Megatron-LM's `--yaml-cfg` reader sets this field itself at every release (yaml_arguments.py: validate_yaml, core_transformer_config_from_yaml), whatever the file writes, so the value written here never takes effect";

/**
 * The config fields the reader sets unconditionally at every release from 0.6.0 (a statement of the
 * function body itself, `args.model_parallel.<x> = …` or `kw_args['<x>'] = …`): what the file writes
 * for them is overwritten (`pipeline_dtype`, `variable_seq_lengths`, `batch_p2p_comm`, …).
 */
function overwrittenByReader(dir, releases) {
  let common;
  for (const r of releases) {
    const text = gitLines(dir, 'show', `${r.rev}:megatron/training/yaml_arguments.py`).join('\n');
    const here = new Set();
    for (const m of text.matchAll(/^    (?:args\.(?:model_parallel|language_model)\.([a-z_0-9]+)|kw_args\[['"]([a-z_0-9]+)['"]\])\s*=[^=]/gm)) {
      const name = m[1] ?? m[2];
      // The statement up to the next one at the same depth: one that reads the field itself (a cap,
      // `min(…tensor_model_parallel_size, world_size)`) keeps what the file writes.
      const rest = text.slice(m.index + m[0].length);
      const end = rest.search(/\n    [A-Za-z_]/);
      if (!new RegExp(`\\b${name}\\b`).test(end < 0 ? rest : rest.slice(0, end))) here.add(name);
    }
    common = common ? new Set([...common].filter((n) => here.has(n))) : here;
  }
  return common ?? new Set();
}

/**
 * Every name the release's Python files could read an argument by, tests and the command-line side
 * aside: an attribute read (`args.<name>`, `config.<name>`), a name looked up by text
 * (`getattr(args, '<name>')`, `kw_args['<name>']`, `.get('<name>')`), a keyword or a dataclass field
 * (`<name>=`, `<name>:`). A bare word is not one: a function of the argument's name (`def quick_geglu`,
 * Megatron Core's activation, and its calls) does not read the argument, nor does a word of a
 * message, an Enum's value, an attribute or a dictionary entry written (`config.squared_relu = True`) or the checkpoint
 * loader's `_set_arg('<name>')`, which copies a saved value onto the arguments. Nor is a read of a
 * config object (`self.config.<name>`, `getattr(self.config, '<name>')`): the `--yaml-cfg` reader
 * builds the model's config from the dataclass fields alone, so a name no config dataclass declares
 * (whose own `<name>:` counts) is on the config only where the command-line side's builder set it
 * (`yarn_beta_fast`, which GPTModel reads off its config and only argument_utils.py puts there).
 */
const CONFIG_READ = /\b\w*config\s*\.\s*[A-Za-z_]\w*\b(?!\s*=(?!=))|\b(?:get|has)attr\(\s*[\w.]*config\s*,\s*["'][A-Za-z_]\w*["']/gi;
function namesOutsideCli(dir, rev) {
  const files = gitLines(dir, 'ls-tree', '-r', rev)
    .map((l) => /^\d+ blob ([0-9a-f]+)\t(.+)$/.exec(l))
    .filter((m) => m && m[2].endsWith('.py') && !/(^|\/)tests?\//.test(m[2]) && !CLI_SIDE.test(m[2]));
  const names = new Set();
  const reads = /\.([A-Za-z_]\w*)\b(?!\s*=(?!=))|(?:(?:get|has)attr\(\s*[\w.]+\s*,\s*|\.get\(\s*)["']([A-Za-z_]\w*)["']|\[\s*["']([A-Za-z_]\w*)["']\s*\](?!\s*=(?!=))|(?<![.\w])([A-Za-z_]\w*)\s*(?:=(?!=)|:)/g;
  for (const [, text] of catBlobs(dir, files.map((m) => m[1]))) for (const m of text.replace(CONFIG_READ, ' ').matchAll(reads)) names.add(m[1] ?? m[2] ?? m[3] ?? m[4]);
  return names;
}

/** The config section each property's key belongs in at `rev`, from the dataclasses the reader builds. */
function sectionsAt(dir, rev) {
  const mp = classFields(dir, rev, 'ModelParallelConfig');
  const tc = classFields(dir, rev, 'TransformerConfig');
  return (key) => (mp.has(key) ? 'model_parallel' : tc.has(key) ? 'language_model' : undefined);
}

/**
 * The releases from the reader's first (0.6.0) that have the property, with the config section of
 * each (undefined: no config field there), oldest first.
 */
function fieldRuns(key, prop, withReader, fieldAt) {
  const has = (r) => (!prop['x-since'] || compareVersions(r.version, prop['x-since']) >= 0) && (!prop['x-removed'] || compareVersions(r.version, prop['x-removed'].version) < 0);
  return withReader.map((r, i) => ({ r, field: fieldAt[i](key) })).filter(({ r }) => has(r));
}

/**
 * `x-yaml-cfg` and `x-yaml-cfg-before` of a property the file writes in a `--yaml-cfg` section or at
 * its top level: the section at its last release, and the sections of earlier runs of releases.
 */
function placementChanges(key, prop, runs, all) {
  const last = runs.at(-1);
  if (!last || prop['x-yaml-cfg'] === undefined) return { changes: [], section: prop['x-yaml-cfg'] };
  const want = last.field ?? prop['x-yaml-cfg'];
  const at = runs.map(({ r, field }) => ({ version: r.version, section: field ?? (last.field ? 'top' : want) }));
  const before = {};
  for (let i = 1; i < at.length; i++) if (at[i].section !== at[i - 1].section) before[at[i].version] = at[i - 1].section;
  const history = Object.keys(before).length ? before : undefined;
  const changes = [];
  if (prop['x-yaml-cfg'] !== want) changes.push({ key, field: 'x-yaml-cfg', from: prop['x-yaml-cfg'], to: want, why: `the config dataclass field of its last release${last.field ? '' : 's'} (${ranges(runs.filter((x) => x.field === last.field).map((x) => x.r.version), all)})`, set: () => setKey(prop, 'x-yaml-cfg', want) });
  if (JSON.stringify(prop['x-yaml-cfg-before']) !== JSON.stringify(history)) changes.push({ key, field: 'x-yaml-cfg-before', from: prop['x-yaml-cfg-before'], to: history, why: 'the section of each earlier run of releases, from the config dataclasses', set: () => setKey(prop, 'x-yaml-cfg-before', history, ['x-yaml-cfg']) });
  return { changes, section: want };
}

/** The names the model builders at the repository's root (`pretrain_*.py`, `*_builders.py`) read as `args.<name>` at `rev`. */
function builderArgs(dir, rev) {
  const files = gitLines(dir, 'ls-tree', rev)
    .map((l) => /^\d+ blob ([0-9a-f]+)\t(.+)$/.exec(l))
    .filter((m) => m && /^(pretrain_\w+|\w+_builders)\.py$/.test(m[2]));
  const names = new Set();
  for (const [, text] of catBlobs(dir, files.map((m) => m[1]))) for (const m of text.matchAll(/\bargs\.([A-Za-z_]\w*)/g)) names.add(m[1]);
  return names;
}

/** The `x-yaml-cfg-unread` changes, for properties written under a `--yaml-cfg` section. */
export function megatronYamlCfgChanges(dir, releases, props) {
  const newest = releases.at(-1);
  const tc = classFields(dir, newest.rev, 'TransformerConfig');
  const mla = classFields(dir, newest.rev, 'MLATransformerConfig');
  const changes = [];
  if (!tc.size || !mla.size) return changes;
  const withReader = releases.filter((r) => compareVersions(r.version, '0.6.0') >= 0);
  const read = withReader.map((r) => namesOutsideCli(dir, r.rev));
  const fieldAt = withReader.map((r) => sectionsAt(dir, r.rev));
  const all = releases.map((r) => r.version);
  const built = builderArgs(dir, newest.rev);
  // A top-level key read only on the command-line side from some release on (its other readers, the
  // legacy models, removed in 0.18.0): the first release of that run, or true for every release.
  const topUnread = (key, prop, section) => {
    if ((section ?? 'top') !== 'top' || prop['x-removed'] || prop['x-unread-from'] || prop['x-cli'] === false || prop['x-entrypoints']) return false;
    const dest = prop['x-dest'] ?? key;
    // A release where the key is a config field reads it from its section (the config is built from it).
    const had = withReader.map((r, i) => ({ r, read: read[i].has(dest) || fieldAt[i](key) !== undefined })).filter(({ r }) => !prop['x-since'] || compareVersions(r.version, prop['x-since']) >= 0);
    const lastRead = had.findLastIndex((h) => h.read);
    if (lastRead === had.length - 1) return false;
    return lastRead < 0 ? true : had[lastRead + 1].r.version;
  };
  const overwritten = overwrittenByReader(dir, withReader);
  for (const [key, prop] of Object.entries(props)) {
    const placed = placementChanges(key, prop, fieldRuns(key, prop, withReader, fieldAt), all);
    changes.push(...placed.changes);
    const section = placed.section;
    const inConfig = section === 'language_model' || section === 'model_parallel';
    const top = topUnread(key, prop, section);
    const mlaOnly = inConfig && mla.has(key) && !tc.has(key) && !built.has(prop['x-dest'] ?? key);
    const want = inConfig && overwritten.has(prop['x-dest'] ?? key) ? OVERWRITTEN_WHY : mlaOnly ? WHY : top ? TOP_WHY : undefined;
    const since = want === TOP_WHY && typeof top === 'string' ? top : undefined;
    if (prop['x-yaml-cfg-unread-since'] !== since) changes.push({ key, field: 'x-yaml-cfg-unread-since', from: prop['x-yaml-cfg-unread-since'], to: since, why: since ? `read beside the command-line side only before ${since}` : 'read on the command-line side only at every release', set: () => setKey(prop, 'x-yaml-cfg-unread-since', since, ['x-yaml-cfg']) });
    if (prop['x-yaml-cfg-unread'] === want) continue;
    changes.push({ key, field: 'x-yaml-cfg-unread', from: prop['x-yaml-cfg-unread'], to: want, why: want === OVERWRITTEN_WHY ? 'set by the --yaml-cfg reader itself' : want === TOP_WHY ? 'read only on the command-line side' : want ? 'a field of MLATransformerConfig only, which the --yaml-cfg reader does not copy' : 'read again', set: () => setKey(prop, 'x-yaml-cfg-unread', want, ['x-yaml-cfg']) });
  }
  return changes;
}
