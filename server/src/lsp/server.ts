/**
 * The language server: LSP wiring around the engine. The only code that imports
 * vscode-languageserver. Stateless apart from per-document caches that are evicted on close, and
 * the cross-file dependency graph (`graph.ts`) built from each analysis's links and dependencies:
 * an edit of a DeepSpeed JSON (in the editor or on disk) re-analyses the Accelerate configs that
 * read it, and an edit of such a config re-analyses the JSON it points at (its referrers changed).
 */
import { statSync } from 'node:fs';
import { isAbsolute, resolve as resolvePath } from 'node:path';
import {
  CodeActionKind,
  CompletionItemKind,
  DiagnosticSeverity,
  DidChangeConfigurationNotification,
  InsertTextFormat,
  MarkupKind,
  TextDocumentSyncKind,
  TextDocuments,
  type CodeAction,
  type CompletionItem,
  type Connection,
  type Diagnostic,
  type InitializeParams,
  type InitializeResult,
  type Location,
  type LocationLink,
  type DocumentLink,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from './uri';
import {
  analyze,
  codeActions,
  complete,
  explain,
  fixRound,
  hover,
  layoutLenses,
  layoutMarkdown,
  mergeSettings,
  settingsFromClient,
  type EngineSettings,
  type FileAnalysis,
  type FileInput,
  type Finding,
  type Fix,
  type Severity,
  type TextEdit,
} from '../engine';
import { ProjectConfigs } from '../host/project-config';
import { createResolver, pathKey, readTextFile } from '../host/resolve';
import { DependencyGraph, type ClosedReferrer } from './graph';
import { FIX_ALL_KIND, FIX_ALL_TITLE, LAYOUT_REQUEST, RULE_DOCUMENTATION_REQUEST, SHOW_LAYOUT_COMMAND, type ClientSettings } from '../protocol';

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

interface Cached {
  version: number;
  analysis: FileAnalysis;
}

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
  const graph = new DependencyGraph();
  /** Open `file:` documents by path key (their text wins over the disk when another file reads them). */
  const openByPath = new Map<string, string>();
  let canPullSettings = false;
  let canWatchFolders = false;
  let definitionLinks = false;
  let globalSettings: EngineSettings = {};
  /** Folders a relative reference is tried against after the referring file's own folder. */
  let workspaceRoots: string[] = [];
  let resolveEdits = false;
  /** The input and settings each analysis was made from, for fix-all's re-check. */
  const inputs = new WeakMap<FileAnalysis, { input: FileInput; settings: EngineSettings }>();
  let flushScheduled = false;
  let flushing = false;

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    canPullSettings = !!params.capabilities.workspace?.configuration;
    canWatchFolders = !!params.capabilities.workspace?.workspaceFolders;
    definitionLinks = !!params.capabilities.textDocument?.definition?.linkSupport;
    resolveEdits = !!params.capabilities.textDocument?.codeAction?.resolveSupport?.properties.includes('edit');
    workspaceRoots = rootsOf(params);
    const init = params.initializationOptions as { settings?: ClientSettings } | undefined;
    if (init?.settings) globalSettings = settingsFromClient(init.settings);
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        hoverProvider: true,
        completionProvider: { triggerCharacters: [':', ' ', '-', '"'], resolveProvider: false },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND], resolveProvider: true },
        codeLensProvider: { resolveProvider: false },
        documentLinkProvider: { resolveProvider: false },
        definitionProvider: true,
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: 'shardwise-language-server', version: '0.1.0' },
    };
  });

  connection.onInitialized(() => {
    if (canPullSettings) void connection.client.register(DidChangeConfigurationNotification.type, { section: 'shardwise' });
    if (canWatchFolders) {
      try {
        connection.workspace.onDidChangeWorkspaceFolders((e) => {
          const removed = new Set(e.removed.flatMap((f) => pathOf(f.uri)).map(pathKey));
          workspaceRoots = [...workspaceRoots.filter((r) => !removed.has(pathKey(r))), ...e.added.flatMap((f) => pathOf(f.uri))];
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
        return path ? mergeSettings(editor, projectConfigs.forFile(path).settings) : editor;
      })();
      settingsCache.set(uri, p);
    }
    return p;
  }

  function toDiagnostic(a: FileAnalysis, f: Finding): Diagnostic {
    return {
      range: a.lines.range(f.span),
      severity: SEVERITY[f.severity],
      code: f.code,
      source: 'shardwise',
      message: f.message,
    };
  }

  /**
   * Analyse the newest version of every pending document, until none is pending (a document whose
   * dependency changed while others were analysed is handled in the same pass); stale versions are
   * never analysed.
   */
  async function flush(): Promise<void> {
    flushScheduled = false;
    flushing = true;
    try {
      while (pending.size > 0) {
        const uri = pending.values().next().value as string;
        pending.delete(uri);
        const doc = documents.get(uri);
        if (!doc) continue;
        const settings = await settingsFor(uri);
        // A newer edit (or a dependency's) arrived while settings were read: it is pending again and
        // is handled next; a document closed (or closed and reopened) meanwhile is not analysed here.
        if (pending.has(uri) || documents.get(uri) !== doc) continue;
        try {
          const analysis = analyzeDocument(doc, settings);
          cache.set(uri, { version: doc.version, analysis });
          void connection.sendDiagnostics({ uri, version: doc.version, diagnostics: analysis.findings.map((f) => toDiagnostic(analysis, f)) });
        } catch (err) {
          connection.console.error(`shardwise: analysing ${uri} failed: ${(err as Error)?.stack ?? err}`);
        }
      }
    } finally {
      flushing = false;
    }
  }

  function schedule(uri: string): void {
    pending.add(uri);
    if (!flushScheduled && !flushing) {
      flushScheduled = true;
      // No fixed delay: the next turn of the event loop, so a burst of edits is analysed once.
      setImmediate(() => void flush());
    }
  }

  /** A dependency of the document changed: its cached analysis is stale and it is analysed again. */
  function invalidate(uri: string): void {
    if (!documents.get(uri)) return;
    cache.delete(uri);
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
    const hit = cache.get(uri);
    if (hit && hit.version === doc.version) return hit.analysis;
    const analysis = analyzeDocument(doc, await settingsFor(uri));
    cache.set(uri, { version: doc.version, analysis });
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
    schedule(uri);
    // The documents that read this file (its referrers, or the files it is a referrer of) are stale.
    const path = URI.fsPath(uri);
    if (path) for (const dependent of graph.dependents(pathKey(path))) if (dependent !== uri) invalidate(dependent);
  });
  documents.onDidClose((e) => {
    const uri = e.document.uri;
    cache.delete(uri);
    settingsCache.delete(uri);
    pending.delete(uri);
    const edges = graph.remove(uri);
    const path = URI.fsPath(uri);
    if (path) {
      const key = pathKey(path);
      if (openByPath.get(key) === uri) openByPath.delete(key);
      // Remembered (path and targets, no text): its targets still have it as a referrer, read from disk.
      if (edges && edges.targets.size > 0) graph.rememberClosed(key, { uri, path, targets: new Set(edges.targets) });
      // Documents that read its unsaved text now read the disk.
      for (const dependent of graph.dependents(key)) invalidate(dependent);
    }
    for (const target of edges?.targets ?? []) invalidateAt(target, uri);
    void connection.sendDiagnostics({ uri, diagnostics: [] });
  });

  function revalidateAll(): void {
    settingsCache.clear();
    cache.clear();
    for (const doc of documents.all()) schedule(doc.uri);
  }

  connection.onDidChangeConfiguration((change) => {
    if (!canPullSettings) {
      const s = (change.settings as { shardwise?: ClientSettings } | undefined)?.shardwise;
      globalSettings = settingsFromClient(s);
    }
    revalidateAll();
  });

  connection.onDidChangeWatchedFiles((change) => {
    if (change.changes.some((c) => /\.shardwise\.ya?ml$/.test(c.uri))) {
      projectConfigs.clear();
      revalidateAll();
    }
    for (const c of change.changes) {
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
    const a = await current(params.textDocument.uri);
    if (!a) return [];
    return (a.links ?? []).flatMap((l): DocumentLink[] => (l.target ? [{ range: a.lines.range(l.span), target: uriOfPath(l.target), tooltip: l.target }] : []));
  });

  connection.onDefinition(async (params): Promise<Location | LocationLink[] | null> => {
    const a = await current(params.textDocument.uri);
    if (!a) return null;
    const offset = a.lines.offset(params.position);
    const link = (a.links ?? []).find((l) => l.target && l.span.start <= offset && offset <= l.span.end);
    if (!link?.target) return null;
    const targetUri = uriOfPath(link.target);
    const start = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    return definitionLinks ? [{ originSelectionRange: a.lines.range(link.span), targetUri, targetRange: start, targetSelectionRange: start }] : { uri: targetUri, range: start };
  });

  connection.onHover(async (params) => {
    const a = await current(params.textDocument.uri);
    if (!a) return null;
    const h = hover(a, a.lines.offset(params.position));
    return h ? { contents: { kind: MarkupKind.Markdown, value: h.markdown }, range: a.lines.range(h.span) } : null;
  });

  connection.onCompletion(async (params) => {
    const a = await current(params.textDocument.uri);
    if (!a) return [];
    return complete(a, a.lines.offset(params.position)).map(
      (c): CompletionItem => ({
        label: c.label,
        kind: c.kind === 'value' ? CompletionItemKind.Value : c.kind === 'section' ? CompletionItemKind.Module : CompletionItemKind.Property,
        detail: c.detail,
        documentation: c.documentation ? { kind: MarkupKind.Markdown, value: c.documentation } : undefined,
        textEdit: { range: a.lines.range(c.replace), newText: c.insertText },
        insertTextFormat: c.snippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
        sortText: c.sortText,
        filterText: c.label,
        tags: c.deprecated ? [1] : undefined,
        preselect: c.preselect,
      }),
    );
  });

  connection.onCodeAction(async (params) => {
    const uri = params.textDocument.uri;
    const a = await current(uri);
    if (!a) return [];
    const edits = (list: TextEdit[]): { changes: Record<string, { range: ReturnType<typeof a.lines.range>; newText: string }[]> } => ({ changes: { [uri]: list.map((e) => ({ range: a.lines.range(e.span), newText: e.newText })) } });
    // A fix that also edits a linked file: that file's edits go to its open document, or its file URI.
    const withOtherFiles = (edit: ReturnType<typeof edits>, others: Fix['otherFiles']) => {
      for (const o of others ?? []) edit.changes[openByPath.get(pathKey(o.path)) ?? URI.file(o.path)] = o.edits.map((e) => ({ range: o.lines.range(e.span), newText: e.newText }));
      return edit;
    };
    const only = params.context.only;
    const out: CodeAction[] = [];
    if (!only || only.some((k) => k.startsWith(CodeActionKind.QuickFix))) {
      const range = a.lines.span(params.range);
      for (const action of codeActions(a, range)) {
        const f = action.finding;
        const diagnostic = f ? params.context.diagnostics.find((d) => d.code === f.code && sameRange(a.lines.range(f.span), d.range)) ?? toDiagnostic(a, f) : undefined;
        out.push({
          title: action.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: diagnostic ? [diagnostic] : undefined,
          isPreferred: action.preferred,
          edit: action.edits ? withOtherFiles(edits(action.edits), action.otherFiles) : undefined,
          command: action.command,
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
    const data = action.data as { uri?: unknown; version?: unknown } | undefined;
    if (action.kind !== FIX_ALL_KIND || typeof data?.uri !== 'string') return action;
    const uri = data.uri;
    const a = await current(uri);
    // The document changed since the action was offered: nothing is applied rather than stale edits.
    if (!a || documents.get(uri)?.version !== data.version) return action;
    const fixed = fixAllEdits(a);
    return { ...action, edit: { changes: { [uri]: fixed.map((e) => ({ range: a.lines.range(e.span), newText: e.newText })) } } };
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
    const a = await current(params.textDocument.uri);
    if (!a) return [];
    return layoutLenses(a).map((l) => ({
      range: a.lines.range(l.span),
      command: { title: l.title, command: SHOW_LAYOUT_COMMAND, arguments: [params.textDocument.uri] },
    }));
  });

  connection.onRequest(LAYOUT_REQUEST, async (params: { uri?: string }) => {
    if (!params || typeof params.uri !== 'string') return null;
    const a = await current(params.uri);
    return a ? layoutMarkdown(a) ?? null : null;
  });

  connection.onRequest(RULE_DOCUMENTATION_REQUEST, (params: { id?: string }) => (params && typeof params.id === 'string' ? explain(params.id) ?? null : null));

  documents.listen(connection);
  connection.listen();
}

/** The workspace folders' paths (`file:` folders only), or the root of older clients. */
function rootsOf(params: InitializeParams): string[] {
  const folders = (params.workspaceFolders ?? []).flatMap((f) => pathOf(f.uri));
  if (folders.length) return folders;
  if (params.rootUri) return pathOf(params.rootUri);
  return typeof params.rootPath === 'string' && isAbsolute(params.rootPath) ? [resolvePath(params.rootPath)] : [];
}

function pathOf(uri: string): string[] {
  const p = URI.fsPath(uri);
  return p ? [p] : [];
}

function sameRange(a: { start: { line: number; character: number }; end: { line: number; character: number } }, b: typeof a): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;
}
