import type { CompiledValidator } from '../schema/compiled';
import type { Instance } from '../schema/check';
import type { JsonSchema } from '../schema/types';
import type { Plan } from '../plan/plan';
import type { InstanceView } from '../schema/view';
import type { EngineSettings, FormatId, Tool } from '../settings';
import type { SourceDoc, Syntax } from '../syntax/sourcedoc';

export interface ModelInput {
  doc: SourceDoc;
  /** The schema instance and its view (formats without a schema get empty ones). */
  instance: Instance;
  view: InstanceView;
  settings: EngineSettings;
  /** The file's path, when known. */
  path?: string;
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
  /** A positive score when the document looks like this format (the highest score wins). */
  detect(doc: SourceDoc): number;
  /** The format's model of the document, read by its rules. */
  model?(input: ModelInput): M;
  /** The parallel layout the document describes, for the layout rules, hovers and `shardwise layout`. */
  plan?(model: M, settings: EngineSettings): Plan | undefined;
}
