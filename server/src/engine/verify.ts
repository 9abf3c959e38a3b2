/**
 * Whether an edit leaves a file parsing at least as well as it did, and its disable directives on
 * the lines they silence: every fix and "disable" action is tried on the text before it is offered,
 * since a rule writes its edits for the tree it sees and a broken file's tree is a guess. Tries are
 * bounded (MAX_TRIES, and re-parsed text per analysis); past them a clean file's edits are offered
 * as made, a broken file's not at all; a file not read whole gets none. YAML and JSON only (see
 * keepsSyntax).
 */
import * as J from 'jsonc-parser';
import * as Y from 'yaml';
import { parseDirectives } from './directives';
import { parseJson } from './syntax/json';
import type { Syntax, SyntaxProblem } from './syntax/sourcedoc';
import { MAX_PARSER_DEPTH, MAX_SYNTAX_ERRORS, parseYaml, tooDeep, yamlSource } from './syntax/yaml';
import { applyEdits, LineIndex } from './text';
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
  /** Whether it is too broken for any edit to be offered (see syntaxTrial). */
  hopeless: boolean;
  /** Tries left. */
  tries: number;
  /** How well the file itself parses, counted when first needed. */
  before?: ParseCounts;
  /** Characters left to re-parse. */
  left: number;
}

/** Tries per analysis, at most: a small file can still cost much to parse (aliases, merge keys). */
export const MAX_TRIES = 16;

/**
 * What the edits offered on `text` are tried against. `problems` are the syntax problems of its
 * documents: a document that could not be read whole, or more problems than the parser reports for
 * one document, make a file that no edit is offered for (its tree is too much of a guess, and each
 * try of it costs as much as the first parse).
 */
export function syntaxTrial(syntax: Syntax, text: string, problems: readonly SyntaxProblem[]): SyntaxTrial {
  const errors = problems.filter((p) => p.code === 'parse-error');
  return {
    syntax,
    text,
    broken: errors.length > 0,
    hopeless: errors.some((p) => p.fatal) || errors.length > MAX_SYNTAX_ERRORS,
    left: Math.min(TRY_BUDGET, Math.max(MIN_TRIES, 4 * text.length)),
    tries: MAX_TRIES,
  };
}

/** How well a text parses: the problems the engine reports, and the parser's own count of errors, read strictly. */
export interface ParseCounts {
  problems: number;
  errors: number;
}

/** The parse problems of `text` as the engine reads it, and all of the parser's errors. */
export function parseCounts(syntax: Syntax, text: string): ParseCounts {
  const lines = new LineIndex(text);
  let problems = 0;
  let errors = 0;
  if (syntax === 'json') {
    for (const p of parseJson(text, lines).problems) if (p.code === 'parse-error') problems++;
    const all: J.ParseError[] = [];
    J.parseTree(text, all, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: true });
    errors = all.length;
  } else {
    for (const d of parseYaml(text, lines)) for (const p of d.problems) if (p.code === 'parse-error') problems++;
    // Strictly read (a key over 1,024 characters, which PyYAML refuses too; a comment touching a
    // value): an edit must not add even what the engine forgives.
    const docs = Y.parseAllDocuments(yamlSource(text), { version: '1.1', uniqueKeys: false, logLevel: 'error' });
    for (const d of Array.isArray(docs) ? docs : []) errors += d.errors.length;
  }
  return { problems, errors };
}

/**
 * The start of every line a `# shardwise-disable-next-line` or `-disable-line` directive applies to,
 * carried through `edits` when given: an edit must not move a directive onto another line (a line
 * inserted under it would take its place).
 */
function directiveTargets(text: string, edits?: readonly TextEdit[]): number[] {
  const lines = new LineIndex(text);
  const out: number[] = [];
  for (const line of parseDirectives(lines, { suppressions: false }).disableLines.keys()) {
    let o = lines.lineStart(Math.min(line, lines.lineCount - 1));
    // Text inserted at the very start of the line pushes the line down: it moves too.
    if (edits) for (const e of edits) if (e.span.end <= o) o += e.newText.length - (e.span.end - e.span.start);
    out.push(o);
  }
  return out;
}

/** Whether the text with `edits` applied parses at least as well as the text itself. */
export function keepsSyntax(trial: SyntaxTrial, edits: readonly TextEdit[]): boolean {
  // A launch script is read by evaluating it: too costly to repeat per edit, and its edits are
  // made by the evaluator's own document, flag by flag.
  if (trial.syntax === 'shell') return true;
  if (trial.hopeless) return false;
  const cost = trial.text.length * (trial.before === undefined ? 2 : 1);
  // Out of budget: a file that parses keeps what its rules made; a broken one gets nothing.
  if (trial.left < cost || trial.tries <= 0) return !trial.broken;
  trial.left -= cost;
  trial.tries--;
  try {
    const after = applyEdits(trial.text, edits);
    if (trial.text.includes('shardwise-disable')) {
      // Every line a directive silenced is still silenced (an edit may add a directive of its own).
      const now = new Set(directiveTargets(after));
      if (!directiveTargets(trial.text, edits).every((o) => now.has(o))) return false;
    }
    if (tooDeep(after, MAX_PARSER_DEPTH) >= 0) return false;
    trial.before ??= parseCounts(trial.syntax, trial.text);
    const counts = parseCounts(trial.syntax, after);
    return counts.problems <= trial.before.problems && counts.errors <= trial.before.errors;
  } catch {
    return false;
  }
}
