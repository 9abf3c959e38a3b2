/**
 * The language server: LSP wiring around the engine. The only code that imports
 * vscode-languageserver. Stateless apart from per-document caches that are evicted on close, and
 * the cross-file dependency graph (`graph.ts`) built from each analysis's links and dependencies:
 * an edit of a DeepSpeed JSON (in the editor or on disk) re-analyses the Accelerate configs that
 * read it, and an edit of such a config re-analyses the JSON it points at (its referrers changed).
 *
 * What a client sends is checked before it is used: a request whose document, position or range is
 * malformed is answered with InvalidParams, a malformed document notification is dropped (logged),
 * positions past the end of a line or of the document are clamped as the protocol says, and every
 * range sent back lies inside the document it names (`toRange`). The lifecycle and the framing are
 * enforced underneath (`transport.ts`).
 */
import { statSync } from 'node:fs';
import { isAbsolute, resolve as resolvePath } from 'node:path';
import {
  CodeActionKind,
  CompletionItemKind,
  DiagnosticSeverity,
  DiagnosticTag,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  FoldingRangeKind,
  InsertTextFormat,
  MessageType,
  ShowMessageNotification,
  SymbolKind,
  MarkupKind,
  TextDocumentSyncKind,
  TextDocuments,
  type CodeAction,
  type CompletionItem,
  type Connection,
  type Diagnostic,
  ErrorCodes,
  ResponseError,
  type InitializeParams,
  type InitializeResult,
  type Position,
  type Range,
  type Location,
  type LocationLink,
  type DocumentLink,
  type DocumentDiagnosticReport,
  type DocumentSymbol,
  type FoldingRange,
  type SymbolInformation,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from './uri';
import {
  analyze,
  codeActions,
  complete,
  documentSymbols,
  explain,
  foldingRanges,
  fixRound,
  hover,
  layoutLenses,
  layoutMarkdown,
  layoutText,
  mergeSettings,
  ruleById,
  ruleDocsUrl,
  settingsFromClient,
  type EngineSettings,
  type FileAnalysis,
  type FileInput,
  type Finding,
  type FindingTag,
  type OutlineKind,
  type OutlineSymbol,
  type Fix,
  type Severity,
  type Span,
  type TextEdit,
} from '../engine';
import { MEGATRON_PARSERS, PROJECT_CONFIG_NAMES, ProjectConfigs } from '../host/project-config';
import { createResolver, pathKey, readTextFile } from '../host/resolve';
import { DependencyGraph, type ClosedReferrer } from './graph';
import {
  FIX_ALL_KIND,
  FIX_ALL_TITLE,
  LAYOUT_REQUEST,
  RULE_DOCUMENTATION_REQUEST,
  SERVER_SHOW_LAYOUT_COMMAND,
  SERVER_SHOW_RULE_DOCUMENTATION_COMMAND,
  SHOW_LAYOUT_COMMAND,
  SHOW_RULE_DOCUMENTATION_COMMAND,
  type ClientSettings,
  type InitializationOptions,
} from '../protocol';
import { snippetToPlainText } from './snippet';

const TAG: Record<FindingTag, DiagnosticTag> = { unnecessary: DiagnosticTag.Unnecessary, deprecated: DiagnosticTag.Deprecated };

const SYMBOL_KIND: Record<OutlineKind, SymbolKind> = {
  section: SymbolKind.Module,
  list: SymbolKind.Array,
  key: SymbolKind.Property,
  variable: SymbolKind.Variable,
  command: SymbolKind.Function,
  flag: SymbolKind.Property,
};

/**
 * The files whose changes on disk matter, registered for `workspace/didChangeWatchedFiles` when the
 * client lets the server do so: project settings (`.shardwise.yaml`, `pyproject.toml`), a Megatron
 * checkout's argument parser, the JSON files configs refer to, and configs that refer to one while
 * they are closed. Broad globs: which JSON a config reads changes with every edit, and a change to an
 * unrelated file costs one lookup.
 */
export const WATCHED_GLOBS = [
  ...PROJECT_CONFIG_NAMES.map((n) => `**/${n}`),
  '**/pyproject.toml',
  ...MEGATRON_PARSERS.map((p) => `**/${p}`),
  '**/*.json',
  '**/*.yaml',
  '**/*.yml',
];

/** Whether a changed file is one the project settings are read from (every open document is re-checked). */
function isSettingsFile(path: string): boolean {
  const p = path.replace(/\\/g, '/');
  const name = p.slice(p.lastIndexOf('/') + 1);
  return PROJECT_CONFIG_NAMES.includes(name) || name === 'pyproject.toml' || MEGATRON_PARSERS.some((m) => p.endsWith(`/${m}`));
}

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

interface Cached {
  version: number;
  /** The text analysed: a client may send a version number twice (a regression, a reopen). */
  text: string;
  analysis: FileAnalysis;
}

type Lines = FileAnalysis['lines'];

/** The custom request answering the server's per-document state sizes (for health checks and tests). */
export const STATUS_REQUEST = 'shardwise/serverStatus';

/**
 * How long analysis waits, at most, for a stream of edits to pause: it runs once a turn of the event
 * loop passes without a new edit, or after this long under a continuous stream.
 */
const MAX_SETTLE_MS = 100;

/** At most this many referrers are given to one analysis (the engine reads no more either). */
const MAX_REFERRERS = 20;

export interface ServerOptions {
  /** Reads `.shardwise.yaml` files (tests may replace it). */
  projectConfigs?: ProjectConfigs;
}

export function startServer(connection: Connection, options: ServerOptions = {}): void {
  const documents = new TextDocuments(TextDocument);
  const cache = new Map<string, Cached>();
  const settingsCache = new Map<string, Promise<EngineSettings>>();
  const pending = new Set<string>();
  const projectConfigs = options.projectConfigs ?? new ProjectConfigs();
  /** Problems of the project settings already shown to the user (see warnSettingsProblems). */
  const shownSettingsProblems = new Set<string>();
  const graph = new DependencyGraph();
  /** Open `file:` documents by path key (their text wins over the disk when another file reads them). */
  const openByPath = new Map<string, string>();
  let canPullSettings = false;
  let canWatchFolders = false;
  let definitionLinks = false;
  /** What the client declared it supports (missing or malformed: not supported). */
  let snippets = false;
  let codeDescriptions = false;
  let relatedInformation = false;
  let diagnosticTags = new Set<number>();
  let hierarchicalSymbols = false;
  let foldingLimit: number | undefined;
  let watchFiles = false;
  let showDocument = false;
  /** The client pulls diagnostics (`textDocument/diagnostic`): nothing is pushed to it then. */
  let pull = false;
  let pullRefresh = false;
  /** A document was re-checked for a reason the client does not see (a linked file, the settings): ask it to pull again. */
  let refreshWanted = false;
  /** The last pull report per document: the same version with the same diagnostics is `unchanged`. */
  const reported = new Map<string, { key: string; resultId: string }>();
  let resultSerial = 0;
  /** The client-side commands the client implements (`initializationOptions.clientCommands`). */
  let clientCommands = new Set<string>();
  let globalSettings: EngineSettings = {};
  /** Folders a relative reference is tried against after the referring file's own folder. */
  let workspaceRoots: string[] = [];
  let resolveEdits = false;
  /** The input and settings each analysis was made from, for fix-all's re-check. */
  const inputs = new WeakMap<FileAnalysis, { input: FileInput; settings: EngineSettings }>();
  let flushScheduled = false;
  let flushing = false;
  /** Edits seen (for waiting until a burst of them pauses) and the count at the last look. */
  let edits = 0;
  let editsSeen = 0;
  let settleSince: number | undefined;
  /** After `shutdown` nothing is analysed or published any more. */
  let shutDown = false;

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    // Whatever the client announced, missing or malformed parts read as "not supported".
    const caps = (isObject(params) && isObject(params.capabilities) ? params.capabilities : {}) as InitializeParams['capabilities'];
    canPullSettings = caps.workspace?.configuration === true;
    canWatchFolders = caps.workspace?.workspaceFolders === true;
    definitionLinks = caps.textDocument?.definition?.linkSupport === true;
    snippets = caps.textDocument?.completion?.completionItem?.snippetSupport === true;
    const published = isObject(caps.textDocument?.publishDiagnostics) ? caps.textDocument!.publishDiagnostics! : {};
    const pulled = (isObject(caps.textDocument?.diagnostic) ? caps.textDocument!.diagnostic : {}) as typeof published;
    codeDescriptions = published.codeDescriptionSupport === true || pulled.codeDescriptionSupport === true;
    relatedInformation = published.relatedInformation === true || pulled.relatedInformation === true;
    const tagValues = [published.tagSupport?.valueSet, pulled.tagSupport?.valueSet].flatMap((v) => (Array.isArray(v) ? v : []));
    diagnosticTags = new Set((tagValues as unknown[]).filter((t): t is number => typeof t === 'number'));
    pull = isObject(caps.textDocument?.diagnostic);
    pullRefresh = caps.workspace?.diagnostics?.refreshSupport === true;
    hierarchicalSymbols = caps.textDocument?.documentSymbol?.hierarchicalDocumentSymbolSupport === true;
    const limit = caps.textDocument?.foldingRange?.rangeLimit;
    foldingLimit = typeof limit === 'number' && Number.isSafeInteger(limit) && limit >= 0 ? limit : undefined;
    watchFiles = caps.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    showDocument = caps.window?.showDocument?.support === true;
    const resolvable = caps.textDocument?.codeAction?.resolveSupport?.properties;
    resolveEdits = Array.isArray(resolvable) && resolvable.includes('edit');
    workspaceRoots = isObject(params) ? rootsOf(params) : [];
    const init = (isObject(params) ? params.initializationOptions : undefined) as InitializationOptions | undefined;
    if (isObject(init) && Array.isArray(init.clientCommands)) clientCommands = new Set(init.clientCommands.filter((c): c is string => typeof c === 'string'));
    if (isObject(init) && isObject(init.settings)) {
      try {
        globalSettings = settingsFromClient(init.settings);
      } catch {
        globalSettings = {};
      }
    }
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        hoverProvider: true,
        completionProvider: { triggerCharacters: [':', ' ', '-', '"'], resolveProvider: false },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND], resolveProvider: true },
        codeLensProvider: { resolveProvider: false },
        documentLinkProvider: { resolveProvider: false },
        definitionProvider: true,
        documentSymbolProvider: { label: 'Shardwise' },
        foldingRangeProvider: true,
        executeCommandProvider: { commands: [SERVER_SHOW_LAYOUT_COMMAND, SERVER_SHOW_RULE_DOCUMENTATION_COMMAND] },
        ...(pull ? { diagnosticProvider: { identifier: 'shardwise', interFileDependencies: true, workspaceDiagnostics: false } } : {}),
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: 'shardwise-language-server', version: '0.1.0' },
    };
  });

  connection.onInitialized(() => {
    if (canPullSettings) void connection.client.register(DidChangeConfigurationNotification.type, { section: 'shardwise' });
    if (watchFiles) {
      void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: WATCHED_GLOBS.map((globPattern) => ({ globPattern })) }).catch((err) => {
        connection.console.warn(`shardwise: the editor refused to watch files for the server (${(err as Error)?.message ?? err}): restart the server after editing .shardwise.yaml or pyproject.toml; a linked file changed on disk is read at the next edit of the config`);
      });
    } else {
      connection.console.info('shardwise: the editor does not let the server watch files (workspace.didChangeWatchedFiles.dynamicRegistration): restart the server after editing .shardwise.yaml or pyproject.toml; a linked file changed on disk is read at the next edit of the config');
    }
    if (canWatchFolders) {
      try {
        connection.workspace.onDidChangeWorkspaceFolders((e) => {
          const uris = (list: unknown) => (Array.isArray(list) ? list : []).flatMap((f) => (isObject(f) ? pathOf(f.uri) : []));
          const removed = new Set(uris(e?.removed).map(pathKey));
          workspaceRoots = [...workspaceRoots.filter((r) => !removed.has(pathKey(r))), ...uris(e?.added)];
          // References resolve against the folders: every document that resolved one is re-checked.
          for (const uri of graph.documents()) invalidate(uri);
        });
      } catch {
        // The client does not send folder changes: the folders of initialize stay.
      }
    }
  });

  async function settingsFor(uri: string): Promise<EngineSettings> {
    let p = settingsCache.get(uri);
    if (!p) {
      p = (async () => {
        let editor = globalSettings;
        if (canPullSettings) {
          try {
            editor = settingsFromClient((await connection.workspace.getConfiguration({ scopeUri: uri, section: 'shardwise' })) as ClientSettings);
          } catch {
            editor = globalSettings;
          }
        }
        const path = URI.fsPath(uri);
        // Nearest wins: editor settings, then `.shardwise.yaml` (in-file directives win inside the engine).
        try {
          if (!path) return editor;
          const loaded = projectConfigs.forFile(path);
          warnSettingsProblems(loaded.problems);
          return mergeSettings(editor, loaded.settings);
        } catch (err) {
          connection.console.error(`shardwise: reading the project settings of ${path} failed: ${(err as Error)?.stack ?? err}`);
          return editor;
        }
      })();
      settingsCache.set(uri, p);
    }
    return p;
  }

  /**
   * A mistake in `.shardwise.yaml` or `[tool.shardwise]` (an unknown key, rule id or hardware
   * profile) is shown once, as a warning: the setting is skipped while the rest apply, where the CLI
   * stops. Shown again after the file changes if the mistake is still there.
   */
  function warnSettingsProblems(problems: readonly string[]): void {
    for (const problem of problems) {
      if (shownSettingsProblems.has(problem)) continue;
      shownSettingsProblems.add(problem);
      connection.console.warn(`shardwise: ${problem}`);
      void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message: `Shardwise: ${problem} The setting is skipped until it is corrected.` }).catch(() => undefined);
    }
  }

  function toDiagnostic(uri: string, a: FileAnalysis, f: Finding): Diagnostic {
    const d: Diagnostic = {
      range: toRange(a.lines, f.span),
      severity: SEVERITY[f.severity],
      code: f.code,
      source: 'shardwise',
      message: f.message,
    };
    if (codeDescriptions && ruleById(f.code)) d.codeDescription = { href: ruleDocsUrl(ruleById(f.code)!.id) };
    const tags = (f.tags ?? []).map((t) => TAG[t]).filter((t) => diagnosticTags.has(t));
    if (tags.length) d.tags = tags;
    if (relatedInformation && f.related?.length) {
      d.relatedInformation = f.related.map((r) => ({
        location: { uri: r.path ? uriOfPath(r.path) : uri, range: toRange(r.path && r.lines ? r.lines : a.lines, r.span) },
        message: r.message,
      }));
    }
    return d;
  }

  /**
   * Analyse the newest version of every pending document, until none is pending (a document whose
   * dependency changed while others were analysed is handled in the same pass); stale versions are
   * never analysed. Waits until a stream of edits pauses for one turn of the event loop (the
   * connection handles one message per turn), so a burst of queued edits is analysed once.
   */
  async function flush(): Promise<void> {
    flushScheduled = false;
    if (shutDown) return;
    const now = Date.now();
    if (edits !== editsSeen && (settleSince === undefined || now - settleSince < MAX_SETTLE_MS)) {
      settleSince ??= now;
      editsSeen = edits;
      flushScheduled = true;
      setImmediate(() => void flush());
      return;
    }
    settleSince = undefined;
    editsSeen = edits;
    flushing = true;
    try {
      while (pending.size > 0 && !shutDown) {
        const uri = pending.values().next().value as string;
        pending.delete(uri);
        try {
          const doc = documents.get(uri);
          if (!doc) continue;
          const settings = await settingsFor(uri);
          // A newer edit (or a dependency's) arrived while settings were read: it is pending again and
          // is handled next; a document closed (or closed and reopened) meanwhile is not analysed here.
          if (shutDown || pending.has(uri) || documents.get(uri) !== doc) continue;
          const analysis = cachedAnalysis(doc) ?? analyzeDocument(doc, settings);
          cache.set(uri, { version: doc.version, text: doc.getText(), analysis });
          if (!pull) void connection.sendDiagnostics({ uri, version: doc.version, diagnostics: analysis.findings.map((f) => toDiagnostic(uri, analysis, f)) }).catch(() => undefined);
        } catch (err) {
          connection.console.error(`shardwise: analysing ${uri} failed: ${(err as Error)?.stack ?? err}`);
        }
      }
    } finally {
      flushing = false;
      if (pull && refreshWanted && pending.size === 0 && !shutDown) {
        refreshWanted = false;
        if (pullRefresh) void connection.languages.diagnostics.refresh().catch(() => undefined);
      }
      // Scheduled while analysing (the loop exits only when nothing is pending, but be sure).
      if (pending.size > 0 && !shutDown && !flushScheduled) {
        flushScheduled = true;
        setImmediate(() => void flush());
      }
    }
  }

  function schedule(uri: string, edited = false): void {
    if (shutDown) return;
    pending.add(uri);
    if (edited) edits++;
    if (!flushScheduled && !flushing) {
      flushScheduled = true;
      // No fixed delay: the next turn of the event loop, so a burst of edits is analysed once.
      setImmediate(() => void flush());
    }
  }

  /** The cached analysis when it is of the document's current text and version. */
  function cachedAnalysis(doc: TextDocument): FileAnalysis | undefined {
    const hit = cache.get(doc.uri);
    return hit && hit.version === doc.version && hit.text === doc.getText() ? hit.analysis : undefined;
  }

  /** A dependency of the document changed: its cached analysis is stale and it is analysed again. */
  function invalidate(uri: string): void {
    if (!documents.get(uri)) return;
    cache.delete(uri);
    refreshWanted = true;
    schedule(uri);
  }

  /** Invalidates the open document at a path key, if any (other than `except`). */
  function invalidateAt(key: string, except?: string): void {
    const uri = openByPath.get(key);
    if (uri && uri !== except) invalidate(uri);
  }

  /** The text of the open document at an absolute path (unsaved edits win over the disk). */
  function openText(path: string): string | undefined {
    const uri = openByPath.get(pathKey(path));
    return uri ? documents.get(uri)?.getText() : undefined;
  }

  function analyzeDocument(doc: TextDocument, settings: EngineSettings): FileAnalysis {
    const path = URI.fsPath(doc.uri);
    const key = path ? pathKey(path) : undefined;
    const tried = new Set<string>();
    const input: FileInput = {
      path: path ?? URI.path(doc.uri),
      text: doc.getText(),
      languageId: doc.languageId,
      // Absolute as is, then the file's folder, then each workspace folder; open documents first.
      resolve: createResolver({ from: path, bases: workspaceRoots, openText, onTry: (p) => tried.add(pathKey(p)) }),
      referrers: key ? referrersFor(key, doc.uri) : undefined,
    };
    const analysis = analyze(input, settings);
    inputs.set(analysis, { input, settings });
    record(doc.uri, analysis, tried);
    return analysis;
  }

  /** Updates the graph from an analysis; a file the document now refers to, or no longer does, is re-checked. */
  function record(uri: string, analysis: FileAnalysis, tried: Set<string>): void {
    const targets = (analysis.links ?? []).flatMap((l) => (l.target ? [pathKey(l.target)] : []));
    const watched = [...tried, ...(analysis.dependencies ?? []).map(pathKey)];
    for (const key of graph.set(uri, watched, targets)) invalidateAt(key, uri);
  }

  /**
   * The files that refer to the one at `key`: open documents whose analysis resolved a reference to
   * it, then remembered closed ones (read from disk, re-checked when the file changed).
   */
  function referrersFor(key: string, self: string): { path: string; text: string }[] | undefined {
    const out: { path: string; text: string }[] = [];
    for (const uri of graph.referrersOf(key)) {
      if (uri === self || out.length >= MAX_REFERRERS) continue;
      const doc = documents.get(uri);
      const path = URI.fsPath(uri);
      if (doc && path) out.push({ path, text: doc.getText() });
    }
    for (const [closedKey, closed] of graph.closedReferrersOf(key)) {
      if (out.length >= MAX_REFERRERS) break;
      if (openByPath.has(closedKey) || closedKey === key) continue;
      const text = checkClosed(closedKey, closed);
      if (text !== undefined && closed.targets.has(key)) {
        out.push({ path: closed.path, text });
        graph.touchClosed(closedKey);
      }
    }
    return out.length ? out : undefined;
  }

  /**
   * The disk text of a remembered closed referrer; its targets are computed again when the file
   * changed since they were (it may have been closed without saving). Forgotten when unreadable.
   */
  function checkClosed(key: string, closed: ClosedReferrer): string | undefined {
    let stamp: string;
    try {
      const st = statSync(closed.path);
      if (!st.isFile()) throw new Error('not a file');
      stamp = `${st.mtimeMs}:${st.size}`;
    } catch {
      graph.forgetClosed(key);
      return undefined;
    }
    const text = readTextFile(closed.path);
    if (text === undefined) {
      graph.forgetClosed(key);
      return undefined;
    }
    if (closed.stamp !== stamp) {
      try {
        const settings = mergeSettings(globalSettings, projectConfigs.forFile(closed.path).settings);
        const a = analyze({ path: closed.path, text, resolve: createResolver({ from: closed.path, bases: workspaceRoots, openText }) }, settings);
        closed.targets = new Set((a.links ?? []).flatMap((l) => (l.target ? [pathKey(l.target)] : [])));
        closed.stamp = stamp;
      } catch {
        graph.forgetClosed(key);
        return undefined;
      }
      if (closed.targets.size === 0) {
        graph.forgetClosed(key);
        return undefined;
      }
    }
    return text;
  }

  /** The URI to show for a linked file: the open document's own URI when it is open. */
  function uriOfPath(path: string): string {
    return openByPath.get(pathKey(path)) ?? URI.file(path);
  }

  /** The analysis of the document's current version (computed now if the cache is behind). */
  async function current(uri: string): Promise<FileAnalysis | undefined> {
    const doc = documents.get(uri);
    if (!doc) return undefined;
    const hit = cachedAnalysis(doc);
    if (hit) return hit;
    const settings = await settingsFor(uri);
    // Closed while the settings were read: nothing is cached or recorded for it (reopened: start over).
    if (documents.get(uri) !== doc) return documents.get(uri) ? current(uri) : undefined;
    const analysis = cachedAnalysis(doc) ?? analyzeDocument(doc, settings);
    cache.set(uri, { version: doc.version, text: doc.getText(), analysis });
    return analysis;
  }

  documents.onDidOpen((e) => {
    const path = URI.fsPath(e.document.uri);
    if (!path) return;
    const key = pathKey(path);
    openByPath.set(key, e.document.uri);
    // Open now: its edges are recorded when it is analysed.
    graph.forgetClosed(key);
  });
  documents.onDidChangeContent((e) => {
    const uri = e.document.uri;
    schedule(uri, true);
    // The documents that read this file (its referrers, or the files it is a referrer of) are stale.
    const path = URI.fsPath(uri);
    if (path) for (const dependent of graph.dependents(pathKey(path))) if (dependent !== uri) invalidate(dependent);
  });
  documents.onDidClose((e) => {
    const uri = e.document.uri;
    cache.delete(uri);
    settingsCache.delete(uri);
    pending.delete(uri);
    reported.delete(uri);
    const edges = graph.remove(uri);
    const path = URI.fsPath(uri);
    if (path) {
      const key = pathKey(path);
      if (openByPath.get(key) === uri) {
        openByPath.delete(key);
        // Another open URI for the same file (`file:///a%20b` and `file:///a b`) takes its place.
        const other = documents.all().find((d) => d.uri !== uri && URI.fsPath(d.uri) !== undefined && pathKey(URI.fsPath(d.uri)!) === key);
        if (other) openByPath.set(key, other.uri);
      }
      // Remembered (path and targets, no text): its targets still have it as a referrer, read from disk.
      if (edges && edges.targets.size > 0) graph.rememberClosed(key, { uri, path, targets: new Set(edges.targets) });
      // Documents that read its unsaved text now read the disk.
      for (const dependent of graph.dependents(key)) invalidate(dependent);
    }
    for (const target of edges?.targets ?? []) invalidateAt(target, uri);
    if (!shutDown && !pull) void connection.sendDiagnostics({ uri, diagnostics: [] }).catch(() => undefined);
  });

  function revalidateAll(): void {
    settingsCache.clear();
    cache.clear();
    refreshWanted = true;
    for (const doc of documents.all()) schedule(doc.uri);
  }

  connection.onDidChangeConfiguration((change) => {
    if (!canPullSettings) {
      const s = (isObject(change) && isObject(change.settings) ? (change.settings as { shardwise?: ClientSettings }).shardwise : undefined);
      try {
        globalSettings = settingsFromClient(isObject(s) ? s : undefined);
      } catch {
        globalSettings = {};
      }
    }
    revalidateAll();
  });

  connection.onDidChangeWatchedFiles((change) => {
    const changes = (isObject(change) && Array.isArray(change.changes) ? change.changes : []).filter((c) => isObject(c) && typeof c.uri === 'string');
    // Project settings changed (created, edited or deleted): every open document may read them.
    if (changes.some((c) => isSettingsFile(URI.fsPath(c.uri) ?? URI.path(c.uri) ?? ''))) {
      projectConfigs.clear();
      shownSettingsProblems.clear();
      revalidateAll();
    }
    for (const c of changes) {
      const path = URI.fsPath(c.uri);
      if (!path) continue;
      const key = pathKey(path);
      // Created, changed or deleted: every document that looked there (found or not) is re-checked.
      for (const dependent of graph.dependents(key)) invalidate(dependent);
      // A remembered closed referrer changed on disk: the files it pointed at, and points at now.
      const closed = graph.closedAt(key);
      if (closed) {
        const before = [...closed.targets];
        closed.stamp = undefined;
        checkClosed(key, closed);
        for (const target of new Set([...before, ...closed.targets])) invalidateAt(target);
      }
    }
  });

  connection.onDocumentLinks(async (params) => {
    const uri = documentUri(params);
    if (uri === undefined) return invalidParams('textDocument.uri');
    const a = await current(uri);
    if (!a) return [];
    return (a.links ?? []).flatMap((l): DocumentLink[] => (l.target ? [{ range: toRange(a.lines, l.span), target: uriOfPath(l.target), tooltip: l.target }] : []));
  });

  connection.onDefinition(async (params): Promise<Location | LocationLink[] | null | ResponseError> => {
    const at = documentPosition(params);
    if (typeof at === 'string') return invalidParams(at);
    const a = await current(at.uri);
    if (!a) return null;
    const offset = a.lines.offset(at.position);
    const link = (a.links ?? []).find((l) => l.target && l.span.start <= offset && offset <= l.span.end);
    if (!link?.target) return null;
    const targetUri = uriOfPath(link.target);
    const start = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    return definitionLinks ? [{ originSelectionRange: toRange(a.lines, link.span), targetUri, targetRange: start, targetSelectionRange: start }] : { uri: targetUri, range: start };
  });

  connection.onHover(async (params) => {
    const at = documentPosition(params);
    if (typeof at === 'string') return invalidParams(at);
    const a = await current(at.uri);
    if (!a) return null;
    const h = hover(a, a.lines.offset(at.position));
    return h ? { contents: { kind: MarkupKind.Markdown, value: h.markdown }, range: toRange(a.lines, h.span) } : null;
  });

  connection.onCompletion(async (params) => {
    const at = documentPosition(params);
    if (typeof at === 'string') return invalidParams(at);
    const a = await current(at.uri);
    if (!a) return [];
    const offset = a.lines.offset(at.position);
    // The position as the client resolves it (past the end of a line: the end of that line).
    const cursor = toRange(a.lines, { start: offset, end: offset }).start;
    return complete(a, offset).map((c): CompletionItem => {
      const range = toRange(a.lines, c.replace);
      // The protocol requires a single-line range containing the cursor; anything else is sent
      // without a range, as text the client inserts at the cursor.
      // A client without snippet support gets the text a snippet would leave (each placeholder's default).
      const snippet = c.snippet && snippets;
      const text = c.snippet && !snippets ? snippetToPlainText(c.insertText) : c.insertText;
      const valid = range.start.line === cursor.line && range.end.line === cursor.line && range.start.character <= cursor.character && cursor.character <= range.end.character;
      return {
        label: c.label,
        kind: c.kind === 'value' ? CompletionItemKind.Value : c.kind === 'section' ? CompletionItemKind.Module : CompletionItemKind.Property,
        detail: c.detail,
        documentation: c.documentation ? { kind: MarkupKind.Markdown, value: c.documentation } : undefined,
        ...(valid ? { textEdit: { range, newText: text } } : { insertText: text }),
        insertTextFormat: snippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
        sortText: c.sortText,
        filterText: c.label,
        tags: c.deprecated ? [1] : undefined,
        preselect: c.preselect,
      };
    });
  });

  connection.onCodeAction(async (params) => {
    const uri = documentUri(params);
    if (uri === undefined) return invalidParams('textDocument.uri');
    const requested = rangeParam(isObject(params) ? params.range : undefined);
    if (!requested) return invalidParams('range');
    const context: Record<string, unknown> = isObject(params.context) ? params.context : {};
    const sent: Diagnostic[] = Array.isArray(context.diagnostics) ? context.diagnostics.filter((d): d is Diagnostic => isObject(d) && !!rangeParam(d.range)) : [];
    const only = Array.isArray(context.only) ? context.only.filter((k): k is string => typeof k === 'string') : undefined;
    const a = await current(uri);
    if (!a) return [];
    const edits = (list: TextEdit[]): { changes: Record<string, { range: Range; newText: string }[]> } => ({ changes: { [uri]: list.map((e) => ({ range: toRange(a.lines, e.span), newText: e.newText })) } });
    // A fix that also edits a linked file: that file's edits go to its open document, or its file URI.
    const withOtherFiles = (edit: ReturnType<typeof edits>, others: Fix['otherFiles']) => {
      for (const o of others ?? []) edit.changes[openByPath.get(pathKey(o.path)) ?? URI.file(o.path)] = o.edits.map((e) => ({ range: toRange(o.lines, e.span), newText: e.newText }));
      return edit;
    };
    const out: CodeAction[] = [];
    if (!only || only.some((k) => k.startsWith(CodeActionKind.QuickFix))) {
      const range = a.lines.span(requested);
      for (const action of codeActions(a, { start: Math.min(range.start, range.end), end: Math.max(range.start, range.end) })) {
        const f = action.finding;
        const diagnostic = f ? sent.find((d) => d.code === f.code && sameRange(toRange(a.lines, f.span), d.range)) ?? toDiagnostic(uri, a, f) : undefined;
        // "Show documentation" runs the client's own command where it has one, else the server's.
        const command = action.command?.command === SHOW_RULE_DOCUMENTATION_COMMAND && !clientCommands.has(SHOW_RULE_DOCUMENTATION_COMMAND) ? { ...action.command, command: SERVER_SHOW_RULE_DOCUMENTATION_COMMAND } : action.command;
        out.push({
          title: action.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: diagnostic ? [diagnostic] : undefined,
          isPreferred: action.preferred,
          edit: action.edits ? withOtherFiles(edits(action.edits), action.otherFiles) : undefined,
          command,
        });
      }
    }
    // Fix-all: asked for by kind only (on save, or "Fix all"), never with the quick fixes at the cursor.
    if (only?.some((k) => k === CodeActionKind.Source || FIX_ALL_KIND === k || FIX_ALL_KIND.startsWith(`${k}.`))) {
      const action: CodeAction = { title: FIX_ALL_TITLE, kind: FIX_ALL_KIND, data: { uri, version: documents.get(uri)?.version } };
      // Where the client resolves edits, the fixes are made and re-checked only when the action is chosen.
      if (resolveEdits) out.push(action);
      else {
        const fixed = fixAllEdits(a);
        if (fixed.length) out.push({ ...action, edit: edits(fixed) });
      }
    }
    return out;
  });

  connection.onCodeActionResolve(async (action) => {
    if (!isObject(action)) return invalidParams('code action');
    const data = action.data as { uri?: unknown; version?: unknown } | undefined;
    if (action.kind !== FIX_ALL_KIND || !isObject(data) || typeof data.uri !== 'string') return action;
    const uri = data.uri;
    const a = await current(uri);
    // The document changed since the action was offered: nothing is applied rather than stale edits.
    if (!a || documents.get(uri)?.version !== data.version) return action;
    const fixed = fixAllEdits(a);
    return { ...action, edit: { changes: { [uri]: fixed.map((e) => ({ range: toRange(a.lines, e.span), newText: e.newText })) } } };
  });

  /** The safe fixes of one analysis, as one re-checked set. */
  function fixAllEdits(a: FileAnalysis): TextEdit[] {
    const made = inputs.get(a);
    if (!made) return [];
    try {
      const round = fixRound(a, made.input, made.settings);
      // What was not applied, and why, for the output channel (the action itself has no room for it).
      for (const r of round.refused) connection.console.info(`shardwise: fix-all did not apply "${r.fix.title}" [${r.finding.code}]: ${r.reason}`);
      return round.edits;
    } catch (err) {
      connection.console.error(`shardwise: fix-all failed: ${(err as Error)?.stack ?? err}`);
      return [];
    }
  }

  connection.onCodeLens(async (params) => {
    const uri = documentUri(params);
    if (uri === undefined) return invalidParams('textDocument.uri');
    const a = await current(uri);
    if (!a) return [];
    return layoutLenses(a).map((l) => ({
      range: toRange(a.lines, l.span),
      command: { title: l.title, command: clientCommands.has(SHOW_LAYOUT_COMMAND) ? SHOW_LAYOUT_COMMAND : SERVER_SHOW_LAYOUT_COMMAND, arguments: [uri] },
    }));
  });

  /** A message for the user (a notification: every client shows one, and nothing waits for an answer). */
  const show = (type: MessageType, message: string) => void connection.sendNotification(ShowMessageNotification.type, { type, message }).catch(() => undefined);

  connection.onExecuteCommand(async (params) => {
    const command = isObject(params) ? params.command : undefined;
    const args: unknown[] = isObject(params) && Array.isArray(params.arguments) ? params.arguments : [];
    if (command === SERVER_SHOW_LAYOUT_COMMAND) {
      if (typeof args[0] !== 'string') return invalidParams('arguments[0] (the document URI)');
      const uri = args[0];
      const a = await current(uri);
      const text = a ? layoutText(a) : undefined;
      const name = decodeURIComponent(uri.replace(/[?#].*$/, '').split('/').pop() ?? uri);
      show(MessageType.Info, text ? `Shardwise: the layout of ${name}\n${text}` : `Shardwise: ${name} does not describe a parallel layout.`);
      return (a && layoutMarkdown(a)) ?? null;
    }
    if (command === SERVER_SHOW_RULE_DOCUMENTATION_COMMAND) {
      if (typeof args[0] !== 'string') return invalidParams('arguments[0] (the rule id)');
      const rule = ruleById(args[0]);
      if (!rule) {
        show(MessageType.Warning, `Shardwise has no rule named "${args[0]}".`);
        return null;
      }
      const href = ruleDocsUrl(rule.id);
      const opened = showDocument ? await connection.window.showDocument({ uri: href, external: true }).then((r) => r?.success === true, () => false) : false;
      if (!opened) show(MessageType.Info, `Shardwise ${rule.id}: ${rule.docs.summary} ${href}`);
      return explain(rule.id) ?? null;
    }
    return invalidParams(`command ${JSON.stringify(command)} (this server runs ${SERVER_SHOW_LAYOUT_COMMAND} and ${SERVER_SHOW_RULE_DOCUMENTATION_COMMAND})`);
  });

  connection.languages.diagnostics.on(async (params): Promise<DocumentDiagnosticReport> => {
    const uri = documentUri(params);
    if (uri === undefined) throw invalidParams('textDocument.uri');
    const a = await current(uri);
    const doc = documents.get(uri);
    // Not open (or closed meanwhile): nothing to say about it.
    if (!a || !doc) return { kind: 'full', items: [] };
    const items = a.findings.map((f) => toDiagnostic(uri, a, f));
    const key = `${doc.version}\n${JSON.stringify(items)}`;
    let last = reported.get(uri);
    if (!last || last.key !== key) reported.set(uri, (last = { key, resultId: `${doc.version}.${++resultSerial}` }));
    if (typeof params.previousResultId === 'string' && params.previousResultId === last.resultId) return { kind: 'unchanged', resultId: last.resultId };
    return { kind: 'full', resultId: last.resultId, items };
  });

  connection.onDocumentSymbol(async (params): Promise<DocumentSymbol[] | SymbolInformation[] | null | ResponseError> => {
    const uri = documentUri(params);
    if (uri === undefined) return invalidParams('textDocument.uri');
    const a = await current(uri);
    if (!a) return null;
    const symbols = documentSymbols(a);
    const name = (s: OutlineSymbol) => s.name.trim() || '(empty)';
    if (hierarchicalSymbols) {
      const convert = (s: OutlineSymbol): DocumentSymbol => ({
        name: name(s),
        detail: s.detail,
        kind: SYMBOL_KIND[s.kind],
        range: toRange(a.lines, s.span),
        selectionRange: toRange(a.lines, s.selection),
        children: s.children.map(convert),
      });
      return symbols.map(convert);
    }
    const flat: SymbolInformation[] = [];
    const walk = (s: OutlineSymbol, container?: string) => {
      flat.push({ name: name(s), kind: SYMBOL_KIND[s.kind], location: { uri, range: toRange(a.lines, s.span) }, ...(container ? { containerName: container } : {}) });
      for (const c of s.children) walk(c, name(s));
    };
    for (const s of symbols) walk(s);
    return flat;
  });

  connection.onFoldingRanges(async (params): Promise<FoldingRange[] | null | ResponseError> => {
    const uri = documentUri(params);
    if (uri === undefined) return invalidParams('textDocument.uri');
    const a = await current(uri);
    // Other syntaxes: nothing, so that the editor's own folding of YAML and JSON stays.
    if (!a || a.syntax !== 'shell') return null;
    const ranges = foldingRanges(a).map((r): FoldingRange => (r.kind === 'comment' ? { startLine: r.startLine, endLine: r.endLine, kind: FoldingRangeKind.Comment } : { startLine: r.startLine, endLine: r.endLine }));
    return foldingLimit !== undefined ? ranges.slice(0, foldingLimit) : ranges;
  });

  connection.onRequest(LAYOUT_REQUEST, async (params: { uri?: string }) => {
    if (!isObject(params) || typeof params.uri !== 'string') return null;
    const a = await current(params.uri);
    return a ? layoutMarkdown(a) ?? null : null;
  });

  connection.onRequest(RULE_DOCUMENTATION_REQUEST, (params: { id?: string }) => (isObject(params) && typeof params.id === 'string' ? explain(params.id) ?? null : null));

  // Per-document state, to tell that closing a document forgets it.
  connection.onRequest(STATUS_REQUEST, () => ({
    documents: documents.keys().length,
    cached: cache.size,
    settings: settingsCache.size,
    pending: pending.size,
    openByPath: openByPath.size,
    reported: reported.size,
    graph: graph.stats(),
  }));

  connection.onShutdown(() => {
    shutDown = true;
    pending.clear();
  });

  documents.listen(checkedDocumentNotifications(connection));
  connection.listen();
}

/**
 * The document notifications, each checked before `TextDocuments` applies it: a malformed one
 * (no URI, a version that is not a number, a change whose range or text is not one) would corrupt
 * the document or throw mid-update, so it is dropped and logged. Ranges outside the document are
 * valid and clamped by the document itself (past the end of a line: its end; past the last line:
 * the end of the text; an end before the start: swapped).
 */
function checkedDocumentNotifications(connection: Connection): Parameters<TextDocuments<TextDocument>['listen']>[0] {
  const drop = (method: string, why: string) => connection.console.warn(`shardwise: dropped a malformed ${method} notification: ${why}`);
  const identifier = (p: unknown): { uri: string } | undefined => (isObject(p) && isObject(p.textDocument) && typeof p.textDocument.uri === 'string' ? (p.textDocument as { uri: string }) : undefined);
  return {
    onDidOpenTextDocument: (handler) =>
      connection.onDidOpenTextDocument((p) => {
        const td = identifier(p) as { uri: string; languageId?: unknown; version?: unknown; text?: unknown } | undefined;
        if (!td) return drop('didOpen', 'no textDocument.uri');
        if (typeof td.text !== 'string') return drop('didOpen', 'textDocument.text is not a string');
        if (!isVersion(td.version)) return drop('didOpen', 'textDocument.version is not an integer');
        return handler({ textDocument: { uri: td.uri, languageId: typeof td.languageId === 'string' ? td.languageId : '', version: td.version, text: td.text } });
      }),
    onDidChangeTextDocument: (handler) =>
      connection.onDidChangeTextDocument((p) => {
        const td = identifier(p) as { uri: string; version?: unknown } | undefined;
        if (!td) return drop('didChange', 'no textDocument.uri');
        if (!isVersion(td.version)) return drop('didChange', 'textDocument.version is not an integer');
        const changes = (p as { contentChanges?: unknown }).contentChanges;
        if (!Array.isArray(changes)) return drop('didChange', 'contentChanges is not an array');
        const checked: ({ text: string } | { range: Range; text: string })[] = [];
        for (const c of changes) {
          if (!isObject(c) || typeof c.text !== 'string') return drop('didChange', 'a change without text');
          if (c.range === undefined) checked.push({ text: c.text });
          else {
            const range = rangeParam(c.range, false);
            if (!range) return drop('didChange', 'a change whose range is not a range');
            checked.push({ range, text: c.text });
          }
        }
        return handler({ textDocument: { uri: td.uri, version: td.version }, contentChanges: checked });
      }),
    onDidCloseTextDocument: (handler) =>
      connection.onDidCloseTextDocument((p) => {
        const td = identifier(p);
        return td ? handler({ textDocument: { uri: td.uri } }) : drop('didClose', 'no textDocument.uri');
      }),
    onWillSaveTextDocument: (handler) => connection.onWillSaveTextDocument((p) => (identifier(p) ? handler(p) : undefined)),
    onWillSaveTextDocumentWaitUntil: (handler) => connection.onWillSaveTextDocumentWaitUntil((p, token) => (identifier(p) ? handler(p, token) : [])),
    onDidSaveTextDocument: (handler) => connection.onDidSaveTextDocument((p) => (identifier(p) ? handler(p) : undefined)),
  };
}

function isObject(v: unknown): v is Record<string, any> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isVersion(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v);
}

const invalidParams = (what: string) => new ResponseError(ErrorCodes.InvalidParams, `invalid params: ${what}`);

/**
 * A position from a client: line and character must be numbers; negative ones are read as 0 and
 * fractions are cut (the protocol's are unsigned integers) unless `clamp` is false, when they are
 * left for the document to clamp.
 */
function positionParam(p: unknown, clamp = true): Position | undefined {
  if (!isObject(p) || typeof p.line !== 'number' || typeof p.character !== 'number' || !Number.isFinite(p.line) || !Number.isFinite(p.character)) return undefined;
  return clamp ? { line: Math.max(0, Math.floor(p.line)), character: Math.max(0, Math.floor(p.character)) } : { line: Math.trunc(p.line), character: Math.trunc(p.character) };
}

function rangeParam(r: unknown, clamp = true): Range | undefined {
  if (!isObject(r)) return undefined;
  const start = positionParam(r.start, clamp);
  const end = positionParam(r.end, clamp);
  return start && end ? { start, end } : undefined;
}

function documentUri(params: unknown): string | undefined {
  return isObject(params) && isObject(params.textDocument) && typeof params.textDocument.uri === 'string' ? params.textDocument.uri : undefined;
}

/** The document and position of a position request, or what is wrong with them. */
function documentPosition(params: unknown): { uri: string; position: Position } | string {
  const uri = documentUri(params);
  if (uri === undefined) return 'textDocument.uri';
  const position = positionParam((params as { position?: unknown }).position);
  return position ? { uri, position } : 'position';
}

/**
 * The LSP range of a span, always inside the text the index is of: offsets are clamped to the
 * text, the start comes first, and a character never goes past its line's end (an offset between
 * the `\r` and `\n` of a line break is the end of that line).
 */
export function toRange(lines: Lines, span: Span): Range {
  const len = lines.text.length;
  const clampOffset = (o: number) => (Number.isFinite(o) ? Math.max(0, Math.min(Math.floor(o), len)) : 0);
  const a = clampOffset(span?.start);
  const b = clampOffset(span?.end);
  const at = (o: number): Position => {
    const p = lines.position(o);
    const lineLength = lines.lineEnd(p.line) - lines.lineStart(p.line);
    return { line: p.line, character: Math.max(0, Math.min(p.character, lineLength)) };
  };
  return { start: at(Math.min(a, b)), end: at(Math.max(a, b)) };
}

/** The workspace folders' paths (`file:` folders only), or the root of older clients. */
function rootsOf(params: InitializeParams): string[] {
  const folders = (Array.isArray(params.workspaceFolders) ? params.workspaceFolders : []).flatMap((f) => (isObject(f) ? pathOf(f.uri) : []));
  if (folders.length) return folders;
  if (typeof params.rootUri === 'string') return pathOf(params.rootUri);
  return typeof params.rootPath === 'string' && isAbsolute(params.rootPath) ? [resolvePath(params.rootPath)] : [];
}

function pathOf(uri: unknown): string[] {
  const p = URI.fsPath(uri);
  return p ? [p] : [];
}

function sameRange(a: Range, b: Range): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;
}
