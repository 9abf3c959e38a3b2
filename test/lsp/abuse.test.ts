/**
 * The server survives its client: the built language server driven over stdio with everything a
 * buggy or hostile client may send (malformed frames, messages that are not JSON-RPC, requests out
 * of the lifecycle, edits and positions outside the document, unusual URIs), checking that it
 * answers what the protocol says it must, never crashes or goes deaf, that every range it sends
 * lies inside the document (lines and characters counted as the client's TextDocument counts them:
 * `\n`, `\r\n` and `\r` end lines, characters are UTF-16 code units), and that after the abuse it
 * still answers a hover correctly on a real document.
 *
 * Run `node scripts/build.mjs` first, then `node --import tsx --test test/lsp/abuse.test.ts`.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { codes, frame, has, hoverText, LspClient, withServer, type CompletionItem, type Diagnostic, type Position, type PublishDiagnosticsParams, type Range, type RawResponse } from './client';

const TEST_TIMEOUT = 180_000;
const WAIT = 60_000;
/** A frame the server should answer at once; longer means it is waiting for bytes that never come. */
const PROMPT = 10_000;

const ErrorCodes = { ParseError: -32700, InvalidRequest: -32600, MethodNotFound: -32601, InvalidParams: -32602, ServerNotInitialized: -32002 } as const;

/** A small config whose only finding is the YAML 1.1 trap on line 2 (`no` at characters 17–19). */
const TRAP_LINES = ['compute_environment: LOCAL_MACHINE', 'distributed_type: MULTI_GPU', 'mixed_precision: no', 'num_machines: 1', 'num_processes: 2', ''];
const TRAP = TRAP_LINES.join('\n');
const TRAP_RANGE: Range = { start: { line: 2, character: 17 }, end: { line: 2, character: 19 } };
const HOVER_DOC = 'distributed_type: MULTI_GPU\nnum_processes: 2\n';

let serial = 0;

/**
 * After the abuse, the server still works: a hover on `num_processes` of a real Accelerate config
 * returns its documentation with the key's range, and the config gets its (empty) diagnostics.
 */
async function stillServes(c: LspClient): Promise<void> {
  assert.ok(!c.hasExited, 'the server is still running');
  const uri = `untitled:still-serves-${++serial}.yaml`;
  await c.open(uri, HOVER_DOC);
  const h = await c.hover(uri, { line: 1, character: 3 });
  const md = hoverText(h);
  assert.match(md, /num_processes/);
  assert.match(md, /total over (every|all) machines?/i, md);
  assert.deepEqual(h!.range, { start: { line: 1, character: 0 }, end: { line: 1, character: 13 } });
  const p = await c.waitForDiagnostics(uri, (x) => x.version === 1, WAIT);
  assert.deepEqual(codes(p), []);
  await c.close(uri);
  assert.ok(!c.hasExited, 'the server is still running');
}

/** The position as a TextDocument over `text` resolves it (clamped to its line and to the text). */
function normalized(text: string, p: Position): Position {
  const doc = TextDocument.create('untitled:x', 'yaml', 1, text);
  return doc.positionAt(doc.offsetAt({ line: Math.max(0, Math.trunc(p.line)), character: Math.max(0, Math.trunc(p.character)) }));
}

/** A range lies inside `text` as the client's TextDocument counts lines and characters. */
function assertInside(text: string, range: Range | undefined, what: string): void {
  assert.ok(range, `${what}: no range`);
  const doc = TextDocument.create('untitled:x', 'yaml', 1, text);
  for (const p of [range.start, range.end]) {
    assert.ok(Number.isInteger(p.line) && Number.isInteger(p.character) && p.line >= 0 && p.character >= 0, `${what}: ${JSON.stringify(p)} is not a position`);
    assert.ok(p.line < doc.lineCount, `${what}: line ${p.line} of a ${doc.lineCount}-line document`);
    assert.deepEqual(doc.positionAt(doc.offsetAt(p)), p, `${what}: ${JSON.stringify(p)} is past the end of line ${p.line}`);
  }
  assert.ok(doc.offsetAt(range.start) <= doc.offsetAt(range.end), `${what}: ${JSON.stringify(range)} ends before it starts`);
}

function assertDiagnosticsInside(text: string, p: PublishDiagnosticsParams): void {
  for (const d of p.diagnostics) assertInside(text, d.range, `${d.code} diagnostic`);
}

/** The text a range covers, as the client's TextDocument reads it. */
function textAt(text: string, range: Range): string {
  return TextDocument.create('untitled:x', 'yaml', 1, text).getText(range);
}

/** Every completion item with a textEdit: a single-line range that contains the cursor, inside the text. */
function assertCompletionEdits(text: string, cursor: Position, items: CompletionItem[], what: string): void {
  const at = normalized(text, cursor);
  for (const item of items) {
    const edit = item.textEdit;
    if (!edit) {
      assert.equal(typeof (item.insertText ?? item.label), 'string', `${what}: ${item.label} has neither a textEdit nor a text`);
      continue;
    }
    const ranges = 'range' in edit ? [edit.range] : [edit.insert, edit.replace];
    for (const r of ranges) {
      assertInside(text, r, `${what}: completion ${JSON.stringify(item.label)}`);
      assert.equal(r.start.line, r.end.line, `${what}: ${item.label}: a multi-line range ${JSON.stringify(r)}`);
      assert.equal(r.start.line, at.line, `${what}: ${item.label}: range ${JSON.stringify(r)} is not on the cursor's line ${at.line}`);
      assert.ok(r.start.character <= at.character && at.character <= r.end.character, `${what}: ${item.label}: range ${JSON.stringify(r)} does not contain the cursor ${JSON.stringify(at)}`);
    }
  }
}

/** The error of a request that must fail, with its code. */
async function rejected(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    const r = await p;
    assert.fail(`expected an error response, got ${JSON.stringify(r)}`);
  } catch (e) {
    const err = e as { code?: number; message: string };
    if (typeof err.code !== 'number') throw e;
    return { code: err.code, message: err.message };
  }
}

/** Sends `bytes`, then a sentinel request; returns the messages received in between (the sentinel answered). */
async function exchange(c: LspClient, bytes: Buffer | string): Promise<RawResponse[]> {
  const id = `sentinel-${++serial}`;
  const from = c.received.length;
  await c.sendRaw(bytes);
  const answer = await c.rawRequest(id, 'shardwise/ruleDocumentation', { id: 'unknown-key' }, PROMPT);
  assert.equal(typeof answer.result, 'string', `the sentinel after ${JSON.stringify(bytes.toString().slice(0, 120))} is answered with the rule's documentation`);
  assert.match(answer.result as string, /unknown-key/);
  const to = c.received.indexOf(answer as never);
  return c.received.slice(from, to).filter((m): m is RawResponse & typeof m => !('method' in m)) as RawResponse[];
}

const noConfig = { configurationCapability: false } as const;

// ---------------------------------------------------------------------------------------------

describe('malformed frames', () => {
  test('a frame without a usable Content-Length is dropped and the next frame is read', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const bad: [string, string][] = [
        // A body that holds a shutdown request: were it read, every request after it would fail.
        ['no Content-Length', 'Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{"jsonrpc":"2.0","id":"lost-1","method":"shutdown"}'],
        ['a negative length', 'Content-Length: -5\r\n\r\n'],
        ['a length that is not a number', 'Content-Length: abc\r\n\r\n'],
        ['a length with trailing junk, and a body', 'Content-Length: 12abc\r\n\r\n{"x":1}'],
        ['an exponent', 'Content-Length: 1e3\r\n\r\n'],
        ['hexadecimal', 'Content-Length: 0x10\r\n\r\n'],
        ['two different lengths', 'Content-Length: 5\r\nContent-Length: 7\r\n\r\n'],
        ['a header line without a colon', 'Content-Length 12\r\n\r\n'],
        ['a garbage line', 'garbage line\r\n\r\n'],
        ['an empty header block', '\r\n\r\n'],
        ['20,000 bytes of header garbage without a blank line', 'x'.repeat(20_000)],
        ['a body cut short by the end of its frame', 'Content-Length: 10\r\n\r\n{"jsonrpc":"2.0","id":"lost-2","method":"shutdown"}'],
      ];
      for (const [what, bytes] of bad) {
        const between = await exchange(c, bytes).catch((e) => assert.fail(`after ${what}: ${(e as Error).message}`));
        assert.ok(!between.some((m) => m.id === 'lost-1' || m.id === 'lost-2'), `after ${what}: a request inside a dropped frame was run`);
      }
      // Header names are case-insensitive, other headers are allowed, the body may carry bytes that are not UTF-8.
      const lowerBody = '{"jsonrpc":"2.0","id":"lower","method":"shardwise/ruleDocumentation","params":{"id":"x"}}';
      await c.sendRaw(frame(lowerBody, `content-type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length:${Buffer.byteLength(lowerBody)}\r\n\r\n`));
      assert.equal((await c.waitForResponse('lower', PROMPT)).result, null);
      const utf8 = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":"not-utf8","method":"shardwise/ruleDocumentation","params":{"id":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}}')]);
      await c.sendRaw(Buffer.concat([Buffer.from(`Content-Length: ${utf8.length}\r\n\r\n`), utf8]));
      assert.equal((await c.waitForResponse('not-utf8', PROMPT)).result, null);
      await stillServes(c);
    }, noConfig),
  );

  test('a body that is not JSON gets a Parse error, JSON that is not JSON-RPC an Invalid Request, and nothing else changes', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const nullErrors = async (bytes: Buffer, code: number, what: string) => {
        const between = await exchange(c, bytes);
        const errors = between.filter((m) => m.id === null);
        assert.equal(errors.length, 1, `${what}: one error response with id null, got ${JSON.stringify(between)}`);
        assert.equal(errors[0].error?.code, code, `${what}: ${JSON.stringify(errors[0])}`);
      };
      await nullErrors(frame('this is not json'), ErrorCodes.ParseError, 'text');
      await nullErrors(frame('{"jsonrpc":"2.0","id":1,'), ErrorCodes.ParseError, 'truncated JSON');
      await nullErrors(frame(''), ErrorCodes.ParseError, 'an empty body (Content-Length: 0)');
      await nullErrors(frame('[1,2,3]'), ErrorCodes.InvalidRequest, 'an array');
      await nullErrors(frame('[]'), ErrorCodes.InvalidRequest, 'an empty batch');
      await nullErrors(frame('null'), ErrorCodes.InvalidRequest, 'null');
      await nullErrors(frame('42'), ErrorCodes.InvalidRequest, 'a number');
      await nullErrors(frame('"text"'), ErrorCodes.InvalidRequest, 'a string');
      await nullErrors(frame('{"hello":1}'), ErrorCodes.InvalidRequest, 'an object that is no message');
      await nullErrors(frame({ jsonrpc: '2.0', id: { a: 1 }, method: 'textDocument/hover' }), ErrorCodes.InvalidRequest, 'an object id');
      await nullErrors(frame({ jsonrpc: '2.0', id: null, method: 'textDocument/hover' }), ErrorCodes.InvalidRequest, 'a null id with a method');
      // Invalid requests with a usable id are answered with that id.
      for (const [id, body, code] of [
        ['method-42', { jsonrpc: '2.0', id: 'method-42', method: 42 }, ErrorCodes.InvalidRequest],
        ['params-5', { jsonrpc: '2.0', id: 'params-5', method: 'textDocument/hover', params: 5 }, ErrorCodes.InvalidRequest],
        ['params-string', { jsonrpc: '2.0', id: 'params-string', method: 'textDocument/completion', params: 'x' }, ErrorCodes.InvalidRequest],
        ['no-params', { jsonrpc: '2.0', id: 'no-params', method: 'textDocument/hover' }, ErrorCodes.InvalidParams],
        ['empty-params', { jsonrpc: '2.0', id: 'empty-params', method: 'textDocument/hover', params: {} }, ErrorCodes.InvalidParams],
        ['null-params', { jsonrpc: '2.0', id: 'null-params', method: 'textDocument/definition', params: null }, ErrorCodes.InvalidParams],
        ['string-position', { jsonrpc: '2.0', id: 'string-position', method: 'textDocument/hover', params: { textDocument: { uri: 'untitled:a.yaml' }, position: { line: '1', character: 0 } } }, ErrorCodes.InvalidParams],
        ['nan-position', { jsonrpc: '2.0', id: 'nan-position', method: 'textDocument/completion', params: { textDocument: { uri: 'untitled:a.yaml' }, position: { line: null, character: 0 } } }, ErrorCodes.InvalidParams],
        ['uri-42', { jsonrpc: '2.0', id: 'uri-42', method: 'textDocument/codeLens', params: { textDocument: { uri: 42 } } }, ErrorCodes.InvalidParams],
        ['no-range', { jsonrpc: '2.0', id: 'no-range', method: 'textDocument/codeAction', params: { textDocument: { uri: 'untitled:a.yaml' }, context: { diagnostics: [] } } }, ErrorCodes.InvalidParams],
        ['links-array', { jsonrpc: '2.0', id: 'links-array', method: 'textDocument/documentLink', params: [] }, ErrorCodes.InvalidParams],
        ['resolve-string', { jsonrpc: '2.0', id: 'resolve-string', method: 'codeAction/resolve', params: [] }, ErrorCodes.InvalidParams],
      ] as const) {
        await c.sendRaw(frame(body));
        const r = await c.waitForResponse(id, PROMPT);
        assert.equal(r.error?.code, code, `${id}: ${JSON.stringify(r)}`);
      }
      // A code action request with a malformed context still gets its quick fixes.
      const uri = 'untitled:abuse-context.yaml';
      await c.open(uri, TRAP);
      await c.waitForDiagnostics(uri, (x) => x.version === 1 && has('yaml-boolean-trap')(x), WAIT);
      const actions = await c.rawRequest('odd-context', 'textDocument/codeAction', { textDocument: { uri }, range: TRAP_RANGE, context: { diagnostics: [{ range: 'x' }, null, 5], only: [3, null, 'quickfix'] } });
      assert.ok(Array.isArray(actions.result) && (actions.result as { title: string }[]).some((a) => /'no'/.test(a.title)), JSON.stringify(actions));
      // Malformed notifications change nothing and are not answered.
      for (const body of [
        { jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: 42, languageId: 'yaml', version: 1, text: TRAP } } },
        { jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: 'untitled:no-text.yaml', languageId: 'yaml', version: 1 } } },
        { jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: 'untitled:bad-version.yaml', languageId: 'yaml', version: 'one', text: TRAP } } },
        { jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri, version: 2 }, contentChanges: 'mixed_precision: bf16' } },
        { jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri }, contentChanges: [{ text: '' }] } },
        { jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri, version: 2 }, contentChanges: [{ range: { start: { line: 'a' } }, text: '' }] } },
        { jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri, version: 2 }, contentChanges: [{ text: 42 }] } },
        { jsonrpc: '2.0', method: 'textDocument/didClose', params: {} },
        { jsonrpc: '2.0', method: 'textDocument/didSave', params: { textDocument: 'x' } },
        { jsonrpc: '2.0', method: 'workspace/didChangeConfiguration', params: { settings: 'x' } },
        { jsonrpc: '2.0', method: 'workspace/didChangeWatchedFiles', params: { changes: [null, { uri: 5 }, { uri: 'file:///nowhere/.shardwise.yaml', type: 2 }] } },
        { jsonrpc: '2.0', method: '$/cancelRequest' },
        { jsonrpc: '2.0', method: '$/cancelRequest', params: { id: { a: 1 } } },
        { jsonrpc: '2.0', method: '$/cancelRequest', params: { id: 'never-sent' } },
      ]) {
        const between = await exchange(c, frame(body));
        assert.deepEqual(between, [], `${JSON.stringify(body)} is not answered`);
      }
      assert.ok(!c.published.has('untitled:no-text.yaml') && !c.published.has('untitled:bad-version.yaml'), 'malformed opens open nothing');
      // The document kept its text: the trap is still there, at the same place.
      const h = await c.hover(uri, { line: 2, character: 3 });
      assert.match(hoverText(h), /mixed_precision/);
      const d = await c.rawRequest('still-trap', 'textDocument/codeAction', { textDocument: { uri }, range: TRAP_RANGE, context: { diagnostics: [] } });
      assert.ok((d.result as { title: string }[]).some((a) => /'no'/.test(a.title)), 'the trap is still in the text');
      await stillServes(c);
    }, noConfig),
  );

  test('a Content-Length larger than its body: the frames after it are still read (the reader does not wait for bytes that never come)', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      // A reader that trusts the header would wait for 65,536 bytes and take the next frames as
      // their body: the sentinel after each would never be answered (PROMPT fails the test).
      const overstated = await exchange(c, 'Content-Length: 65536\r\n\r\n{}');
      assert.deepEqual(overstated.map((m) => m.error?.code), [ErrorCodes.InvalidRequest], JSON.stringify(overstated));
      // The overstated frame's own request, complete, is answered too.
      const own = JSON.stringify({ jsonrpc: '2.0', id: 'overstated-itself', method: 'shardwise/ruleDocumentation', params: { id: 'yaml-boolean-trap' } });
      await exchange(c, `Content-Length: ${own.length + 5000}\r\n\r\n${own}`);
      assert.match(String((await c.waitForResponse('overstated-itself', PROMPT)).result), /yaml-boolean-trap/);
      // Over the size limit: refused at once, whatever follows.
      const absurd = await exchange(c, 'Content-Length: 99999999999999\r\n\r\n{"jsonrpc":"2.0","id":"absurd","method":"shutdown"}');
      assert.ok(!absurd.some((m) => m.id === 'absurd'), 'the refused frame is not run');
      // The next frame's header split across two writes, inside an overstated body.
      const id = `split-${++serial}`;
      const next = frame({ jsonrpc: '2.0', id, method: 'shardwise/ruleDocumentation', params: { id: 'unknown-key' } });
      await c.sendRaw('Content-Length: 4096\r\n\r\n{"partial": tru');
      await c.sendRaw(next.subarray(0, 9));
      await new Promise((r) => setTimeout(r, 50));
      await c.sendRaw(next.subarray(9));
      assert.match(String((await c.waitForResponse(id, PROMPT)).result), /unknown-key/);
      await stillServes(c);
    }, noConfig),
  );

  test('a large honest frame sent in slices, whose text holds header-like lines, is read whole', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:abuse-sliced.yaml';
      // The document's own text names frame headers; JSON escapes its line breaks, so no header line appears raw.
      const filler = Array.from({ length: 8_000 }, (_, i) => `# Content-Length: ${i}\r\n# \r\n`).join('');
      const text = `${filler}${TRAP}`;
      const bytes = frame({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'yaml', version: 1, text } } });
      const slices = 7;
      for (let i = 0; i < slices; i++) {
        await c.sendRaw(bytes.subarray(Math.floor((bytes.length * i) / slices), Math.floor((bytes.length * (i + 1)) / slices)));
        await new Promise((r) => setTimeout(r, 30));
      }
      const p = await c.waitForDiagnostics(uri, (x) => x.version === 1, WAIT);
      assert.deepEqual(codes(p), ['yaml-boolean-trap']);
      const line = 16_000 + 2;
      assert.deepEqual(p.diagnostics[0].range, { start: { line, character: 17 }, end: { line, character: 19 } });
      assertDiagnosticsInside(text, p);
      await stillServes(c);
    }, noConfig),
  );
});

// ---------------------------------------------------------------------------------------------

describe('lifecycle', () => {
  test('before initialize: requests get ServerNotInitialized, notifications are dropped; a second initialize is refused', { timeout: TEST_TIMEOUT }, async () => {
    const c = await LspClient.start({ initialize: false, configurationCapability: false });
    try {
      for (const [id, method, params] of [
        ['pre-hover', 'textDocument/hover', { textDocument: { uri: 'untitled:pre.yaml' }, position: { line: 0, character: 0 } }],
        ['pre-unknown', 'shardwise/noSuchRequest', {}],
        ['pre-dollar', '$/noSuchRequest', {}],
        ['pre-shutdown', 'shutdown', undefined],
        ['pre-docs', 'shardwise/ruleDocumentation', { id: 'unknown-key' }],
      ] as const) {
        const r = await c.rawRequest(id, method, params, PROMPT);
        assert.equal(r.error?.code, ErrorCodes.ServerNotInitialized, `${method}: ${JSON.stringify(r)}`);
      }
      await c.sendRaw(frame({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: 'untitled:pre.yaml', languageId: 'yaml', version: 1, text: TRAP } } }));
      await c.sendRaw(frame({ jsonrpc: '2.0', method: 'workspace/didChangeConfiguration', params: { settings: {} } }));
      await c.sendRaw(frame({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id: 'pre-hover' } }));
      await c.initialize({ configurationCapability: false });
      assert.ok(c.initializeResult?.capabilities.hoverProvider, 'initialize answered with the capabilities');
      // The early didOpen was dropped: the document is not open and nothing was published for it.
      assert.equal(await c.hover('untitled:pre.yaml', { line: 2, character: 3 }), null);
      assert.ok(!c.published.has('untitled:pre.yaml'), 'nothing is published for a document opened before initialize');
      // The early shutdown did not count: the server works.
      const again = await c.rawRequest('initialize-twice', 'initialize', { processId: null, rootUri: null, capabilities: {} }, PROMPT);
      assert.equal(again.error?.code, ErrorCodes.InvalidRequest, JSON.stringify(again));
      await stillServes(c);
    } finally {
      await c.shutdown();
    }
  });

  test('initialize with missing or malformed capabilities and folders is answered', { timeout: TEST_TIMEOUT }, async () => {
    for (const params of [{}, { capabilities: 'x', workspaceFolders: 'x', rootUri: 5, initializationOptions: { settings: 'x' } }, { capabilities: { workspace: { configuration: 'yes' }, textDocument: { codeAction: { resolveSupport: { properties: 'edit' } } } }, workspaceFolders: [null, { uri: 7 }] }]) {
      const c = await LspClient.start({ initialize: false });
      try {
        const r = await c.rawRequest('init', 'initialize', params, PROMPT);
        assert.ok(r.result && typeof r.result === 'object', `initialize(${JSON.stringify(params)}): ${JSON.stringify(r)}`);
        await c.notify('initialized', {});
        await stillServes(c);
      } finally {
        await c.shutdown();
      }
    }
  });

  test('shutdown twice, requests after shutdown: InvalidRequest; then exit ends the process with code 0', { timeout: TEST_TIMEOUT }, async () => {
    const c = await LspClient.start(noConfig);
    try {
      await c.open('untitled:before-shutdown.yaml', TRAP);
      await c.waitForDiagnostics('untitled:before-shutdown.yaml', (x) => x.version === 1, WAIT);
      assert.equal(await c.request('shutdown', undefined), null);
      const second = await rejected(c.request('shutdown', undefined));
      assert.equal(second.code, ErrorCodes.InvalidRequest, second.message);
      const hover = await rejected(c.hover('untitled:before-shutdown.yaml', { line: 2, character: 3 }));
      assert.equal(hover.code, ErrorCodes.InvalidRequest, hover.message);
      const unknown = await rejected(c.request('shardwise/noSuchRequest', {}));
      assert.equal(unknown.code, ErrorCodes.InvalidRequest, unknown.message);
      // Notifications after shutdown are dropped: nothing is analysed or published.
      await c.open('untitled:after-shutdown.yaml', TRAP);
      const sentinel = await c.rawRequest('after-shutdown-sentinel', 'shardwise/ruleDocumentation', { id: 'x' }, PROMPT);
      assert.equal(sentinel.error?.code, ErrorCodes.InvalidRequest);
      await new Promise((r) => setTimeout(r, 200));
      assert.ok(!c.published.has('untitled:after-shutdown.yaml'), 'nothing is published after shutdown');
      await c.notify('exit', undefined);
      assert.equal(await c.waitForExit(WAIT), 0);
    } finally {
      await c.shutdown();
    }
  });

  test('exit before shutdown ends the process with code 1', { timeout: TEST_TIMEOUT }, async () => {
    const c = await LspClient.start(noConfig);
    try {
      await c.open('untitled:exit.yaml', TRAP);
      await c.notify('exit', undefined);
      assert.equal(await c.waitForExit(WAIT), 1);
    } finally {
      await c.shutdown();
    }
  });

  test('the client closing stdin ends the process: code 1 without shutdown, 0 after it', { timeout: TEST_TIMEOUT }, async () => {
    for (const [shutdownFirst, code] of [[false, 1], [true, 0]] as const) {
      const c = await LspClient.start(noConfig);
      try {
        if (shutdownFirst) await c.request('shutdown', undefined);
        c.child.stdin!.end();
        assert.equal(await c.waitForExit(WAIT), code);
      } finally {
        await c.shutdown();
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------

describe('unknown methods', () => {
  test('unknown requests get MethodNotFound (`$/` ones too); unknown notifications are ignored', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      for (const method of ['shardwise/noSuchRequest', 'textDocument/noSuchRequest', '$/noSuchRequest']) {
        const e = await rejected(c.request(method, {}));
        assert.equal(e.code, ErrorCodes.MethodNotFound, `${method}: ${e.message}`);
      }
      // The server runs its own commands only: any other is refused, naming the ones it runs.
      for (const params of [{}, { command: 'editor.action.noSuchCommand', arguments: [] }, { command: 'shardwise.server.showLayout' }]) {
        const e = await rejected(c.request('workspace/executeCommand', params));
        assert.equal(e.code, ErrorCodes.InvalidParams, `${JSON.stringify(params)}: ${e.message}`);
      }
      for (const body of [
        { jsonrpc: '2.0', method: '$/noSuchNotification', params: {} },
        { jsonrpc: '2.0', method: '$/progress', params: { token: 'nobody', value: { kind: 'end' } } },
        { jsonrpc: '2.0', method: '$/setTrace', params: { value: 'verbose' } },
        { jsonrpc: '2.0', method: '$/setTrace', params: { value: 'off' } },
        { jsonrpc: '2.0', method: 'shardwise/noSuchNotification', params: { x: 1 } },
        { jsonrpc: '2.0', method: 'textDocument/willSave', params: { textDocument: { uri: 'untitled:none.yaml' }, reason: 1 } },
        // A response to a request the server never sent.
        { jsonrpc: '2.0', id: 12345, result: { unexpected: true } },
        { jsonrpc: '2.0', id: 'nobody', error: { code: -1, message: 'x' } },
      ]) {
        const between = await exchange(c, frame(body));
        assert.deepEqual(between, [], `${JSON.stringify(body)} is not answered`);
      }
      await stillServes(c);
    }, noConfig),
  );
});

// ---------------------------------------------------------------------------------------------

describe('edits', () => {
  test('edits with ranges outside the document are clamped as the client clamps them; the diagnostics follow the text', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:abuse-ranges.yaml';
      // The reference: what the client's own TextDocument does with the same edits.
      const ref = TextDocument.create(uri, 'yaml', 1, TRAP);
      await c.open(uri, TRAP);
      await c.waitForDiagnostics(uri, (x) => x.version === 1 && has('yaml-boolean-trap')(x), WAIT);
      const pos = (line: number, character: number) => ({ line, character });
      const edits: { range: Range; text: string }[] = [
        { range: { start: pos(10_000, 0), end: pos(10_000, 0) }, text: '# appended\n' },
        { range: { start: pos(2, -5), end: pos(2, 15) }, text: 'mixed_precision' },
        { range: { start: pos(2, 19), end: pos(2, 17) }, text: "'no'" }, // end before start: the trap is quoted
        { range: { start: pos(99_999, 3), end: pos(100_000, 99_999) }, text: '' },
        { range: { start: pos(0, 99_999), end: pos(0, 99_999) }, text: ' # head' },
        { range: { start: pos(-3, -3), end: pos(0, 0) }, text: '' },
        { range: { start: pos(2, 21), end: pos(2, 17) }, text: 'no' }, // back to the trap
        { range: { start: pos(4, -1), end: pos(-2, 4) }, text: '' }, // end on line -2: swapped, the head of the file up to line 4
      ];
      let version = 1;
      for (const e of edits) {
        version++;
        TextDocument.update(ref, [e], version);
        await c.notify('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [e] });
      }
      // The reference text is what the protocol's clamping means.
      assert.equal(ref.getText(), ['num_processes: 2', '# appended', ''].join('\n'));
      let p = await c.waitForDiagnostics(uri, (x) => x.version === version, WAIT);
      assertDiagnosticsInside(ref.getText(), p);
      assert.ok(!has('yaml-boolean-trap')(p), 'the trap went with the deleted head');
      // A text with its trap where the reference says it is.
      version++;
      const change = { range: { start: pos(0, -1), end: pos(0, 0) }, text: 'distributed_type: MULTI_GPU\nmixed_precision: no\n# shardwise: accelerate=1.14.0\n' };
      TextDocument.update(ref, [change], version);
      await c.notify('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [change] });
      p = await c.waitForDiagnostics(uri, (x) => x.version === version, WAIT);
      assertDiagnosticsInside(ref.getText(), p);
      const trap = p.diagnostics.find((d) => d.code === 'yaml-boolean-trap');
      assert.ok(trap, JSON.stringify(codes(p)));
      assert.equal(textAt(ref.getText(), trap.range), 'no');
      assert.deepEqual(trap.range, { start: pos(1, 17), end: pos(1, 19) });
      await stillServes(c);
    }, noConfig),
  );

  test('edits, closes and requests for documents that were never opened change nothing', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:never-opened.yaml';
      await c.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: TRAP }] });
      await c.notify('textDocument/didChange', { textDocument: { uri, version: 3 }, contentChanges: [{ range: TRAP_RANGE, text: "'no'" }] });
      await c.notify('textDocument/didSave', { textDocument: { uri } });
      await c.notify('textDocument/didClose', { textDocument: { uri } });
      const at = { textDocument: { uri }, position: { line: 2, character: 18 } };
      assert.equal(await c.request('textDocument/hover', at), null);
      assert.deepEqual(await c.completion(uri, at.position), []);
      assert.equal(await c.request('textDocument/definition', at), null);
      assert.deepEqual(await c.codeActions(uri, TRAP_RANGE, []), []);
      assert.deepEqual(await c.request('textDocument/codeLens', { textDocument: { uri } }), []);
      assert.deepEqual(await c.request('textDocument/documentLink', { textDocument: { uri } }), []);
      assert.equal(await c.request('shardwise/layout', { uri }), null);
      const resolved = await c.resolveCodeAction({ title: 'Fix all', kind: 'source.fixAll.shardwise', data: { uri, version: 1 } } as never);
      assert.equal(resolved.edit, undefined);
      assert.ok(!c.published.has(uri), 'nothing is published for a document that is not open');
      const status = await c.request<{ documents: number; cached: number }>('shardwise/serverStatus', {});
      assert.equal(status.documents, 0);
      await stillServes(c);
    }, noConfig),
  );

  test('a lower version, the same version twice, and a second didOpen: diagnostics and hovers follow the newest text', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:abuse-versions.yaml';
      const quoted = TRAP.replace('mixed_precision: no', "mixed_precision: 'no'");
      await c.open(uri, TRAP, 'yaml', 5);
      await c.waitForDiagnostics(uri, (x) => x.version === 5 && has('yaml-boolean-trap')(x), WAIT);
      const send = async (version: number, text: string) => c.notify('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
      await send(6, quoted);
      await c.waitForDiagnostics(uri, (x) => x.version === 6 && x.diagnostics.length === 0, WAIT);
      // A regression to version 3, with the trap back.
      await send(3, TRAP);
      let p = await c.waitForDiagnostics(uri, (x) => x.version === 3, WAIT);
      assert.deepEqual(codes(p), ['yaml-boolean-trap']);
      // Version 3 again with other text, and a hover at once: the hover reads the new text.
      // Publications are counted from before each change: on a busy machine one can arrive before the hover's answer.
      const after = (mark: number) => (x: { version?: number }) => (c.published.get(uri)?.length ?? 0) > mark && x.version === 3;
      let mark = c.published.get(uri)?.length ?? 0;
      await send(3, quoted);
      let h = await c.hover(uri, { line: 2, character: 18 });
      assert.deepEqual(h?.range, { start: { line: 2, character: 17 }, end: { line: 2, character: 21 } }, `the hover covers 'no' with its quotes: ${JSON.stringify(h)}`);
      p = await c.waitForDiagnostics(uri, after(mark), WAIT);
      assert.deepEqual(codes(p), []);
      // A second didOpen of the open document, with the version it had and other text.
      mark = c.published.get(uri)?.length ?? 0;
      await c.open(uri, TRAP.replace('mixed_precision: no', 'mixed_precision:   no'), 'yaml', 3);
      h = await c.hover(uri, { line: 2, character: 20 });
      assert.deepEqual(h?.range, { start: { line: 2, character: 19 }, end: { line: 2, character: 21 } }, `the hover reads the reopened text: ${JSON.stringify(h)}`);
      p = await c.waitForDiagnostics(uri, (x) => after(mark)(x) && x.diagnostics.length > 0, WAIT);
      assert.deepEqual(p.diagnostics.find((d) => d.code === 'yaml-boolean-trap')?.range, { start: { line: 2, character: 19 }, end: { line: 2, character: 21 } });
      await stillServes(c);
    }, noConfig),
  );

  test('1,000 rapid edits: the last diagnostics are those of the last text', { timeout: TEST_TIMEOUT }, (t) =>
    withServer(async (c) => {
      const uri = 'untitled:abuse-rapid.yaml';
      // num_processes is odd on 2 machines in every version: the finding names the number of its text.
      const nOf = (version: number) => 2 * version + 1;
      const textOf = (n: number) => ['distributed_type: MULTI_GPU', "mixed_precision: 'bf16'", 'num_machines: 2', 'machine_rank: 0', 'main_process_ip: 10.0.0.1', 'main_process_port: 29500', `num_processes: ${n}`, ''].join('\n');
      await c.open(uri, textOf(nOf(1)));
      await c.waitForDiagnostics(uri, (x) => x.version === 1 && has('num-processes-not-divisible-by-machines')(x), WAIT);
      const before = c.published.get(uri)!.length;
      const started = Date.now();
      let last = 1;
      for (let i = 0; i < 1000; i++) {
        const line = c.text(uri).split('\n')[6];
        last = await c.change(uri, { range: { start: { line: 6, character: 15 }, end: { line: 6, character: line.length } }, text: String(nOf(c.version(uri) + 1)) });
      }
      assert.equal(last, 1001);
      assert.equal(c.text(uri), textOf(nOf(1001)));
      const p = await c.waitForDiagnostics(uri, (x) => x.version === last, WAIT);
      const finding = p.diagnostics.find((d) => d.code === 'num-processes-not-divisible-by-machines');
      assert.ok(finding, JSON.stringify(codes(p)));
      assert.match(finding.message, new RegExp(`\\b${nOf(1001)}\\b`));
      assertDiagnosticsInside(c.text(uri), p);
      // Every publish names the number of the version it claims.
      for (const x of c.published.get(uri)!.slice(before)) {
        const f = x.diagnostics.find((d) => d.code === 'num-processes-not-divisible-by-machines');
        assert.ok(f && new RegExp(`\\b${nOf(x.version!)}\\b`).test(f.message), `version ${x.version}: ${f?.message}`);
      }
      await stillServes(c);
      assert.equal(c.latest(uri)!.version, last, 'nothing older is published after the last version');
      t.diagnostic(`1,000 edits sent in ${Date.now() - started} ms; ${c.published.get(uri)!.length - before} publications for them`);
    }, noConfig),
  );
});

// ---------------------------------------------------------------------------------------------

describe('positions', () => {
  const POSITIONS: Position[] = [
    { line: 99_999, character: 0 },
    { line: 0, character: 99_999 },
    { line: 99_999, character: 99_999 },
    { line: 2, character: 99_999 },
    { line: -1, character: 0 },
    { line: 0, character: -1 },
    { line: -5, character: -5 },
    { line: 2.5, character: 17.9 },
    { line: 2, character: 2 ** 53 },
  ];

  for (const [name, text] of [
    ['LF', TRAP],
    ['CRLF', TRAP.replace(/\n/g, '\r\n')],
  ] as const) {
    test(`hover, completion, definition, code actions and code lenses at out-of-range positions (${name})`, { timeout: TEST_TIMEOUT }, () =>
      withServer(async (c) => {
        const uri = `untitled:abuse-positions-${name}.yaml`;
        await c.open(uri, text);
        await c.waitForDiagnostics(uri, (x) => x.version === 1, WAIT);
        for (const position of POSITIONS) {
          const what = `${name} at ${JSON.stringify(position)}`;
          const h = await c.hover(uri, position);
          if (h?.range) assertInside(text, h.range, `${what}: hover`);
          assertCompletionEdits(text, position, await c.completion(uri, position), what);
          const def = await c.request('textDocument/definition', { textDocument: { uri }, position });
          assert.ok(def === null || typeof def === 'object', what);
          const actions = (await c.codeActions(uri, { start: position, end: { line: 0, character: 0 } }, [])) ?? [];
          for (const a of actions) {
            if (!('edit' in a) || !a.edit?.changes) continue;
            for (const e of a.edit.changes[uri] ?? []) assertInside(text, e.range, `${what}: code action ${a.title}`);
          }
        }
        for (const l of await c.request<{ range: Range }[]>('textDocument/codeLens', { textDocument: { uri } })) assertInside(text, l.range, 'code lens');
        // At the end of the text (past the last line), the hover is null or inside.
        const end = await c.hover(uri, { line: text.split(/\r?\n/).length, character: 0 });
        if (end?.range) assertInside(text, end.range, 'hover at the end');
        await stillServes(c);
      }, noConfig),
    );
  }
});

// ---------------------------------------------------------------------------------------------

describe('URIs', () => {
  const URIS = [
    'untitled:Untitled-1',
    'untitled:/home/user/Untitled-2',
    'vscode-notebook-cell:/home/user/nb.ipynb#W0sZmlsZQ%3D%3D',
    'git:/home/user/repo/accelerate.yaml?%7B%22path%22%3A%22%2Fhome%2Fuser%2Frepo%2Faccelerate.yaml%22%2C%22ref%22%3A%22HEAD%22%7D',
    'vscode-remote://ssh-remote%2Bhost/home/user/accelerate.yaml',
    'file:///tmp/shardwise%20abuse/with%20spaces.yaml',
    'file:///tmp/shardwise abuse/raw spaces.yaml',
    'file:///tmp/shardwise-abuse/100%25/percent.yaml',
    'file:///tmp/shardwise-abuse/100%/raw-percent.yaml',
    'file:///tmp/shardwise-abuse/%zz/bad-escape.yaml',
    'file:///tmp/shardwise-abuse/a%23b/hash.yaml',
    'file:///tmp/shardwise-abuse/fragment.yaml#L3',
    'file:///tmp/shardwise-abuse/query.yaml?x=1',
    'file:///tmp/shardwise-abuse/%E6%97%A5%E6%9C%AC/%C3%BC.yaml',
    'file:///tmp/shardwise-abuse/日本/ü.yaml',
    'file:///tmp/shardwise-abuse/%F0%9F%9A%80.yaml',
    'file:///c%3A/x.yaml',
    'file:///C:/Users/x/accelerate.yaml',
    'file://server/share/accelerate.yaml',
    'file://localhost/tmp/shardwise-abuse/localhost.yaml',
    'FILE:///tmp/shardwise-abuse/UPPER.yaml',
    'file:',
    'file:relative.yaml',
    'not a uri at all',
    '',
  ];

  test('documents with unusual URIs are analysed, hovered and closed under the URI they were opened with', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      for (const uri of URIS) {
        await c.open(uri, TRAP);
        const p = await c.waitForDiagnostics(uri, (x) => x.version === 1, WAIT).catch((e) => assert.fail(`${JSON.stringify(uri)}: ${(e as Error).message}`));
        assert.deepEqual(p.diagnostics.find((d) => d.code === 'yaml-boolean-trap')?.range, TRAP_RANGE, `${JSON.stringify(uri)}: ${JSON.stringify(codes(p))}`);
        const h = await c.hover(uri, { line: 2, character: 3 });
        assert.match(hoverText(h), /mixed_precision/, JSON.stringify(uri));
        const actions = (await c.codeActions(uri, TRAP_RANGE, p.diagnostics)) ?? [];
        assert.ok(actions.some((a) => 'edit' in a && a.edit?.changes?.[uri]), `${JSON.stringify(uri)}: the quick fix edits the document under its own URI`);
        await c.close(uri);
        await c.waitForDiagnostics(uri, (x) => x.version === undefined && x.diagnostics.length === 0, WAIT);
      }
      const status = await c.request<{ documents: number; cached: number; openByPath: number }>('shardwise/serverStatus', {});
      assert.deepEqual([status.documents, status.cached, status.openByPath], [0, 0, 0], JSON.stringify(status));
      await stillServes(c);
    }, noConfig),
  );

  test('a linked file beside a config in a folder with spaces, %, # and non-ASCII letters is found, under any spelling of the URI', { timeout: TEST_TIMEOUT }, async () => {
    const root = mkdtempSync(join(tmpdir(), 'shardwise-abuse-'));
    try {
      const dir = join(root, 'run 100% #1 – ü 日本 🚀');
      mkdirSync(dir);
      const ds = join(dir, 'ds config.json');
      writeFileSync(ds, JSON.stringify({ train_micro_batch_size_per_gpu: 1, gradient_accumulation_steps: 1, zero_optimization: { stage: 2 } }));
      const config = join(dir, 'accelerate.yaml');
      const text = ['compute_environment: LOCAL_MACHINE', 'distributed_type: DEEPSPEED', 'deepspeed_config:', '  deepspeed_config_file: ds config.json', 'num_machines: 1', 'num_processes: 8', ''].join('\n');
      writeFileSync(config, text);
      const canonical = pathToFileURL(config).href;
      // The same file as a client that does not escape spaces and letters, or escapes more, may send it.
      const spellings = [canonical, `file://${config}`.replace(/%/g, '%25').replace(/#/g, '%23'), canonical.replace(/%20/g, ' ')];
      await withServer(async (c) => {
        for (const uri of spellings) {
          await c.open(uri, text);
          await c.waitForDiagnostics(uri, (x) => x.version === 1, WAIT);
          const links = await c.request<{ range: Range; target: string }[]>('textDocument/documentLink', { textDocument: { uri } });
          assert.equal(links.length, 1, `${uri}: ${JSON.stringify(links)}`);
          assert.equal(fileURLToPath(links[0].target), ds, uri);
          assertInside(text, links[0].range, 'link');
          assert.equal(textAt(text, links[0].range), 'ds config.json');
          await c.close(uri);
        }
        await stillServes(c);
      }, noConfig);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

// ---------------------------------------------------------------------------------------------

describe('closed documents', () => {
  test('requests after close answer nothing; requests racing a close leave nothing cached', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:abuse-closed.yaml';
      await c.open(uri, TRAP);
      await c.waitForDiagnostics(uri, (x) => x.version === 1, WAIT);
      await c.close(uri);
      const position = { line: 2, character: 18 };
      assert.equal(await c.hover(uri, position), null);
      assert.deepEqual(await c.completion(uri, position), []);
      assert.deepEqual(await c.codeActions(uri, TRAP_RANGE, []), []);
      assert.equal(await c.request('textDocument/definition', { textDocument: { uri }, position }), null);
      assert.deepEqual(await c.request('textDocument/codeLens', { textDocument: { uri } }), []);
      // Open, request, close, request, all at once, many times over.
      const answers: Promise<unknown>[] = [];
      for (let i = 0; i < 50; i++) {
        const u = `untitled:abuse-race-${i}.yaml`;
        void c.notify('textDocument/didOpen', { textDocument: { uri: u, languageId: 'yaml', version: 1, text: TRAP } });
        answers.push(c.hover(u, position), c.completion(u, position), c.codeActions(u, TRAP_RANGE, [], ['source.fixAll.shardwise']));
        void c.notify('textDocument/didChange', { textDocument: { uri: u, version: 2 }, contentChanges: [{ text: `${TRAP}# ${i}\n` }] });
        void c.notify('textDocument/didClose', { textDocument: { uri: u } });
        answers.push(c.hover(u, position), c.request('textDocument/documentLink', { textDocument: { uri: u } }));
      }
      await Promise.all(answers);
      const status = await c.request<{ documents: number; cached: number; settings: number; pending: number; graph: { documents: number } }>('shardwise/serverStatus', {});
      assert.deepEqual({ documents: status.documents, cached: status.cached, settings: status.settings, pending: status.pending, graph: status.graph.documents }, { documents: 0, cached: 0, settings: 0, pending: 0, graph: 0 });
      await stillServes(c);
    }),
  );
});

// ---------------------------------------------------------------------------------------------

describe('line endings and characters', () => {
  /** Each text, and the findings whose range must cover exactly this text. */
  const cases: { name: string; text: string; covers: [string, string][]; todo?: string }[] = [
    { name: 'CR-only line ends', text: TRAP_LINES.join('\r'), covers: [['yaml-boolean-trap', 'no']] },
    { name: 'CRLF and a BOM', text: `\uFEFF${TRAP_LINES.join('\r\n')}`, covers: [['yaml-boolean-trap', 'no']] },
    { name: 'mixed LF, CRLF and CR', text: 'compute_environment: LOCAL_MACHINE\r\ndistributed_type: MULTI_GPU\rmixed_precision: no\nnum_machines: 1\r\nnum_processes: 2\r', covers: [['yaml-boolean-trap', 'no']] },
    // PyYAML refuses a tab outside quoted text and comments (parse-error says so): tabs in comments and quoted text.
    { name: 'tabs', text: 'compute_environment: LOCAL_MACHINE # \ttab\ndistributed_type: "MULTI_GPU" #\t\nmixed_precision: no # \t\nnum_machines: 1\nnum_processes: 2\n# shardwise: accelerate=1.14.0\t\n', covers: [['yaml-boolean-trap', 'no']] },
    {
      name: 'surrogate pairs',
      text: '# 🚀🚀 config 𝒳\ndistributed_type: MULTI_GPU\nnum_processes: 2\n"🚀🚀": 1\nmixed_precision: no # 🚀\n🚀_typo: 𝒳\n# shardwise: accelerate=1.14.0\n',
      covers: [['yaml-boolean-trap', 'no']],
    },
  ];
  for (const { name, text, covers, todo } of cases) {
    test(`${name}: every diagnostic, hover, completion and code action range lies inside the document`, { timeout: TEST_TIMEOUT }, () =>
      withServer(async (c) => {
        const uri = `untitled:abuse-eol-${name.replace(/\W+/g, '-')}.yaml`;
        await c.open(uri, text);
        const p = await c.waitForDiagnostics(uri, (x) => x.version === 1, WAIT);
        assert.ok(p.diagnostics.length > 0, `${name}: some finding`);
        assertDiagnosticsInside(text, p);
        const doc = TextDocument.create(uri, 'yaml', 1, text);
        for (let line = 0; line < doc.lineCount; line++) {
          for (const character of [0, 3, 17, 18, 999]) {
            const position = { line, character };
            const h = await c.hover(uri, position);
            if (h?.range) assertInside(text, h.range, `${name}: hover at ${JSON.stringify(position)}`);
            assertCompletionEdits(text, position, await c.completion(uri, position), `${name} at ${JSON.stringify(position)}`);
          }
        }
        for (const d of p.diagnostics) {
          for (const a of (await c.codeActions(uri, d.range, [d])) ?? []) {
            for (const e of ('edit' in a && a.edit?.changes?.[uri]) || []) assertInside(text, e.range, `${name}: ${a.title}`);
          }
        }
      }),
    );
    test(`${name}: the findings are where the text has them`, { timeout: TEST_TIMEOUT, todo }, () =>
      withServer(async (c) => {
        const uri = `untitled:abuse-eol-where-${name.replace(/\W+/g, '-')}.yaml`;
        await c.open(uri, text);
        const p = await c.waitForDiagnostics(uri, (x) => x.version === 1, WAIT);
        for (const [code, covered] of covers) {
          const d = p.diagnostics.find((x) => x.code === code);
          assert.ok(d, `${name}: no ${code} in ${JSON.stringify(p.diagnostics.map((x: Diagnostic) => [x.code, x.range, x.message.slice(0, 80)]))}`);
          assert.equal(textAt(text, d.range), covered, `${name}: ${code}`);
        }
        assert.ok(!has('parse-error')(p), `${name}: ${JSON.stringify(p.diagnostics.map((x: Diagnostic) => x.message.slice(0, 80)))}`);
      }),
    );
  }
});

// ---------------------------------------------------------------------------------------------

describe('completion ranges', () => {
  const ACC = ['distributed_type: MULTI_GPU', 'mixed_precision: bf16', 'fsdp_config:', '  fsdp_ver', 'num_proc', ''].join('\n');
  const cases: [string, string, Position[]][] = [
    ['LF', ACC, [
      { line: 3, character: 6 }, // mid-word
      { line: 3, character: 10 }, // end of a word, end of line
      { line: 0, character: 17 }, // right after a colon
      { line: 0, character: 18 }, // after the colon and its space
      { line: 0, character: 22 }, // inside a value
      { line: 1, character: 21 }, // end of a line
      { line: 4, character: 4 }, // mid-word at the top level
      { line: 5, character: 0 }, // empty last line
      { line: 0, character: 0 }, // start of the document
    ]],
    ['CRLF', ACC.replace(/\n/g, '\r\n'), [
      { line: 3, character: 6 },
      { line: 3, character: 10 },
      { line: 0, character: 17 },
      { line: 0, character: 18 },
      { line: 1, character: 21 },
      { line: 4, character: 8 },
      { line: 5, character: 0 },
    ]],
    ['CR', ACC.replace(/\n/g, '\r'), [
      { line: 3, character: 10 },
      { line: 0, character: 18 },
      { line: 4, character: 8 },
    ]],
    ['no final newline', 'distributed_type: MULTI_GPU\nnum_proc', [{ line: 1, character: 8 }, { line: 1, character: 3 }]],
    ['a value being typed', 'distributed_type: \nmixed_precision: \n', [{ line: 0, character: 18 }, { line: 1, character: 17 }, { line: 1, character: 16 }]],
  ];
  for (const [name, text, positions] of cases) {
    test(`every textEdit range is single-line, contains the cursor and lies inside the document (${name})`, { timeout: TEST_TIMEOUT }, () =>
      withServer(async (c) => {
        const uri = `untitled:abuse-completion-${name.replace(/\W+/g, '-')}.yaml`;
        await c.open(uri, text);
        let withEdits = 0;
        for (const position of positions) {
          const items = await c.completion(uri, position);
          assertCompletionEdits(text, position, items, `${name} at ${JSON.stringify(position)}`);
          withEdits += items.filter((i) => i.textEdit).length;
        }
        assert.ok(withEdits > 0, `${name}: some completion carries a textEdit`);
      }),
    );
  }
});
