/**
 * The language server: LSP wiring around the engine. The only code that imports
 * vscode-languageserver. Stateless apart from per-document caches that are evicted on close.
 */
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
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from './uri';
import {
  analyze,
  codeActions,
  complete,
  explain,
  fixAll,
  hover,
  layoutLenses,
  layoutMarkdown,
  mergeSettings,
  settingsFromClient,
  type EngineSettings,
  type FileAnalysis,
  type Finding,
  type Severity,
  type TextEdit,
} from '../engine';
import { ProjectConfigs } from '../host/project-config';
import { LAYOUT_REQUEST, RULE_DOCUMENTATION_REQUEST, SHOW_LAYOUT_COMMAND, type ClientSettings } from '../protocol';

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
  let canPullSettings = false;
  let globalSettings: EngineSettings = {};
  let flushScheduled = false;

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    canPullSettings = !!params.capabilities.workspace?.configuration;
    const init = params.initializationOptions as { settings?: ClientSettings } | undefined;
    if (init?.settings) globalSettings = settingsFromClient(init.settings);
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        hoverProvider: true,
        completionProvider: { triggerCharacters: [':', ' ', '-', '"'], resolveProvider: false },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.SourceFixAll] },
        codeLensProvider: { resolveProvider: false },
      },
      serverInfo: { name: 'shardwise-language-server', version: '0.1.0' },
    };
  });

  connection.onInitialized(() => {
    if (canPullSettings) void connection.client.register(DidChangeConfigurationNotification.type, { section: 'shardwise' });
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

  /** Analyse the newest version of every pending document; stale versions are never analysed. */
  async function flush(): Promise<void> {
    flushScheduled = false;
    const uris = [...pending];
    pending.clear();
    for (const uri of uris) {
      const doc = documents.get(uri);
      if (!doc) continue;
      const settings = await settingsFor(uri);
      // A newer edit arrived while settings were read: it is pending again and will be handled next.
      if (pending.has(uri) || documents.get(uri)?.version !== doc.version) continue;
      const analysis = analyzeDocument(doc, settings);
      cache.set(uri, { version: doc.version, analysis });
      void connection.sendDiagnostics({ uri, version: doc.version, diagnostics: analysis.findings.map((f) => toDiagnostic(analysis, f)) });
    }
  }

  function schedule(uri: string): void {
    pending.add(uri);
    if (!flushScheduled) {
      flushScheduled = true;
      // No fixed delay: the next turn of the event loop, so a burst of edits is analysed once.
      setImmediate(() => void flush());
    }
  }

  function analyzeDocument(doc: TextDocument, settings: EngineSettings): FileAnalysis {
    return analyze({ path: URI.fsPath(doc.uri) ?? URI.path(doc.uri), text: doc.getText(), languageId: doc.languageId }, settings);
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

  documents.onDidOpen((e) => schedule(e.document.uri));
  documents.onDidChangeContent((e) => schedule(e.document.uri));
  documents.onDidClose((e) => {
    cache.delete(e.document.uri);
    settingsCache.delete(e.document.uri);
    pending.delete(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
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
    const edits = (list: TextEdit[]) => ({ changes: { [uri]: list.map((e) => ({ range: a.lines.range(e.span), newText: e.newText })) } });
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
          edit: action.edits ? edits(action.edits) : undefined,
          command: action.command,
        });
      }
    }
    if (only?.some((k) => k.startsWith(CodeActionKind.SourceFixAll) || k === CodeActionKind.Source)) {
      const all = fixAll(a);
      if (all.length) out.push({ title: 'Fix all Shardwise problems with a preferred fix', kind: CodeActionKind.SourceFixAll, edit: edits(all) });
    }
    return out;
  });

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

function sameRange(a: { start: { line: number; character: number }; end: { line: number; character: number } }, b: typeof a): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;
}
