/**
 * What `check` prints: the findings in the output format asked for (text, full, json, sarif,
 * github, gitlab, junit), the statistics, the fixes left out and the summary line. The records are
 * made while each file's analysis is at hand (outRecords) and keep nothing of it but what the
 * output needs: positions, words, fix edits for JSON, the lines of a code frame for `full`.
 */
import { isatty } from 'node:tty';
import { createColors } from 'picocolors';
import { fixForSet, type FileAnalysis, type Finding, type Severity, type TextEdit } from '../engine';
import type { LineIndex } from '../engine/text';
import { escapeText, jsonText } from './escape';
import { workflowCommand } from './github';
import { toGitlab } from './gitlab';
import { toJunit } from './junit';
import { toSarif, type Position, type RelatedRecord } from './sarif';

export const OUTPUT_FORMATS = ['text', 'full', 'json', 'sarif', 'github', 'gitlab', 'junit'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Severities, most severe first. */
const SEVERITY_ORDER: readonly Severity[] = ['error', 'warning', 'information', 'hint'];

/** How the report is printed: the options of `check` that shape the output. */
export interface ReportOptions {
  format: OutputFormat;
  statistics: boolean;
  showFixes: boolean;
  /** The least severe finding printed (`--min-severity`; `--show-info`: all). Unset: errors and warnings in text, full and GitHub annotations, everything in the machine formats. */
  minSeverity?: Severity;
  fix: boolean;
  diff: boolean;
  /** `--quiet`: the findings only; no summary line, no notices about fixes left out or files skipped. */
  quiet: boolean;
  /** `--color`: auto (a terminal that has not asked for none), always or never. */
  color: ColorMode;
}

export const COLOR_MODES = ['auto', 'always', 'never'] as const;
export type ColorMode = (typeof COLOR_MODES)[number];

/**
 * Whether to colour what is written to a file descriptor: `always` and `never` as said; `auto`
 * honours NO_COLOR (set and not empty: no colour) and FORCE_COLOR (set: colour, unless `0` or
 * `false`), and otherwise colours a terminal that is not `TERM=dumb`.
 */
export function colorWanted(mode: ColorMode, fd: number, env: NodeJS.ProcessEnv = process.env): boolean {
  if (mode !== 'auto') return mode === 'always';
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR.toLowerCase() !== 'false';
  return isatty(fd) && env.TERM !== 'dumb';
}

/** One line on stderr, escaped: whatever it quotes (a path, a message) cannot drive the terminal. */
export function note(line: string): void {
  process.stderr.write(`shardwise: ${escapeText(line)}\n`);
}

/** A fix as JSON gives it: every edit, with positions, in this file and in the others it writes. */
interface FixRecord {
  title: string;
  applicability: string;
  edits: { start: Position; end: Position; newText: string }[];
  otherFiles?: { file: string; edits: { start: Position; end: Position; newText: string }[] }[];
}

/** The lines of a finding's code frame (`full`), with the number of the first. */
interface Frame {
  first: number;
  lines: string[];
}

/** One finding as every output format needs it, without the analysis (text, trees) it came from. */
export interface OutRecord {
  code: string;
  severity: string;
  message: string;
  start: Position;
  end: Position;
  /** It has a fix `--fix` would apply (text output only: `[*]`). */
  safe: boolean;
  /** The other places the finding is about; `file` is absent for a place in the same file. */
  related?: RelatedRecord[];
  /** Every fix offered (JSON always; the text formats with --show-fixes). */
  fixes?: FixRecord[];
  frame?: Frame;
}

/** A checked file's findings, in the order the file was named or found. */
export interface Checked {
  index: number;
  file: string;
  findings: OutRecord[];
}

/** The lines a code frame shows at most for one finding. */
const FRAME_LINES = 3;

/** The records of one analysis; `relative` gives another file's path as the CLI reports it. */
export function outRecords(analysis: FileAnalysis, o: ReportOptions, relative: (path: string) => string): OutRecord[] {
  const marks = (o.format === 'text' || o.format === 'full' || o.statistics) && !o.diff;
  const withFixes = o.showFixes || (o.format === 'json' && !o.statistics);
  return analysis.findings.map((f) => {
    const range = analysis.lines.range(f.span);
    const related = relatedRecords(f, analysis, relative);
    const frame = o.format === 'full' && !o.statistics ? frameOf(analysis, range.start.line, range.end.line) : undefined;
    return { code: f.code, severity: f.severity, message: f.message, start: range.start, end: range.end, safe: marks && fixForSet(f) !== undefined, ...(related.length ? { related } : {}), ...(withFixes ? { fixes: fixRecords(f, analysis.lines, relative) } : {}), ...(frame ? { frame } : {}) };
  });
}

function frameOf(analysis: FileAnalysis, first: number, last: number): Frame {
  const { lines } = analysis;
  const shown: string[] = [];
  for (let l = first; l <= Math.min(last, first + FRAME_LINES - 1); l++) shown.push(lines.text.slice(lines.lineStart(l), lines.lineEnd(l)));
  return { first, lines: shown };
}

/** A finding's related places with positions; a place in another file whose lines are unknown is left out. */
function relatedRecords(f: Finding, analysis: FileAnalysis, relative: (path: string) => string): RelatedRecord[] {
  const out: RelatedRecord[] = [];
  for (const r of f.related ?? []) {
    const lines = r.path === undefined ? analysis.lines : r.lines;
    if (!lines) continue;
    const range = lines.range(r.span);
    out.push({ ...(r.path === undefined ? {} : { file: relative(r.path) }), message: r.message, start: range.start, end: range.end });
  }
  return out;
}

function fixRecords(f: Finding, lines: LineIndex, relative: (path: string) => string): FixRecord[] {
  const edits = (list: readonly TextEdit[], at: LineIndex) => list.map((e) => ({ ...at.range(e.span), newText: e.newText }));
  return f.fixes().map((x) => ({
    title: x.title,
    applicability: x.applicability,
    edits: edits(x.edits, lines),
    ...(x.otherFiles?.length ? { otherFiles: x.otherFiles.map((o) => ({ file: relative(o.path), edits: edits(o.edits, o.lines) })) } : {}),
  }));
}

/** What `--fix` or `--diff` did: fixes applied, fixes left out (with the reason), files that could not be written. */
export interface FixRun {
  refusals: { file: string; line: number; title: string; reason: string }[];
  applied: number;
  diffs: number;
  ioFailure: boolean;
}

/** Fixes `--fix` or `--diff` left out, each with its reason, on stderr. */
export function reportRefusals(refusals: FixRun['refusals'], o: Pick<ReportOptions, 'quiet'>): void {
  if (o.quiet) return;
  for (const r of refusals) note(`${r.file}:${r.line}: not fixed: ${r.title}: ${r.reason}`);
}

/** `--statistics`: findings per rule, the most frequent first. */
function statistics(all: readonly { f: OutRecord }[], format: OutputFormat, write: (s: string) => void): void {
  // One row per rule and severity: a rule whose findings are errors here and warnings there says so.
  const by = new Map<string, { code: string; severity: string; count: number; fixable: number }>();
  for (const { f } of all) {
    const key = `${f.code}\0${f.severity}`;
    const s = by.get(key) ?? { code: f.code, severity: f.severity, count: 0, fixable: 0 };
    s.count++;
    if (f.safe) s.fixable++;
    by.set(key, s);
  }
  const order = (sev: string): number => SEVERITY_ORDER.indexOf(sev as Severity);
  const rows = [...by.values()].sort((a, b) => b.count - a.count || (a.code < b.code ? -1 : a.code > b.code ? 1 : order(a.severity) - order(b.severity)));
  if (format === 'json') {
    write(jsonText(rows) + '\n');
    return;
  }
  const cw = Math.max(1, ...rows.map((r) => String(r.count).length));
  const iw = Math.max(0, ...rows.map((r) => r.code.length));
  for (const r of rows) write(`${String(r.count).padStart(cw)}  ${r.code.padEnd(iw)}  ${r.severity.padEnd(11)}${r.fixable ? `  [*] ${r.fixable} fixable with --fix` : ''}`.trimEnd() + '\n');
}

/** Where the report is written: stdout, or stderr when stdout carries the fixed text (`--fix -`). */
export interface ReportSink {
  write(s: string): void;
  fd: number;
}

/** The findings in the output format asked for, the fixes left out, and the summary line; the counts decide the exit code. */
export function printReport(checked: Checked[], o: ReportOptions, run: FixRun, sink: ReportSink, cwd: string, version: string): { errors: number; warnings: number } {
  const every = checked.flatMap((c) => c.findings.map((f) => ({ file: c.file, f })));
  const count = (s: string) => every.filter(({ f }) => f.severity === s).length;
  // Notes and hints stay in the editor; in a terminal or a CI log they are shown when asked for.
  const least = o.minSeverity ?? (o.format === 'text' || o.format === 'full' || o.format === 'github' ? 'warning' : 'hint');
  const shown = (sev: string): boolean => SEVERITY_ORDER.indexOf(sev as Severity) <= SEVERITY_ORDER.indexOf(least);
  const all = every.filter(({ f }) => shown(f.severity));
  if (all.length < every.length) checked = checked.map((c) => ({ ...c, findings: c.findings.filter((f) => shown(f.severity)) }));
  const report = (s: string): void => sink.write(s);
  if (o.statistics) {
    statistics(all, o.format, report);
    reportRefusals(run.refusals, o);
  } else if (o.format === 'json') {
    const out = all.map(({ file, f }) => ({ file, range: { start: f.start, end: f.end }, severity: f.severity, code: f.code, message: f.message, ...(f.related ? { related: f.related.map((r) => ({ ...(r.file === undefined ? {} : { file: r.file }), range: { start: r.start, end: r.end }, message: r.message })) } : {}), fixes: (f.fixes ?? []).map(jsonFix) }));
    report(jsonText(out) + '\n');
  } else if (o.format === 'sarif') {
    report(jsonText(toSarif(checked.map((c) => ({ file: c.file, findings: c.findings })), version, cwd)) + '\n');
  } else if (o.format === 'gitlab') {
    report(jsonText(toGitlab(checked, process.env.CI_PROJECT_DIR || cwd)) + '\n');
  } else if (o.format === 'junit') {
    report(toJunit(checked));
  } else if (o.format === 'github') {
    for (const { file, f } of all) report(workflowCommand(file, f) + '\n');
    reportRefusals(run.refusals, o);
  } else {
    const c = createColors(colorWanted(o.color, sink.fd));
    for (const { file, f } of all) {
      report(`${c.bold(escapeText(file))}:${f.start.line + 1}:${f.start.character + 1}: ${severityColor(c, f.severity)} ${c.dim(`[${f.code}]`)}${f.safe ? c.cyan(' [*]') : ''} ${escapeText(f.message)}\n`);
      if (f.frame) report(codeFrame(f, c));
      if (o.showFixes) for (const x of f.fixes ?? []) report(`    fix (${x.applicability}): ${escapeText(x.title)}\n`);
    }
    reportRefusals(run.refusals, o);
    if (!o.quiet) summary(checked.length, { errors: count('error'), warnings: count('warning'), notes: count('information') + count('hint') }, every.length - all.length, every.filter(({ f }) => f.safe).length, o, least, run);
  }
  return { errors: count('error'), warnings: count('warning') };
}

type Colors = ReturnType<typeof createColors>;

function severityColor(c: Colors, severity: string): string {
  if (severity === 'error') return c.bold(c.red(severity));
  if (severity === 'warning') return c.yellow(severity);
  if (severity === 'information') return c.blue(severity);
  return c.dim(severity);
}

/** The JSON form of a fix: every edit with its range. */
function jsonFix(x: FixRecord) {
  const edit = (e: FixRecord['edits'][number]) => ({ range: { start: e.start, end: e.end }, newText: e.newText });
  return { title: x.title, applicability: x.applicability, edits: x.edits.map(edit), ...(x.otherFiles ? { otherFiles: x.otherFiles.map((o) => ({ file: o.file, edits: o.edits.map(edit) })) } : {}) };
}

/**
 * The lines a finding is on, numbered, with carets under its range (a tab counts as four columns,
 * a control character as its escaped form, so that the carets stay under what they mark).
 */
function codeFrame(f: OutRecord, c: Colors): string {
  const frame = f.frame!;
  const width = String(frame.first + frame.lines.length).length;
  const shown = (s: string): string => escapeText(s.replace(/\t/g, '    '));
  const gutter = (n?: number): string => c.dim(`${n === undefined ? ''.padStart(width) : String(n).padStart(width)} |`);
  let out = `${gutter()}\n`;
  frame.lines.forEach((line, i) => {
    const l = frame.first + i;
    out += `${gutter(l + 1)} ${shown(line)}\n`;
    const from = l === f.start.line ? f.start.character : 0;
    const to = l === f.end.line ? f.end.character : line.length;
    const lead = shown(line.slice(0, from)).length;
    const marks = Math.max(1, shown(line.slice(from, Math.max(from, to))).length);
    out += `${gutter()} ${' '.repeat(lead)}${f.severity === 'error' ? c.red('^'.repeat(marks)) : c.yellow('^'.repeat(marks))}\n`;
  });
  if (f.end.line >= frame.first + frame.lines.length) out += `${gutter()} ${c.dim('…')}\n`;
  return out;
}

/** The summary line on stderr: counts, what is not shown and why, fixes applied and fixable. */
function summary(files: number, n: { errors: number; warnings: number; notes: number }, hidden: number, fixable: number, o: ReportOptions, least: string, run: FixRun): void {
  const notes = [o.fix ? `${run.applied} fix${run.applied === 1 ? '' : 'es'} applied` : '', fixable ? `${fixable} fixable with --fix ([*])` : ''].filter(Boolean);
  const plural = (k: number, word: string): string => `${k} ${word}${k === 1 ? '' : 's'}`;
  const quiet = !hidden ? '' : o.minSeverity ? ` (${hidden} below --min-severity ${least} not shown)` : ' (not shown: --show-info shows them)';
  note(`${plural(files, 'config file')} checked: ${plural(n.errors, 'error')}, ${plural(n.warnings, 'warning')}, ${plural(n.notes, 'note')}${quiet}${notes.length ? `; ${notes.join(', ')}` : ''}`);
}
