/**
 * The built language server (`dist/server/main.js --stdio`) driven over stdio with real LSP
 * messages. Run `node scripts/build.mjs` first, then `node --import tsx --test test/lsp/*.test.ts`.
 *
 * Every test starts its own server and stops it in `finally`. Timeouts are generous and nothing
 * asserts on timing: the suite must pass on a loaded 2-core CI machine.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { applyTextEdits, DiagnosticSeverity, editsFor, FileChangeType, hoverText, InsertTextFormat, LspClient, positionOf, rangeOf, rangeOfMatch, REPO_ROOT, SERVER_MAIN, TextDocumentSyncKind, type CodeAction, type Command, type Diagnostic, type PublishDiagnosticsParams, withServer, codes, has, find } from './client';

const TEST_TIMEOUT = 180_000;
/** What the VS Code extension passes: the client-side commands it implements. */
const VSCODE_EXTENSION = { initializationOptions: { clientCommands: ['shardwise.showLayout', 'shardwise.showRuleDocumentation'] } };
const WAIT = 60_000;
const SLOW_WAIT = 150_000;


const isAction = (a: CodeAction | Command): a is CodeAction => typeof (a as CodeAction).title === 'string' && typeof (a as Command).command !== 'string';
const lines = (text: string) => text.split('\n');

const ACCELERATE_EXAMPLES = join(REPO_ROOT, 'examples', 'accelerate');
const SCHEMA = JSON.parse(readFileSync(join(REPO_ROOT, 'schemas', 'accelerate.schema.json'), 'utf8'));

/** A small config whose only finding is the YAML 1.1 trap on line 2 (`no` at characters 17–19). */
const TRAP = ['compute_environment: LOCAL_MACHINE', 'distributed_type: MULTI_GPU', 'mixed_precision: no', 'num_machines: 1', 'num_processes: 2', '# shardwise: accelerate=1.14.0', ''].join('\n');
/** A hover target that is always a valid accelerate config. */
const HOVER_DOC = 'distributed_type: MULTI_GPU\nnum_processes: 2\n';

// ---------------------------------------------------------------------------------------------

test('initialize: incremental sync, hover, completion, code actions (quickfix + source.fixAll)', { timeout: TEST_TIMEOUT }, () =>
  withServer(async (c) => {
    const caps = c.initializeResult!.capabilities;
    const sync = caps.textDocumentSync;
    const change = typeof sync === 'number' ? sync : sync?.change;
    assert.equal(change, TextDocumentSyncKind.Incremental);
    if (typeof sync === 'object') assert.equal(sync.openClose, true);
    assert.ok(caps.hoverProvider === true || typeof caps.hoverProvider === 'object', 'hoverProvider');
    assert.ok(caps.completionProvider && typeof caps.completionProvider === 'object', 'completionProvider');
    assert.ok(caps.codeActionProvider && typeof caps.codeActionProvider === 'object', 'codeActionProvider with kinds');
    const kinds: string[] = caps.codeActionProvider.codeActionKinds;
    assert.ok(kinds.includes('quickfix'), `codeActionKinds ${JSON.stringify(kinds)} lacks quickfix`);
    assert.ok(kinds.includes('source.fixAll.shardwise'), `codeActionKinds ${JSON.stringify(kinds)} lacks source.fixAll.shardwise`);
    assert.equal(c.initializeResult!.serverInfo?.name, 'shardwise-language-server');
  }),
);

describe('diagnostics', () => {
  test('didOpen: `mixed_precision: no` → yaml-boolean-trap on `no`', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:trap.yaml';
      await c.open(uri, TRAP);
      const p = await c.waitForDiagnostics(uri, (x) => x.version === 1, WAIT);
      assert.deepEqual(codes(p), ['yaml-boolean-trap']);
      const d = find(p, 'yaml-boolean-trap');
      assert.equal(d.source, 'shardwise');
      assert.equal(d.severity, DiagnosticSeverity.Error);
      assert.deepEqual(d.range, { start: { line: 2, character: 17 }, end: { line: 2, character: 19 } });
      assert.match(d.message, /'no'/);
    }),
  );

  test('didOpen: a typo key → unknown-key on the key', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:typo.yaml';
      const text = ['distributed_type: FSDP', "mixed_precision: 'no'", 'num_processes: 8', 'fsdp_config:', '  fsdp_versoin: 2', '  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP', ''].join('\n');
      await c.open(uri, text);
      const p = await c.waitForDiagnostics(uri, (x) => x.version === 1, WAIT);
      const d = find(p, 'unknown-key');
      assert.equal(d.source, 'shardwise');
      assert.deepEqual(d.range, rangeOfMatch(text, /^\s+(fsdp_versoin):/));
      assert.deepEqual(d.range, { start: { line: 4, character: 2 }, end: { line: 4, character: 14 } });
      assert.match(d.message, /fsdp_versoin/);
      assert.match(d.message, /fsdp_version/, 'suggests the intended key');
      assert.ok(!p.diagnostics.some((x) => x.code === 'yaml-boolean-trap'), 'the quoted value is no trap');
    }),
  );

  test('didChange: an incremental edit that fixes the value clears the finding, with the matching version', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:change.yaml';
      await c.open(uri, TRAP);
      await c.waitForDiagnostics(uri, (x) => x.version === 1 && has('yaml-boolean-trap')(x), WAIT);
      const v = await c.change(uri, { range: { start: { line: 2, character: 17 }, end: { line: 2, character: 19 } }, text: "'no'" });
      assert.equal(v, 2);
      assert.equal(lines(c.text(uri))[2], "mixed_precision: 'no'");
      const p = await c.waitForDiagnostics(uri, (x) => x.version === v, WAIT);
      assert.equal(p.version, 2);
      assert.deepEqual(p.diagnostics, []);
      // And back: the finding returns at the same place for version 3.
      const v3 = await c.change(uri, { range: { start: { line: 2, character: 17 }, end: { line: 2, character: 21 } }, text: 'no' });
      const p3 = await c.waitForDiagnostics(uri, (x) => x.version === v3, WAIT);
      assert.deepEqual(find(p3, 'yaml-boolean-trap').range, { start: { line: 2, character: 17 }, end: { line: 2, character: 19 } });
    }),
  );

  test('a burst of 20 quick changes ends with the diagnostics of the last version', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:burst.yaml';
      // num_processes = version + 2; an odd total on 2 machines is a finding that names the number,
      // so every published set can be checked against the text of the version it claims.
      const nOf = (version: number) => version + 2;
      const textOf = (n: number) => ['distributed_type: MULTI_GPU', "mixed_precision: 'bf16'", 'num_machines: 2', 'machine_rank: 0', 'main_process_ip: 10.0.0.1', 'main_process_port: 29500', `num_processes: ${n}`, ''].join('\n');
      await c.open(uri, textOf(nOf(1)));
      await c.waitForDiagnostics(uri, (x) => x.version === 1 && has('num-processes-not-divisible-by-machines')(x), WAIT);
      const texts = new Map<number, string>([[1, c.text(uri)]]);
      const before = c.published.get(uri)!.length;
      let last = 1;
      for (let i = 0; i < 20; i++) {
        const line = lines(c.text(uri))[6];
        const n = nOf(c.version(uri) + 1);
        last = await c.change(uri, { range: { start: { line: 6, character: 15 }, end: { line: 6, character: line.length } }, text: String(n) });
        texts.set(last, c.text(uri));
      }
      assert.equal(last, 21);
      assert.equal(c.text(uri), textOf(23));
      const final = await c.waitForDiagnostics(uri, (x) => x.version === last, WAIT);
      // One more round trip, so a stale publish still in flight would have arrived.
      await c.hover(uri, { line: 6, character: 2 });
      assert.equal(c.latest(uri)!.version, last, 'nothing is published after the last version');
      const finding = find(final, 'num-processes-not-divisible-by-machines');
      assert.match(finding.message, /num_processes: 23/);
      assert.deepEqual(finding.range, { start: { line: 6, character: 15 }, end: { line: 6, character: 17 } });

      // Every publish during the burst is for a version that was sent, in order, and its content
      // is the content of that version (never the findings of an older text under a newer version).
      const during = c.published.get(uri)!.slice(before);
      let prev = 1;
      for (const p of during) {
        assert.ok(p.version !== undefined && texts.has(p.version), `published version ${p.version} was never sent`);
        assert.ok(p.version! >= prev, `versions go backwards: ${prev} then ${p.version}`);
        prev = p.version!;
        const n = nOf(p.version!);
        const f = p.diagnostics.filter((d) => d.code === 'num-processes-not-divisible-by-machines');
        if (n % 2 === 1) {
          assert.equal(f.length, 1, `version ${p.version} (num_processes ${n}) should have the finding`);
          assert.match(f[0].message, new RegExp(`num_processes: ${n}\\b`));
        } else assert.equal(f.length, 0, `version ${p.version} (num_processes ${n}) should have no finding`);
      }
    }),
  );

  test('didClose publishes empty diagnostics', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:close.yaml';
      await c.open(uri, TRAP);
      await c.waitForDiagnostics(uri, (x) => x.diagnostics.length > 0, WAIT);
      const next = c.waitForNextDiagnostics(uri, () => true, WAIT);
      await c.close(uri);
      const p = await next;
      assert.equal(p.uri, uri);
      assert.deepEqual(p.diagnostics, []);
    }),
  );

  test('a JSON accelerate config gets invalid-value for `"multi_gpu"`', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:accelerate.json';
      const text = '{"distributed_type": "multi_gpu", "num_processes": 2}';
      await c.open(uri, text, 'json');
      const p = await c.waitForDiagnostics(uri, (x) => x.version === 1, WAIT);
      const d = find(p, 'invalid-value');
      assert.equal(d.severity, DiagnosticSeverity.Error);
      assert.deepEqual(d.range, rangeOf(text, '"multi_gpu"'));
      assert.match(d.message, /MULTI_GPU/);
    }),
  );
});

describe('hover', () => {
  test('on `num_processes`: markdown saying it is the total over all machines', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:hover.yaml';
      const text = readFileSync(join(ACCELERATE_EXAMPLES, 'multi-node.yaml'), 'utf8');
      await c.open(uri, text);
      const h = await c.hover(uri, positionOf(text, 'num_processes:', 4));
      assert.ok(h, 'a hover');
      assert.equal(typeof h.contents === 'object' && !Array.isArray(h.contents) ? h.contents.kind : undefined, 'markdown');
      const md = hoverText(h);
      assert.match(md, /num_processes/);
      assert.match(md, /total over (every|all) machines?/i);
      assert.deepEqual(h.range, rangeOfMatch(text, /^(num_processes):/));
    }),
  );

  test('on an enum value (`distributed_type: FSDP`): that value’s description', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:hover-value.yaml';
      const text = readFileSync(join(ACCELERATE_EXAMPLES, 'clean-fsdp2-hsdp.yaml'), 'utf8');
      await c.open(uri, text);
      const h = await c.hover(uri, positionOf(text, 'distributed_type: FSDP', 'distributed_type: '.length + 2));
      assert.ok(h, 'a hover');
      const md = hoverText(h);
      const dt = SCHEMA.definitions.cluster.properties.distributed_type;
      const described: string = dt.markdownEnumDescriptions[dt.enum.indexOf('FSDP')];
      const body = described.replace(/^`FSDP`:\s*/, '');
      assert.ok(body.length > 10);
      assert.ok(md.includes(body), `hover lacks the FSDP description ${JSON.stringify(body)}:\n${md}`);
      // Not another value's description.
      const other: string = dt.markdownEnumDescriptions[dt.enum.indexOf('DEEPSPEED')].replace(/^`DEEPSPEED`:\s*/, '');
      assert.ok(!md.includes(other), 'the DEEPSPEED description is not shown');
      assert.deepEqual(h.range, rangeOfMatch(text, /^distributed_type: (FSDP)$/));
    }),
  );
});

describe('completion', () => {
  test('values at `distributed_type: ` offer MULTI_GPU and insert `NO` quoted', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:complete-value.yaml';
      const text = 'distributed_type: \nnum_processes: 2\n';
      await c.open(uri, text);
      const at = { line: 0, character: 'distributed_type: '.length };
      const items = await c.completion(uri, at);
      const labels = items.map((i) => i.label);
      assert.ok(labels.includes('MULTI_GPU'), `labels: ${JSON.stringify(labels)}`);
      assert.ok(labels.includes('FSDP'));
      const no = items.find((i) => i.label === 'NO');
      assert.ok(no, 'NO is offered');
      const inserted = no.textEdit ? no.textEdit.newText : (no.insertText ?? no.label);
      assert.equal(inserted, "'NO'");
      assert.notEqual(no.insertTextFormat, InsertTextFormat.Snippet);
      if (no.textEdit && 'range' in no.textEdit) {
        assert.deepEqual(no.textEdit.range.start, at);
        assert.equal(applyTextEdits(text, [no.textEdit]).split('\n')[0], "distributed_type: 'NO'");
      }
      const multi = items.find((i) => i.label === 'MULTI_GPU')!;
      assert.equal(multi.textEdit ? multi.textEdit.newText : multi.insertText ?? multi.label, 'MULTI_GPU');
    }),
  );

  test('keys inside `fsdp_config:` offer fsdp_version as a snippet', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:complete-key.yaml';
      const text = ['distributed_type: FSDP', 'num_processes: 8', 'fsdp_config:', '  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP', '  ', ''].join('\n');
      await c.open(uri, text);
      const items = await c.completion(uri, { line: 4, character: 2 });
      const labels = items.map((i) => i.label);
      const v = items.find((i) => i.label === 'fsdp_version');
      assert.ok(v, `fsdp_version not offered: ${JSON.stringify(labels)}`);
      assert.equal(v.insertTextFormat, InsertTextFormat.Snippet);
      const snippet = v.textEdit ? v.textEdit.newText : v.insertText!;
      assert.match(snippet, /^fsdp_version: /);
      assert.match(snippet, /\$\{?[0-9]/, 'has a tab stop');
      // Scoped to the section: no top-level keys, no key that is already there.
      assert.ok(!labels.includes('num_machines'), 'a top-level key offered inside fsdp_config');
      assert.ok(!labels.includes('fsdp_auto_wrap_policy'), 'an existing key offered again');
      assert.ok(labels.every((l) => l.startsWith('fsdp_')), `non-fsdp keys offered: ${JSON.stringify(labels)}`);
    }),
  );
});

describe('code actions', () => {
  async function trapActions(c: LspClient, uri: string) {
    await c.open(uri, TRAP);
    const p = await c.waitForDiagnostics(uri, (x) => x.version === 1 && has('yaml-boolean-trap')(x), WAIT);
    const d = find(p, 'yaml-boolean-trap');
    const actions = (await c.codeActions(uri, d.range, [d])) ?? [];
    return { d, actions: actions.filter(isAction) };
  }

  test('the preferred quick fix quotes the value: `mixed_precision: \'no\'`', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:ca-fix.yaml';
      const { d, actions } = await trapActions(c, uri);
      const preferred = actions.filter((a) => a.isPreferred);
      assert.equal(preferred.length, 1, `preferred: ${JSON.stringify(actions.map((a) => a.title))}`);
      const fix = preferred[0];
      assert.equal(fix.kind, 'quickfix');
      assert.equal(fix.diagnostics?.[0]?.code, 'yaml-boolean-trap');
      assert.deepEqual(fix.diagnostics?.[0]?.range, d.range);
      const fixed = applyTextEdits(TRAP, editsFor(fix.edit, uri));
      assert.equal(lines(fixed)[2], "mixed_precision: 'no'");
      assert.deepEqual(lines(fixed).filter((_, i) => i !== 2), lines(TRAP).filter((_, i) => i !== 2), 'only that line changes');
    }),
  );

  test('"Disable yaml-boolean-trap for this line" inserts the directive above', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:ca-disable.yaml';
      const { actions } = await trapActions(c, uri);
      const disable = actions.find((a) => a.title === 'Disable yaml-boolean-trap for this line');
      assert.ok(disable, `titles: ${JSON.stringify(actions.map((a) => a.title))}`);
      assert.equal(disable.kind, 'quickfix');
      assert.ok(!disable.isPreferred);
      const edited = lines(applyTextEdits(TRAP, editsFor(disable.edit, uri)));
      assert.equal(edited[2], '# shardwise-disable-next-line yaml-boolean-trap');
      assert.equal(edited[3], 'mixed_precision: no');
      assert.equal(edited.length, lines(TRAP).length + 1);
      // The directive works: applying it clears the finding.
      const v = await c.change(uri, editsFor(disable.edit, uri).map((e) => ({ range: e.range, text: e.newText })));
      const p = await c.waitForDiagnostics(uri, (x) => x.version === v, WAIT);
      assert.deepEqual(codes(p), []);
    }),
  );

  test('"Show documentation for yaml-boolean-trap" carries the command with the rule id', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:ca-docs.yaml';
      const { actions } = await trapActions(c, uri);
      const docs = actions.find((a) => a.title === 'Show documentation for yaml-boolean-trap');
      assert.ok(docs, `titles: ${JSON.stringify(actions.map((a) => a.title))}`);
      assert.equal(docs.command?.command, 'shardwise.showRuleDocumentation');
      assert.deepEqual(docs.command?.arguments, ['yaml-boolean-trap']);
      assert.equal(editsFor(docs.edit, uri).length, 0, 'no edit');
    }, VSCODE_EXTENSION),
  );

  test('applying the quick fix edit (didChange) clears the diagnostic', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:ca-apply.yaml';
      const { actions } = await trapActions(c, uri);
      const fix = actions.find((a) => a.isPreferred);
      assert.ok(fix);
      const edits = editsFor(fix.edit, uri);
      assert.equal(edits.length, 1);
      const v = await c.change(uri, { range: edits[0].range, text: edits[0].newText });
      assert.equal(lines(c.text(uri))[2], "mixed_precision: 'no'");
      const p = await c.waitForDiagnostics(uri, (x) => x.version === v, WAIT);
      assert.ok(!has('yaml-boolean-trap')(p), `still: ${JSON.stringify(codes(p))}`);
      assert.deepEqual(p.diagnostics, []);
    }),
  );

  test('source.fixAll.shardwise returns one action, resolved on demand, that fixes every finding with a preferred fix', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:fixall.yaml';
      const text = [
        '# three findings with a preferred fix, one on each kind of problem',
        'distributed_type: FSDP',
        'mixed_precision: no',
        'num_processes: 8',
        'num_machiness: 1',
        'gpu_ids: 0',
        '# shardwise: accelerate=1.14.0',
        'fsdp_config:',
        // A slip in a section Accelerate ignores: renaming it would change the run, so fix-all leaves it.
        '  fsdp_versoin: 2',
        '  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP',
        '',
      ].join('\n');
      await c.open(uri, text);
      const p = await c.waitForDiagnostics(uri, (x) => x.version === 1, WAIT);
      // Which findings have a preferred quick fix (asked one by one, as an editor does).
      const fixable: Diagnostic[] = [];
      for (const d of p.diagnostics) {
        const actions = ((await c.codeActions(uri, d.range, [d], ['quickfix'])) ?? []).filter(isAction);
        if (actions.some((a) => a.isPreferred && a.diagnostics?.some((x) => x.code === d.code))) fixable.push(d);
      }
      assert.ok(fixable.length >= 2, `expected at least 2 fixable findings, got ${JSON.stringify(fixable.map((d) => d.code))}`);
      assert.ok(fixable.some((d) => d.code === 'yaml-boolean-trap'));
      assert.ok(fixable.some((d) => d.code === 'unknown-key'));

      const all = ((await c.codeActions(uri, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, [], ['source.fixAll'])) ?? []).filter(isAction);
      assert.equal(all.length, 1, `actions: ${JSON.stringify(all.map((a) => a.title))}`);
      assert.equal(all[0].kind, 'source.fixAll.shardwise');
      // The client resolves edits: the fixes are made only when the action is chosen.
      assert.equal(all[0].edit, undefined, 'fix-all edits before the action was chosen');
      const resolved = await c.resolveCodeAction(all[0]);
      const edits = editsFor(resolved.edit, uri);
      assert.ok(edits.length >= fixable.length, `${edits.length} edits for ${fixable.length} findings`);
      const fixed = applyTextEdits(text, edits);
      assert.ok(lines(fixed).includes("mixed_precision: 'no'"), fixed);
      assert.ok(lines(fixed).includes('num_machines: 1'), fixed);
      assert.ok(lines(fixed).includes('  fsdp_versoin: 2'), fixed);
      assert.ok(lines(fixed).includes("gpu_ids: '0'"), fixed);
      assert.equal(fixable.length, 3, `fixable: ${JSON.stringify(fixable.map((d) => d.code))}`);

      const v = await c.change(uri, fixed);
      const after = await c.waitForDiagnostics(uri, (x) => x.version === v, WAIT);
      for (const d of fixable) {
        const still = after.diagnostics.find((x) => x.code === d.code && x.range.start.line === d.range.start.line);
        assert.ok(!still, `${d.code} at line ${d.range.start.line} is still reported after fix-all: ${still?.message}`);
      }
    }),
  );

  test('fix-all on the example launch script applies the safe rename only; the unsafe layout fixes stay individual and say what they change', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const path = join(REPO_ROOT, 'examples', 'megatron', 'pretrain-llama3-8b.sh');
      const uri = pathToFileURL(path).href;
      const text = readFileSync(path, 'utf8');
      await c.open(uri, text, 'shellscript');
      const p = await c.waitForDiagnostics(uri, (x) => x.version === 1, WAIT);
      const all = ((await c.codeActions(uri, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, [], ['source.fixAll.shardwise'])) ?? []).filter(isAction);
      assert.equal(all.length, 1);
      const fixed = applyTextEdits(text, editsFor((await c.resolveCodeAction(all[0])).edit, uri));
      assert.ok(fixed.includes('--overlap-grad-reduce') && !fixed.includes('--overlap-grad-reduse'), 'the misspelled flag is renamed');
      assert.equal(fixed.split('\n').length, text.split('\n').length, 'fix-all added or removed lines (a switch or a flag)');
      assert.ok(/^TP=4$/m.test(fixed) && fixed.includes('--tensor-model-parallel-size $TP'), 'fix-all changed the TP degree');
      const tp = find(p, 'tp-larger-than-needed');
      const actions = ((await c.codeActions(uri, tp.range, [tp], ['quickfix'])) ?? []).filter(isAction);
      const setTp = actions.find((a) => /^Set TP to \d+ \(changes the layout: TP 4 → \d+/.test(a.title));
      assert.ok(setTp, `offered: ${actions.map((a) => a.title).join(' | ')}`);
      assert.notEqual(setTp.isPreferred, true, 'an unsafe fix is never preferred');
    }),
  );

  test('without resolve support the fix-all action carries its edits; an unsafe recommended fix is not among them', { timeout: TEST_TIMEOUT }, () =>
    withServer(
      async (c) => {
        const uri = 'untitled:ds_config.json';
        // The release is named: DeepSpeed refuses an unknown key in `zero_optimization` from 0.7.0 on, so the slip's rename is safe.
        c.settings = { targetVersions: { deepspeed: '0.18.0' } };
        const text = '{\n  "train_batch_size": 30,\n  "train_micro_batch_size_per_gpu": 4,\n  "gradient_accumulation_steps": 2,\n  "fp16": { "enabled": true },\n  "bf16": { "enabled": true },\n  "zero_optimization": { "stage": 2, "contiguous_gradient": true, "stage3_prefetch_bucket_size": 5e8 }\n}\n';
        await c.open(uri, text, 'json');
        await c.waitForDiagnostics(uri, (x) => x.version === 1, WAIT);
        const all = ((await c.codeActions(uri, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, [], ['source.fixAll'])) ?? []).filter(isAction);
        assert.equal(all.length, 1);
        const fixed = applyTextEdits(text, editsFor(all[0].edit, uri));
        assert.ok(fixed.includes('"contiguous_gradients": true'), `the slip in a strict section is corrected (safe):\n${fixed}`);
        assert.ok(fixed.includes('stage3_prefetch_bucket_size'), 'a ZeRO-3 key under stage 2 stays: drop it, or meant stage 3? The file does not say');
        assert.ok(fixed.includes('"train_batch_size": 30') && /"fp16": \{ "enabled": true \}/.test(fixed), `fix-all changed the batch or the precision:\n${fixed}`);
      },
      { textDocumentCapabilities: { codeAction: { isPreferredSupport: true, codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'source', 'source.fixAll'] } } } } },
    ),
  );
});

describe('settings', () => {
  test('workspace/configuration (section shardwise); didChangeConfiguration re-publishes with the new severity, or drops an `off` rule', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:settings.yaml';
      await c.open(uri, TRAP);
      const first = await c.waitForDiagnostics(uri, (x) => x.version === 1 && has('yaml-boolean-trap')(x), WAIT);
      assert.equal(find(first, 'yaml-boolean-trap').severity, DiagnosticSeverity.Error);
      const asked = c.configurationRequests.flat();
      assert.ok(asked.some((i) => i.section === 'shardwise' && i.scopeUri === uri), `configuration items: ${JSON.stringify(asked)}`);
      assert.ok(c.registrations.some((r) => r.method === 'workspace/didChangeConfiguration'), 'registers for configuration changes');

      const requestsBefore = c.configurationRequests.length;
      c.settings = { rules: { 'yaml-boolean-trap': 'warning' } };
      await c.notify('workspace/didChangeConfiguration', { settings: { shardwise: c.settings } });
      const warned = await c.waitForDiagnostics(uri, (x) => x.diagnostics.some((d) => d.code === 'yaml-boolean-trap' && d.severity === DiagnosticSeverity.Warning), WAIT);
      assert.deepEqual(find(warned, 'yaml-boolean-trap').range, { start: { line: 2, character: 17 }, end: { line: 2, character: 19 } });
      assert.ok(c.configurationRequests.length > requestsBefore, 'the settings are pulled again');

      c.settings = { rules: { 'yaml-boolean-trap': 'off' } };
      await c.notify('workspace/didChangeConfiguration', { settings: { shardwise: c.settings } });
      const off = await c.waitForDiagnostics(uri, (x) => !has('yaml-boolean-trap')(x), WAIT);
      assert.deepEqual(off.diagnostics, []);
    }),
  );

  test('.shardwise.yaml next to the file applies, and a change on disk + didChangeWatchedFiles refreshes', { timeout: TEST_TIMEOUT }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shardwise-lsp-'));
    try {
      const projectConfig = join(dir, '.shardwise.yaml');
      writeFileSync(projectConfig, 'rules:\n  unknown-key: off\n');
      const file = join(dir, 'accelerate.yaml');
      const text = readFileSync(join(ACCELERATE_EXAMPLES, 'typo-and-traps.yaml'), 'utf8');
      writeFileSync(file, text);
      const uri = pathToFileURL(file).href;
      await withServer(
        async (c) => {
          await c.open(uri, text);
          const p = await c.waitForDiagnostics(uri, (x) => x.version === 1, WAIT);
          assert.ok(has('yaml-boolean-trap')(p), `the file is analysed: ${JSON.stringify(codes(p))}`);
          assert.ok(!has('unknown-key')(p), `unknown-key is off in .shardwise.yaml: ${JSON.stringify(codes(p))}`);

          writeFileSync(projectConfig, 'rules:\n  unknown-key: error\n  yaml-boolean-trap: off\n');
          await c.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(projectConfig).href, type: FileChangeType.Changed }] });
          const after = await c.waitForDiagnostics(uri, (x) => has('unknown-key')(x) && !has('yaml-boolean-trap')(x), WAIT);
          const d = find(after, 'unknown-key');
          assert.equal(d.severity, DiagnosticSeverity.Error);
          assert.deepEqual(d.range, rangeOfMatch(text, /^\s+(fsdp_versoin):/));
        },
        { rootUri: pathToFileURL(dir).href, workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'tmp' }] },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the repository\'s Python', () => {
  test('a flag a parser of the repository defines is accepted; a Python file changed on disk + didChangeWatchedFiles re-checks the launch script', { timeout: TEST_TIMEOUT }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shardwise-lsp-repo-'));
    try {
      mkdirSync(join(dir, '.git'));
      mkdirSync(join(dir, 'rlkit'));
      // The program reaches Megatron (whose parser the flags go to) and adds its own flags through its package.
      writeFileSync(join(dir, 'train.py'), 'from megatron.training import pretrain\nfrom rlkit.arguments import add_args\n');
      const args = join(dir, 'rlkit', 'arguments.py');
      writeFileSync(args, 'def add_args(parser):\n    parser.add_argument("--rollout-batch-size", type=int)\n    return parser\n');
      const file = join(dir, 'run.sh');
      const text = ['#!/bin/bash', 'export CUDA_DEVICE_MAX_CONNECTIONS=1', 'torchrun --nproc_per_node 8 train.py \\', '    --tensor-model-parallel-size 1 --overlap-grad-reduce \\', '    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 \\', '    --rollout-batch-size 64 --kl-coef 0.1', ''].join('\n');
      writeFileSync(file, text);
      const uri = pathToFileURL(file).href;
      await withServer(
        async (c) => {
          await c.open(uri, text, 'shellscript');
          const p = await c.waitForDiagnostics(uri, (x) => x.version === 1, WAIT);
          assert.deepEqual(codes(p), ['unknown-key']);
          assert.deepEqual(p.diagnostics[0].range, rangeOfMatch(text, /(--kl-coef)/));
          assert.match(p.diagnostics[0].message, /no parser in this repository defines it \(2 Python files searched, 1 with add_argument calls/);

          writeFileSync(args, 'def add_args(parser):\n    parser.add_argument("--rollout-batch-size", type=int)\n    parser.add_argument("--kl-coef", type=float)\n    return parser\n');
          await c.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(args).href, type: FileChangeType.Changed }] });
          const after = await c.waitForDiagnostics(uri, (x) => !has('unknown-key')(x), WAIT);
          assert.deepEqual(after.diagnostics, []);
        },
        { rootUri: pathToFileURL(dir).href, workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'tmp' }] },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('layout', () => {
  const MEGATRON = readFileSync(join(ACCELERATE_EXAMPLES, 'megatron-70b.yaml'), 'utf8');

  test('code lens on the first content line: the layout summary, with the show-layout command', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:megatron-70b.yaml';
      c.settings = { shardwise: { hardware: 'h100-sxm' } };
      await c.open(uri, MEGATRON);
      await c.waitForDiagnostics(uri, has('tp-exceeds-nvlink-domain'));
      const lenses = await c.request<{ range: { start: { line: number } }; command: Command }[]>('textDocument/codeLens', { textDocument: { uri } });
      assert.equal(lenses.length, 1);
      const firstContent = lines(MEGATRON).findIndex((l) => l.startsWith('compute_environment'));
      assert.equal(lenses[0].range.start.line, firstContent);
      assert.match(lenses[0].command.title, /^64 GPUs = TP 16 × PP 2 × CP 1 × DP 2 · ~[\d.]+ GiB\/GPU of 80 · h100-sxm$/);
      assert.equal(lenses[0].command.command, 'shardwise.showLayout');
      assert.deepEqual(lenses[0].command.arguments, [uri]);
    }, VSCODE_EXTENSION),
  );

  test('shardwise/layout returns the layout as markdown; null for a file without one', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:megatron-70b.yaml';
      await c.open(uri, MEGATRON);
      const md = await c.request<string | null>('shardwise/layout', { uri });
      assert.ok(md);
      assert.match(md, /DP = 64 \/ \(TP 16 × PP 2 × CP 1\) = 2/);
      assert.match(md, /Memory per GPU: ~[\d.]+ GiB of 80/);
      const other = 'untitled:pod.yaml';
      await c.open(other, 'kind: Pod\n');
      assert.equal(await c.request('shardwise/layout', { uri: other }), null);
    }),
  );

  test('shardwise/layoutPicture: the SVG of the layout at the document version, each written degree with its range', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:megatron-70b.yaml';
      const version = await c.open(uri, MEGATRON);
      const p = await c.request<{ version: number; svg: string; degrees: { name: string; value: number; range?: { start: { line: number; character: number } } }[] } | null>('shardwise/layoutPicture', { uri, colourBy: 'pp' });
      assert.ok(p);
      assert.equal(p.version, version);
      assert.match(p.svg, /^<svg /);
      assert.match(p.svg, /64 GPUs = TP 16 × CP 1 × DP 2 × PP 2/);
      assert.match(p.svg, /colour: PP stage/);
      const tp = p.degrees.find((d) => d.name === 'TP');
      assert.equal(tp?.value, 16);
      assert.deepEqual(tp?.range?.start, positionOf(MEGATRON, 'megatron_lm_tp_degree: ', 'megatron_lm_tp_degree: '.length), 'the range of the value that sets TP');
      assert.equal(p.degrees.find((d) => d.name === 'DP')?.range, undefined, 'DP is derived: no line sets it');
      await c.open('untitled:pod.yaml', 'kind: Pod\n');
      assert.equal(await c.request('shardwise/layoutPicture', { uri: 'untitled:pod.yaml' }), null);
    }),
  );

  test('hover on a degree: the derived DP, the fabrics and the memory per GPU', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:megatron-70b.yaml';
      await c.open(uri, MEGATRON);
      const h = await c.hover(uri, positionOf(MEGATRON, 'megatron_lm_tp_degree', 3));
      assert.ok(h);
      const md = hoverText(h);
      assert.match(md, /DP = 64 \/ \(TP 16 × PP 2 × CP 1\) = 2/);
      assert.match(md, /TP 16: InfiniBand/);
      assert.match(md, /Memory per GPU: ~[\d.]+ GiB of 80 \(\d+%\): weights [\d.]+, gradients [\d.]+, optimizer [\d.]+, activations [\d.]+ GiB/);
    }),
  );
});

describe('custom request shardwise/ruleDocumentation', () => {
  test('known id → markdown with the id; unknown id → null', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const md = await c.request<string | null>('shardwise/ruleDocumentation', { id: 'unknown-key' });
      assert.equal(typeof md, 'string');
      assert.ok(md!.includes('unknown-key'), md!);
      assert.match(md!, /^#/m, 'markdown heading');
      assert.equal(await c.request('shardwise/ruleDocumentation', { id: 'no-such-rule' }), null);
      assert.equal(await c.request('shardwise/ruleDocumentation', {}), null);
    }),
  );
});

// ---------------------------------------------------------------------------------------------
// Robustness: hostile inputs get diagnostics (possibly a parse-error) and the server keeps working.

/** Opens `text`, waits for its diagnostics, then checks a hover on a normal document still works. */
async function survives(c: LspClient, name: string, text: string, languageId = 'yaml'): Promise<PublishDiagnosticsParams> {
  const ok = `untitled:ok-${name}.yaml`;
  await c.open(ok, HOVER_DOC);
  const uri = `untitled:${name}.yaml`;
  await c.open(uri, text, languageId);
  const p = await c.waitForDiagnostics(uri, (x) => x.version === 1, SLOW_WAIT);
  const h = await c.hover(ok, { line: 1, character: 3 });
  assert.ok(h && /num_processes/.test(hoverText(h)), 'the server still answers a hover');
  assert.ok(!c.hasExited);
  return p;
}

/** A deterministic pseudo-random generator (no flaky inputs). */
function prng(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
}

describe('robustness', () => {
  test('a YAML file just under the size limit (1 MB, 13,000 lines) is analysed to the end', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const text = podConfig(1000 * 1000, (i) => `  - echo "step ${i} - preparing the worker environment for the training job"\n`);
      const p = await survives(c, 'one-mb', text);
      // The only finding is the trap planted on the last line.
      assert.deepEqual(codes(p), ['yaml-boolean-trap']);
      const lastLine = text.split('\n').length - 2;
      assert.deepEqual(find(p, 'yaml-boolean-trap').range, { start: { line: lastLine, character: 17 }, end: { line: lastLine, character: 19 } });
    }),
  );

  test('a 5 MB YAML config gets one diagnostic that says it is too large, and how to raise the limit', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const text = podConfig(5 * 1024 * 1024, (i) => `  - echo "step ${i} - preparing the worker environment for the training job"\n`);
      const p = await survives(c, 'five-mb', text);
      assert.deepEqual(codes(p), ['parse-error']);
      assert.match(p.diagnostics[0].message, /^This file is 5\.0 MB; files over 1 MB are not analysed .*`shardwise\.maxFileSizeKB` setting raise the limit/);
      // The setting raises the limit: the file is analysed to its last line.
      c.settings = { maxFileSizeKB: 8192 };
      await c.notify('workspace/didChangeConfiguration', { settings: { shardwise: c.settings } });
      const raised = await c.waitForDiagnostics('untitled:five-mb.yaml', (x) => has('yaml-boolean-trap')(x), SLOW_WAIT);
      // Past the default limit it is analysed in a worker (the editor stays responsive), which a note on its first line says.
      assert.deepEqual(codes(raised), ['yaml-boolean-trap', undefined]);
      assert.match(raised.diagnostics[1].message, /analysed apart from the editor/);
    }),
  );

  test('a YAML config of 6,000 mappings is over the work budget and says so in one diagnostic', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      // `- echo "step 1: …"` is a mapping (`key: value`): 6,000 of them are more keys than any config holds.
      const text = podConfig(6000 * 80, (i) => `  - echo "step ${i}: preparing the worker environment for the training job"\n`);
      const p = await survives(c, 'many-mappings', text);
      assert.deepEqual(codes(p), ['parse-error']);
      assert.match(p.diagnostics[0].message, /holds more than 5,000 keys, flags and sections; .* not analysed \(a work budget/);
    }),
  );

  test('binary junk', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const next = prng(42);
      let text = '';
      for (let i = 0; i < 256 * 1024; i++) text += String.fromCharCode(next() % 256);
      text += '\u0000\uFFFE\uD800junk';
      const p = await survives(c, 'junk', text);
      assert.ok(Array.isArray(p.diagnostics));
    }),
  );

  test('deeply nested YAML (10,000 levels of `[`)', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const open = await survives(c, 'deep-open', `distributed_type: MULTI_GPU\nnum_processes: 2\nfsdp_config: ${'['.repeat(10_000)}\n`);
      assert.ok(open.diagnostics.length > 0, 'unclosed brackets are reported');
      assert.ok(has('parse-error')(open), `codes: ${JSON.stringify([...new Set(codes(open))])}`);
      const closed = await survives(c, 'deep-closed', `distributed_type: MULTI_GPU\nnum_processes: 2\ndynamo_config: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`);
      assert.ok(closed.diagnostics.length > 0, 'a 10,000-deep list where a mapping belongs is reported');
    }),
  );

  test('an alias bomb (billion laughs)', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const p = await survives(c, 'bomb', billionLaughs());
      const d = find(p, 'parse-error');
      assert.match(d.message, /alias/i);
    }),
  );

  test('a parse error is reported once, not once per unclosed bracket', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const p = await survives(c, 'deep-dup', `distributed_type: MULTI_GPU\nnum_processes: 2\nfsdp_config: ${'['.repeat(10_000)}\n`);
      const keys = p.diagnostics.map((d) => `${d.code}|${JSON.stringify(d.range)}|${d.message}`);
      assert.equal(new Set(keys).size, keys.length, `${keys.length - new Set(keys).size} duplicate diagnostics`);
    }),
  );

  test('after an alias bomb, `distributed_type: *i` is not reported as missing', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const p = await survives(c, 'bomb-missing', billionLaughs());
      assert.ok(!has('missing-distributed-type')(p), p.diagnostics.find((d) => d.code === 'missing-distributed-type')?.message);
    }),
  );
});

/** An XLA pod config with a `commands` list of at least `bytes` (one line per item) and a trap on the last line. */
function podConfig(bytes: number, item: (i: number) => string): string {
  const head = ['# shardwise: accelerate=1.14.0', 'compute_environment: LOCAL_MACHINE', 'distributed_type: XLA', 'num_processes: 8', 'tpu_name: my-pod', 'tpu_zone: us-central2-b', 'commands:'].join('\n') + '\n';
  const parts = [head];
  let size = head.length;
  for (let i = 0; size < bytes; i++) {
    const line = item(i);
    parts.push(line);
    size += line.length;
  }
  parts.push('mixed_precision: no\n');
  return parts.join('');
}

function billionLaughs(): string {
  const names = 'abcdefghi';
  const out = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
  for (let i = 1; i < names.length; i++) out.push(`${names[i]}: &${names[i]} [${Array(9).fill(`*${names[i - 1]}`).join(', ')}]`);
  out.push('distributed_type: *i', 'num_processes: 2', '');
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------

describe('command line', () => {
  test('--version prints a version', { timeout: TEST_TIMEOUT }, () => {
    for (const bin of [SERVER_MAIN, join(REPO_ROOT, 'dist', 'cli', 'main.js')]) {
      const r = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8', timeout: 60_000 });
      assert.equal(r.status, 0, `${bin}: ${r.stderr}`);
      assert.match(r.stdout, /\b\d+\.\d+\.\d+\b/, `${bin} --version: ${JSON.stringify(r.stdout)}`);
    }
  });

  test('no arguments: exit code 2 and a usage line', { timeout: TEST_TIMEOUT }, () => {
    for (const bin of [SERVER_MAIN, join(REPO_ROOT, 'dist', 'cli', 'main.js')]) {
      const r = spawnSync(process.execPath, [bin], { encoding: 'utf8', timeout: 60_000, input: '' });
      assert.equal(r.status, 2, `${bin}: status ${r.status}, stderr ${r.stderr}`);
      assert.match(`${r.stdout}\n${r.stderr}`, /^Usage:/m, `${bin}: ${r.stdout}${r.stderr}`);
    }
  });
});
