/**
 * Files a config refers to (an Accelerate config's `deepspeed_config_file`) and files that refer to
 * it, as the host found them and as the engine read them. Types only.
 */
import type { Plan } from '../plan/plan';
import type { SourceDoc } from '../syntax/sourcedoc';

/** A file one config refers to, as the host found it. */
export interface LinkedFile {
  /** The reference as written. */
  ref: string;
  /** Where it was found. */
  path?: string;
  /** Its text, when it could be read. */
  text?: string;
  /** Every location tried, in order (for a "not found" message). */
  tried: string[];
  /**
   * When no location could be read but one exists: the first such location and why it cannot be
   * used, worded to follow the path ("is a directory", "is a symbolic link loop", "is 2.0 GiB, over
   * the 8 MiB limit"). Absent when nothing is there at all.
   */
  problem?: { path: string; reason: string };
  /**
   * When nothing was found and a location lies in a git submodule the repository pins but has not
   * checked out: that submodule (the host asks git for it). What runs there is the pinned commit.
   */
  submodule?: Submodule;
  /** When nothing was found: the deepest folder on the path of the first location tried that exists here. */
  deepestFolder?: string;
}

/** A git submodule: its folder (absolute), where it is cloned from, and the commit the repository pins. */
export interface Submodule {
  path: string;
  url: string;
  commit: string;
}

/** A linked file read as its format: its document, and the model and layout that format gives it. */
export interface LinkedAnalysis<M> {
  doc: SourceDoc;
  /** Undefined when the document is not readable as the format (a syntax error, a root that is not a map). */
  model: M | undefined;
  plan: Plan | undefined;
}

/** A linked file, analysed as the format it is referred to as (no rules, no further links). */
export interface Linked<M> extends LinkedFile {
  /** False when no host resolver was given (the CLI on stdin, a unit test): nothing can be said about the file. */
  resolver: boolean;
  analysis?: LinkedAnalysis<M>;
}

/** A file that refers to this one, read as the format that refers. */
export interface Referrer<M> {
  path: string;
  analysis: LinkedAnalysis<M>;
}
