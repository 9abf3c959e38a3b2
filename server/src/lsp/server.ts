/**
 * The language server: LSP wiring around the engine. Only `server/src/lsp` imports
 * vscode-languageserver. This file connects each request and notification to a small named
 * handler (`handlers/`); the state lives in `workspace.ts` (documents, the analysis of each one's
 * newest version, settings, scheduling), what the client supports in `client.ts`, and protocol
 * conversion and parameter checks in `convert.ts`. Disk access and the cross-file graph are the
 * host's (`server/src/host/`): an edit of a DeepSpeed JSON (in the editor or on disk) re-analyses
 * the Accelerate configs that read it, and an edit of such a config re-analyses the JSON it points
 * at (its referrers changed).
 *
 * What a client sends is checked before it is used: a request whose document, position or range is
 * malformed is answered with InvalidParams, a malformed document notification is dropped (logged),
 * positions past the end of a line or of the document are clamped as the protocol says, and every
 * range sent back lies inside the document it names (`toRange`). The lifecycle and the framing are
 * enforced underneath (`transport.ts`).
 */
import { DidChangeConfigurationNotification, DidChangeWatchedFilesNotification, type Connection, type InitializeParams, type InitializeResult } from 'vscode-languageserver/node';
import { explain } from '../engine';
import { PROJECT_CONFIG_NAMES, type ProjectConfigs } from '../host/project-config';
import { LAYOUT_PICTURE_REQUEST, LAYOUT_REQUEST, PLAN_LAYOUTS_REQUEST, RULE_DOCUMENTATION_REQUEST, type ClientSettings } from '../protocol';
import { onPlanLayouts } from './handlers/plan';
import { readInitialize, serverCapabilities } from './client';
import { isObject, pathOf } from './convert';
import { onCodeAction, onCodeActionResolve, onCodeLens, onExecuteCommand } from './handlers/actions';
import { onPullDiagnostics } from './handlers/diagnostics';
import { onCompletion, onDefinition, onDocumentLinks, onDocumentSymbol, onFoldingRanges, onHover, onLayout, onLayoutPicture } from './handlers/navigation';
import { checkedDocumentNotifications } from './notifications';
import { URI } from './uri';
import { Workspace } from './workspace';

export { toRange } from './convert';

/**
 * The files whose changes on disk matter, registered for `workspace/didChangeWatchedFiles` when the
 * client lets the server do so: project settings (`.shardwise.yaml`, `pyproject.toml`), the Python of
 * a repository (its `add_argument` calls define flags; a Megatron checkout's argument parser is one),
 * the JSON files configs refer to, and configs that refer to one while they are closed. Broad globs:
 * which JSON a config reads changes with every edit, and a change to an unrelated file costs one lookup.
 */
export const WATCHED_GLOBS = [
  ...PROJECT_CONFIG_NAMES.map((n) => `**/${n}`),
  '**/pyproject.toml',
  '**/*.py',
  '**/*.json',
  '**/*.yaml',
  '**/*.yml',
  // Dependency files pin the releases a config is checked against.
  '**/requirements*.txt',
  '**/setup.cfg',
  '**/*.lock',
];

/** The custom request answering the server's per-document state sizes (for health checks and tests). */
export const STATUS_REQUEST = 'shardwise/serverStatus';

export interface ServerOptions {
  /** Reads `.shardwise.yaml` files (tests may replace it). */
  projectConfigs?: ProjectConfigs;
}

/** Wires a connection to one workspace: each request and notification to its handler. */
export function startServer(connection: Connection, options: ServerOptions = {}): void {
  const ws = new Workspace(connection, options.projectConfigs);

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const init = readInitialize(params);
    ws.client = init.features;
    ws.roots = init.roots;
    ws.clientSettings = init.settings;
    return serverCapabilities(ws.client);
  });
  connection.onInitialized(() => registerForChanges(connection, ws));

  ws.documents.onDidOpen((e) => ws.opened(e.document));
  ws.documents.onDidChangeContent((e) => ws.changed(e.document));
  ws.documents.onDidClose((e) => ws.closed(e.document));
  connection.onDidChangeConfiguration((change) => {
    const pushed = isObject(change) && isObject(change.settings) ? (change.settings as { shardwise?: ClientSettings }).shardwise : undefined;
    ws.settingsChanged(isObject(pushed) ? pushed : undefined);
  });
  connection.onDidChangeWatchedFiles((change) => {
    const changes = (isObject(change) && Array.isArray(change.changes) ? change.changes : []).filter((c) => isObject(c) && typeof c.uri === 'string');
    ws.filesChanged(changes.map((c) => ({ path: URI.fsPath(c.uri), display: URI.path(c.uri) ?? '' })));
  });

  connection.onDocumentLinks((p) => onDocumentLinks(ws, p));
  connection.onDefinition((p) => onDefinition(ws, p));
  connection.onHover((p) => onHover(ws, p));
  connection.onCompletion((p) => onCompletion(ws, p));
  connection.onCodeAction((p) => onCodeAction(ws, p));
  connection.onCodeActionResolve((a) => onCodeActionResolve(ws, a));
  connection.onCodeLens((p) => onCodeLens(ws, p));
  connection.onExecuteCommand((p) => onExecuteCommand(ws, connection, p));
  connection.languages.diagnostics.on((p) => onPullDiagnostics(ws, p));
  connection.onDocumentSymbol((p) => onDocumentSymbol(ws, p));
  connection.onFoldingRanges((p) => onFoldingRanges(ws, p));
  connection.onRequest(LAYOUT_REQUEST, (p: unknown) => onLayout(ws, p));
  connection.onRequest(LAYOUT_PICTURE_REQUEST, (p: unknown) => onLayoutPicture(ws, p));
  connection.onRequest(PLAN_LAYOUTS_REQUEST, (p: unknown) => onPlanLayouts(ws, p));
  connection.onRequest(RULE_DOCUMENTATION_REQUEST, (p: { id?: string }) => (isObject(p) && typeof p.id === 'string' ? explain(p.id) ?? null : null));
  connection.onRequest(STATUS_REQUEST, () => ws.status());
  connection.onShutdown(() => ws.shutdown());

  ws.documents.listen(checkedDocumentNotifications(connection));
  connection.listen();
}

/** After `initialized`: settings and watched files registered where the client allows, folder changes followed. */
function registerForChanges(connection: Connection, ws: Workspace): void {
  if (ws.client.pullSettings) void connection.client.register(DidChangeConfigurationNotification.type, { section: 'shardwise' });
  const noWatch = 'restart the server after editing .shardwise.yaml or pyproject.toml; a linked file changed on disk is read at the next edit of the config, and a repository\'s Python when a file of it is opened';
  if (ws.client.watchFiles) {
    void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: WATCHED_GLOBS.map((globPattern) => ({ globPattern })) }).catch((err) => {
      connection.console.warn(`shardwise: the editor refused to watch files for the server (${(err as Error)?.message ?? err}): ${noWatch}`);
    });
  } else {
    connection.console.info(`shardwise: the editor does not let the server watch files (workspace.didChangeWatchedFiles.dynamicRegistration): ${noWatch}`);
  }
  if (!ws.client.watchFolders) return;
  try {
    connection.workspace.onDidChangeWorkspaceFolders((e) => {
      const uris = (list: unknown) => (Array.isArray(list) ? list : []).flatMap((f) => (isObject(f) ? pathOf(f.uri) : []));
      ws.foldersChanged(uris(e?.added), uris(e?.removed));
    });
  } catch {
    // The client does not send folder changes: the folders of initialize stay.
  }
}
