/** A half-open [start, end) offset span in the file text. */
export interface Span {
  start: number;
  end: number;
}

/** 0-based line and UTF-16 character, as LSP. */
export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

/** Maps offsets to LSP positions and back for one text. Built once per analysis. */
export class LineIndex {
  private readonly starts: number[];

  constructor(readonly text: string) {
    const starts = [0];
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 /* \n */) starts.push(i + 1);
      else if (c === 13 /* \r */) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      }
    }
    this.starts = starts;
  }

  get lineCount(): number {
    return this.starts.length;
  }

  position(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    // An offset inside a line break (between \r and \n) is the end of the line's content.
    return { line: lo, character: Math.min(o, this.lineEnd(lo)) - this.starts[lo] };
  }

  offset(pos: Position): number {
    if (pos.line < 0) return 0;
    if (pos.line >= this.starts.length) return this.text.length;
    const start = this.starts[pos.line];
    const end = this.lineEnd(pos.line);
    return Math.min(start + Math.max(0, pos.character), end);
  }

  range(span: Span): Range {
    return { start: this.position(span.start), end: this.position(span.end) };
  }

  span(range: Range): Span {
    return { start: this.offset(range.start), end: this.offset(range.end) };
  }

  lineStart(line: number): number {
    return this.starts[Math.max(0, Math.min(line, this.starts.length - 1))];
  }

  /** Offset of the end of the line's content (before its line break). */
  lineEnd(line: number): number {
    if (line + 1 < this.starts.length) {
      let end = this.starts[line + 1] - 1;
      if (end > this.starts[line] && this.text.charCodeAt(end) === 10 && this.text.charCodeAt(end - 1) === 13) end--;
      return end;
    }
    return this.text.length;
  }

  lineText(line: number): string {
    return this.text.slice(this.lineStart(line), this.lineEnd(line));
  }

  /** The line break used by the text (for inserted lines). */
  get eol(): string {
    const i = this.text.indexOf('\n');
    if (i < 0) return this.text.includes('\r') ? '\r' : '\n';
    return i > 0 && this.text.charCodeAt(i - 1) === 13 ? '\r\n' : '\n';
  }
}

/** Applies non-overlapping offset edits to a text. Throws on overlap: a fix must never lose text. */
export function applyEdits(text: string, edits: readonly { span: Span; newText: string }[]): string {
  const sorted = [...edits].sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    if (e.span.start < at) throw new Error('overlapping edits');
    out += text.slice(at, e.span.start) + e.newText;
    at = e.span.end;
  }
  return out + text.slice(at);
}

/**
 * Characters that must not reach a terminal, a CI log or an editor as they are: C0 and C1 controls
 * (escape sequences start with ESC or CSI), DEL, bidirectional overrides and isolates (which reorder
 * what is displayed), the line and paragraph separators (which break a line of output), and
 * unpaired surrogates (not text at all).
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Text quoted from a file, made safe to print: every unsafe character is written as an escape
 * (`\x1b`, `\n`, `\u202e`), so a hostile config cannot move the cursor, recolour or hide text.
 */
export function escapeControls(s: string, keepNewlines = false): string {
  if (!UNSAFE.test(s)) return s;
  UNSAFE.lastIndex = 0;
  return s.replace(UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    if (c === '\n') return keepNewlines ? c : '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
