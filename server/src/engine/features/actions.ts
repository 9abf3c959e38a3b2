/**
 * Code actions for findings: the rule's fixes, "disable <id> for this line / file", and
 * "show documentation for <id>".
 */
import type { FileAnalysis } from '../result';
import { continues, suppressionOn } from '../directives';
import { UNUSED_SUPPRESSION } from '../suppressions';
import { keepsSyntax } from '../verify';
import type { Finding, Fix, Span, TextEdit } from '../types';
import type { Node } from '../syntax/tree';

export interface ActionEntry {
  title: string;
  kind: 'quickfix';
  /** The finding the action resolves (for quick fixes and suppressions). */
  finding?: Finding;
  edits?: TextEdit[];
  /** Edits to other files (a value moved into a linked file). */
  otherFiles?: Fix['otherFiles'];
  /** A command to run instead of (or after) the edits. */
  command?: { command: string; title: string; arguments: unknown[] };
  preferred?: boolean;
}

export const SHOW_DOCS_COMMAND = 'shardwise.showRuleDocumentation';

function overlaps(a: Span, b: Span): boolean {
  return a.start <= b.end && b.start <= a.end;
}

export function codeActions(analysis: FileAnalysis, range: Span, only?: readonly Finding[]): ActionEntry[] {
  const findings = only ?? analysis.findings.filter((f) => overlaps(f.span, range));
  const out: ActionEntry[] = [];
  const comments = analysis.syntax !== 'json';
  for (const f of findings) {
    for (const fix of f.fixes()) out.push({ title: fix.title, kind: 'quickfix', finding: f, edits: fix.edits, otherFiles: fix.otherFiles, preferred: fix.preferred });
  }
  const seen = new Set<string>();
  for (const f of findings) {
    if (seen.has(f.code)) continue;
    seen.add(f.code);
    if (comments) {
      // A comment line where the text cannot take one (a broken file's guessed structure) is not offered.
      const line = disableLineEdit(analysis, f);
      if (line && commentFits(analysis, line)) out.push({ title: `Disable ${f.code} for this line`, kind: 'quickfix', finding: f, edits: [line] });
      const file = disableFileEdit(analysis, f.code);
      if (commentFits(analysis, file)) out.push({ title: `Disable ${f.code} for this file`, kind: 'quickfix', finding: f, edits: [file] });
    }
    out.push({ title: `Show documentation for ${f.code}`, kind: 'quickfix', finding: f, command: { command: SHOW_DOCS_COMMAND, title: `Show documentation for ${f.code}`, arguments: [f.code] } });
  }
  return out;
}

/** The places of a parsed YAML file a comment line cannot go: multi-line scalars (block scalars, quoted text over lines) and flow collections over lines, by analysis. */
const multiLine = new WeakMap<FileAnalysis, Span[]>();

function multiLineScalars(analysis: FileAnalysis): Span[] {
  let spans = multiLine.get(analysis);
  if (spans) return spans;
  spans = [];
  const text = analysis.text;
  const visit = (n: Node | undefined, depth: number): void => {
    if (!n || depth > 64 || spans!.length > 100_000) return;
    const multiLine = text.indexOf('\n', n.span.start) >= 0 && text.indexOf('\n', n.span.start) < n.span.end;
    if (n.kind === 'scalar' || n.flow) {
      // Inside `{…}` or `[…]` over several lines a comment line breaks the indentation the flow needs.
      if (multiLine) spans!.push(n.span);
    } else if (n.kind === 'seq') n.items.forEach((x) => visit(x, depth + 1));
    else n.entries.forEach((e) => visit(e.value, depth + 1));
  };
  for (const d of analysis.docs) visit(d.doc.root, 0);
  multiLine.set(analysis, spans);
  return spans;
}

/**
 * Whether a suppression comment can go in without changing what the file says: in a YAML file that
 * parses, a whole comment line put at a line start outside any multi-line scalar cannot (no re-parse
 * needed, which on a large file cost seconds per action); anything else is tried on the text.
 */
function commentFits(analysis: FileAnalysis, edit: TextEdit): boolean {
  const trial = analysis.trial;
  if (!trial) return true;
  const at = edit.span.start;
  const lineStart = at === 0 || analysis.text[at - 1] === '\n';
  const comment = edit.span.end === at && /^([ \t]*#[^\n]*\n)+$/.test(edit.newText);
  const plain = trial.syntax === 'yaml' && !trial.broken && lineStart && comment && !analysis.text.includes('shardwise-disable');
  if (plain && !multiLineScalars(analysis).some((s) => s.start < at && at < s.end)) return true;
  return keepsSyntax(trial, [edit]);
}

/**
 * `# shardwise-disable-next-line <id>` above the finding's line, at its indentation; above the first
 * line of a command continued with `\`, since a comment between its lines would end the command.
 */
export function disableLineEdit(analysis: FileAnalysis, f: Finding): TextEdit | undefined {
  const lines = analysis.lines;
  let line = lines.position(f.span.start).line;
  if (f.code === UNUSED_SUPPRESSION) {
    // A report on a suppression is silenced in the suppression's own list (a comment line above it
    // would apply to the next line of content instead). One of every rule gets no list: it would
    // then silence this rule only.
    const s = suppressionOn(lines.lineText(line), lines.lineStart(line), line);
    if (!s || s.ids.length === 0) return undefined;
    const last = s.ids[s.ids.length - 1].span.end;
    return { span: { start: last, end: last }, newText: `, ${f.code}` };
  }
  while (line > 0 && continues(lines.lineText(line - 1))) line--;
  const text = lines.lineText(line);
  const indent = /^\s*(-\s+)?/.exec(text)![0].replace(/-/g, ' ');
  const at = lines.lineStart(line);
  // Extend an existing directive on the line above instead of stacking another (before its reason).
  const above = line > 0 ? extendable(analysis, line - 1, 'next-line', f.code) : undefined;
  if (above) return above;
  return { span: { start: at, end: at }, newText: `${indent}# shardwise-disable-next-line ${f.code}${lines.eol}` };
}

/** `# shardwise-disable <id>` at the top of the file (after a shebang or leading comments' directive). */
export function disableFileEdit(analysis: FileAnalysis, id: string): TextEdit {
  const lines = analysis.lines;
  let line = 0;
  if (lines.lineText(0).startsWith('#!')) line = 1;
  const existing = extendable(analysis, line, 'file', id);
  if (existing) return existing;
  const at = lines.lineStart(line);
  return { span: { start: at, end: at }, newText: `# shardwise-disable ${id}${lines.eol}` };
}

/** `, <id>` after the last id of a suppression of that kind alone on the line, if there is one (one of every rule is left as it is). */
function extendable(analysis: FileAnalysis, line: number, kind: 'file' | 'next-line', id: string): TextEdit | undefined {
  const lines = analysis.lines;
  const text = lines.lineText(line);
  const s = suppressionOn(text, lines.lineStart(line), line);
  if (!s || s.kind !== kind || s.ids.length === 0 || !/^\s*$/.test(text.slice(0, s.span.start - lines.lineStart(line)))) return undefined;
  const last = s.ids[s.ids.length - 1].span.end;
  return { span: { start: last, end: last }, newText: `, ${id}` };
}
