/**
 * The message layer under the language server: a base-protocol frame reader that survives a
 * misbehaving client, and the lifecycle rules every message passes before a handler sees it.
 *
 * `FrameReader` reads `Content-Length` frames from a byte stream. Unlike a reader that trusts the
 * header, it never goes deaf after a bad frame:
 *   - a header block without a usable `Content-Length` (missing, not a decimal number, negative,
 *     over `MAX_MESSAGE_BYTES`), a header line without `:`, or header garbage that never ends is
 *     dropped, and reading resumes at the next `Content-Length:` header;
 *   - a body that turns out shorter than its header said (the next frame's header shows up inside
 *     it) ends where that header starts: a JSON text can never contain a header line (a raw line
 *     break cannot occur inside a JSON string, and a header name is no JSON token), so this never
 *     cuts a real message;
 *   - a body that is not JSON is answered with a JSON-RPC Parse error (-32700, id null); JSON that is
 *     not a JSON-RPC message is answered with Invalid Request (-32600, with its id when it has one).
 *
 * `LifecycleGate` wraps any reader (stdio, IPC, socket) and applies the LSP lifecycle: before
 * `initialize`, requests are answered with ServerNotInitialized (-32002) and notifications other
 * than `exit` are dropped; a second `initialize` is an Invalid Request; after `shutdown`, every
 * request (a second `shutdown` too) is an Invalid Request and notifications other than `exit` are
 * dropped. Malformed `$/cancelRequest` notifications are dropped.
 */
import { createConnection as netConnection, type Socket } from 'node:net';
import {
  AbstractMessageReader,
  Disposable,
  ErrorCodes,
  IPCMessageReader,
  IPCMessageWriter,
  StreamMessageWriter,
  type DataCallback,
  type Message,
  type MessageReader,
  type MessageWriter,
  type ResponseMessage,
} from 'vscode-languageserver/node';

/** Larger frames are refused (no document an editor syncs comes near; the engine analyses at most 64 MB, by default 1 MB). */
export const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;
/** A header block longer than this without its blank line is garbage. */
const MAX_HEADER_BYTES = 16 * 1024;
const HEADER_END = Buffer.from('\r\n\r\n', 'latin1');
/** Where a frame's header starts (searched when resynchronising). */
const HEADER_NAME = /content-length[ \t]*:/gi;
/** A complete `Content-Length: N` header line: never part of a JSON text. */
const HEADER_LINE = /content-length[ \t]*:[ \t]*\d+[ \t]*\r\n/i;
/** Bytes kept from an unmatched tail, so a header split across reads is still found. */
const KEEP_TAIL = 64;

export interface MessageProblem {
  code: number;
  message: string;
  /** The id of the offending request, when it had a usable one. */
  id: string | number | null;
}

export class FrameReader extends AbstractMessageReader implements MessageReader {
  private chunks: Buffer[] = [];
  private size = 0;
  /** The body length of the frame being read, or -1 while reading a header. */
  private bodyLength = -1;
  /** Bytes of the current body already searched for an early header, and the last few of them. */
  private scanned = 0;
  private tail = '';
  private callback: DataCallback | undefined;

  constructor(
    private readonly stream: NodeJS.ReadableStream,
    /** Called for every frame that is dropped; `answer` says whether it deserves an error response. */
    private readonly onProblem: (problem: MessageProblem, answer: boolean) => void = () => undefined,
  ) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    this.callback = callback;
    const onData = (data: Buffer | string) => this.onData(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    const onError = (error: Error) => this.fireError(error);
    const onEnd = () => this.fireClose();
    this.stream.on('data', onData);
    this.stream.on('error', onError);
    this.stream.on('end', onEnd);
    this.stream.on('close', onEnd);
    return Disposable.create(() => {
      this.stream.off('data', onData);
      this.stream.off('error', onError);
      this.stream.off('end', onEnd);
      this.stream.off('close', onEnd);
      this.callback = undefined;
    });
  }

  private onData(data: Buffer): void {
    if (data.length === 0) return;
    this.chunks.push(data);
    this.size += data.length;
    try {
      this.drain();
    } catch (error) {
      // Never expected; whatever happened, the buffered bytes are dropped rather than re-read forever.
      this.chunks = [];
      this.size = 0;
      this.bodyLength = -1;
      this.fireError(error);
    }
  }

  private drain(): void {
    for (;;) {
      if (this.bodyLength < 0) {
        if (this.size === 0) return;
        const buf = this.contiguous();
        const end = buf.indexOf(HEADER_END);
        if (end < 0) {
          if (buf.length > MAX_HEADER_BYTES) this.resync(buf, 'a header without its blank line');
          return;
        }
        const header = parseHeader(buf.toString('latin1', 0, end));
        if (typeof header === 'string') {
          this.onProblem({ code: ErrorCodes.ParseError, message: `dropped a frame: ${header}`, id: null }, false);
          // Two lengths: the block is a header, just not a usable one; the next frame follows it.
          if (header === TWO_LENGTHS) this.consume(end + HEADER_END.length);
          else this.resync(buf, undefined, end + HEADER_END.length);
          continue;
        }
        this.consume(end + HEADER_END.length);
        this.bodyLength = header;
        this.scanned = 0;
        this.tail = '';
        continue;
      }
      if (this.size >= this.bodyLength) {
        const body = this.take(this.bodyLength);
        this.bodyLength = -1;
        this.deliver(body);
        continue;
      }
      // The body is incomplete: if the next frame's header is already inside it, the header lied.
      const early = this.findHeaderInBody();
      if (early < 0) return;
      const body = this.take(early);
      this.bodyLength = -1;
      this.deliver(body, true);
    }
  }

  /**
   * Drops bytes up to the next `Content-Length:` after the start; without one, the bad header block
   * (`blockEnd`), or all but a short tail of header garbage that never ended.
   */
  private resync(buf: Buffer, why: string | undefined, blockEnd?: number): void {
    if (why) this.onProblem({ code: ErrorCodes.ParseError, message: `dropped ${buf.length} bytes: ${why}`, id: null }, false);
    const text = buf.toString('latin1');
    HEADER_NAME.lastIndex = 1;
    const m = HEADER_NAME.exec(text);
    this.consume(m ? m.index : blockEnd ?? Math.max(1, buf.length - KEEP_TAIL));
  }

  /**
   * Offset in the current (incomplete) body where a frame header starts, or -1. Each byte is
   * searched once (with a short overlap, for a header split across reads).
   */
  private findHeaderInBody(): number {
    let offset = 0;
    for (const chunk of this.chunks) {
      const end = offset + chunk.length;
      if (end > this.scanned) {
        const from = Math.max(0, this.scanned - offset);
        const text = this.tail + chunk.toString('latin1', from);
        const m = HEADER_LINE.exec(text);
        if (m) return offset + from - this.tail.length + m.index;
        this.tail = text.slice(-KEEP_TAIL);
        this.scanned = end;
      }
      offset = end;
    }
    return -1;
  }

  private deliver(body: Buffer, truncated = false): void {
    let message: unknown;
    try {
      message = JSON.parse(body.toString('utf8'));
    } catch (error) {
      const why = truncated ? 'the frame is shorter than its Content-Length and its body is not JSON' : `the body is not JSON (${(error as Error).message})`;
      this.onProblem({ code: ErrorCodes.ParseError, message: `Parse error: ${why}`, id: null }, true);
      return;
    }
    const problem = invalidMessage(message);
    if (problem) {
      this.onProblem(problem, true);
      return;
    }
    this.callback?.(message as Message);
  }

  private contiguous(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks, this.size)];
    return this.chunks[0] ?? Buffer.alloc(0);
  }

  private take(n: number): Buffer {
    const buf = this.contiguous();
    const out = buf.subarray(0, n);
    this.consume(n);
    return out;
  }

  private consume(n: number): void {
    const buf = this.contiguous();
    const rest = buf.subarray(Math.min(n, buf.length));
    this.chunks = rest.length ? [rest] : [];
    this.size = rest.length;
  }
}

const TWO_LENGTHS = 'two different Content-Length headers';

/** The body length a header block declares, or why it declares none usable. */
export function parseHeader(block: string): number | string {
  let length: number | undefined;
  for (const line of block.split('\r\n')) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    if (colon < 0) return `a header line without ':' (${JSON.stringify(line.slice(0, 80))})`;
    if (line.slice(0, colon).trim().toLowerCase() !== 'content-length') continue;
    const value = line.slice(colon + 1).trim();
    if (!/^\d{1,15}$/.test(value)) return `Content-Length ${JSON.stringify(value.slice(0, 40))} is not a byte count`;
    const n = Number(value);
    if (n > MAX_MESSAGE_BYTES) return `Content-Length ${n} is over the ${MAX_MESSAGE_BYTES}-byte limit`;
    if (length !== undefined && length !== n) return TWO_LENGTHS;
    length = n;
  }
  return length ?? 'no Content-Length header';
}

const isId = (id: unknown): id is string | number => typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));

/** Why a parsed JSON value is not a JSON-RPC request, notification or response (undefined: it is one). */
export function invalidMessage(m: unknown): MessageProblem | undefined {
  if (!m || typeof m !== 'object' || Array.isArray(m)) {
    return { code: ErrorCodes.InvalidRequest, message: `Invalid Request: a message is a JSON object, not ${Array.isArray(m) ? 'an array (batches are not part of LSP)' : JSON.stringify(m)}`, id: null };
  }
  const o = m as Record<string, unknown>;
  const id = isId(o.id) ? o.id : null;
  if ('method' in o) {
    if (typeof o.method !== 'string') return { code: ErrorCodes.InvalidRequest, message: 'Invalid Request: method is not a string', id };
    if (o.id !== undefined && !isId(o.id)) return { code: ErrorCodes.InvalidRequest, message: 'Invalid Request: id is neither a number nor a string', id: null };
    // `params: null` is tolerated (some clients send it with shutdown and exit).
    if (o.params !== undefined && o.params !== null && typeof o.params !== 'object') return { code: ErrorCodes.InvalidRequest, message: `Invalid Request: params of ${o.method} is neither an object nor an array`, id };
    return undefined;
  }
  if ('result' in o || 'error' in o) return undefined;
  return { code: ErrorCodes.InvalidRequest, message: 'Invalid Request: neither a method nor a result', id };
}

export type LifecycleState = 'new' | 'running' | 'shutdown';

export class LifecycleGate extends AbstractMessageReader implements MessageReader {
  private current: LifecycleState = 'new';

  constructor(
    private readonly inner: MessageReader,
    private readonly writer: MessageWriter,
  ) {
    super();
    inner.onError((e) => this.fireError(e));
    inner.onClose(() => this.fireClose());
    inner.onPartialMessage((info) => this.firePartialMessage(info));
  }

  get state(): LifecycleState {
    return this.current;
  }

  listen(callback: DataCallback): Disposable {
    return this.inner.listen((message) => {
      if (this.admit(message)) callback(message);
    });
  }

  override dispose(): void {
    super.dispose();
    this.inner.dispose();
  }

  /** Whether the message goes on to the handlers; answers the requests it stops. */
  private admit(message: Message): boolean {
    const m = message as { id?: unknown; method?: unknown; params?: unknown };
    if (typeof m.method !== 'string') return true; // a response
    // `params: null` is read as no params (handlers of the protocol library read fields of params).
    if (m.params === null) delete m.params;
    if (m.id !== undefined) {
      if (!isId(m.id)) return false;
      if (m.method === 'initialize') {
        if (this.current === 'new') {
          this.current = 'running';
          // The protocol library reads the capabilities before any handler can check them.
          const params = (m.params && typeof m.params === 'object' && !Array.isArray(m.params) ? m.params : (m.params = {})) as { capabilities?: unknown };
          if (!params.capabilities || typeof params.capabilities !== 'object' || Array.isArray(params.capabilities)) params.capabilities = {};
          return true;
        }
        this.reply(m.id, ErrorCodes.InvalidRequest, 'initialize may be sent only once');
        return false;
      }
      if (this.current === 'new') {
        this.reply(m.id, ErrorCodes.ServerNotInitialized, `${m.method}: the server is not initialized (the first request must be initialize)`);
        return false;
      }
      if (this.current === 'shutdown') {
        this.reply(m.id, ErrorCodes.InvalidRequest, `${m.method}: the server is shutting down (only exit is accepted after shutdown)`);
        return false;
      }
      if (m.method === 'shutdown') this.current = 'shutdown';
      return true;
    }
    if (m.method === 'exit') return true;
    if (this.current !== 'running') return false;
    if (m.method === '$/cancelRequest') return !!m.params && typeof m.params === 'object' && isId((m.params as { id?: unknown }).id);
    return true;
  }

  private reply(id: string | number, code: number, message: string): void {
    const response: ResponseMessage = { jsonrpc: '2.0', id, error: { code, message } };
    this.writer.write(response).catch(() => undefined);
  }
}

export interface Transport {
  reader: MessageReader;
  writer: MessageWriter;
  /** True when stdout carries the protocol (console output must not go there). */
  stdio: boolean;
}

/**
 * The transport the command line asks for: `--stdio`, `--node-ipc`, `--socket=<port>` (or
 * `--socket <port>`) or `--pipe=<name>`, each read through `FrameReader` where it is a byte stream.
 */
export function transportFromArgs(argv: readonly string[], onProblem: (p: MessageProblem, answer: boolean) => void): Transport | undefined {
  const value = (name: string): string | undefined => {
    for (let i = 0; i < argv.length; i++) {
      if (argv[i] === name && i + 1 < argv.length) return argv[i + 1];
      if (argv[i].startsWith(`${name}=`)) return argv[i].slice(name.length + 1);
    }
    return undefined;
  };
  if (argv.includes('--stdio')) return { reader: new FrameReader(process.stdin, onProblem), writer: new StreamMessageWriter(process.stdout), stdio: true };
  if (argv.includes('--node-ipc')) return { reader: new IPCMessageReader(process), writer: new IPCMessageWriter(process), stdio: false };
  const port = Number.parseInt(value('--socket') ?? '', 10);
  const pipe = value('--pipe');
  let socket: Socket | undefined;
  if (Number.isInteger(port) && port > 0) socket = netConnection(port, '127.0.0.1');
  else if (pipe) socket = netConnection(pipe);
  if (!socket) return undefined;
  return { reader: new FrameReader(socket, onProblem), writer: new StreamMessageWriter(socket), stdio: false };
}
