// Megatron-LM deprecated choice values: a value its parser still accepts but calls deprecated, in the
// help of the flag (`"mamba" is accepted for backward compatibility but deprecated`) or in a warning the
// same module raises (`warnings.warn('"mamba" model provider is deprecated. Use "hybrid" instead.',
// DeprecationWarning)`). For every release and every property with an enum, the add_argument call of
// its flag in the modules its parser is read from (megatron.mjs records them per release) is read for
// its help, and the module's warnings for a quoted value of that enum next to "deprecated"; a value
// another enum read from the same module also has is not taken from a warning (which one it means is
// not known).
//
// --write sets `x-deprecated-values` of the value: `since` the first release that calls it deprecated,
// `effect` `warned` once a release warns at run time (the value still works), the replacement the
// text names when it is another value of the enum. An existing entry is never changed; a different
// release is printed.
import { show } from './git.mjs';
import { setKey } from './write.mjs';
import { callLiterals } from './megatron-deprecations.mjs';

const WARN = /(?:warnings\.warn|warn_rank_0|logger\.warning|logging\.warning|log_single_rank)\s*\(/g;

/** The text of the string literals of the call that starts at `at`, up to its closing parenthesis. */
const callText = (src, at) => callLiterals(src, at, 2000, (t) => t.replace(/\\(["'])/g, '$1'));

const quoted = (v) => new RegExp(`["'\`]${v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["'\`]`);

/** The values of `values` the text calls deprecated (quoted, in the same sentence as "deprecated"), with the value it says to use instead. */
function deprecatedIn(text, values) {
  const out = new Map();
  // Sentences, also where concatenated literals leave no space after the period (`case.DEPRECATED`).
  for (const sentence of text.split(/(?<=\.)\s*(?=[A-Z"'`-])|(?<=\.)\s+/)) {
    // The value is what is deprecated: named before the word, in the same sentence.
    for (const v of values) if (new RegExp(`${quoted(v).source}[^.]*\\bdeprecated`, 'i').test(sentence)) out.set(v, undefined);
  }
  for (const v of out.keys()) {
    const use = /[Uu]se\s+["'`]([\w.-]+)["'`]\s+instead/.exec(text)?.[1] ?? /["'`]([\w.-]+)["'`][^.]*\(formerly/.exec(text)?.[1];
    if (use && use !== v && values.includes(use)) out.set(v, use);
  }
  return out;
}

/** The `x-deprecated-values` changes, with a report of what each release says. */
export function megatronDeprecatedValueChanges(dir, releases, props, sourceOf) {
  const found = new Map();
  for (const r of releases) {
    // The enums read from each module at this release, for the warnings.
    for (const [source, paths] of Object.entries(r.paths ?? {})) {
      const enums = Object.entries(props).filter(([, p]) => Array.isArray(p.enum) && p['x-flag'] && sourceOf(p) === source && r.flags[source]?.has(p['x-flag']));
      if (!enums.length) continue;
      for (const path of paths) {
        const src = show(dir, r.rev, path);
        if (!src) continue;
        const warnings = [...src.matchAll(WARN)].map((m) => callText(src, m.index + m[0].length)).filter((t) => /deprecated/i.test(t));
        for (const [key, p] of enums) {
          const values = p.enum.map(String);
          const at = src.search(new RegExp(`add_argument\\(\\s*["']${p['x-flag']}["']`));
          const said = [];
          if (at >= 0) for (const [v, use] of deprecatedIn(callText(src, at + 'add_argument('.length), values)) said.push({ v, use, how: 'help' });
          for (const t of warnings) {
            for (const [v, use] of deprecatedIn(t, values)) {
              const shared = enums.some(([k, q]) => k !== key && q.enum.map(String).includes(v));
              if (!shared) said.push({ v, use, how: 'warning' });
            }
          }
          for (const { v, use, how } of said) {
            const e = found.get(`${key}\0${v}`) ?? { key, value: v, path, help: undefined, warning: undefined, use };
            if (!e[how]) e[how] = r.version;
            e.use ??= use;
            found.set(`${key}\0${v}`, e);
          }
        }
      }
    }
  }
  const changes = [];
  const report = [];
  for (const e of found.values()) {
    const prop = props[e.key];
    const since = [e.help, e.warning].filter(Boolean).sort((a, b) => releases.findIndex((r) => r.version === a) - releases.findIndex((r) => r.version === b))[0];
    report.push(`${e.key}: ${JSON.stringify(e.value)} deprecated from ${since} (help ${e.help ?? '-'}, run-time warning ${e.warning ?? '-'}; ${e.path})${e.use ? ` → ${JSON.stringify(e.use)}` : ''}`);
    const have = prop['x-deprecated-values']?.[e.value];
    if (have) {
      if (have.since !== since) report.push(`  schema since ${have.since}, kept`);
      continue;
    }
    const phases = e.help && e.warning && e.help !== e.warning ? `Megatron-LM's help calls it deprecated from ${e.help}, and from ${e.warning} it warns at run time (DeprecationWarning)` : e.warning ? 'Megatron-LM warns at run time that it is deprecated' : "Megatron-LM's help calls it deprecated; nothing warns at run time";
    const want = { since, effect: e.warning ? 'warned' : 'no-effect', ...(e.use ? { replacement: e.use } : {}), message: `${phases}; it still runs as before${e.use ? `, as \`${e.use}\` does` : ''}.` };
    if (!e.warning) want.effect = 'warned';
    const table = { ...(prop['x-deprecated-values'] ?? {}), [e.value]: want };
    changes.push({ key: e.key, field: 'x-deprecated-values', from: prop['x-deprecated-values'], to: table, why: `called deprecated from ${since} (${e.path})`, set: () => setKey(prop, 'x-deprecated-values', table, ['x-enum-since', 'x-since', 'x-group']) });
  }
  console.log(`\nDeprecated choice values (${found.size}):`);
  for (const r of report) console.log(`  ${r}`);
  return changes;
}
