/**
 * What the client declared at `initialize`, read once (missing or malformed parts read as "not
 * supported"), and the capabilities the server answers with.
 */
import { CodeActionKind, TextDocumentSyncKind, type InitializeParams, type InitializeResult } from 'vscode-languageserver/node';
import { settingsFromClient, type EngineSettings } from '../engine';
import { FIX_ALL_KIND, SERVER_PLAN_LAYOUT_COMMAND, SERVER_SHOW_LAYOUT_COMMAND, SERVER_SHOW_RULE_DOCUMENTATION_COMMAND, type InitializationOptions } from '../protocol';
import { SHARDWISE_VERSION } from '../release';
import { isObject, rootsOf, type DiagnosticSupport } from './convert';

export interface ClientFeatures extends DiagnosticSupport {
  /** `workspace/configuration`: settings are pulled per document. */
  pullSettings: boolean;
  /** Workspace folders change while the server runs. */
  watchFolders: boolean;
  definitionLinks: boolean;
  snippets: boolean;
  hierarchicalSymbols: boolean;
  foldingLimit: number | undefined;
  /** Dynamic registration of `workspace/didChangeWatchedFiles`. */
  watchFiles: boolean;
  showDocument: boolean;
  /** `workspace/applyEdit`: the server can ask the client to change a document. */
  applyEdit: boolean;
  /** The client pulls diagnostics (`textDocument/diagnostic`): nothing is pushed to it then. */
  pull: boolean;
  pullRefresh: boolean;
  /** Code actions' edits are resolved when chosen. */
  resolveEdits: boolean;
  /** The client-side commands the client implements (`initializationOptions.clientCommands`). */
  clientCommands: Set<string>;
}

/** Before `initialize`: nothing is supported. */
export const NO_FEATURES: ClientFeatures = {
  pullSettings: false,
  watchFolders: false,
  definitionLinks: false,
  snippets: false,
  codeDescriptions: false,
  relatedInformation: false,
  diagnosticTags: new Set(),
  hierarchicalSymbols: false,
  foldingLimit: undefined,
  watchFiles: false,
  showDocument: false,
  applyEdit: false,
  pull: false,
  pullRefresh: false,
  resolveEdits: false,
  clientCommands: new Set(),
};

/** The client's features, its workspace folders and the settings it sent with `initialize`. */
export function readInitialize(params: InitializeParams): { features: ClientFeatures; roots: string[]; settings: EngineSettings } {
  const caps = (isObject(params) && isObject(params.capabilities) ? params.capabilities : {}) as InitializeParams['capabilities'];
  const published = isObject(caps.textDocument?.publishDiagnostics) ? caps.textDocument!.publishDiagnostics! : {};
  const pulled = (isObject(caps.textDocument?.diagnostic) ? caps.textDocument!.diagnostic : {}) as typeof published;
  const tagValues = [published.tagSupport?.valueSet, pulled.tagSupport?.valueSet].flatMap((v) => (Array.isArray(v) ? v : []));
  const limit = caps.textDocument?.foldingRange?.rangeLimit;
  const resolvable = caps.textDocument?.codeAction?.resolveSupport?.properties;
  const init = (isObject(params) ? params.initializationOptions : undefined) as InitializationOptions | undefined;
  const features: ClientFeatures = {
    pullSettings: caps.workspace?.configuration === true,
    watchFolders: caps.workspace?.workspaceFolders === true,
    definitionLinks: caps.textDocument?.definition?.linkSupport === true,
    snippets: caps.textDocument?.completion?.completionItem?.snippetSupport === true,
    codeDescriptions: published.codeDescriptionSupport === true || pulled.codeDescriptionSupport === true,
    relatedInformation: published.relatedInformation === true || pulled.relatedInformation === true,
    diagnosticTags: new Set((tagValues as unknown[]).filter((t): t is number => typeof t === 'number')),
    hierarchicalSymbols: caps.textDocument?.documentSymbol?.hierarchicalDocumentSymbolSupport === true,
    foldingLimit: typeof limit === 'number' && Number.isSafeInteger(limit) && limit >= 0 ? limit : undefined,
    watchFiles: caps.workspace?.didChangeWatchedFiles?.dynamicRegistration === true,
    showDocument: caps.window?.showDocument?.support === true,
    applyEdit: caps.workspace?.applyEdit === true,
    pull: isObject(caps.textDocument?.diagnostic),
    pullRefresh: caps.workspace?.diagnostics?.refreshSupport === true,
    resolveEdits: Array.isArray(resolvable) && resolvable.includes('edit'),
    clientCommands: new Set(isObject(init) && Array.isArray(init.clientCommands) ? init.clientCommands.filter((c): c is string => typeof c === 'string') : []),
  };
  let settings: EngineSettings = {};
  if (isObject(init) && isObject(init.settings)) {
    try {
      settings = settingsFromClient(init.settings);
    } catch {
      settings = {};
    }
  }
  return { features, roots: isObject(params) ? rootsOf(params) : [], settings };
}

export function serverCapabilities(client: ClientFeatures): InitializeResult {
  return {
    capabilities: {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
      hoverProvider: true,
      completionProvider: { triggerCharacters: [':', ' ', '-', '"'], resolveProvider: false },
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.RefactorRewrite, FIX_ALL_KIND], resolveProvider: true },
      codeLensProvider: { resolveProvider: false },
      documentLinkProvider: { resolveProvider: false },
      definitionProvider: true,
      documentSymbolProvider: { label: 'Shardwise' },
      foldingRangeProvider: true,
      executeCommandProvider: { commands: [SERVER_SHOW_LAYOUT_COMMAND, SERVER_SHOW_RULE_DOCUMENTATION_COMMAND, SERVER_PLAN_LAYOUT_COMMAND] },
      ...(client.pull ? { diagnosticProvider: { identifier: 'shardwise', interFileDependencies: true, workspaceDiagnostics: false } } : {}),
      workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
    },
    serverInfo: { name: 'shardwise-language-server', version: SHARDWISE_VERSION },
  };
}
