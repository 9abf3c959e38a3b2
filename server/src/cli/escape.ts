/**
 * Output that a file cannot abuse. File paths, messages, fix titles and notes carry text from the
 * input (a key, a value, a file name); written raw, an escape sequence in one could clear the
 * terminal, forge a hyperlink or a line of output, and a bidi override could make a line read
 * differently from what it says.
 *
 * One notation, for the text output and every line on stderr (`escapeText`), the one the engine
 * uses for the text it quotes in messages (`escapeControls` in engine/text.ts), JavaScript's:
 *   - `\n`, `\r`, `\t` for a newline, a carriage return, a tab;
 *   - `\xHH` for the other C0 controls (U+0000–U+001F: ESC is `\x1b`), DEL (U+007F) and the C1
 *     controls (U+0080–U+009F: CSI is `\x9b`);
 *   - `\uHHHH` for the characters that reorder or hide text: the bidi embeddings, overrides and
 *     isolates (U+202A–U+202E, U+2066–U+2069), the marks U+061C, U+200E, U+200F, the line and
 *     paragraph separators U+2028, U+2029, and a lone surrogate.
 * A backslash is written as it is: the notation is for reading, not a round trip (and text the
 * engine already escaped is not escaped twice).
 *
 * JSON and SARIF (`jsonText`): JSON.stringify already writes C0 as `\u00HH`; the others above are
 * written as `\uHHHH` too, so the output bytes hold none of them and a parsed value is exactly the
 * input's.
 */
import { escapeControls } from '../engine/text';

/** What JSON.stringify leaves raw inside strings (it escapes C0 and lone surrogates itself). */
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `s` with every control and text-reordering character in the notation above; one line of output at most. */
export function escapeText(s: string): string {
  return escapeControls(String(s));
}

/** Several lines of output (a layout table): each line escaped, the newlines between them kept. */
export function escapeLines(s: string): string {
  return String(s).split('\n').map(escapeText).join('\n');
}

/** JSON.stringify, with DEL, C1 and the text-reordering characters written as `\uHHHH`. */
export function jsonText(value: unknown, indent = 2): string {
  return JSON.stringify(value, null, indent).replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
