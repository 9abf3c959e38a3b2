/**
 * The oracle: everything one input must satisfy, checked in process.
 *
 *  - no exception out of parseProjectConfig, settingsFromClient, analyze, hover, complete,
 *    codeActions, a finding's fixes(), fixText;
 *  - the whole input's checks take at most `hangMs` (and, for a bomb, analysis time grows about
 *    linearly from its smaller copy);
 *  - every span (findings, fix edits, code action edits, hovers, links) lies in [0, length] with
 *    start ≤ end, and the engine's LineIndex agrees with an independent LSP line splitter on its
 *    positions, which lie inside the document;
 *  - every completion item's replace span contains the cursor;
 *  - messages, titles and completion labels hold no control, escape or bidi override characters
 *    (hover markdown may hold line breaks and tabs);
 *  - applying an offered fix leaves the text parsing at least as well as before (jsonc-parser for
 *    JSON, the `yaml` package for YAML, the engine's own parse errors for every syntax) and removes
 *    its finding (informational when not);
 *  - fix-all (`fixText`, safe fixes) reaches a fixed point without revisiting a text, and never
 *    parses worse than the original.
 */
import * as J from 'jsonc-parser';
import { parseAllDocuments } from 'yaml';
import { analyze, applyEdits, codeActions, complete, fixText, hover, mergeSettings, parseProjectConfig, settingsFromClient, type EngineSettings, type FileAnalysis, type FileInput, type Finding, type Span } from '../../server/src/engine';
import { LspLines } from './lsp-lines';
import { checkCli } from './cli-oracle';
import type { CheckResult, Failure, FailureKind, FuzzInput } from './types';

export interface OracleOptions {
  /** An input whose checks take longer than this hangs. */
  hangMs: number;
  /** Offered fixes applied and re-analysed, at most, per input. */
  maxFixes: number;
  /** Code actions (disable comments) applied, at most, per input. */
  maxActions: number;
  /** Rounds of fix-all before it counts as not converging. */
  fixAllRounds: number;
  /** Whether a bomb is timed against its smaller copy (time growing faster than its size). */
  growth: boolean;
  /** Told the name of each stage as it starts, and its time when it ends (the watchdog reports where a hang was). */
  onStage?: (stage: string) => void;
  onStageDone?: (stage: string, ms: number) => void;
}

/** The stages of a check, by number (a worker reports the current one through shared memory). */
export const STAGES = ['generate', 'settingsFromClient', 'mergeSettings', 'parseProjectConfig', 'analyze', 'fixes', 'hover', 'complete', 'codeActions', 'parse-check', 'analyze-fixed', 'fixText', 'smaller-copy', 'growth', 'cli-check', 'cli-text', 'cli-fix', 'cli-fix-again'] as const;

/**
 * Stages that time the oracle's own work, not counted in the input's budget: the independent
 * parsers, the growth measurement, and the re-analysis of each fixed text (how many fixes are
 * tried is the oracle's choice; one such analysis over the budget is a hang of its own).
 */
const OWN_STAGES: readonly string[] = ['parse-check', 'smaller-copy', 'growth', 'analyze-fixed'];

export const DEFAULT_ORACLE: OracleOptions = { hangMs: 2000, maxFixes: 12, maxActions: 3, fixAllRounds: 10, growth: true };

/** Characters a message must not hold: C0 (all of them), DEL, C1, and bidi overrides, embeddings, isolates and marks. */
const STRICT = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** The same for markdown, which may hold line breaks and tabs. */
const LENIENT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

function charClass(c: number): string {
  if (c === 0x1b) return 'ESC';
  if (c === 0) return 'NUL';
  if (c < 0x20) return 'C0';
  if (c === 0x7f) return 'DEL';
  if (c <= 0x9f) return 'C1';
  return 'bidi';
}

/** The first frame of the engine in a stack (file and function, not line numbers, which move as the code does). */
function engineFrame(err: unknown): string {
  const stack = (err as Error)?.stack ?? '';
  for (const line of stack.split('\n').slice(1)) {
    const m = /at (?:(\S+) )?\(?.*?(server\/src\/[^:)]+)/.exec(line);
    if (m) return `${m[2]}${m[1] ? `#${m[1]}` : ''}`;
  }
  return 'no engine frame';
}

function errorText(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}

/** An error message with its variable parts (numbers, quoted text) folded, for signatures. */
function normalized(msg: string): string {
  return msg
    .replace(/(["'`]).*?\1/g, '…')
    .replace(/\d+/g, 'N')
    .slice(0, 100);
}

/**
 * Texts above this size are judged by the engine's own parse errors only: the independent parsers
 * would spend more time than the engine (the `yaml` package on deep unclosed nesting), and the
 * watchdog counts the oracle's time too.
 */
export const INDEPENDENT_PARSE_LIMIT = 100_000;

/** Syntax errors by the independent parsers. */
export function parserErrors(syntax: string, text: string): number {
  if (syntax === 'json') {
    const errors: J.ParseError[] = [];
    J.parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: true });
    return errors.length;
  }
  if (syntax === 'yaml') {
    // A lone CR breaks the line for PyYAML (the reader of these files) and the engine; the `yaml`
    // package reads it as content, so it is given the text with its line breaks as PyYAML sees them.
    const read = text.replace(/\r(?!\n)/g, '\n');
    // An empty stream is an empty array: no documents, no errors.
    const docs = parseAllDocuments(read, { version: '1.1', uniqueKeys: false }) as unknown as { errors: unknown[] }[];
    return docs.reduce((n, d) => n + d.errors.length, 0);
  }
  return 0;
}

function engineParseErrors(a: FileAnalysis): number {
  return a.findings.filter((f) => f.code === 'parse-error').length;
}

function key(f: Finding): string {
  return `${f.code}\u0000${f.message}`;
}

function count(a: FileAnalysis, k: string): number {
  let n = 0;
  for (const f of a.findings) if (key(f) === k) n++;
  return n;
}

/** The FileInput of a fuzz input: its links served through `resolve`, like a host that finds them or not. */
export function fileInput(input: FuzzInput, text = input.text): FileInput {
  const links = input.links ?? {};
  return {
    path: input.path,
    text,
    languageId: input.languageId,
    resolve: (ref: string) => {
      const t = Object.prototype.hasOwnProperty.call(links, ref) ? links[ref] : null;
      if (t === null || t === undefined) return { ref, tried: [`/fuzz/${ref}`] };
      if (typeof t === 'object') throw new Error(t.throws);
      return { ref, path: `/fuzz/${ref}`, text: t, tried: [`/fuzz/${ref}`] };
    },
    referrers: input.referrers,
  };
}

class Collector {
  readonly failures = new Map<string, Failure>();
  add(kind: FailureKind, signature: string, detail: string): void {
    const sig = `${kind}:${signature}`;
    if (!this.failures.has(sig)) this.failures.set(sig, { kind, signature: sig, detail: detail.slice(0, 500) });
  }
}

export function check(input: FuzzInput, options: Partial<OracleOptions> = {}): CheckResult {
  const opts = { ...DEFAULT_ORACLE, ...options };
  const out = new Collector();
  const stages: Record<string, number> = {};
  const started = performance.now();
  const text = input.text;
  const n = text.length;
  const huge = n > 500_000;

  /** Runs one stage: its time is recorded and an exception is a crash. */
  function stage<T>(name: string, f: () => T): T | undefined {
    opts.onStage?.(name);
    const t = performance.now();
    try {
      return f();
    } catch (err) {
      out.add('crash', `${name}:${normalized(errorText(err))}:${engineFrame(err)}`, `${name} threw ${errorText(err)} at ${engineFrame(err)}`);
      return undefined;
    } finally {
      const ms = performance.now() - t;
      stages[name] = (stages[name] ?? 0) + ms;
      opts.onStageDone?.(name, ms);
    }
  }

  /** Time the oracle spends on its own parsers and measurements, not counted against the engine. */
  const ownMs = (): number => OWN_STAGES.reduce((t, k) => t + (stages[k] ?? 0), 0);
  const finish = (runs = 1): CheckResult => {
    const ms = performance.now() - started;
    const engineMs = ms - ownMs();
    if (engineMs > opts.hangMs * runs) {
      const slowest = Object.entries(stages)
        .filter(([k]) => !OWN_STAGES.includes(k))
        .sort((a, b) => b[1] - a[1])[0];
      out.add('hang', `${input.variant}`, `${(engineMs / 1000).toFixed(1)} s in the engine for the input's checks (slowest: ${slowest ? `${slowest[0]} ${(slowest[1] / 1000).toFixed(1)} s` : 'none'}), over the ${(opts.hangMs * runs) / 1000} s budget`);
    }
    return { id: input.id, category: input.category, variant: input.variant, failures: [...out.failures.values()], ms, stages };
  };

  // The command line over the input laid out as files: four runs of the CLI, each held to the budget.
  if (input.category === 'cli') {
    checkCli(input, input.encoding ?? 'utf8', (kind, signature, detail) => out.add(kind, signature, detail), stage);
    const result = finish(4);
    return result;
  }

  // Settings as a host builds them: editor settings, then .shardwise.yaml over them.
  let settings: EngineSettings = input.settings ?? {};
  if (input.client !== undefined) {
    const client = stage('settingsFromClient', () => settingsFromClient(input.client as Parameters<typeof settingsFromClient>[0]));
    if (client) settings = stage('mergeSettings', () => mergeSettings(client, input.settings)) ?? settings;
  }
  if (input.project !== undefined) {
    const project = stage('parseProjectConfig', () => parseProjectConfig(input.project!));
    if (project) {
      for (const p of project.problems) sanitised('project-problem', '.shardwise.yaml', p, STRICT);
      settings = stage('mergeSettings', () => mergeSettings(settings, project.settings)) ?? settings;
    }
  }

  const fi = fileInput(input);
  const a = stage('analyze', () => analyze(fi, settings));
  if (!a) return finish();
  const lsp = new LspLines(text);
  const independent = a.syntax !== 'shell' && n <= INDEPENDENT_PARSE_LIMIT;
  if (a.lines.lineCount !== lsp.lineCount) out.add('range', `line-count`, `LineIndex has ${a.lines.lineCount} lines, the LSP splitter ${lsp.lineCount}`);

  function sanitised(where: string, code: string, s: string, re: RegExp): void {
    const m = re.exec(s);
    if (!m) return;
    const cls = charClass(m[0].charCodeAt(0));
    out.add('unsanitised', `${where}:${code}:${cls}`, `${where} of ${code} holds ${cls} U+${m[0].charCodeAt(0).toString(16).padStart(4, '0')}: ${JSON.stringify(s.slice(Math.max(0, m.index - 40), m.index + 40))}`);
  }

  function offsetOk(where: string, code: string, o: number): boolean {
    const p = a!.lines.position(o);
    const q = lsp.position(o);
    if (p.line !== q.line || p.character !== q.character) {
      out.add('range', `${where}:${code}:position-mismatch`, `${where} of ${code} at offset ${o}: LineIndex says ${p.line}:${p.character}, the LSP splitter ${q.line}:${q.character}`);
      return false;
    }
    if (q.line >= lsp.lineCount || q.character > lsp.lineLength(q.line)) {
      out.add('range', `${where}:${code}:inside-line-break`, `${where} of ${code} at offset ${o} is ${q.line}:${q.character}, inside the line break of a line ${lsp.lineLength(q.line)} long`);
      return false;
    }
    return true;
  }

  function spanOk(where: string, code: string, span: Span | undefined, length = n, positions = true): boolean {
    if (!span || !Number.isInteger(span.start) || !Number.isInteger(span.end)) {
      out.add('range', `${where}:${code}:not-integer`, `${where} of ${code}: span ${JSON.stringify(span)} is not a pair of integers`);
      return false;
    }
    if (span.start < 0 || span.end > length || span.start > span.end) {
      out.add('range', `${where}:${code}:${span.start > span.end ? 'inverted' : 'outside'}`, `${where} of ${code}: span ${span.start}-${span.end} of a text ${length} long`);
      return false;
    }
    if (positions) {
      if (!offsetOk(where, code, span.start) || !offsetOk(where, code, span.end)) return false;
      const r = a!.lines.range(span);
      const s = lsp.position(span.start);
      const e = lsp.position(span.end);
      if (r.start.line !== s.line || r.start.character !== s.character || r.end.line !== e.line || r.end.character !== e.character) out.add('range', `${where}:${code}:range-mismatch`, `${where} of ${code}: LineIndex.range disagrees with its positions`);
    }
    return true;
  }

  // Findings, their messages and their fixes' edits.
  const pairs: { finding: Finding; fix: ReturnType<Finding['fixes']>[number] }[] = [];
  for (const f of a.findings) {
    spanOk('finding', f.code, f.span);
    sanitised('message', f.code, f.message, STRICT);
    if (!f.message) out.add('unsanitised', `message:${f.code}:empty`, `${f.code} has an empty message`);
    const fixes = stage('fixes', () => f.fixes()) ?? [];
    for (const fix of fixes) {
      sanitised('fix-title', f.code, fix.title, STRICT);
      for (const e of fix.edits) spanOk('fix-edit', f.code, e.span);
      for (const o of fix.otherFiles ?? []) for (const e of o.edits) spanOk('other-file-edit', f.code, e.span, o.lines.text.length, false);
      pairs.push({ finding: f, fix });
    }
  }
  for (const l of a.links) spanOk('link', 'document-link', l.span);

  // Hover, completion and code actions at the cursors.
  // Cursors an editor can send: never inside a CRLF line break or a surrogate pair.
  const cursors = [...new Set([0, n, ...(input.cursors ?? [])].filter((c) => c >= 0 && c <= n).map((c) => (c > 0 && c < n && ((text.charCodeAt(c - 1) === 13 && text.charCodeAt(c) === 10) || (/[\ud800-\udbff]/.test(text[c - 1]) && /[\udc00-\udfff]/.test(text[c]))) ? c - 1 : c)))].slice(0, huge ? 3 : 12);
  for (const c of cursors) {
    const h = stage('hover', () => hover(a, c));
    if (h) {
      spanOk('hover', 'hover', h.span);
      sanitised('hover', 'hover', h.markdown, LENIENT);
    }
    const items = stage('complete', () => complete(a, c)) ?? [];
    for (const item of items) {
      const r = item.replace;
      if (!r || !(r.start >= 0 && r.start <= c && c <= r.end && r.end <= n)) {
        out.add('completion-range', `${item.kind}:${r && r.start <= r.end && r.end <= n && r.start >= 0 ? 'excludes-cursor' : 'outside'}`, `completion "${item.label.slice(0, 40)}" at ${c}: replace ${JSON.stringify(r)} of a text ${n} long`);
        continue;
      }
      spanOk('completion', item.kind, r);
      sanitised('completion-label', item.kind, item.label, STRICT);
      if (item.detail) sanitised('completion-detail', item.kind, item.detail, STRICT);
      if (item.documentation) sanitised('completion-doc', item.kind, item.documentation, LENIENT);
    }
  }
  const actions = [...(stage('codeActions', () => codeActions(a, { start: 0, end: n })) ?? []), ...(stage('codeActions', () => codeActions(a, { start: cursors[cursors.length >> 1], end: cursors[cursors.length >> 1] })) ?? [])];
  let actionsTried = 0;
  const before = { parser: -1, engine: engineParseErrors(a) };
  const parserBefore = (): number => (before.parser >= 0 ? before.parser : (before.parser = stage('parse-check', () => parserErrors(a.syntax, text)) ?? 0));
  for (const act of actions) {
    sanitised('action-title', act.finding?.code ?? 'action', act.title, STRICT);
    for (const e of act.edits ?? []) spanOk('action-edit', act.finding?.code ?? 'action', e.span);
    if (!independent || !act.edits?.length || act.title.startsWith('Show documentation') || actionsTried >= opts.maxActions) continue;
    if (pairs.some((p) => p.fix.edits === act.edits)) continue; // a fix: checked below
    actionsTried++;
    let after: string;
    try {
      after = applyEdits(text, act.edits);
    } catch (err) {
      out.add('range', `action-overlap:${act.finding?.code}`, `action "${act.title}": ${errorText(err)}`);
      continue;
    }
    const errs = stage('parse-check', () => parserErrors(a.syntax, after)) ?? 0;
    if (errs > parserBefore()) out.add('fix-breaks-syntax', `action:${act.title.replace(/ for this (line|file)$/, '').replace(/^Disable \S+/, 'Disable <rule>')}:${a.syntax}`, `action "${act.title}" takes the ${a.syntax} parser from ${parserBefore()} to ${errs} errors`);
  }

  // Offered fixes, one by one: parse at least as well, and remove their finding.
  const chosen = pairs.length <= (huge ? 2 : opts.maxFixes) ? pairs : spread(pairs, huge ? 2 : opts.maxFixes);
  for (const { finding, fix } of chosen) {
    if (fix.otherFiles?.length) continue;
    let after: string;
    try {
      after = applyEdits(text, fix.edits);
    } catch (err) {
      out.add('range', `fix-overlap:${finding.code}`, `fix "${fix.title}" of ${finding.code}: ${errorText(err)}`);
      continue;
    }
    const t0 = performance.now();
    const b = stage('analyze-fixed', () => analyze(fileInput(input, after), settings));
    const took = performance.now() - t0;
    if (took > opts.hangMs) out.add('hang', `${input.variant}:analyze-fixed`, `analysing the text fixed by "${fix.title}" (${finding.code}) takes ${(took / 1000).toFixed(1)} s`);
    if (!b) continue;
    if (independent) {
      const errs = stage('parse-check', () => parserErrors(a.syntax, after)) ?? 0;
      if (errs > parserBefore()) out.add('fix-breaks-syntax', `fix:${finding.code}:${fix.kind}:${a.syntax}-parser`, `fix "${fix.title}" of ${finding.code} takes the ${a.syntax} parser from ${parserBefore()} to ${errs} errors`);
    }
    const engineErrs = engineParseErrors(b);
    if (engineErrs > before.engine) out.add('fix-breaks-syntax', `fix:${finding.code}:${fix.kind}:engine`, `fix "${fix.title}" of ${finding.code} takes the engine's parse errors from ${before.engine} to ${engineErrs}`);
    if (count(b, key(finding)) >= count(a, key(finding))) out.add('fix-not-removing', `${finding.code}:${fix.kind}`, `fix "${fix.title}" leaves "${finding.message.slice(0, 120)}"`);
  }

  // Fix-all: converges, never revisits a text, never parses worse than the original.
  let cur = text;
  const seen = [text];
  let converged = false;
  for (let round = 0; round < opts.fixAllRounds; round++) {
    const r = stage('fixText', () => fixText(fileInput(input, cur), settings));
    if (!r) {
      converged = true;
      break;
    }
    if (r.text === cur) {
      converged = true;
      break;
    }
    if (independent) {
      const errs = stage('parse-check', () => parserErrors(a.syntax, r.text)) ?? 0;
      if (errs > parserBefore()) out.add('fix-breaks-syntax', `fix-all:${a.syntax}-parser`, `fix-all (round ${round + 1}, applied ${r.applied.map((x) => x.finding.code).join(', ')}) takes the ${a.syntax} parser from ${parserBefore()} to ${errs} errors`);
    }
    const engineErrs = engineParseErrors(r.analysis);
    if (engineErrs > before.engine) out.add('fix-breaks-syntax', `fix-all:engine`, `fix-all (round ${round + 1}, applied ${r.applied.map((x) => x.finding.code).join(', ')}) takes the engine's parse errors from ${before.engine} to ${engineErrs}`);
    const earlier = seen.indexOf(r.text);
    if (earlier >= 0) {
      out.add('fix-all-oscillation', `cycle:${r.applied.map((x) => x.finding.code).sort().join(',')}`, `fix-all round ${round + 1} returns to the text of round ${earlier} (applied ${r.applied.map((x) => `${x.finding.code}: ${x.fix.title}`).join('; ').slice(0, 300)})`);
      converged = true;
      break;
    }
    seen.push(r.text);
    cur = r.text;
    if (huge && round >= 1) {
      converged = true;
      break;
    }
  }
  if (!converged) out.add('fix-all-oscillation', 'no-fixed-point', `fix-all still changes the text after ${opts.fixAllRounds} rounds`);

  // A bomb's time grows about linearly with its size: analysis, a hover, a completion and fix-all,
  // timed on the smaller copy (twice, the faster counts) and on the input itself.
  if (opts.growth && input.growth && performance.now() - started - ownMs() < opts.hangMs) {
    const core = (t: string): number => {
      const s0 = performance.now();
      const fi2 = fileInput(input, t);
      const x = analyze(fi2, settings);
      hover(x, t.length >> 1);
      complete(x, t.length >> 1);
      fixText(fi2, settings);
      return performance.now() - s0;
    };
    // Its own stage: a watchdog kill there says that the smaller copy is what hangs.
    const first = stage('smaller-copy', () => core(input.growth!.text));
    const times =
      first === undefined || first > opts.hangMs
        ? first && { first, small: first, big: 0 }
        : stage('growth', () => ({ first: 0, small: Math.min(first, core(input.growth!.text)), big: core(text) }));
    if (times && times.first) out.add('hang', `${input.variant}:smaller-copy`, `its copy at 1/${input.growth.factor} of the size takes ${(times.first / 1000).toFixed(1)} s for analyze, hover, complete and fix-all, more than the input itself`);
    else if (times) {
      const ratio = times.big / Math.max(times.small, 1);
      if (times.big >= 250 && ratio > input.growth.factor * 2.5) out.add('hang', `superlinear:${input.variant}`, `time grows ${ratio.toFixed(1)}× for ${input.growth.factor}× the size (${times.small.toFixed(0)} ms → ${times.big.toFixed(0)} ms for analyze, hover, complete and fix-all): worse than linear`);
    }
  }
  return finish();
}

/** `k` entries spread over the list (its first, its last and between). */
function spread<T>(xs: readonly T[], k: number): T[] {
  if (k <= 1) return xs.slice(0, k);
  return Array.from({ length: k }, (_, i) => xs[Math.round((i * (xs.length - 1)) / (k - 1))]);
}
