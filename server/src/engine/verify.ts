/**
 * Whether an edit leaves a file parsing at least as well as it did: every fix and every "disable"
 * action of a file that is already broken is tried on its text before it is offered, since a rule
 * writes its edits for the tree it sees and a broken file's tree is a guess. A file that parses is
 * tried too, while a budget of re-parsed text lasts (a fix may meet a construct it was not written
 * for); past the budget a clean file's edits are offered as made, a broken file's not at all.
 */
import { parseJson } from './syntax/json';
import { parseShell } from './syntax/shell';
import type { Syntax } from './syntax/sourcedoc';
import { parseYaml } from './syntax/yaml';
import { applyEdits, LineIndex } from './text';
import type { TextEdit } from './types';

/** Characters one analysis may re-parse to try its edits (about a hundred tries of a 40 KB config). */
export const TRY_BUDGET = 4 * 1024 * 1024;

export interface SyntaxTrial {
  syntax: Syntax;
  text: string;
  /** Whether the analysis found parse errors in the file. */
  broken: boolean;
  /** The file's own parse errors, counted when first needed. */
  before?: number;
  /** Characters left to re-parse. */
  left: number;
}

export function syntaxTrial(syntax: Syntax, text: string, broken: boolean): SyntaxTrial {
  return { syntax, text, broken, left: TRY_BUDGET };
}

/** The parse errors the engine's parser for `syntax` finds in `text`. */
export function parseErrors(syntax: Syntax, text: string): number {
  const lines = new LineIndex(text);
  const docs = syntax === 'json' ? [parseJson(text, lines)] : syntax === 'shell' ? [parseShell(text, lines)] : parseYaml(text, lines);
  let n = 0;
  for (const d of docs) for (const p of d.problems) if (p.code === 'parse-error') n++;
  return n;
}

/** Whether the text with `edits` applied parses at least as well as the text itself. */
export function keepsSyntax(trial: SyntaxTrial, edits: readonly TextEdit[]): boolean {
  const cost = trial.text.length * (trial.before === undefined ? 2 : 1);
  // Out of budget: a file that parses keeps what its rules made; a broken one gets nothing.
  if (trial.left < cost) return !trial.broken;
  trial.left -= cost;
  try {
    trial.before ??= parseErrors(trial.syntax, trial.text);
    return parseErrors(trial.syntax, applyEdits(trial.text, edits)) <= trial.before;
  } catch {
    return false;
  }
}
