/**
 * `--output-format github`: one workflow command per finding (`::error file=…,line=…::message`),
 * which GitHub Actions turns into an annotation on the pull request's diff. Findings of severity
 * information and hint become notices.
 *
 * The text is escaped twice: first control and text-reordering characters as in every other output
 * (a file cannot forge a second command with a newline), then what the workflow-command syntax
 * reserves: `%`, CR and LF everywhere, and `:` and `,` in the properties.
 */
import { escapeText } from './escape';
import type { Position } from './sarif';

const COMMAND: Record<string, string> = { error: 'error', warning: 'warning', information: 'notice', hint: 'notice' };

function data(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function property(s: string): string {
  return data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export interface AnnotatedFinding {
  code: string;
  severity: string;
  message: string;
  start: Position;
  end: Position;
}

/** The workflow command for one finding in `file` (a path relative to the working directory, as the CLI prints it). */
export function workflowCommand(file: string, f: AnnotatedFinding): string {
  const props = [`file=${property(escapeText(file))}`, `line=${f.start.line + 1}`, `endLine=${f.end.line + 1}`];
  // GitHub reads the columns only for an annotation on one line; both are 1-based and inclusive
  // (the range's end is 0-based and exclusive: the same number).
  if (f.start.line === f.end.line) props.push(`col=${f.start.character + 1}`, `endColumn=${Math.max(f.end.character, f.start.character + 1)}`);
  props.push(`title=${property(`shardwise (${f.code})`)}`);
  return `::${COMMAND[f.severity] ?? 'warning'} ${props.join(',')}::${data(escapeText(f.message))}`;
}
