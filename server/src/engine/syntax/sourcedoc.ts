/**
 * SourceDoc: one configuration document with values and source spans, whatever its syntax.
 * YAML, JSON and shell launch scripts all implement it, so rules and fixes never care which
 * syntax they are in.
 */
import type { LineIndex } from '../text';
import type { Path, Severity, Span, TextEdit } from '../types';
import { entryAt, locate, nodeAt, toValue, type Entry, type Located, type Node } from './tree';
import { CLASSIFY, type Certainty } from '../certainty';

export type Syntax = 'yaml' | 'json' | 'shell';

/** A problem found while reading the text (before any schema or rule). */
export interface SyntaxProblem {
  code: 'parse-error' | 'duplicate-key';
  severity: Severity;
  message: string;
  span: Span;
  /** The document could not be read as a whole: no schema or rule checks run on it. */
  fatal?: boolean;
  /**
   * The parser could not read the text here and went on by guessing what was meant: from this
   * offset on (the problem's own place, or where the construct it breaks begins, such as the `[`
   * never closed), the tree is a guess, and nothing is concluded from it.
   */
  guessedFrom?: number;
  /** A duplicate-key problem of a launch script: the flag passed twice, as written. */
  key?: string;
}

/** A path-level edit; each syntax turns it into minimal text edits that keep comments and style. */
export type PathEdit =
  /** Replace the value at `path`, or insert the key (creating missing parents) when absent. */
  | { op: 'set'; path: Path; value: unknown; quote?: 'single' | 'double' }
  /** Rename the key at `path`, keeping its value and position. */
  | { op: 'rename'; path: Path; key: string }
  /** Remove the entry at `path` (the key and its value). */
  | { op: 'remove'; path: Path };

/** Where a completion request stands. */
export interface CompletionSite {
  /** Path of the map whose keys (or of the entry whose value) is being completed. */
  path: Path;
  kind: 'key' | 'value';
  /** The text under the cursor to be replaced by the completion. */
  replace: Span;
  /** What has been typed so far (the prefix to match). */
  typed: string;
  /** Keys already present in the map (for key completion). */
  existing: string[];
}

export interface SourceDoc {
  readonly syntax: Syntax;
  /** The whole file's text (shared by every document of a multi-document file). */
  readonly text: string;
  readonly lines: LineIndex;
  /** This document's extent in the file. */
  readonly span: Span;
  /** Position of the document in its file (YAML `---` documents), from 0. */
  readonly index: number;
  readonly root: Node | undefined;
  readonly problems: readonly SyntaxProblem[];
  /** Where a finding about the document as a whole goes, when not its first line (a script's training command). */
  readonly anchor?: Span;
  node(path: Path): Node | undefined;
  entry(path: Path): Entry | undefined;
  value(path: Path): unknown;
  locate(offset: number): Located | undefined;
  /** Minimal text edits for path edits, or undefined when they cannot be made safely. */
  edit(edits: readonly PathEdit[]): TextEdit[] | undefined;
  completionSite(offset: number): CompletionSite | undefined;
}

/** The parts of SourceDoc that only depend on the tree. */
export abstract class TreeDoc implements SourceDoc {
  abstract readonly syntax: Syntax;
  abstract readonly text: string;
  abstract readonly lines: LineIndex;
  abstract readonly span: Span;
  abstract readonly index: number;
  abstract readonly root: Node | undefined;
  abstract readonly problems: readonly SyntaxProblem[];
  abstract edit(edits: readonly PathEdit[]): TextEdit[] | undefined;
  abstract completionSite(offset: number): CompletionSite | undefined;

  node(path: Path): Node | undefined {
    return nodeAt(this.root, path);
  }

  entry(path: Path): Entry | undefined {
    return entryAt(this.root, path);
  }

  value(path: Path): unknown {
    return toValue(this.node(path));
  }

  locate(offset: number): Located | undefined {
    return locate(this.root, offset);
  }

  /**
   * How a rule's read of a value through the document is known (certainty.ts): a scalar the reader
   * marked (a shell word whose text is not known, or a fallback) says so; the rest is written.
   */
  [CLASSIFY](key: string | symbol, args: readonly unknown[] | undefined, result: unknown): { certainty: Certainty; note?: string } | undefined {
    if (!args || (key !== 'node' && key !== 'value' && key !== 'entry')) return undefined;
    const n = key === 'entry' ? (result as Entry | undefined)?.value : key === 'node' ? (result as Node | undefined) : this.node(args[0] as Path);
    if (n?.kind === 'scalar' && n.unknown) return { certainty: 'unknown', note: n.unknown };
    if (n?.kind === 'scalar' && n.assumed) return { certainty: 'assumed', note: n.assumed };
    // A section (map or list) holds values of its own, each weighed when it is read.
    return n && n.kind !== 'scalar' ? undefined : { certainty: 'written' };
  }
}
