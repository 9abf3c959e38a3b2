/**
 * How a value the engine reasons with is known. Every finding is capped by the weakest value it was
 * drawn from (see rules/certain.ts, which tracks what a rule reads):
 *
 * - `written`: a literal in the file, or a setting the user gave (a directive, `.shardwise.yaml`,
 *   the editor settings, the command line);
 * - `defaulted`: the upstream default of a value the file leaves out, in a file whose values are all
 *   visible (no flag may come from somewhere the tool cannot read);
 * - `derived`: computed from values that are themselves known;
 * - `assumed`: a value the context may override: a `${VAR:-x}` fallback of a variable the script
 *   does not set, one arm of a branch nobody decided, the default hardware profile, the newest
 *   release when nobody named the one that runs;
 * - `unknown`: a value that cannot be known: an expansion whose text is not in the file, a file that
 *   was not read, a value a checkpoint or an entry script supplies.
 *
 * An error needs every input known (written, defaulted or derived); an assumed input makes at most a
 * warning that names the assumption; an unknown input silences the finding. Types and pure helpers
 * only.
 */

export type Certainty = 'written' | 'defaulted' | 'derived' | 'assumed' | 'unknown';

const RANK: Record<Certainty, number> = { written: 4, defaulted: 3, derived: 2, assumed: 1, unknown: 0 };

/** The weaker of two certainties (`unknown` < `assumed` < `derived` < `defaulted` < `written`). */
export function weaker(a: Certainty, b: Certainty): Certainty {
  return RANK[a] <= RANK[b] ? a : b;
}

/** Known enough for an error: written, defaulted or derived from such values. */
export function isKnown(c: Certainty): boolean {
  return RANK[c] >= RANK.derived;
}

/**
 * What a rule's finding may be, given the weakest of the values it read, and the assumptions behind
 * them (each said in the message of a finding it caps).
 */
export interface Basis {
  certainty: Certainty;
  /** What was assumed, in words ("`WORLD_SIZE` is not set, so the script's fallback 1 applies"). */
  assumptions: string[];
  /** Why an input is unknown, for the finding that is silenced (kept for `--verbose` and tests). */
  unknowns: string[];
}

export function knownBasis(): Basis {
  return { certainty: 'written', assumptions: [], unknowns: [] };
}

/** Adds one input to a basis (in place). */
export function addInput(b: Basis, c: Certainty, note?: string): void {
  b.certainty = weaker(b.certainty, c);
  if (!note) return;
  if (c === 'assumed' && !b.assumptions.includes(note) && b.assumptions.length < 8) b.assumptions.push(note);
  if (c === 'unknown' && !b.unknowns.includes(note) && b.unknowns.length < 8) b.unknowns.push(note);
}

export function copyBasis(b: Basis): Basis {
  return { certainty: b.certainty, assumptions: [...b.assumptions], unknowns: [...b.unknowns] };
}

/**
 * An object that says how the values read through it are known (a Megatron argument set whose flags
 * may come from words the tool cannot read, a document with unknown values): asked for every method
 * call and property read on it through a rule's tracking view (rules/certain.ts); undefined: the
 * value's own marks decide.
 */
export const CLASSIFY = Symbol('shardwise.classify');

/**
 * Objects that describe a tool (a schema), not values of the file: reading one is no input to a
 * finding, so a rule's tracking view hands them on as they are (rules/certain.ts).
 */
const FACTS = new WeakSet<object>();

/** Marks `o` as a description of a tool, not a value of the file (see FACTS). */
export function fact<T>(o: T): T {
  if (o && typeof o === 'object') FACTS.add(o);
  return o;
}

export function isFact(o: object): boolean {
  return FACTS.has(o);
}
export type Classifier = (key: string | symbol, args: readonly unknown[] | undefined, result: unknown) => { certainty: Certainty; note?: string } | undefined;
