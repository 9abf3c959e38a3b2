/**
 * parse-error: the file is not valid YAML or JSON (or is too large or hostile to read).
 */
import Hjson from 'hjson';
import type { LineIndex } from '../text';
import type { SourceDoc } from '../syntax/sourcedoc';
import type { Node } from '../syntax/tree';
import type { Span } from '../types';
import { deepspeedReader } from './duplicate-key';
import { defineRule } from './rule';

/** A value written as a placeholder: `CONFIG_BATCH_SIZE`, `{{ batch }}`, `${BATCH}`, `$BATCH`. */
const PLACEHOLDER = /:\s*(\{\{\s*[\w.-]+\s*\}\}|\$\{\w+\}|\$\w+|[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]*|[A-Z][A-Z0-9]{2,})\s*(?=[,}\]\r\n])/g;
/** Bare words that are a mistake, not a placeholder: Python's and other spellings of JSON's literals. */
const NOT_PLACEHOLDERS = new Set(['TRUE', 'FALSE', 'NULL', 'NONE', 'NAN', 'INF', 'INFINITY']);

/**
 * The placeholders of a JSON template, when every syntax error is on a line that holds one (a real
 * syntax error elsewhere means the file is broken, not a template).
 */
function templatePlaceholders(text: string, errorLines: number[], lines: LineIndex): { name: string; span: Span }[] | undefined {
  const found: { name: string; span: Span; line: number }[] = [];
  for (const m of text.matchAll(PLACEHOLDER)) {
    if (NOT_PLACEHOLDERS.has(m[1].toUpperCase())) continue;
    const start = m.index! + m[0].indexOf(m[1]);
    found.push({ name: m[1], span: { start, end: start + m[1].length }, line: lines.position(start).line });
    if (found.length > 1000) break;
  }
  if (found.length === 0) return undefined;
  const withOne = new Set(found.map((f) => f.line));
  return errorLines.every((l) => withOne.has(l) || withOne.has(l - 1)) ? found : undefined;
}

/**
 * Whether hjson (the loader DeepSpeed opens its config file with from 0.8.1) reads the text as the
 * values it was meant to hold (`meant`: what the JSON reads past its mistakes): a missing comma at
 * the end of a line is read past, but two members on one line are one quoteless text to hjson.
 */
function hjsonReads(text: string, meant: unknown): boolean {
  try {
    return canonical(Hjson.parse(text)) === canonical(meant);
  } catch {
    return false;
  }
}

/** A value as text with its keys sorted, to compare two readings. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x));
}

/** What a JSON mistake hjson reads past is, in words. */
function mistake(message: string): string {
  if (/JSON has no comments/.test(message)) return 'a comment, which JSON does not allow';
  if (/trailing comma/.test(message)) return 'a trailing comma, which JSON does not allow';
  const bare = /the key (`[^`]*`) is not in double quotes/.exec(message);
  if (bare) return `the key ${bare[1]} without double quotes, which JSON requires`;
  return message.replace(/^JSON syntax:\s*/, '').replace(/[.:].*$/s, '');
}

/**
 * The first tab PyYAML's scanner refuses ("found character '\\t' that cannot start any token"): one
 * outside quoted text, block scalars and comments, whether it indents, separates a value from its key
 * or trails it. YAML 1.2 parsers (and the one here) read past it; the launchers' PyYAML does not.
 */
export function pyyamlTab(doc: SourceDoc): Span | undefined {
  const { text, span } = doc;
  if (doc.syntax !== 'yaml' || !text.slice(span.start, span.end).includes('\t')) return undefined;
  const allowed: Span[] = [];
  const walk = (n: Node | undefined, depth: number): void => {
    if (!n || depth > 64) return;
    if (n.kind === 'scalar') {
      if (n.style === 'single' || n.style === 'double' || n.style === 'block') allowed.push(n.span);
    } else if (n.kind === 'map') for (const e of n.entries) walk(e.value, depth + 1);
    else if (n.kind === 'seq') for (const x of n.items) walk(x, depth + 1);
  };
  walk(doc.root, 0);
  const inside = (i: number) => allowed.some((a) => a.start <= i && i < a.end);
  for (let i = text.indexOf('\t', span.start); i >= 0 && i < span.end; i = text.indexOf('\t', i + 1)) {
    if (inside(i)) continue;
    // A comment starts at a `#` that opens the line or follows a blank, outside quoted text.
    const lineStart = text.lastIndexOf('\n', i - 1) + 1;
    let comment = false;
    for (let j = lineStart; j < i && !comment; j++) if (text[j] === '#' && (j === lineStart || /[ \t]/.test(text[j - 1])) && !inside(j)) comment = true;
    if (!comment) return { start: i, end: i + 1 };
  }
  return undefined;
}

export default defineRule({
  id: 'parse-error',
  severity: 'error',
  about: 'text',
  formats: 'all',
  forks: true,
  docs: {
    summary: 'The file is not valid YAML or JSON.',
    why: 'The launcher parses the file before anything else (PyYAML `safe_load` or `json.load`) and stops at the first syntax error, so nothing else in the file is used. One exception: DeepSpeed opens a config file it is given with hjson from 0.8.1 on, which reads past comments, trailing commas, a comma left out at the end of a line and unquoted keys, so in a DeepSpeed JSON that nothing in the repository loads through Accelerate or the Trainer those are a warning (those two, and older DeepSpeed, use json.load and stop). Each mistake is reported once, where that loader stops. Shardwise keeps reading past it, but where its parser had to guess what was meant (from the mistake on, and in the section that holds it) no other rule reports anything until it is fixed.',
    bad: 'distributed_type: MULTI_GPU\nnum_processes: [8\n',
    good: 'distributed_type: MULTI_GPU\nnum_processes: 8\n',
  },
  check(ctx) {
    const errors = ctx.problems.filter((p) => p.code === 'parse-error' && (ctx.format || p.fatal));
    const template = errors.length && ctx.doc.syntax === 'json' ? templatePlaceholders(ctx.doc.text, errors.map((e) => ctx.doc.lines.position(e.span.start).line), ctx.doc.lines) : undefined;
    if (template) {
      const names = [...new Set(template.map((t) => t.name))];
      ctx.report({
        at: template[0].span,
        severity: 'information',
        message: `This file is a template: ${names.slice(0, 3).map((n) => `\`${n}\``).join(', ')}${names.length > 3 ? ` and ${names.length - 3} more placeholders stand` : names.length > 1 ? ' stand' : ' stands'} where values go, to be filled in (by sed or a script) before the file is read, so it is not checked. Check the file that is produced.`,
      });
      return;
    }
    // A DeepSpeed JSON that DeepSpeed opens itself: from 0.8.1 it reads it with hjson (runtime/config.py),
    // which takes comments, trailing commas, a comma left out at the end of a line, unquoted keys and
    // text; json.load (Accelerate, the Trainer, DeepSpeed before 0.8.1) stops on them. Whether hjson
    // reads the whole file is asked of hjson itself; then the file is valid for the reader the
    // repository shows.
    const hjson = errors.length && deepspeedReader(ctx) === 'deepspeed' && ctx.atLeast('0.8.1') && !errors.some((p) => p.fatal) && hjsonReads(ctx.doc.text, ctx.doc.value([]));
    // PyYAML loads every YAML format here but the MODEL_ARGS of a Megatron-LM test YAML, which a yq
    // harness turns into flags.
    const tab = ctx.format && !errors.length && !(ctx.format === 'megatron-yaml' && ctx.doc.value(['MODEL_ARGS']) !== undefined) ? pyyamlTab(ctx.doc) : undefined;
    if (tab) ctx.report({ at: tab, message: `YAML syntax: a tab here, which PyYAML's scanner refuses outside quoted text and comments ("found character '\\t' that cannot start any token"), so ${ctx.tool} cannot load the file. Use spaces instead.` });
    for (const p of errors) {
      if (hjson) ctx.report({ at: p.span, severity: 'warning', message: `JSON syntax: ${mistake(p.message)}. DeepSpeed ${ctx.versionLabel ?? 'from 0.8.1'} opens its config file with hjson, which reads past it, but Accelerate, the Transformers Trainer and DeepSpeed before 0.8.1 load the file with json.load, which stops here: fix it if any of them may read this file.` });
      else ctx.report({ at: p.span, message: p.message, severity: p.severity });
    }
  },
});
