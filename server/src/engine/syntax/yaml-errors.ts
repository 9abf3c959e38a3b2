/**
 * YAML syntax errors as the launchers' loader (PyYAML `safe_load`) reports them. The `yaml` package
 * finds the errors, but words them in its own terms and often places them where its recovery began
 * (one mistake can give it two or three errors): each is moved here to where PyYAML stops reading,
 * said in the terms of the mistake, and said once.
 */
import type { LineIndex } from '../text';
import type { Span } from '../types';

/** An error of the `yaml` package, as much of it as is used here. */
export interface LibraryError {
  code: string;
  message: string;
  pos: readonly [number, number];
}

export interface LoaderError {
  span: Span;
  message: string;
  /** The mistake takes the rest of the text with it (a quote or bracket never closed): any later error is its consequence. */
  toEnd?: boolean;
  /** Where the parser's guessing began: the earlier of this place and where the library met the mistake (or the bracket never closed). */
  guessedFrom?: number;
}

const UNCERTAIN = 'Everything the file means after this point is uncertain until it is fixed.';

/** A `:` that indicates a mapping value (followed by a space, a line break or the end). */
function isValueIndicator(text: string, i: number): boolean {
  if (text[i] !== ':') return false;
  const next = text[i + 1];
  return next === undefined || next === ' ' || next === '\t' || next === '\n' || next === '\r';
}

/** The end of a quoted scalar that opens at `i` (just past its closing quote), or -1 when it is never closed. */
function quotedEnd(text: string, i: number): number {
  const q = text[i];
  for (let j = i + 1; j < text.length; j++) {
    const c = text[j];
    if (q === '"' && c === '\\') j++;
    else if (c === q) {
      if (q === "'" && text[j + 1] === "'") j++;
      else return j + 1;
    }
  }
  return -1;
}

/** Whether a quote at `i` opens a quoted scalar (it starts a token), rather than sitting inside a plain one. */
function opensQuote(text: string, i: number): boolean {
  return i === 0 || /[\s,[\]{}]/.test(text[i - 1]);
}

/**
 * The value indicator PyYAML stops at after a key that may not stand where it is: the first `:`
 * from `from` on (quoted text and comments skipped), within a few lines; -1 when there is none.
 */
function nextValueIndicator(text: string, from: number): number {
  let lines = 0;
  for (let i = from; i < text.length && i < from + 4000; i++) {
    const c = text[i];
    if (c === '\n' && ++lines > 8) return -1;
    if (c === '#' && (i === 0 || /\s/.test(text[i - 1]))) {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
    } else if ((c === '"' || c === "'") && opensQuote(text, i)) {
      const end = quotedEnd(text, i);
      if (end < 0) return -1;
      i = end - 1;
    } else if (isValueIndicator(text, i)) return i;
  }
  return -1;
}

function indentOf(lines: LineIndex, line: number): number {
  return /^[ ]*/.exec(lines.lineText(line))![0].length;
}

/** A key that may not stand where it is: `a: b: c`, or a line indented under a key that already has a value. */
function mappingValue(text: string, lines: LineIndex, e: LibraryError): LoaderError | undefined {
  const colon = nextValueIndicator(text, e.pos[0]);
  if (colon < 0) return undefined;
  const at = lines.position(colon);
  const from = lines.position(e.pos[0]);
  const span = { start: colon, end: colon + 1 };
  const stops = 'PyYAML stops here ("mapping values are not allowed here"), so the launcher cannot load the file.';
  if (at.line === from.line) {
    return { span, message: `YAML syntax: this \`: \` starts a second key inside a value on the same line. ${stops} Quote the value if the \`: \` is part of it, or put the key on a line of its own. ${UNCERTAIN}` };
  }
  const owner = /^\s*(?:-\s+)?(['"]?)([^'":#]+?)\1\s*:/.exec(lines.lineText(from.line));
  if (owner && indentOf(lines, at.line) > indentOf(lines, from.line)) {
    return {
      span,
      message: `YAML syntax: line ${at.line + 1} is indented more than \`${owner[2].trim()}\` on line ${from.line + 1}, which already has a value, so it is read as more of that value and this \`:\` cannot start a key. ${stops} Indent line ${at.line + 1} like the key above it, or give that key no value of its own to nest under it. ${UNCERTAIN}`,
    };
  }
  return { span, message: `YAML syntax: this \`:\` ends a key that runs over more than one line (from line ${from.line + 1}); a key must be on one line. ${stops} Check the line${at.line - from.line > 1 ? 's' : ''} before it for a missing \`:\` or a value that should be quoted. ${UNCERTAIN}` };
}

/** A quoted scalar with no closing quote: the quote that opens it. */
function unclosedQuote(text: string, quote: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '#' && (i === 0 || /\s/.test(text[i - 1]))) {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
    } else if ((c === '"' || c === "'") && opensQuote(text, i)) {
      const end = quotedEnd(text, i);
      if (end < 0) return c === quote ? i : -1;
      i = end - 1;
    }
  }
  return -1;
}

/**
 * Where PyYAML stops inside a flow collection that opens at `open`: `closed` when it closes; else
 * the offset of the first token it cannot take (a `:` after a key that began on an earlier line, a
 * `-` entry of a block list), or the end of the text.
 */
function flowStop(text: string, open: number): { closed: true } | { closed: false; at: number } {
  let depth = 0;
  let line = 0;
  /** The line where the current entry's key began (-1: none yet). */
  let keyLine = -1;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') {
      line++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') continue;
    if (c === '#' && /\s/.test(text[i - 1] ?? '\n')) {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
    } else if (c === '[' || c === '{') {
      depth++;
      keyLine = -1;
    } else if (c === ']' || c === '}') {
      if (--depth === 0) return { closed: true };
      keyLine = -1;
    } else if (c === ',') keyLine = -1;
    else if (c === '"' || c === "'") {
      if (keyLine < 0) keyLine = line;
      const end = quotedEnd(text, i);
      if (end < 0) return { closed: false, at: text.length };
      for (let j = i; j < end; j++) if (text[j] === '\n') line++;
      i = end - 1;
    } else if (c === ':' && /^[\s,[\]{}]?$/.test(text[i + 1] ?? '')) {
      if (keyLine >= 0 && keyLine !== line) return { closed: false, at: i };
      keyLine = -1;
    } else if (c === '-' && /^\s?$/.test(text[i + 1] ?? '') && keyLine < 0) return { closed: false, at: i };
    else {
      // A plain scalar, to the next indicator; in a flow collection it goes on over line breaks.
      if (keyLine < 0) keyLine = line;
      while (i + 1 < text.length && !/[\n,[\]{}]/.test(text[i + 1]) && !(text[i + 1] === ':' && /^[\s,[\]{}]?$/.test(text[i + 2] ?? '')) && !(text[i + 1] === '#' && /\s/.test(text[i]))) i++;
    }
  }
  return { closed: false, at: text.length };
}

/** An unclosed `[` or `{`: where PyYAML stops, said with the bracket that is never closed. */
function unclosedFlow(text: string, lines: LineIndex, e: LibraryError, opener: '[' | '{'): LoaderError | undefined {
  const closer = opener === '[' ? ']' : '}';
  const floor = lines.lineStart(Math.max(0, lines.position(e.pos[0]).line - 200));
  for (let i = Math.min(e.pos[0], text.length - 1); i >= floor; i--) {
    if (text[i] !== opener) continue;
    const stop = flowStop(text, i);
    if (stop.closed) continue;
    const line = lines.position(i).line + 1;
    const what = opener === '[' ? 'list' : 'mapping';
    if (stop.at >= text.length) {
      return { span: { start: i, end: i + 1 }, toEnd: true, message: `YAML syntax: this \`${opener}\` is never closed: the rest of the file is read as part of this ${what}, and PyYAML stops at the end of the file, so the launcher cannot load it. Close it with \`${closer}\`. ${UNCERTAIN}` };
    }
    const found = text[stop.at] === '-' ? 'a `-` list entry' : 'this `:`';
    return {
      span: { start: stop.at, end: stop.at + 1 },
      guessedFrom: i,
      message: `YAML syntax: the \`${opener}\` on line ${line} is never closed, so the lines after it are read as part of that ${what} until ${found}, where PyYAML stops (it expects \`,\` or \`${closer}\`), and the launcher cannot load the file. Close it with \`${closer}\` on line ${line}. ${UNCERTAIN}`,
    };
  }
  return undefined;
}

/** A key indented to match no key above it: at the key, as PyYAML stops there. */
function misaligned(text: string, lines: LineIndex, e: LibraryError): LoaderError {
  const line = lines.position(Math.min(e.pos[0], text.length)).line;
  const start = lines.lineStart(line) + indentOf(lines, line);
  return {
    span: { start, end: Math.max(start, Math.min(lines.lineEnd(line), start + 200)) },
    message: `YAML syntax: line ${line + 1} is indented less than the keys before it and more than the key that holds them, so it belongs to no mapping; PyYAML stops here, so the launcher cannot load the file. Indent it like the keys it belongs with. ${UNCERTAIN}`,
  };
}

function fallback(text: string, e: LibraryError): LoaderError {
  const detail = e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '').replace(/\.$/, '');
  const start = Math.max(0, Math.min(e.pos[0], text.length));
  return { span: { start, end: Math.max(start, Math.min(e.pos[1], text.length)) }, message: `YAML syntax: the file cannot be read past this point, so the launcher cannot load it (${detail}). ${UNCERTAIN}` };
}

/** One library error in the loader's terms and at the place it stops. */
function translate(text: string, lines: LineIndex, e: LibraryError): LoaderError {
  switch (e.code) {
    case 'BLOCK_AS_IMPLICIT_KEY':
    case 'MULTILINE_IMPLICIT_KEY':
      return mappingValue(text, lines, e) ?? fallback(text, e);
    case 'TAB_AS_INDENT':
      return { span: { start: e.pos[0], end: e.pos[0] + 1 }, message: `YAML syntax: a tab indents this line; YAML indents with spaces only, and PyYAML stops at the tab, so the launcher cannot load the file. Replace it with spaces. ${UNCERTAIN}` };
    case 'BAD_SCALAR_START': {
      const c = text[e.pos[0]] ?? '';
      return { span: { start: e.pos[0], end: e.pos[0] + 1 }, message: `YAML syntax: a value cannot start with \`${c}\` unquoted (YAML reserves it), and PyYAML stops here, so the launcher cannot load the file. Quote the value. ${UNCERTAIN}` };
    }
    case 'MISSING_CHAR': {
      const quote = /Missing closing (["'])quote/.exec(e.message)?.[1];
      const open = quote ? unclosedQuote(text, quote) : -1;
      if (open >= 0) return { span: { start: open, end: open + 1 }, toEnd: true, message: `YAML syntax: this quote is never closed: the rest of the file is read as one string, and PyYAML stops at the end of the file, so the launcher cannot load it. Close it with \`${quote}\`. ${UNCERTAIN}` };
      return fallback(text, e);
    }
    case 'BAD_INDENT': {
      const opener = /^Flow sequence/.test(e.message) ? '[' : /^Flow map/.test(e.message) ? '{' : undefined;
      if (opener) return unclosedFlow(text, lines, e, opener) ?? fallback(text, e);
      return /same column/.test(e.message) ? misaligned(text, lines, e) : fallback(text, e);
    }
    default:
      return fallback(text, e);
  }
}

/**
 * The library's errors of one document as the loader reports them, each mistake once: errors that
 * come to the same place (one mistake the library reports in several ways) are one.
 */
export function loaderErrors(text: string, lines: LineIndex, errors: readonly LibraryError[], limit: number): LoaderError[] {
  const out: LoaderError[] = [];
  for (const e of errors) {
    if (out.length >= limit) break;
    const t = translate(text, lines, e);
    t.guessedFrom = Math.min(t.guessedFrom ?? t.span.start, t.span.start, e.pos[0]);
    if (out.some((o) => o.toEnd) || out.some((o) => o.span.start === t.span.start || (lines.position(o.span.start).line === lines.position(t.span.start).line && o.message === t.message))) continue;
    out.push(t);
  }
  return out;
}
