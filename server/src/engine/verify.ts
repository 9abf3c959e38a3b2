/**
 * Whether an edit leaves a file parsing at least as well as it did: every fix and every "disable"
 * action of a file that is already broken is tried on its text before it is offered, since a rule
 * writes its edits for the tree it sees and a broken file's tree is a guess. A file that parses is
 * tried too, while a budget of re-parsed text lasts (a fix may meet a construct it was not written
 * for); past the budget a clean file's edits are offered as made, a broken file's not at all. YAML
 * and JSON only (see keepsSyntax).
 */
import * as J from 'jsonc-parser';
import * as Y from 'yaml';
import type { Syntax } from './syntax/sourcedoc';
import { MAX_PARSER_DEPTH, tooDeep } from './syntax/yaml';
import { applyEdits } from './text';
import type { TextEdit } from './types';

/**
 * Characters one analysis may re-parse to try its edits: four times its text (a few tries of a
 * large file), at least MIN_TRIES (fifty tries of a 5 KB config), at most TRY_BUDGET.
 */
export const TRY_BUDGET = 2 * 1024 * 1024;
const MIN_TRIES = 256 * 1024;

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
  return { syntax, text, broken, left: Math.min(TRY_BUDGET, Math.max(MIN_TRIES, 4 * text.length)) };
}

/**
 * The syntax errors of `text`, all of them (the parsers' own counts: the engine shows only the first
 * few of a document), with the options and the line breaks the engine reads it with.
 */
export function parseErrors(syntax: Syntax, text: string): number {
  if (syntax === 'json') {
    const errors: J.ParseError[] = [];
    J.parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: true });
    return errors.length;
  }
  if (tooDeep(text, MAX_PARSER_DEPTH) >= 0) return Infinity;
  const source = text.includes('\r') ? text.replace(/\r(?!\n)/g, '\n') : text;
  const docs = Y.parseAllDocuments(source, { version: '1.1', schema: 'failsafe', uniqueKeys: false, strict: false, prettyErrors: false });
  let n = 0;
  for (const d of Array.isArray(docs) ? docs : []) n += d.errors.length;
  return n;
}

/** Whether the text with `edits` applied parses at least as well as the text itself. */
export function keepsSyntax(trial: SyntaxTrial, edits: readonly TextEdit[]): boolean {
  // A launch script is read by evaluating it: too costly to repeat per edit, and its edits are
  // made by the evaluator's own document, flag by flag.
  if (trial.syntax === 'shell') return true;
  const cost = trial.text.length * (trial.before === undefined ? 2 : 1);
  // Out of budget: a file that parses keeps what its rules made; a broken one gets nothing.
  if (trial.left < cost) return !trial.broken;
  trial.left -= cost;
  try {
    trial.before ??= parseErrors(trial.syntax, trial.text);
    const after = parseErrors(trial.syntax, applyEdits(trial.text, edits));
    return after <= trial.before && after !== Infinity;
  } catch {
    return false;
  }
}
