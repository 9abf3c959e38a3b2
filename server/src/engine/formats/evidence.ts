/**
 * Which format a document is read as, by weight of evidence: one model every format's `detect`
 * fills. A document is a config of a format when the keys weighed (a map's top-level keys, a
 * script's flags) are mostly that format's and nothing contradicts it: a distinctive key (or sign)
 * of the format, or several telling keys, AND few enough keys the format does not know. Markers of
 * other systems (Hydra, OmegaConf, the Transformers Trainer) contradict; a file that is not clearly
 * ours gets nothing. Each decision carries its reasons, for `check --verbose` and the hover.
 */
import type { SourceDoc } from '../syntax/sourcedoc';
import type { Node } from '../syntax/tree';
import { isTypo } from '../suggest';

/** How many keys a format may not know and still claim the document. */
export type Balance =
  /** More known keys than unknown ones. */
  | 'most'
  /** At most one key in three unknown. */
  | 'two-thirds'
  /** Every key known. */
  | 'all'
  /**
   * Not weighed: the program reading the file takes keys of its own (why); without a sign or a
   * distinctive key, at least `share` of the keys must still be the format's (a file of hundreds
   * of keys that shares a few common names with it is another program's).
   */
  | { open: string; share?: number };

/** How one format weighs the keys of a document. */
export interface EvidenceRules {
  /** The format as reasons name it: "an Accelerate config". */
  what: string;
  /** Whose keys they are: "Accelerate" (→ "Accelerate keys", "not Accelerate's"). */
  owner: string;
  /** What is weighed: "top-level keys", "flags of the training command". */
  where: string;
  /** What one of them is called: "key" (the default), "flag", "section". */
  noun?: string;
  /** A key only this format has: one is enough evidence (the value tells its shape). */
  distinctive(key: string, value: Node | undefined): boolean;
  /** A key that speaks for the format: `several` of them are enough evidence. */
  telling(key: string, value: Node | undefined): boolean;
  /** A key the format reads at this level (for the balance). */
  known(key: string): boolean;
  /** How many telling keys make the case without a distinctive one. */
  several: number;
  balance: Balance;
  /**
   * Every key the format knows, at any level: an unknown key that is one of them (misplaced), a
   * slip of one (misspelled) or, with no value yet, the start of one (unfinished: being typed)
   * counts for the format in the balance, not against it.
   */
  spellings?(): readonly string[];
}

/** What is weighed: the keys, with their values when they have some. */
export interface Weighed {
  keys: readonly { key: string; value?: Node }[];
  /** Evidence that is not a key: "`pretrain_gpt.py` is Megatron-LM's own entry point". */
  signs?: readonly string[];
  /** What rules the format out whatever its keys: "`defaults` is a Hydra defaults list". */
  contradictions?: readonly string[];
  /** What rules it out unless a distinctive key or sign speaks for it: "`bf16: true` is a switch where DeepSpeed reads a section". */
  doubts?: readonly string[];
}

/** One format's verdict on one document, with its reasons. */
export interface Evidence {
  /** The format as reasons name it: "an Accelerate config". */
  what: string;
  claimed: boolean;
  /** Ranks the formats that claim a document: the highest wins. */
  score: number;
  /** Whether something speaks for the format (a telling key, a sign): a near miss worth explaining. */
  candidate: boolean;
  distinctive: string[];
  telling: string[];
  known: string[];
  unknown: string[];
  /** Unknown keys that are the format's written wrong: misplaced, misspelled (`num_procesess`) or unfinished. */
  misspelled: string[];
  signs: string[];
  contradictions: string[];
  /** Why, in one sentence: "read as an Accelerate config: `distributed_type`, … are Accelerate keys, 6 of 7 top-level keys known". */
  reason: string;
}

const MAX_NAMED = 3;

/** `a`, `b`, `c`… (at most three named). */
export function named(keys: readonly string[]): string {
  const shown = keys.slice(0, MAX_NAMED).map((k) => `\`${k}\``);
  return keys.length > MAX_NAMED ? `${shown.join(', ')}…` : shown.join(', ');
}

/** Past this many unknown keys no misspelling can tip the balance worth looking for one. */
const MAX_SLIPS_LOOKED_AT = 64;

/** A key with no value yet: one being typed. */
function bare(value: Node | undefined): boolean {
  return value === undefined || (value.kind === 'scalar' && value.value === null);
}

/**
 * The unknown keys that are the format's written wrong: a key it knows elsewhere (misplaced), a
 * slip of the keyboard for one (misspelled), or the start of one still being typed (unfinished).
 */
function slips(unknown: readonly { key: string; value?: Node }[], rules: EvidenceRules): string[] {
  const known = rules.spellings?.();
  if (!known || unknown.length > MAX_SLIPS_LOOKED_AT) return [];
  return unknown.filter(({ key, value }) => known.includes(key) || known.some((c) => isTypo(key, c) || (bare(value) && c.startsWith(key)))).map((u) => u.key);
}

function balanced(balance: Balance, known: number, unknown: number): boolean {
  if (typeof balance === 'object') return true;
  if (balance === 'all') return unknown === 0;
  if (balance === 'two-thirds') return unknown * 2 <= known;
  return known > unknown;
}

/** Weighs a document's keys for one format: the decision and its reasons. */
export function weigh(w: Weighed, rules: EvidenceRules): Evidence {
  const distinctive: string[] = [];
  const telling: string[] = [];
  const known: string[] = [];
  const unknown: string[] = [];
  const unknownEntries: { key: string; value?: Node }[] = [];
  for (const { key, value } of w.keys) {
    const own = rules.distinctive(key, value);
    if (own) distinctive.push(key);
    if (own || rules.telling(key, value)) telling.push(key);
    if (own || rules.known(key)) known.push(key);
    else {
      unknown.push(key);
      unknownEntries.push({ key, value });
    }
  }
  const signs = [...(w.signs ?? [])];
  const strong = distinctive.length > 0 || signs.length > 0;
  const contradictions = [...(w.contradictions ?? []), ...(strong ? [] : w.doubts ?? [])];
  const enough = strong || telling.length >= rules.several;
  // A misplaced, misspelled or unfinished key is the format's, written wrong: it does not count
  // against it (looked for only where it could tip the decision).
  const misspelled = !enough || contradictions.length || balanced(rules.balance, known.length, unknown.length) ? [] : slips(unknownEntries, rules);
  const share = typeof rules.balance === 'object' && !strong ? rules.balance.share : undefined;
  const few = share !== undefined && known.length + misspelled.length < share * w.keys.length;
  const balance = !few && balanced(rules.balance, known.length + misspelled.length, unknown.length - misspelled.length);
  const claimed = enough && balance && contradictions.length === 0;
  const score = claimed ? 10 * (distinctive.length + signs.length) + telling.length + known.length : 0;
  const candidate = telling.length > 0 || signs.length > 0;
  const total = w.keys.length;
  const noun = rules.noun ?? 'key';
  const e: Evidence = { what: rules.what, claimed, score, candidate, distinctive, telling, known, unknown, misspelled, signs, contradictions, reason: '' };
  if (claimed) {
    const evidence = [...signs];
    const first = new Set(distinctive);
    const keys = [...distinctive, ...telling.filter((k) => !first.has(k))];
    const one = `${/^[AEIOU]/.test(rules.owner) ? 'an' : 'a'} ${rules.owner} ${noun}`;
    if (keys.length) evidence.push(`${named(keys)} ${keys.length === 1 ? `is ${one}` : `are ${rules.owner} ${noun}s`}`);
    const notes = [...(misspelled.length ? [`${named(misspelled)} ${misspelled.length === 1 ? `is an unfinished, misspelled or misplaced ${rules.owner} ${noun}` : `are unfinished, misspelled or misplaced ${rules.owner} ${noun}s`}`] : []), ...(typeof rules.balance === 'object' ? [rules.balance.open] : [])];
    e.reason = `read as ${rules.what}: ${evidence.join('; ')}, ${known.length} of ${total} ${rules.where} known${notes.length ? ` (${notes.join('; ')})` : ''}`;
    return e;
  }
  const why: string[] = [...contradictions];
  if (few) why.push(`only ${known.length} of ${w.keys.length} ${rules.where} ${known.length === 1 ? 'is' : 'are'} ${rules.owner}'s`);
  else if (!balance) {
    const slipped = new Set(misspelled);
    const foreign = unknown.filter((k) => !slipped.has(k));
    why.push(`${foreign.length} of ${total} ${rules.where} (${named(foreign)}) ${foreign.length === 1 ? 'is' : 'are'} not ${rules.owner}'s`);
  }
  if (!enough) {
    if (telling.length === 0) why.push(known.length ? `${named(known)} ${known.length === 1 ? 'is' : 'are'} not enough` : `no ${rules.owner} ${noun}`);
    else why.push(`${named(telling)} ${telling.length === 1 ? 'alone is' : 'are'} not enough`);
  }
  e.reason = `not read as ${rules.what}: ${why.join('; ')}`;
  return e;
}

/** The keys of a map node with their values, each once (merged keys included: the tool sees them). */
/**
 * A command's flags after a program that cannot be read: when only a few of many are the format's
 * (fewer than a third of six or more), they are another program's that happens to share some names
 * (`--seed`, `--bf16`, `--lr`); a program that adds flags of its own still passes the format's in the main.
 */
export function fewOfMany(keys: readonly { key: string }[], known: (key: string) => boolean, owner: string, entry: string | undefined): string | undefined {
  const flags = keys.filter((k) => k.key.startsWith('-'));
  const n = flags.filter((k) => known(k.key)).length;
  if (flags.length < 6 || n * 3 >= flags.length) return undefined;
  return `only ${n} of the ${flags.length} flags are ${owner}'s, after \`${entry ?? 'an entry script'}\`, which is not read here`;
}

export function mapKeys(node: Node | undefined): { key: string; value: Node }[] {
  if (node?.kind !== 'map') return [];
  const out = new Map<string, Node>();
  for (const e of node.entries) if (!out.has(e.key) || !e.merged) out.set(e.key, e.value);
  return [...out].map(([key, value]) => ({ key, value }));
}

// ---------------------------------------------------------------------------------------------
// Markers of other systems.

/** The most nodes looked at for markers: far above any config, bounded for any input. */
const MAX_NODES = 20_000;

/**
 * OmegaConf interpolations: `${path.to.key}`, `${..relative}`, `${oc.env:X}` and other resolvers.
 * Shell-style `${UPPER_CASE}` placeholders are templates filled before the tool reads the file.
 */
const INTERPOLATION = /\$\{(?:\.+[A-Za-z_]|[a-z_][\w-]*(?:\.[\w-]+)*[:}])/;

interface Markers {
  hydra: string[];
  interpolation: string[];
}

const cache = new WeakMap<SourceDoc, Markers>();

/** Hydra and OmegaConf markers in a document: a `defaults` list, `_target_` anywhere, interpolations in values. */
export function foreignMarkers(doc: SourceDoc): Markers {
  const hit = cache.get(doc);
  if (hit) return hit;
  const m: Markers = { hydra: [], interpolation: [] };
  const root = doc.root;
  if (root?.kind === 'map' && root.entries.some((e) => e.key === 'defaults' && e.value.kind === 'seq')) m.hydra.push('`defaults` is a Hydra defaults list');
  let seen = 0;
  let target: string | undefined;
  let interpolation: { text: string; path: string } | undefined;
  const stack: { node: Node; path: string }[] = root ? [{ node: root, path: '' }] : [];
  while (stack.length && seen < MAX_NODES && !(target !== undefined && interpolation)) {
    const { node, path } = stack.pop()!;
    seen++;
    if (node.kind === 'map') {
      for (const e of node.entries) {
        if (e.key === '_target_' && target === undefined) target = path;
        stack.push({ node: e.value, path: path ? `${path}.${e.key}` : e.key });
      }
    } else if (node.kind === 'seq') {
      node.items.forEach((item, i) => stack.push({ node: item, path: `${path}[${i}]` }));
    } else if (!interpolation && typeof node.value === 'string' && node.value.includes('${')) {
      const found = INTERPOLATION.exec(node.value);
      if (found) interpolation = { text: clip(node.value, found.index), path };
    }
  }
  if (target !== undefined) m.hydra.push(`\`_target_\`${target ? ` (in \`${target}\`)` : ''} names a class for Hydra to build`);
  if (interpolation) m.interpolation.push(`\`${interpolation.text}\`${interpolation.path ? ` (at \`${interpolation.path}\`)` : ''} is an OmegaConf interpolation`);
  cache.set(doc, m);
  return m;
}

/** The interpolation starting at `i`, as written (at most 40 characters). */
function clip(s: string, i: number): string {
  const end = s.indexOf('}', i);
  const text = s.slice(i, end < 0 ? undefined : end + 1);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/**
 * Arguments of the Transformers Trainer (TrainingArguments) and the recipes built on it (TRL,
 * alignment-handbook, LLaMA-Factory): a file or command with them is a training recipe.
 */
const TRAINER_ARGUMENTS = new Set(['per_device_train_batch_size', 'per_device_eval_batch_size', 'output_dir', 'learning_rate', 'num_train_epochs', 'model_name_or_path', 'logging_steps', 'save_steps', 'save_strategy', 'eval_strategy', 'evaluation_strategy', 'lr_scheduler_type', 'warmup_ratio', 'report_to', 'do_train', 'do_eval', 'overwrite_output_dir']);

/** The Trainer arguments among keys (`--per_device_train_batch_size` counts as a flag's name). */
export function trainerArguments(keys: readonly string[]): string[] {
  return keys.filter((k) => TRAINER_ARGUMENTS.has(k.replace(/^--/, '').replace(/=.*$/, '').replace(/-/g, '_')));
}

/** The reason Trainer arguments give, when there are some. */
export function trainerArgumentsContradict(keys: readonly string[]): string[] {
  const found = trainerArguments(keys);
  return found.length ? [`${named(found)} ${found.length === 1 ? 'is a Transformers Trainer argument' : 'are Transformers Trainer arguments'}`] : [];
}
