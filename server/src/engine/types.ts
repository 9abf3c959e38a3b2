/**
 * Core value types shared by every layer of the engine.
 * Offsets are UTF-16 code-unit offsets into the file text (as JavaScript strings and LSP use them).
 */

import type { LineIndex, Span } from './text';

export type { Position, Range, Span } from './text';

export type Severity = 'error' | 'warning' | 'information' | 'hint';
export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'information', 'hint'];

/** One text replacement, by offsets in the original text. */
export interface TextEdit {
  span: Span;
  newText: string;
}

export type Applicability = 'safe' | 'unsafe';

export interface Fix {
  title: string;
  edits: TextEdit[];
  /** The kind the rule declares the fix as (see `Rule.fixes`), and its applicability. */
  kind: string;
  applicability: Applicability;
  /** The rule recommends this fix for its finding (at most one per finding). */
  recommended: boolean;
  /**
   * The fix an editor may apply on its own (fix-all, "auto fix"): recommended, safe, and for a
   * finding of error or warning level. At most one per finding.
   */
  preferred: boolean;
  /** The document paths the fix writes (`0:MODEL_ARGS.--tp`), so that a set of fixes never writes one twice. */
  touches: string[];
  /**
   * Edits to another file the fix also makes (a value moved into the DeepSpeed JSON), with that
   * file's line index for positions. Such fixes are never preferred: fix-all stays within a file.
   */
  otherFiles?: { path: string; edits: TextEdit[]; lines: LineIndex }[];
}

/**
 * What a finding says about the text it is on, for editors that show it (struck through, faded):
 * `deprecated` for a renamed or removed key, `unnecessary` for a setting the tool ignores.
 */
export type FindingTag = 'deprecated' | 'unnecessary';

/** Another place that takes part in a finding: the other key of a conflict, the file that overrides. */
export interface RelatedLocation {
  /** Another file's path, as the host gave it; absent for a place in the finding's own file. */
  path?: string;
  span: Span;
  /** The other file's line index (for positions of `span`), when `path` is set. */
  lines?: LineIndex;
  message: string;
}

export interface Finding {
  /** Rule id (kebab-case, public API). */
  code: string;
  severity: Severity;
  message: string;
  span: Span;
  tags?: FindingTag[];
  /** The other places the finding is about (written keys only), in this file or a linked one. */
  related?: RelatedLocation[];
  /**
   * What the finding assumes (a fallback, one arm of a branch, the default hardware, the newest
   * release): such a finding is never an error, whatever level its rule is set to.
   */
  assumed?: string[];
  /**
   * The fixes offered for the finding, made into text edits (and re-checked, for rules that ask)
   * on the first call: diagnostics never pay for them.
   */
  fixes(): Fix[];
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
