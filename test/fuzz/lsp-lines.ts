/**
 * An independent line splitter as the LSP specification defines lines: `\r\n`, `\r` and `\n` end
 * a line (nothing else: not U+2028, U+2029 or NEL), characters are UTF-16 code units. The oracle
 * checks the engine's LineIndex against it.
 */
export class LspLines {
  /** Offset where each line starts. */
  readonly starts: number[] = [0];
  /** Offset where each line's content ends (before its line break). */
  readonly ends: number[] = [];

  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 13 || c === 10) {
        this.ends.push(i);
        if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
        this.starts.push(i + 1);
      }
    }
    this.ends.push(text.length);
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** The line and character of an offset (the character may lie past the content when the offset is inside a line break). */
  position(offset: number): { line: number; character: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: offset - this.starts[lo] };
  }

  lineLength(line: number): number {
    return this.ends[line] - this.starts[line];
  }
}
