/**
 * A small LSP test client: spawns the built language server (`dist/server/main.js --stdio`), talks
 * real JSON-RPC over its stdin/stdout, answers the server's requests (`workspace/configuration`
 * from a settings object the test can change, capability registration), and records every
 * `textDocument/publishDiagnostics` per URI.
 *
 * Every wait has a timeout and clears its timer; `shutdown()` sends shutdown + exit and kills the
 * child if it does not exit in time, so a test never leaves a process or a timer behind.
 *
 * For protocol abuse, `sendRaw()` writes bytes as they are (malformed frames included) through the
 * same queue as the connection's own frames, so they never interleave with one, and every message
 * the server sends is recorded in `received` (responses to raw requests included).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  AbstractMessageReader,
  AbstractMessageWriter,
  createMessageConnection,
  StreamMessageReader,
  type DataCallback,
  type Disposable,
  type Message,
  type MessageConnection,
  type MessageReader,
  type MessageWriter,
} from 'vscode-jsonrpc/node';

export const REPO_ROOT = resolve(__dirname, '..', '..');
export const SERVER_MAIN = join(REPO_ROOT, 'dist', 'server', 'main.js');

// ---------- the LSP shapes the tests read (kept local: no dependency on vscode-languageserver-types) ----------

export interface Position {
  line: number;
  character: number;
}
export interface Range {
  start: Position;
  end: Position;
}
export interface Diagnostic {
  range: Range;
  severity?: number;
  code?: string | number;
  codeDescription?: { href: string };
  source?: string;
  message: string;
  tags?: number[];
  relatedInformation?: { location: { uri: string; range: Range }; message: string }[];
  data?: unknown;
}
export interface PublishDiagnosticsParams {
  uri: string;
  version?: number;
  diagnostics: Diagnostic[];
}
export interface TextEdit {
  range: Range;
  newText: string;
}
export interface WorkspaceEdit {
  changes?: Record<string, TextEdit[]>;
  documentChanges?: { textDocument: { uri: string; version: number | null }; edits: TextEdit[] }[];
}
export interface Command {
  title: string;
  command: string;
  arguments?: unknown[];
}
export interface CodeAction {
  title: string;
  kind?: string;
  diagnostics?: Diagnostic[];
  isPreferred?: boolean;
  edit?: WorkspaceEdit;
  command?: Command;
}
export interface CompletionItem {
  label: string;
  kind?: number;
  detail?: string;
  documentation?: string | { kind: string; value: string };
  insertText?: string;
  insertTextFormat?: number;
  textEdit?: TextEdit | { newText: string; insert: Range; replace: Range };
  sortText?: string;
  filterText?: string;
  preselect?: boolean;
}
export interface Hover {
  contents: { kind: string; value: string } | string | ({ language: string; value: string } | string)[];
  range?: Range;
}

export const DiagnosticSeverity = { Error: 1, Warning: 2, Information: 3, Hint: 4 } as const;
export const InsertTextFormat = { PlainText: 1, Snippet: 2 } as const;
export const TextDocumentSyncKind = { None: 0, Full: 1, Incremental: 2 } as const;
export const FileChangeType = { Created: 1, Changed: 2, Deleted: 3 } as const;

/** A change for `change()`: the whole new text, or one or more incremental range edits. */
export type DocumentChange = string | { range: Range; text: string } | { range: Range; text: string }[];

/** Client capabilities close to what VS Code 1.9x announces (the parts a server may look at). */
export const VSCODE_LIKE_CAPABILITIES = {
  workspace: {
    applyEdit: true,
    workspaceEdit: { documentChanges: true, resourceOperations: ['create', 'rename', 'delete'], failureHandling: 'textOnlyTransactional', normalizesLineEndings: true },
    didChangeConfiguration: { dynamicRegistration: true },
    didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
    symbol: { dynamicRegistration: true },
    codeLens: { refreshSupport: true },
    executeCommand: { dynamicRegistration: true },
    configuration: true,
    workspaceFolders: true,
    semanticTokens: { refreshSupport: true },
    fileOperations: { dynamicRegistration: true, didCreate: true, didRename: true, didDelete: true, willCreate: true, willRename: true, willDelete: true },
    inlayHint: { refreshSupport: true },
    diagnostics: { refreshSupport: true },
  },
  textDocument: {
    publishDiagnostics: {
      relatedInformation: true,
      versionSupport: true,
      tagSupport: { valueSet: [1, 2] },
      codeDescriptionSupport: true,
      dataSupport: true,
    },
    synchronization: { dynamicRegistration: true, willSave: true, willSaveWaitUntil: true, didSave: true },
    completion: {
      dynamicRegistration: true,
      contextSupport: true,
      completionItem: {
        snippetSupport: true,
        commitCharactersSupport: true,
        documentationFormat: ['markdown', 'plaintext'],
        deprecatedSupport: true,
        preselectSupport: true,
        tagSupport: { valueSet: [1] },
        insertReplaceSupport: true,
        resolveSupport: { properties: ['documentation', 'detail', 'additionalTextEdits'] },
        insertTextModeSupport: { valueSet: [1, 2] },
        labelDetailsSupport: true,
      },
      insertTextMode: 2,
      completionItemKind: { valueSet: Array.from({ length: 25 }, (_, i) => i + 1) },
      completionList: { itemDefaults: ['commitCharacters', 'editRange', 'insertTextFormat', 'insertTextMode', 'data'] },
    },
    hover: { dynamicRegistration: true, contentFormat: ['markdown', 'plaintext'] },
    codeAction: {
      dynamicRegistration: true,
      isPreferredSupport: true,
      disabledSupport: true,
      dataSupport: true,
      resolveSupport: { properties: ['edit'] },
      codeActionLiteralSupport: {
        codeActionKind: {
          valueSet: ['', 'quickfix', 'refactor', 'refactor.extract', 'refactor.inline', 'refactor.rewrite', 'source', 'source.organizeImports', 'source.fixAll'],
        },
      },
      honorsChangeAnnotations: true,
    },
    diagnostic: { dynamicRegistration: true, relatedDocumentSupport: false },
  },
  window: {
    showMessage: { messageActionItem: { additionalPropertiesSupport: true } },
    showDocument: { support: true },
    workDoneProgress: true,
  },
  general: {
    staleRequestSupport: { cancel: true, retryOnContentModified: [] },
    regularExpressions: { engine: 'ECMAScript', version: 'ES2020' },
    markdown: { parser: 'marked', version: '1.1.0' },
    positionEncodings: ['utf-16'],
  },
};

export interface StartOptions {
  /** Extra command-line arguments after `--stdio`. */
  args?: string[];
  /** The `shardwise` settings section answered to `workspace/configuration` (changeable later). */
  settings?: Record<string, unknown>;
  /** Announce `workspace.configuration` (default true). */
  configurationCapability?: boolean;
  /** Extra `textDocument` client capabilities (e.g. `{ definition: { linkSupport: true } }`). */
  textDocumentCapabilities?: Record<string, unknown>;
  /**
   * Announce pull diagnostics (`textDocument.diagnostic`, as VS Code does). Default false: the
   * server then pushes, which most tests read; pull clients are tested on their own.
   */
  pullDiagnostics?: boolean;
  /** Changes the announced capabilities last (delete what a client does not support). */
  editCapabilities?: (capabilities: Record<string, any>) => void;
  initializationOptions?: unknown;
  rootUri?: string | null;
  workspaceFolders?: { uri: string; name: string }[] | null;
  /** Timeout for spawn → initialize result (default 30 s). */
  timeoutMs?: number;
  /** Send initialize + initialized (default true); false leaves the server uninitialized. */
  initialize?: boolean;
}

/** One base-protocol frame: `Content-Length` of the UTF-8 body (or the given headers) and the body. */
export function frame(body: string | object, headers?: string): Buffer {
  const bytes = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body), 'utf8');
  return Buffer.concat([Buffer.from(headers ?? `Content-Length: ${bytes.length}\r\n\r\n`, 'latin1'), bytes]);
}

/** Writes every frame with one `write` call, in order: raw bytes and the connection's frames never interleave. */
class FrameWriter extends AbstractMessageWriter implements MessageWriter {
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly stream: NodeJS.WritableStream) {
    super();
    stream.on('error', (e: Error) => this.fireError(e));
    stream.on('close', () => this.fireClose());
  }

  write(msg: Message): Promise<void> {
    return this.raw(frame(msg));
  }

  raw(bytes: Buffer): Promise<void> {
    const next = this.queue.then(
      () =>
        new Promise<void>((resolveWrite, rejectWrite) => {
          this.stream.write(bytes, (err) => (err ? rejectWrite(err) : resolveWrite()));
        }),
    );
    this.queue = next.catch(() => undefined);
    return next;
  }

  end(): void {}
}

/** Passes every message on, after showing it to `tap`. */
class TapReader extends AbstractMessageReader implements MessageReader {
  constructor(
    private readonly inner: MessageReader,
    private readonly tap: (m: Message) => void,
  ) {
    super();
    inner.onError((e) => this.fireError(e));
    inner.onClose(() => this.fireClose());
    inner.onPartialMessage((i) => this.firePartialMessage(i));
  }

  listen(callback: DataCallback): Disposable {
    return this.inner.listen((m) => {
      this.tap(m);
      callback(m);
    });
  }

  override dispose(): void {
    super.dispose();
    this.inner.dispose();
  }
}

/** A JSON-RPC response as received (raw requests are answered with these). */
export interface RawResponse {
  jsonrpc: string;
  id: number | string | null;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

interface Waiter {
  check: () => boolean;
  cancel: (reason: Error) => void;
}

interface DocState {
  text: string;
  version: number;
  languageId: string;
}

/** Rejects after `ms` with `message`; the timer is always cleared. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, message: string | (() => string)): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(typeof message === 'function' ? message() : message)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export class LspClient {
  /** The `shardwise` section answered to `workspace/configuration`; tests may replace it. */
  settings: Record<string, unknown>;
  /** Every publishDiagnostics, per URI, in arrival order. */
  readonly published = new Map<string, PublishDiagnosticsParams[]>();
  /** Every `workspace/configuration` request's items, in arrival order. */
  readonly configurationRequests: { scopeUri?: string; section?: string }[][] = [];
  /** How many `workspace/diagnostic/refresh` requests the server sent. */
  diagnosticRefreshes = 0;
  /** Every `window/showDocument` request. */
  readonly shownDocuments: { uri: string; external?: boolean }[] = [];
  /** `window/showMessage` notifications, in order. */
  readonly shownMessages: { type: number; message: string }[] = [];
  /** What the client answers to `window/showMessageRequest` (default: dismissed) and `workspace/applyEdit` (default: refused). */
  answerMessageRequest: (p: { message: string; actions?: { title: string }[] }) => unknown = () => null;
  answerApplyEdit: (p: { label?: string; edit: WorkspaceEdit }) => unknown = () => ({ applied: false });
  /** Every `client/registerCapability` registration. */
  readonly registrations: { id: string; method: string; registerOptions?: unknown }[] = [];
  /** Server stderr (for failure messages). */
  stderr = '';
  initializeResult: { capabilities: Record<string, any>; serverInfo?: { name: string; version?: string } } | undefined;

  /** Every message the server sent, in arrival order (requests, notifications, responses). */
  readonly received: Message[] = [];
  /** The server's exit code once it exited (null when killed by a signal). */
  exitCode: number | null | undefined;

  private readonly docs = new Map<string, DocState>();
  private readonly waiters = new Set<Waiter>();
  private exited = false;
  private exitInfo = '';
  private readonly exitPromise: Promise<void>;
  private writer!: FrameWriter;

  private constructor(
    readonly child: ChildProcess,
    readonly connection: MessageConnection,
    settings: Record<string, unknown>,
  ) {
    this.settings = settings;
    this.exitPromise = new Promise<void>((resolveExit) => {
      child.once('exit', (code, signal) => {
        this.exited = true;
        this.exitCode = code;
        this.exitInfo = `server exited (code ${code}, signal ${signal})`;
        // Wake every waiter so it can fail now instead of at its timeout.
        for (const w of [...this.waiters]) w.check();
        resolveExit();
      });
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  get hasExited(): boolean {
    return this.exited;
  }

  static async start(options: StartOptions = {}): Promise<LspClient> {
    if (!existsSync(SERVER_MAIN)) throw new Error(`${SERVER_MAIN} is missing: run \`node scripts/build.mjs\` first`);
    const child = spawn(process.execPath, [SERVER_MAIN, '--stdio', ...(options.args ?? [])], {
      cwd: REPO_ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const writer = new FrameWriter(child.stdin!);
    let client: LspClient | undefined;
    const reader = new TapReader(new StreamMessageReader(child.stdout!), (m) => client?.record(m));
    const connection = createMessageConnection(reader, writer);
    client = new LspClient(child, connection, options.settings ?? {});
    client.writer = writer;
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      // Keep the tail only: a misbehaving server must not fill the test's memory.
      client.stderr = (client.stderr + chunk).slice(-20_000);
    });
    // A write to a dead server must not crash the test process with EPIPE.
    child.stdin!.on('error', () => undefined);
    child.on('error', () => undefined);
    client.wire();
    connection.listen();
    try {
      if (options.initialize !== false) await withTimeout(client.initialize(options), options.timeoutMs ?? 30_000, () => `no initialize result in time${client.describeExit()}`);
    } catch (e) {
      await client.shutdown();
      throw e;
    }
    return client;
  }

  private wire(): void {
    const c = this.connection;
    c.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      let list = this.published.get(p.uri);
      if (!list) this.published.set(p.uri, (list = []));
      list.push(p);
      for (const w of [...this.waiters]) w.check();
    });
    c.onRequest('workspace/configuration', (p: { items: { scopeUri?: string; section?: string }[] }) => {
      this.configurationRequests.push(p.items);
      return p.items.map((item) => this.configurationFor(item.section));
    });
    c.onRequest('client/registerCapability', (p: { registrations: { id: string; method: string; registerOptions?: unknown }[] }) => {
      this.registrations.push(...p.registrations);
      return null;
    });
    c.onRequest('client/unregisterCapability', () => null);
    c.onRequest('window/workDoneProgress/create', () => null);
    c.onRequest('workspace/workspaceFolders', () => null);
    c.onRequest('window/showMessageRequest', (p: { message: string; actions?: { title: string }[] }) => this.answerMessageRequest(p));
    c.onRequest('window/showDocument', (p: { uri: string; external?: boolean }) => {
      this.shownDocuments.push(p);
      return { success: true };
    });
    c.onRequest('workspace/applyEdit', (p: { label?: string; edit: WorkspaceEdit }) => this.answerApplyEdit(p));
    c.onRequest('workspace/diagnostic/refresh', () => {
      this.diagnosticRefreshes++;
      return null;
    });
    c.onRequest('workspace/codeLens/refresh', () => null);
    c.onRequest('workspace/inlayHint/refresh', () => null);
    c.onRequest('workspace/semanticTokens/refresh', () => null);
    c.onNotification('window/logMessage', () => undefined);
    c.onNotification('window/showMessage', (p: { type: number; message: string }) => {
      this.shownMessages.push(p);
    });
    c.onNotification('telemetry/event', () => undefined);
    c.onNotification('$/logTrace', () => undefined);
    c.onError(() => undefined);
    c.onClose(() => undefined);
  }

  /** The answer to a `workspace/configuration` item. */
  configurationFor(section: string | undefined): unknown {
    if (section === undefined || section === '') return { shardwise: this.settings };
    if (section === 'shardwise') return this.settings;
    if (section.startsWith('shardwise.')) {
      let v: unknown = this.settings;
      for (const part of section.slice('shardwise.'.length).split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
      return v ?? null;
    }
    return null;
  }

  private record(m: Message): void {
    this.received.push(m);
    // Keep the newest only: a long test must not fill the test's memory.
    if (this.received.length > 20_000) this.received.splice(0, 10_000);
    for (const w of [...this.waiters]) w.check();
  }

  /** Sends initialize + initialized (done by `start` unless `initialize: false`). */
  async initialize(options: StartOptions = {}): Promise<void> {
    const capabilities = structuredClone(VSCODE_LIKE_CAPABILITIES) as Record<string, any>;
    if (options.configurationCapability === false) delete capabilities.workspace.configuration;
    if (!options.pullDiagnostics) delete capabilities.textDocument.diagnostic;
    if (options.textDocumentCapabilities) Object.assign(capabilities.textDocument, options.textDocumentCapabilities);
    options.editCapabilities?.(capabilities);
    this.initializeResult = await this.connection.sendRequest('initialize', {
      processId: process.pid,
      clientInfo: { name: 'shardwise-lsp-test', version: '0.0.0' },
      locale: 'en',
      rootUri: options.rootUri ?? null,
      workspaceFolders: options.workspaceFolders ?? null,
      capabilities,
      initializationOptions: options.initializationOptions,
      trace: 'off',
    });
    await this.connection.sendNotification('initialized', {});
    // One round trip: the server's own requests on `initialized` (capability registrations) are
    // answered before anything else is sent, so a test's raw frames never have an answer amid them.
    await this.connection.sendRequest('shardwise/serverStatus', {});
  }

  private describeExit(): string {
    const err = this.stderr.trim() ? `\n--- server stderr ---\n${this.stderr.trim().slice(-4000)}` : '';
    return `${this.exited ? ` (${this.exitInfo})` : ''}${err}`;
  }

  // ---------- raw frames ----------

  /** Writes bytes to the server's stdin as they are (in order with the connection's own frames). */
  sendRaw(bytes: Buffer | string): Promise<void> {
    return this.writer.raw(typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes);
  }

  /** Resolves with the first received message (from now on, or already received when `past`) that matches. */
  waitForMessage<T extends Message = Message>(predicate: (m: Message) => boolean, timeoutMs = 30_000, past = true): Promise<T> {
    let index = past ? 0 : this.received.length;
    return this.waitUntil<T>(
      () => {
        for (; index < this.received.length; index++) if (predicate(this.received[index])) return { value: this.received[index] as T };
        return undefined;
      },
      'waiting for a message',
      () => `no matching message within ${timeoutMs} ms`,
      timeoutMs,
    );
  }

  /**
   * Resolves with what `poll` finds (checked now and whenever a message arrives); rejects when it
   * throws, when the server exits first, or after `timeoutMs`.
   */
  private waitUntil<T>(poll: () => { value: T } | undefined, waiting: string, timedOut: () => string, timeoutMs: number): Promise<T> {
    return new Promise<T>((resolveWait, rejectWait) => {
      let timer: NodeJS.Timeout | undefined;
      const finish = () => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
      };
      const waiter: Waiter = {
        cancel: (reason) => {
          finish();
          rejectWait(reason);
        },
        check: () => {
          let found: { value: T } | undefined;
          try {
            found = poll();
          } catch (e) {
            finish();
            rejectWait(e);
            return true;
          }
          if (found) {
            finish();
            resolveWait(found.value);
            return true;
          }
          if (this.exited) {
            finish();
            rejectWait(new Error(`${waiting}: ${this.exitInfo}${this.describeExit()}`));
            return true;
          }
          return false;
        },
      };
      if (waiter.check()) return;
      this.waiters.add(waiter);
      timer = setTimeout(() => {
        finish();
        rejectWait(new Error(`${timedOut()}${this.describeExit()}`));
      }, timeoutMs);
    });
  }

  /** The response with this id (raw requests use string ids, which the connection never uses). */
  waitForResponse(id: number | string | null, timeoutMs = 30_000): Promise<RawResponse> {
    return this.waitForMessage<RawResponse & Message>((m) => 'id' in m && (m as RawResponse).id === id && ('result' in m || 'error' in m) && !('method' in m), timeoutMs);
  }

  /** Sends a request frame with the given id and waits for its response. */
  async rawRequest(id: number | string, method: string, params?: unknown, timeoutMs = 30_000): Promise<RawResponse> {
    await this.sendRaw(frame({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }));
    return this.waitForResponse(id, timeoutMs);
  }

  /** Waits for the server process to exit; resolves with its exit code. */
  async waitForExit(timeoutMs = 30_000): Promise<number | null> {
    await withTimeout(this.exitPromise, timeoutMs, () => `the server did not exit within ${timeoutMs} ms`);
    return this.exitCode ?? null;
  }

  // ---------- requests and notifications ----------

  request<T = any>(method: string, params: unknown, timeoutMs = 30_000): Promise<T> {
    return withTimeout(this.connection.sendRequest(method, params) as Promise<T>, timeoutMs, () => `${method}: no response within ${timeoutMs} ms${this.describeExit()}`);
  }

  notify(method: string, params: unknown): Promise<void> {
    return this.connection.sendNotification(method, params);
  }

  text(uri: string): string {
    const d = this.docs.get(uri);
    if (!d) throw new Error(`${uri} is not open`);
    return d.text;
  }

  version(uri: string): number {
    const d = this.docs.get(uri);
    if (!d) throw new Error(`${uri} is not open`);
    return d.version;
  }

  /** `textDocument/didOpen`; returns the version sent (1 unless given). */
  async open(uri: string, text: string, languageId = 'yaml', version = 1): Promise<number> {
    this.docs.set(uri, { text, version, languageId });
    await this.notify('textDocument/didOpen', { textDocument: { uri, languageId, version, text } });
    return version;
  }

  /**
   * `textDocument/didChange` with the next version: a string replaces the whole text (sent as a
   * range covering the document, as an incremental-sync client does), range edits are sent as is
   * and applied to the client's copy in order. Returns the new version.
   */
  async change(uri: string, change: DocumentChange): Promise<number> {
    const d = this.docs.get(uri);
    if (!d) throw new Error(`${uri} is not open`);
    const edits = typeof change === 'string' ? [{ range: { start: { line: 0, character: 0 }, end: positionAt(d.text, d.text.length) }, text: change }] : Array.isArray(change) ? change : [change];
    for (const e of edits) d.text = applyTextEdits(d.text, [{ range: e.range, newText: e.text }]);
    d.version += 1;
    await this.notify('textDocument/didChange', { textDocument: { uri, version: d.version }, contentChanges: edits });
    return d.version;
  }

  async close(uri: string): Promise<void> {
    this.docs.delete(uri);
    await this.notify('textDocument/didClose', { textDocument: { uri } });
  }

  /** The newest publishDiagnostics for `uri`, if any. */
  latest(uri: string): PublishDiagnosticsParams | undefined {
    const list = this.published.get(uri);
    return list?.[list.length - 1];
  }

  /**
   * Resolves with the newest publishDiagnostics for `uri` as soon as it satisfies `predicate`
   * (checked now and on every new publish for the URI); rejects after `timeoutMs`.
   */
  waitForDiagnostics(uri: string, predicate: (p: PublishDiagnosticsParams) => boolean = () => true, timeoutMs = 30_000): Promise<PublishDiagnosticsParams> {
    return this.waitUntil(
      () => {
        const p = this.latest(uri);
        return p && predicate(p) ? { value: p } : undefined;
      },
      `waiting for diagnostics of ${uri}`,
      () => {
        const last = this.latest(uri);
        return `no matching diagnostics for ${uri} within ${timeoutMs} ms; newest: ${last ? JSON.stringify({ version: last.version, diagnostics: last.diagnostics.map((x) => ({ code: x.code, range: x.range, message: x.message })) }) : 'none'}`;
      },
      timeoutMs,
    );
  }

  /** Waits for a publish for `uri` that is newer than the ones seen so far (and matches). */
  waitForNextDiagnostics(uri: string, predicate: (p: PublishDiagnosticsParams) => boolean = () => true, timeoutMs = 30_000): Promise<PublishDiagnosticsParams> {
    const seen = this.published.get(uri)?.length ?? 0;
    return this.waitForDiagnostics(uri, (p) => (this.published.get(uri)?.length ?? 0) > seen && predicate(p), timeoutMs);
  }

  hover(uri: string, position: Position): Promise<Hover | null> {
    return this.request('textDocument/hover', { textDocument: { uri }, position });
  }

  async completion(uri: string, position: Position): Promise<CompletionItem[]> {
    const r = await this.request<CompletionItem[] | { items: CompletionItem[] } | null>('textDocument/completion', { textDocument: { uri }, position, context: { triggerKind: 1 } });
    return !r ? [] : Array.isArray(r) ? r : r.items;
  }

  codeActions(uri: string, range: Range, diagnostics: Diagnostic[], only?: string[]): Promise<(CodeAction | Command)[] | null> {
    return this.request('textDocument/codeAction', { textDocument: { uri }, range, context: { diagnostics, only, triggerKind: 1 } });
  }

  resolveCodeAction(action: CodeAction): Promise<CodeAction> {
    return this.request('codeAction/resolve', action);
  }

  /**
   * Ends the server: `shutdown` request, `exit` notification, then waits for the process to exit;
   * kills it (SIGKILL) if any step takes longer than `timeoutMs`. Safe to call twice.
   */
  async shutdown(timeoutMs = 10_000): Promise<void> {
    for (const w of [...this.waiters]) w.cancel(new Error('the client was shut down while waiting for diagnostics'));
    if (!this.exited) {
      try {
        await withTimeout(this.connection.sendRequest('shutdown'), timeoutMs, 'shutdown timed out');
        await this.connection.sendNotification('exit');
        await withTimeout(this.exitPromise, timeoutMs, 'exit timed out');
      } catch {
        // Unresponsive or already gone: fall through to the kill.
      }
    }
    if (!this.exited) {
      this.child.kill('SIGKILL');
      await withTimeout(this.exitPromise, timeoutMs, 'the server did not die after SIGKILL').catch(() => undefined);
    }
    this.connection.dispose();
    this.child.stdin?.destroy();
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
  }
}

// ---------- text helpers ----------

/** Offset of an LSP position (UTF-16 units, `\n` or `\r\n` line ends). */
export function offsetAt(text: string, pos: Position): number {
  let line = 0;
  let i = 0;
  while (line < pos.line) {
    const nl = text.indexOf('\n', i);
    if (nl < 0) return text.length;
    i = nl + 1;
    line++;
  }
  let end = text.indexOf('\n', i);
  if (end < 0) end = text.length;
  if (end > i && text[end - 1] === '\r') end--;
  return Math.min(i + pos.character, end);
}

export function positionAt(text: string, offset: number): Position {
  let line = 0;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, character: Math.min(offset, text.length) - lineStart };
}

/** Applies LSP text edits (non-overlapping, any order) to a text, as an editor does. */
export function applyTextEdits(text: string, edits: TextEdit[]): string {
  const spans = edits
    .map((e, i) => ({ start: offsetAt(text, e.range.start), end: offsetAt(text, e.range.end), newText: e.newText, i }))
    .sort((a, b) => a.start - b.start || a.end - b.end || a.i - b.i);
  let out = '';
  let at = 0;
  for (const s of spans) {
    if (s.start < at) throw new Error(`overlapping edits at offset ${s.start}`);
    out += text.slice(at, s.start) + s.newText;
    at = s.end;
  }
  return out + text.slice(at);
}

/** The range of the `occurrence`-th (0-based) `needle` in `text`. */
export function rangeOf(text: string, needle: string, occurrence = 0): Range {
  let at = -1;
  for (let n = 0; n <= occurrence; n++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`${JSON.stringify(needle)} (#${occurrence}) not found`);
  }
  return { start: positionAt(text, at), end: positionAt(text, at + needle.length) };
}

/**
 * The range of the first match of `re` (made multiline), or of its first capture group when it has
 * one: `rangeOfMatch(text, /^\s*(fsdp_versoin):/)` is the key, never a mention in a comment.
 */
export function rangeOfMatch(text: string, re: RegExp): Range {
  const flags = new Set(re.flags.replace('g', '').replace('y', ''));
  flags.add('m');
  flags.add('d');
  const m = new RegExp(re.source, [...flags].join('')).exec(text);
  if (!m) throw new Error(`${re} does not match`);
  const [start, end] = m.indices?.[1] ?? m.indices![0];
  return { start: positionAt(text, start), end: positionAt(text, end) };
}

/** The position `delta` characters into the first occurrence of `needle`. */
export function positionOf(text: string, needle: string, delta = 0): Position {
  const r = rangeOf(text, needle);
  return { line: r.start.line, character: r.start.character + delta };
}

/** The markdown (or plain) text of a hover. */
export function hoverText(h: Hover | null): string {
  if (!h) return '';
  const c = h.contents;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return c.map((x) => (typeof x === 'string' ? x : x.value)).join('\n');
  return c.value;
}

/** The edits of a workspace edit for one URI. */
export function editsFor(edit: WorkspaceEdit | undefined, uri: string): TextEdit[] {
  if (!edit) return [];
  if (edit.changes) return edit.changes[uri] ?? [];
  return (edit.documentChanges ?? []).filter((d) => d.textDocument.uri === uri).flatMap((d) => d.edits);
}

/** Runs `fn` against a fresh server and always shuts it down. */
export async function withServer<T>(fn: (c: LspClient) => Promise<T>, options?: StartOptions): Promise<T> {
  const c = await LspClient.start(options);
  try {
    return await fn(c);
  } finally {
    await c.shutdown();
  }
}

/** The rule ids of a publish. */
export const codes = (p: PublishDiagnosticsParams) => p.diagnostics.map((d) => d.code);
/** A predicate: the publish has a diagnostic with this rule id. */
export const has = (code: string) => (p: PublishDiagnosticsParams) => p.diagnostics.some((d) => d.code === code);
/** The diagnostic with this rule id (fails the test when there is none). */
export const find = (p: PublishDiagnosticsParams, code: string): Diagnostic => {
  const d = p.diagnostics.find((x) => x.code === code);
  assert.ok(d, `expected a ${code} diagnostic, got ${JSON.stringify(codes(p))}`);
  return d;
};
