import type { CompiledValidator } from '../schema/compiled';
import type { Instance, SchemaIssue } from '../schema/check';
import type { SchemaNav } from '../schema/navigate';
import type { Path, Span } from '../types';
import type { JsonSchema } from '../schema/types';
import type { Field, Plan } from '../plan/plan';
import type { InstanceView } from '../schema/view';
import type { EngineSettings, FormatId, Tool } from '../settings';
import type { SourceDoc, Syntax } from '../syntax/sourcedoc';
import type { LauncherArg } from '../syntax/shell/types';
import type { ShellDoc } from '../syntax/shell';
import type { Evidence } from './evidence';
import type { Linked, LinkedFile, Referrer } from './link';
import type { LinkableFormat, LinkableModels } from './models';

export interface ModelInput {
  doc: SourceDoc;
  /** The schema instance and its view (formats without a schema get empty ones). */
  instance: Instance;
  view: InstanceView;
  settings: EngineSettings;
  /** The file's path, when known. */
  path?: string;
  /** A file this one refers to, read through the host and analysed as `format` (undefined without a host). */
  link<F extends LinkableFormat>(ref: string, format: F): Linked<LinkableModels[F]> | undefined;
  /** A file this one refers to, as the host found it, not analysed (a launch script's Python entry script). */
  read?(ref: string): LinkedFile;
  /** The files that refer to this one, analysed as `format`. */
  referrers<F extends LinkableFormat>(format: F): Referrer<LinkableModels[F]>[];
  /** The `accelerate launch` commands of the scripts that refer to this file as their `--config_file`. */
  launches?(): readonly LaunchCommand[];
  /** The `accelerate launch` commands, among the scripts handed to this file, that name the config at `path` (a referrer of this file) as their `--config_file`. */
  launchesOf?(path: string): readonly LaunchCommand[];
  /** The Megatron-DeepSpeed launch scripts that name this file as their `--deepspeed_config`: the first one's path, and whether every script that names it is one. */
  megatronDeepSpeed?(): { path: string; all: boolean };
  /** The Hydra launches of the scripts that name this file as their `--config-name`. */
  hydraLaunches?(): readonly HydraLaunch[];
  /** The commands of the scripts that launch this file as a fine-tuning recipe. */
  recipeLaunches?(): readonly RecipeLaunchOf[];
}

/** A command that launches a fine-tuning recipe (formats/trainer/launch.ts reads them). */
export interface RecipeLaunch {
  /** The recipe as the command names it, and where. */
  ref: string;
  span: Span;
  by: 'llamafactory-cli' | 'script';
  /** The recipe keys the command line sets (value when known): they win over the file's. */
  overrides: Map<string, string | undefined>;
  /** Where each override is written in the command (`key=value`), when the command reads it as one value (llamafactory-cli). */
  overrideSpans?: Map<string, Span>;
  /** Why the command may set more keys than `overrides` shows, when it may. */
  open?: string;
  /** The processes `llamafactory-cli` starts, or why that is not known (a script's launcher is read by its own reader). */
  world?: Field<number>;
  worldUnknown?: string;
}

/** A command of another file that launches this one as a recipe. */
export interface RecipeLaunchOf {
  path: string;
  doc: ShellDoc;
  launch: RecipeLaunch;
}

/** A Hydra launch of another file that names this one as its config: the keys it overrides (value when known), and whether it may override more. */
export interface HydraLaunch {
  path: string;
  overrides: ReadonlyMap<string, string | undefined>;
  open?: string;
}

/** An `accelerate launch` command of another file that names this one as its config, with its options as written. */
export interface LaunchCommand {
  path: string;
  args: ReadonlyMap<string, LauncherArg>;
  /** Why the command may pass more than `args` shows (options not shown, a branch not decided), when it may. */
  open?: string;
  /** Whether the program it starts builds a Transformers Trainer: why, when it does (`buildsTrainer`; read only when asked). */
  trainer?(): string | undefined;
}

/** What the engine knows about one config format. Adding a format = writing one of these. */
export interface FormatSupport<M = unknown> {
  id: FormatId;
  title: string;
  /** How messages name the tool that reads the file ("accelerate", "DeepSpeed"). */
  toolName: string;
  syntaxes: readonly Syntax[];
  /** The tool whose version the format's version-aware checks follow. */
  tool: Tool;
  schema?: { json: JsonSchema; validate: CompiledValidator };
  /**
   * Whether the document is a config of this format, by weight of evidence (formats/evidence.ts):
   * the decision, a score (the highest claim wins) and why; `path` is its path, when known.
   */
  detect(doc: SourceDoc, path?: string): Evidence;
  /**
   * Builds the schema instance itself, for formats whose keys are not the schema's property names
   * (flags, Bridge and NeMo paths); returns the keys it could not place as unknown-key issues.
   */
  instance?(doc: SourceDoc, nav: SchemaNav, settings: EngineSettings, read?: (ref: string) => LinkedFile): { instance: Instance; issues: SchemaIssue[] };
  /**
   * Keeps only the schema issues the format can stand behind (formats that reuse another tool's
   * schema where only some keys mean the same thing).
   */
  keepIssue?(issue: SchemaIssue): boolean;
  /** The schema path of a document path (for hover and completion), for such formats. */
  schemaPath?(doc: SourceDoc, path: Path): Path | undefined;
  /** The keys that may be written in the mapping at `path`: spelled key and schema path of each. */
  keysAt?(doc: SourceDoc, path: Path): { key: string; schemaPath: Path }[] | undefined;
  /**
   * Where to write an argument given by schema path (for fixes that add or rename one), for formats
   * whose keys are not the schema's property names; undefined when the format cannot write it.
   */
  writePath?(model: M, schemaPath: Path): Path | undefined;
  /**
   * Why the tool reading this document may accept keys the schema does not know (a fork of the tool,
   * an entry script that adds its own flags), if it may: renaming or removing a key is then a
   * decision, not a correction.
   */
  openKeys?(doc: SourceDoc, settings: EngineSettings): string | undefined;
  /**
   * What the tool does with a key its config lacks, where it differs from the schema's
   * `x-unknown-key-effect`: `skipped` when it passes over it and goes on (Megatron Bridge logs
   * "not found in config object … Skipping"; NeMo copies only the fields the installed Megatron Core's
   * config classes have). Nothing is then refused, whatever release is targeted.
   */
  unknownKeys?: 'skipped';
  /**
   * Per document, where the tool neither refuses nor reports a key it lacks but keeps it unread
   * (`ignored`: Megatron-LM's `--yaml-cfg` loads the whole YAML into a namespace and reads the fields
   * it knows), whatever the schema's `x-unknown-key-effect` says.
   */
  unknownKeysIn?(doc: SourceDoc): 'ignored' | undefined;
  /**
   * The fork of the tool that reads the document (Megatron-DeepSpeed), when the document shows it:
   * its own flags and the ones it kept are not judged against upstream's.
   */
  fork?(doc: SourceDoc, settings: EngineSettings): string | undefined;
  /**
   * The oldest release that could read the document as written, from what it writes (a flag a later
   * release added): on an older one it stops anyway, so only releases from this one on are weighed.
   */
  releaseFloor?(doc: SourceDoc): string | undefined;
  /**
   * What the document's context says about the tool that reads it, when the format can tell (a
   * launch script's PYTHONPATH names the Megatron-LM that runs): settings that replace the host's
   * (the checkout of that Megatron), and the release, when known. `read` reads files through the host.
   */
  context?(doc: SourceDoc, settings: EngineSettings, read?: (ref: string) => LinkedFile): { settings?: EngineSettings } | undefined;
  /** The format's model of the document, read by its rules. */
  model?(input: ModelInput): M;
  /** File references in the model (for document links), with where they resolved. */
  links?(model: M): { ref: string; at: Path; target?: string }[];
  /**
   * The launches that replace the value at `path` on their command line, in words, when every known
   * launch of the file does (the file's value is then never what runs); undefined otherwise.
   */
  overridden?(model: M, path: Path): string | undefined;
  /** The parallel layout the document describes, for the layout rules, hovers and `shardwise layout`. */
  plan?(model: M, settings: EngineSettings): Plan | undefined;
  /**
   * A finding's message as the known release `release` reads it: the flags and values its advice names
   * in the spelling that release has (a later spelling it lacks becomes the earlier one), a quote of
   * what the document writes kept as written.
   */
  messageAt?(message: string, release: string, doc: SourceDoc): string;
}

/**
 * How messages name the releases a format's schema versions count: Megatron Core's for Megatron
 * Bridge and NeMo files (they read Megatron Core's arguments), else the tool's own.
 */
export function releaseName(format: Pick<FormatSupport, 'tool' | 'toolName'> | undefined): string {
  return format?.tool === 'megatron-core' && format.toolName !== 'Megatron-LM' ? 'Megatron Core' : (format?.toolName ?? 'the tool');
}
