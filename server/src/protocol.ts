/**
 * What the client and the server say to each other beyond LSP. No imports: both sides use it.
 */

/** Returns the markdown documentation of a rule (`{ id }` → string | null). */
export const RULE_DOCUMENTATION_REQUEST = 'shardwise/ruleDocumentation';

/** Returns the layout of every document of a file as markdown (`{ uri }` → string | null). */
export const LAYOUT_REQUEST = 'shardwise/layout';

/** Client-side command behind the layout code lens: shows the layout of a file. */
export const SHOW_LAYOUT_COMMAND = 'shardwise.showLayout';

/** Client-side command behind the "Show documentation for <id>" code action. */
export const SHOW_RULE_DOCUMENTATION_COMMAND = 'shardwise.showRuleDocumentation';

/**
 * What a client passes in `initializationOptions.clientCommands`: the client-side commands above
 * that it implements. Code lenses and code actions use them there, and otherwise the server's own
 * commands (`workspace/executeCommand`), which every client can run.
 */
export interface InitializationOptions {
  settings?: ClientSettings;
  clientCommands?: string[];
}

/** Server-side command behind the layout code lens for other clients (`[uri]` → markdown | null; shown with window/showMessage). */
export const SERVER_SHOW_LAYOUT_COMMAND = 'shardwise.server.showLayout';

/** Server-side command behind "Show documentation for <id>" for other clients (`[id]`: opens the rule's page with window/showDocument). */
export const SERVER_SHOW_RULE_DOCUMENTATION_COMMAND = 'shardwise.server.showRuleDocumentation';

/** The `shardwise.*` settings, as the client sends them. */
export interface ClientSettings {
  hardware?: string | null;
  gpusPerNode?: number | null;
  nvlinkDomain?: number | null;
  rules?: Record<string, string>;
  targetVersions?: { accelerate?: string | null; deepspeed?: string | null; megatronCore?: string | null; transformers?: string | null };
  files?: { associations?: Record<string, string> };
  model?: string | null;
  seqLength?: number | null;
  microBatchSize?: number | null;
  /** Files larger than this many KiB are reported, not analysed. */
  maxFileSizeKB?: number | null;
}

/** The code action kind of "fix all": safe fixes only, re-checked as a set (`editor.codeActionsOnSave`). */
export const FIX_ALL_KIND = 'source.fixAll.shardwise';
export const FIX_ALL_TITLE = 'Fix all safe Shardwise problems';

/**
 * Returns the picture of the first layout of a file (`{ uri, colourBy? }` → LayoutPicture | null):
 * the SVG and the degrees it shows with the range that sets each, for the layout view.
 */
export const LAYOUT_PICTURE_REQUEST = 'shardwise/layoutPicture';

export interface LayoutPicture {
  /** The document version the picture is of. */
  version: number;
  svg: string;
  degrees: { name: string; value: number; range?: { start: { line: number; character: number }; end: { line: number; character: number } } }[];
}

/** Client-side command behind "Plan a layout for this model…" (`[uri, docIndex]`): a quick pick of the planner's layouts. */
export const PLAN_LAYOUT_COMMAND = 'shardwise.planLayout';

/** Server-side command behind it for other clients (`[uri, docIndex]`): the layouts as a message with one button each. */
export const SERVER_PLAN_LAYOUT_COMMAND = 'shardwise.server.planLayout';

/**
 * Returns the planner's layouts for a document (`{ uri, docIndex }` → PlannedLayouts): each with the
 * edit that writes it, checked against the document version it was made for.
 */
export const PLAN_LAYOUTS_REQUEST = 'shardwise/planLayouts';

export interface PlannedLayouts {
  version: number;
  /** The current layout's estimated step, when the planner's model reads it. */
  current?: string;
  layouts: { label: string; description: string; changes: string; edit: { changes: Record<string, { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }[]> } }[];
  /** Why there is nothing to offer. */
  problem?: string;
}
