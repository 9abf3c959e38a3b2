/**
 * The flags and values a message names, held against the release it is written for: a message that
 * tells a user to write `--cuda-graph-impl full_iteration` must not say so to a release whose parser
 * refuses it. The schema's release facts decide (`x-since`, `x-flag-since`, `x-flag-removed`,
 * `x-removed`, `x-enum-since`, `x-enum-removed`); `EARLIER_SPELLINGS` says how the releases before a
 * spelling wrote the same thing, and `atRelease` rewrites a message's advice with it.
 */
import { versionAtLeast } from '../../version';
import { enumAtRelease, enumRemoved, removal, since, spellingRemoved } from '../../schema/vocabulary';
import { flagTarget, MEGATRON_SCHEMA } from './schema';
import { OLDER_NAMES } from './model';

/** A `--flag` or `--flag value` a message names in backticks. */
export interface NamedFlag {
  /** The text between the backticks (which may name several flags). */
  text: string;
  flag: string;
  dest: string;
  /** The words after the flag, up to the next flag (the value, or a list's values). */
  words: string[];
}

/** Each `--flag`, with its words, of the backticked spans of a message, that names a Megatron-LM argument. */
export function namedFlags(message: string): NamedFlag[] {
  const out: NamedFlag[] = [];
  for (const match of message.matchAll(/`(--[a-z0-9][a-z0-9-]*(?:[ =][^`]*)?)`/g)) {
    const text = match[1];
    for (const part of text.split(/ (?=--[a-z0-9])/)) {
      const [flag, ...rest] = part.split(/[ =]/);
      const t = flagTarget(flag);
      if (t) out.push({ text, flag, dest: t.dest, words: rest.join(' ').split(/\s+/).filter(Boolean) });
    }
  }
  return out;
}

/**
 * Why the release (`atLeast`: whether it is at least a version) does not accept what `n` names, or
 * undefined where it does (or the schema cannot say: a value outside the enum's history, such as a
 * number or a placeholder).
 */
export function refusedAt(n: NamedFlag, atLeast: (version: string) => boolean): string | undefined {
  const prop = MEGATRON_SCHEMA.properties?.[n.dest];
  if (!prop) return undefined;
  const from = since(prop, n.flag);
  if (from && !atLeast(from)) return `\`${n.flag}\` arrived in ${from}`;
  const gone = spellingRemoved(prop, n.flag) ?? removal(prop)?.version;
  if (gone && atLeast(gone)) return `\`${n.flag}\` was removed in ${gone}`;
  // A list argument keeps its values in `items`, and their release facts beside them.
  const values = prop.enum ? prop : prop.items && !Array.isArray(prop.items) && prop.items.enum ? { ...prop, enum: prop.items.enum } : undefined;
  if (!values) return undefined;
  const allowed = enumAtRelease(values, atLeast);
  if (!allowed) return undefined;
  // Only a value some release accepts is judged: a number or a placeholder is not the enum's.
  const known = (w: string) => (values.enum ?? []).includes(w) || enumRemoved(values, w) !== undefined;
  const bad = n.words.find((w) => known(w) && !allowed.includes(w));
  return bad === undefined ? undefined : `\`${bad}\` is not a value of \`${n.flag}\` there`;
}

/**
 * How the releases before `until` wrote what a later spelling names: `now` (a backticked span of a
 * message, exactly; with `values`, also followed by values, which carry over) becomes `then`. Each
 * entry is upstream's: the value or flag `now` names arrived in `until`, and `then` does the same in
 * the releases before.
 */
export const EARLIER_SPELLINGS: readonly { now: string; then: string; until: string; values?: true }[] = [
  // A full-iteration graph is the local implementation's `full_iteration` scope before 0.18
  // (training/arguments.py@core_v0.16.0:1430-1441, the scope enum at core/transformer/enums.py@core_v0.16.0:73,
  // `cuda_graph_impl` a Literal of none/local/transformer_engine at transformer_config.py@core_v0.16.0:776 and
  // @core_v0.17.0:857); 0.18 makes it an implementation (transformer_config.py@core_v0.18.0:927).
  { now: '--cuda-graph-impl full_iteration', then: '--cuda-graph-impl local --cuda-graph-scope full_iteration', until: '0.18.0' },
  // The implementations were switches before 0.15 (`--enable-cuda-graph`, `--external-cuda-graph`,
  // training/arguments.py@core_v0.14.0:1288-1293); the implementation flag arrives in 0.15
  // (training/arguments.py@core_v0.15.0:1405), which turns each switch into it (:476-483).
  { now: '--cuda-graph-impl local', then: '--enable-cuda-graph', until: '0.15.0' },
  { now: '--cuda-graph-impl transformer_engine', then: '--external-cuda-graph', until: '0.15.0' },
  // The graphed modules were the scope before 0.18, with the same values (`--cuda-graph-scope`,
  // training/arguments.py@core_v0.16.0:1430; 0.18 renames it `--cuda-graph-modules` and copies the old flag into it).
  { now: '--cuda-graph-modules', then: '--cuda-graph-scope', until: '0.18.0', values: true },
  // Virtual pipeline stages are counted per rank from 0.11 (training/arguments.py@core_v0.11.0:1777); before,
  // they are given as layers per virtual stage (the only flag at training/arguments.py@core_v0.10.0:1685).
  { now: '--num-virtual-stages-per-pipeline-rank', then: '--num-layers-per-virtual-pipeline-stage', until: '0.11.0' },
  // Renamed flags (OLDER_NAMES): the older spelling up to the rename, with the same values.
  ...Object.values(OLDER_NAMES).map((o) => ({ now: o.newFlag, then: o.flag, until: o.until, values: true as const })),
];

/**
 * The message as the release `version` (undefined: the newest) would have its advice written: each
 * backticked span that names a flag or value the release lacks, and that an earlier spelling covers,
 * takes that spelling. `written(n)` says whether the file writes what the span names (a quote of the
 * file is kept as written). A wording choice, not a judgement: the release is read untracked.
 */
export function atRelease(message: string, version: string | undefined, written: (n: NamedFlag) => boolean): string {
  if (!version || !message.includes('`--')) return message;
  const atLeast = (v: string) => versionAtLeast(version, v);
  let out = message;
  for (const n of namedFlags(message)) {
    if (!refusedAt(n, atLeast) || written(n)) continue;
    const e = EARLIER_SPELLINGS.find((x) => !atLeast(x.until) && (n.text === x.now || (x.values && n.text.startsWith(`${x.now} `))));
    if (!e) continue;
    const then = `${e.then}${n.text.slice(e.now.length)}`;
    // Only a spelling the release has: an older release may lack it too.
    if (namedFlags(`\`${then}\``).some((x) => refusedAt(x, atLeast))) continue;
    out = out.split(`\`${n.text}\``).join(`\`${then}\``);
  }
  return out;
}

/**
 * `atRelease` for a Megatron-LM file of flags (a launch script, MODEL_ARGS): a span names what the
 * file writes when the text holds the flag and each of its words.
 */
export function flagsMessageAt(message: string, release: string, doc: { text: string }): string {
  return atRelease(message, release, (n) => doc.text.includes(n.flag) && n.words.every((w) => doc.text.includes(w)));
}
