/**
 * Core value types shared by every layer of the engine.
 * Offsets are UTF-16 code-unit offsets into the file text (as JavaScript strings and LSP use them).
 */

export type Severity = 'error' | 'warning' | 'information' | 'hint';
export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'information', 'hint'];

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

/** One text replacement, by offsets in the original text. */
export interface TextEdit {
  span: Span;
  newText: string;
}

export interface Fix {
  title: string;
  edits: TextEdit[];
  /** The fix an editor may apply on its own (e.g. fix-all); at most one per finding. */
  preferred?: boolean;
  /**
   * Edits to another file the fix also makes (a value moved into the DeepSpeed JSON), with that
   * file's line index for positions. Such fixes are never preferred: fix-all stays within a file.
   */
  otherFiles?: { path: string; edits: TextEdit[]; lines: import('./text').LineIndex }[];
}

export interface Finding {
  /** Rule id (kebab-case, public API). */
  code: string;
  severity: Severity;
  message: string;
  span: Span;
  fixes: Fix[];
}

/** A key or an array index. */
export type Segment = string | number;
export type Path = readonly Segment[];

export function pathToString(path: Path): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out ? `.${seg}` : seg;
  }
  return out;
}

export function samePath(a: Path, b: Path): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}
