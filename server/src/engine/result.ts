/**
 * What an analysis takes and gives: the host's input and the findings, documents, links and
 * dependencies of one file. Types only; `analyze.ts` fills them.
 */
import type { Directives } from './directives';
import type { FormatSupport } from './formats/format';
import type { LinkedFile } from './formats/link';
import type { Field, Plan } from './plan/plan';
import type { Instance, SchemaIssue } from './schema/check';
import type { SchemaNav } from './schema/navigate';
import type { EngineSettings, FormatId } from './settings';
import type { SourceDoc, Syntax } from './syntax/sourcedoc';
import type { LineIndex } from './text';
import type { Finding, Path, Span } from './types';
import type { SyntaxTrial } from './verify';

export type { LinkedFile } from './formats/link';

export interface FileInput {
  /** File path or URI path, for format associations and messages. */
  path?: string;
  text: string;
  /** The editor's language id, when known (`yaml`, `json`, `shellscript`; `sh` or `bash` from editors other than VS Code). */
  languageId?: string;
  /**
   * Reads a file this one refers to (an Accelerate config's `deepspeed_config_file`). The host owns
   * file access: it resolves `ref` the way the tool would (see LinkedFile.tried) and returns the text.
   */
  resolve?: (ref: string) => LinkedFile;
  /** Files that refer to this one (the Accelerate configs pointing at this DeepSpeed JSON), from the host. */
  referrers?: readonly { path: string; text: string }[];
  /**
   * The host's time budget: called when an analysis starts (each analysis of a fix's check too),
   * it gives the check asked before each rule, which returns a reason to stop ("it ran for 10.0 s,
   * past the 10 s budget") or undefined to go on. The rules that did not run are named in a
   * finding; the engine keeps no clock of its own.
   */
  budget?: () => () => string | undefined;
}

/** A file reference in a config, for document links and go-to-definition. */
export interface FileLink {
  /** The span of the reference (the path as written). */
  span: Span;
  ref: string;
  /** The resolved path, when the host found the file. */
  target?: string;
}

/** Why a document was read as its format, or as none: for `check --verbose` and the hover. */
export interface Detection {
  /** What chose the format (`none`: nothing did, the document is not read). */
  by: 'directive' | 'association' | 'link' | 'content' | 'none';
  /** One sentence: "read as an Accelerate config: `distributed_type`, … are Accelerate keys, 6 of 7 top-level keys known". */
  reason: string;
  /**
   * The formats that found something of theirs in the document and did not claim it, each with why
   * ("not read as an Accelerate config: … `fsdp_config` alone is not enough"); those with a
   * distinctive key or sign first.
   */
  nearMisses: { format: FormatId; reason: string; strong: boolean }[];
}

export interface DocAnalysis<M = unknown> {
  doc: SourceDoc;
  format: FormatSupport<any> | undefined;
  /** How the format was chosen, for hovers and `layout`. */
  formatReason: string;
  /** Why the document was read as its format (or not read), with the formats that came close. */
  detection: Detection;
  settings: EngineSettings;
  nav: SchemaNav | undefined;
  instance: Instance | undefined;
  /** The format's model of the document (undefined when the format gives none or the document is not readable as it). */
  model: M | undefined;
  issues: SchemaIssue[];
  /** The parallel layout, when the format describes one. */
  plan: Plan | undefined;
  /** File references in the document (document paths) and where they resolved. */
  links: { ref: string; at: Path; target?: string }[];
  /** The release of the tool that reads it, when the document's context says (see rules/release.ts). */
  release?: Field<string | undefined>;
}

export interface FileAnalysis {
  text: string;
  lines: LineIndex;
  syntax: Syntax;
  directives: Directives;
  docs: DocAnalysis[];
  findings: Finding[];
  /** File references (`deepspeed_config_file`) and where they resolved. */
  links: FileLink[];
  /** Paths of the other files the analysis read (linked files and referrers): re-analyse when they change. */
  dependencies: string[];
  /** What edits offered on this text are tried against before they are offered (see verify.ts). */
  trial?: SyntaxTrial;
}
