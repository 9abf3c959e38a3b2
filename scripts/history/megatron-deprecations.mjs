// Megatron-LM run-time deprecations: an argument Megatron still accepts but warns about when it
// starts (`warnings.warn("--x is deprecated. Use --y")`, `warn_rank_0(...)`, `print(...)` in
// validate_args or a config dataclass's __post_init__). An existence scan cannot see them: the flag
// is still there. For every release tag, the warnings of megatron/training/arguments.py and of the
// config dataclasses (TransformerConfig, ModelParallelConfig, the training config dataclasses, the
// DDP and optimizer configs) are read; a warning whose text says "<name> is deprecated" (or "<a>, <b>
// are deprecated", or names them through a tuple the warning formats in) dates that argument's
// deprecation by the first release that warns.
//
// --write adds `x-deprecated` where the schema has none: `migrated` when the code right after the
// warning writes another argument (the old value carried over), `no-effect` when the warning says it
// has none or the code writes nothing, with the replacement the warning names when it is one argument.
// An existing `x-deprecated` is never changed; a different release is printed.
import { compareVersions, show } from './git.mjs';
import { setKey } from './write.mjs';

const FILES = [
  'megatron/training/arguments.py',
  'megatron/core/transformer/transformer_config.py',
  'megatron/core/model_parallel_config.py',
  'megatron/core/distributed/distributed_data_parallel_config.py',
  'megatron/core/optimizer/optimizer_config.py',
  // The microbatch calculator, which Megatron Bridge hands the training config's batch settings.
  'megatron/core/num_microbatches_calculator.py',
];
const CONFIG_DIR = 'megatron/training/config/';
const WARN = /(?:warnings\.warn|warn_rank_0|print_rank_0|print|logger\.warning|logging\.warning|log_single_rank)\s*\(/g;

/**
 * The string literals of the call whose arguments start at `at`, up to its closing parenthesis or
 * `span` characters, each passed through `clean`, joined.
 */
export function callLiterals(src, at, span, clean) {
  const body = src.slice(at, at + span);
  let depth = 0;
  let end = body.length;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '(') depth++;
    else if (body[i] === ')' && --depth < 0) {
      end = i;
      break;
    }
  }
  return [...body.slice(0, end).matchAll(/f?(["'])((?:\\.|(?!\1).)*)\1/g)].map((m) => clean(m[2])).join('');
}

/** The text of the string literals of a call's first ~400 characters, with `{...}` kept as `{}`. */
const warningText = (src, at) => callLiterals(src, at, 400, (t) => t.replace(/\{[^}]*\}/g, '{}'));

/**
 * The wordings of a deprecation, now or announced: "is deprecated", "has been deprecated", "is going
 * to be deprecated", "will be deprecated", "is being deprecated" (a warning that announces it is
 * still one, and the value is carried over the same way).
 */
const SOON = '(?:is|has been|is going to be|is being|will (?:soon )?be)\\s+';
const SOON_PLURAL = '(?:are|have been|are going to be|are being|will (?:soon )?be)\\s+';

/** The arguments a warning calls deprecated, by dest. */
function deprecatedNames(text, before, dests, flagDest) {
  const out = new Set();
  const name = (n) => flagDest.get(n) ?? (dests.has(n) ? n : undefined);
  // `--x=value is deprecated` deprecates a value, not the argument: left out.
  for (const m of text.matchAll(new RegExp(`(--[\\w-]+|[a-z][a-z0-9_]{3,})(=\\S*)?[\`'"]?(?:\\s+(?:flag|argument|option|field))?\\s+${SOON}deprecated`, 'g'))) if (!m[2] && name(m[1])) out.add(name(m[1]));
  for (const m of text.matchAll(new RegExp(`((?:[a-z][a-z0-9_]{3,}(?:,\\s*|\\s+and\\s+|\\s*/\\s*))+[a-z][a-z0-9_]{3,})\\s+${SOON_PLURAL}deprecated`, 'g'))) for (const n of m[1].split(/,\s*|\s+and\s+|\s*\/\s*/)) if (name(n)) out.add(name(n));
  // `f"{', '.join(names)} is deprecated"` over a tuple of names just above the warning.
  if (new RegExp(`\\{\\}\\s+(?:${SOON}|${SOON_PLURAL})deprecated`).test(text)) for (const m of before.matchAll(/\(\s*((?:["'][a-z][a-z0-9_]+["']\s*,\s*)+["'][a-z][a-z0-9_]+["']\s*,?\s*)\)/g)) for (const n of m[1].match(/[a-z][a-z0-9_]+/g)) if (name(n)) out.add(name(n));
  return out;
}

/** Per dest, the first release that warns it is deprecated, with what the warning and the code after it say. */
function scan(dir, releases, dests, flagDest) {
  const first = new Map();
  for (const r of releases) {
    const configs = (git_ls(dir, r.rev, CONFIG_DIR) ?? []).filter((p) => p.endsWith('.py'));
    for (const path of [...FILES, ...configs]) {
      const src = show(dir, r.rev, path);
      if (!src) continue;
      for (const m of src.matchAll(WARN)) {
        const text = warningText(src, m.index + m[0].length);
        if (!/deprecated/i.test(text)) continue;
        const before = src.slice(Math.max(0, m.index - 600), m.index);
        const after = src.slice(m.index, m.index + 700);
        for (const d of deprecatedNames(text, before, dests, flagDest)) {
          if (first.has(d)) continue;
          // The replacement, when the advice after "use" names exactly one argument.
          const advice = /[Uu]se\s+(.*)$/.exec(text)?.[1] ?? '';
          const named = [...new Set([...advice.matchAll(/--[\w-]+|[a-z][a-z0-9_]{3,}/g)].map((x) => flagDest.get(x[0]) ?? (dests.has(x[0]) ? x[0] : undefined)).filter(Boolean))];
          const use = named.length === 1 ? named[0] : undefined;
          const writes = [...after.matchAll(/(?:self|args)\.([a-z][a-z0-9_]+)\s*(?:=(?!=)|\.append\()/g)].map((x) => x[1]).filter((x) => x !== d);
          first.set(d, { version: r.version, path, line: src.slice(0, m.index).split('\n').length, noEffect: /no effect|ignored/i.test(text), writes, replacement: use });
        }
      }
    }
  }
  return first;
}

/**
 * Per dest, the first release whose parser help says the flag itself is deprecated ("Deprecated: use
 * --y", "DEPRECATED. This flag is ignored.", "[DEPRECATED] … a no-op", "DEPRECATED (will be removed in …)"): a deprecation Megatron states
 * where users read it but does not warn about at start-up. A help that calls something else
 * deprecated ("dist_muon is deprecated", "the legacy format was deprecated on …") does not count.
 */
function helpScan(dir, releases, flagDest) {
  const first = new Map();
  for (const r of releases) {
    for (const path of ['megatron/training/arguments.py', 'megatron/arguments.py']) {
      const src = show(dir, r.rev, path);
      if (!src) continue;
      for (const m of src.matchAll(/add_argument\s*\(/g)) {
        const call = callLiterals(src, m.index + m[0].length, 2000, (t) => `\u0000${t}`);
        const parts = call.split('\u0000').filter(Boolean);
        const flags = parts.filter((t) => /^--[\w-]+$/.test(t));
        const body = src.slice(m.index, m.index + 2000);
        const h = body.indexOf('help=');
        if (h < 0 || !flags.length) continue;
        const help = callLiterals(body, h, 2000 - h, (t) => t);
        if (!/(?:^|[.!;:]\s*|\[|\()deprecated\s*(?:[.;:\])]|\((?:will be )?removed\b|$)/i.test(help)) continue;
        const d = flags.map((f) => flagDest.get(f)).find(Boolean);
        if (!d || first.has(d)) continue;
        const advice = /(?:use|see)\s+(--[\w-]+)/i.exec(help)?.[1];
        first.set(d, { version: r.version, path, line: src.slice(0, m.index).split('\n').length, replacement: advice ? flagDest.get(advice) : undefined });
      }
    }
  }
  return first;
}

/** The files under a folder at a revision. */
function git_ls(dir, rev, folder) {
  const out = show(dir, rev, folder);
  return out === null ? null : out.split('\n').slice(1).filter((x) => x && !x.endsWith('/')).map((x) => folder + x);
}

/** The `x-deprecated` changes for the arguments Megatron warns about at start-up, with the report. */
export function megatronDeprecationChanges(dir, releases, props) {
  const dests = new Set(Object.keys(props));
  const flagDest = new Map();
  for (const [k, p] of Object.entries(props)) for (const f of [p['x-flag'], ...(p['x-flags'] ?? [])]) if (f) flagDest.set(f, k);
  const found = scan(dir, releases, dests, flagDest);
  const changes = [];
  const report = [];
  for (const [d, f] of [...found].sort((a, b) => compareVersions(a[1].version, b[1].version) || a[0].localeCompare(b[0]))) {
    const prop = props[d];
    const have = prop['x-deprecated'];
    const effect = f.noEffect || !f.writes.length ? 'no-effect' : 'migrated';
    const into = f.replacement ? `\`${props[f.replacement]?.['x-flag'] ?? f.replacement}\`` : f.writes.length ? f.writes.map((w) => `\`${w}\``).join(', ') : undefined;
    // Several fields written in its place are not all given its value (moe_router_topk_limited_devices
    // sets the group top-k from it and the group count from the EP size): say only that they are set.
    const several = !f.replacement && f.writes.length > 1;
    const message = effect === 'migrated' ? (several ? `Megatron warns at startup that it is deprecated and sets ${into} in its place.` : `Megatron warns at startup that it is deprecated and carries its value over${into ? ` to ${into}` : ''}.`) : `Megatron warns at startup that it is deprecated; it has no effect${into ? ` (use ${into})` : ''}.`;
    if (have) {
      // A removal (or later phase) the schema dates after the first warning: the warning is an
      // earlier phase (`earlier`), from the release that first warns.
      const phases = have.earlier ?? [];
      if (have.since && compareVersions(have.since, f.version) > 0 && !phases.some((p) => compareVersions(p.since, f.version) <= 0)) {
        const want = { ...have, earlier: [{ since: f.version, effect, message }, ...phases] };
        report.push(`${d}: warned from ${f.version} (${f.path}:${f.line}) before the schema's ${have.effect} from ${have.since}: an earlier phase`);
        changes.push({ key: d, field: 'x-deprecated', from: have, to: want, why: `a start-up deprecation warning from ${f.version} (${f.path}), before the phase the schema dates from ${have.since}`, set: () => setKey(prop, 'x-deprecated', want, ['x-since', 'x-flag-since']) });
      } else if (have.since && compareVersions(have.since, f.version) < 0) report.push(`${d}: schema since ${have.since}, first warning ${f.version} (${f.path}:${f.line})`);
      continue;
    }
    const want = { since: f.version, effect, ...(f.replacement ? { replacement: f.replacement } : {}), message };
    report.push(`${d}: deprecated from ${f.version} (${f.path}:${f.line}), ${effect}${f.replacement ? ` → ${f.replacement}` : ''}`);
    changes.push({ key: d, field: 'x-deprecated', from: undefined, to: want, why: `a start-up deprecation warning from ${f.version} (${f.path})`, set: () => setKey(prop, 'x-deprecated', want, ['x-since', 'x-flag-since']) });
  }
  // Deprecations only the help states: an earlier phase of a later warning or removal, or the
  // deprecation itself where the schema has none.
  const helped = helpScan(dir, releases, flagDest);
  for (const [d, f] of [...helped].sort((a, b) => compareVersions(a[1].version, b[1].version) || a[0].localeCompare(b[0]))) {
    const prop = props[d];
    const have = changes.find((c) => c.key === d && c.field === 'x-deprecated')?.to ?? prop['x-deprecated'];
    // A help is no evidence of what the code does: "this flag is ignored" while Transformer Engine
    // before 1.8 still takes --fp8-interval, and the CUDA_DEVICE_MAX_CONNECTIONS check still reads
    // --no-async-tensor-model-parallel-allreduce. The flag is accepted; the help only announces.
    const effect = 'warned';
    const use = f.replacement && f.replacement !== d ? `\`${props[f.replacement]?.['x-flag'] ?? f.replacement}\`` : undefined;
    const message = `Megatron-LM's help calls it deprecated${use ? ` (use ${use})` : ''}; the flag is still accepted.`;
    const phases = have?.earlier ?? [];
    if (have && (!have.since || compareVersions(have.since, f.version) <= 0 || phases.some((p) => compareVersions(p.since, f.version) <= 0))) continue;
    const want = have ? { ...have, earlier: [{ since: f.version, effect, message }, ...phases] } : { since: f.version, effect, ...(f.replacement && f.replacement !== d ? { replacement: f.replacement } : {}), message };
    report.push(`${d}: its help says deprecated from ${f.version} (${f.path}:${f.line})${have ? `, before the schema's ${have.effect} from ${have.since}: an earlier phase` : `, ${effect}`}`);
    const i = changes.findIndex((c) => c.key === d && c.field === 'x-deprecated');
    const change = { key: d, field: 'x-deprecated', from: prop['x-deprecated'], to: want, why: `the parser's help calls it deprecated from ${f.version} (${f.path})`, set: () => setKey(prop, 'x-deprecated', want, ['x-since', 'x-flag-since']) };
    if (i >= 0) changes[i] = change;
    else changes.push(change);
  }
  console.log(`\nArguments Megatron warns are deprecated at start-up (${found.size}), or whose help says so (${helped.size}):`);
  for (const r of report) console.log(`  ${r}`);
  return changes;
}
