/**
 * What the server does according to what the client declares: snippets, watched files, pull or
 * push diagnostics, codeDescription, tags, relatedInformation, the server-side commands behind the
 * layout lens and the documentation action, document symbols and folding ranges.
 * Run `node scripts/build.mjs` first, then `node --import tsx --test test/lsp/capabilities.test.ts`.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { analyze } from '../../server/src/engine';
import { snippetToPlainText } from '../../server/src/lsp/snippet';
import { applyTextEdits, codes, FileChangeType, find, has, InsertTextFormat, rangeOf, REPO_ROOT, withServer, type Command, type Diagnostic, type LspClient, type WorkspaceEdit } from './client';

const TEST_TIMEOUT = 180_000;
const WAIT = 60_000;

const FSDP_KEYS = ['distributed_type: FSDP', 'num_processes: 8', 'fsdp_config:', '  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP', '  ', ''].join('\n');
const TRAP = ['compute_environment: LOCAL_MACHINE', 'distributed_type: MULTI_GPU', 'mixed_precision: no', 'num_machines: 1', 'num_processes: 2', ''].join('\n');
const DEPRECATED = 'distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_backward_prefetch_policy: BACKWARD_PRE\n';
const SCRIPT = join(REPO_ROOT, 'examples', 'megatron', 'pretrain-llama3-8b.sh');

const noSnippets = { editCapabilities: (caps: Record<string, any>) => delete caps.textDocument.completion.completionItem.snippetSupport };
const noDiagnosticExtras = {
  editCapabilities: (caps: Record<string, any>) => {
    caps.textDocument.publishDiagnostics = { versionSupport: true };
  },
};

interface FullReport {
  kind: 'full';
  resultId?: string;
  items: Diagnostic[];
}
type Report = FullReport | { kind: 'unchanged'; resultId: string };

const pullDiagnostics = (c: LspClient, uri: string, previousResultId?: string) => c.request<Report>('textDocument/diagnostic', { textDocument: { uri }, ...(previousResultId ? { previousResultId } : {}) });

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'shardwise-caps-'));
}

describe('completion and snippets', () => {
  test('a client without snippet support gets plain text: each placeholder becomes its first value', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:plain.yaml';
      await c.open(uri, FSDP_KEYS);
      const items = await c.completion(uri, { line: 4, character: 2 });
      assert.ok(items.length > 0, 'keys are offered');
      for (const i of items) {
        assert.equal(i.insertTextFormat, InsertTextFormat.PlainText, `${i.label} is sent as ${i.insertTextFormat}`);
        const text = i.textEdit ? i.textEdit.newText : (i.insertText ?? i.label);
        assert.doesNotMatch(text, /\$(\d|\{)/, `${i.label}: a snippet reached a client without snippet support: ${JSON.stringify(text)}`);
      }
      const v = items.find((i) => i.label === 'fsdp_version')!;
      assert.equal(v.textEdit ? v.textEdit.newText : v.insertText, 'fsdp_version: 1', 'the first choice is inserted');
    }, noSnippets),
  );

  test('a client with snippet support gets the same key as a snippet with a tab stop', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:snippet.yaml';
      await c.open(uri, FSDP_KEYS);
      const items = await c.completion(uri, { line: 4, character: 2 });
      const v = items.find((i) => i.label === 'fsdp_version')!;
      assert.equal(v.insertTextFormat, InsertTextFormat.Snippet);
      assert.equal(v.textEdit ? v.textEdit.newText : v.insertText, 'fsdp_version: ${1|1,2|}');
    }),
  );
});

describe('watched files', () => {
  test('a client with dynamic registration is asked to watch the settings and the linked files; one without is not', { timeout: TEST_TIMEOUT }, async () => {
    await withServer(async (c) => {
      const reg = c.registrations.find((r) => r.method === 'workspace/didChangeWatchedFiles');
      assert.ok(reg, `registrations: ${JSON.stringify(c.registrations.map((r) => r.method))}`);
      const globs = (reg.registerOptions as { watchers: { globPattern: string }[] }).watchers.map((w) => w.globPattern);
      for (const g of ['**/.shardwise.yaml', '**/.shardwise.yml', '**/pyproject.toml', '**/*.json', '**/*.py']) assert.ok(globs.includes(g), `${g} not in ${JSON.stringify(globs)}`);
    });
    await withServer(
      async (c) => {
        assert.deepEqual(c.registrations.filter((r) => r.method === 'workspace/didChangeWatchedFiles'), []);
      },
      { editCapabilities: (caps) => (caps.workspace.didChangeWatchedFiles = { dynamicRegistration: false }) },
    );
  });

  test('a misspelt key in .shardwise.yaml is shown once as a warning with a did-you-mean; again after the file changes', { timeout: TEST_TIMEOUT }, async () => {
    const dir = tempDir();
    try {
      const settings = join(dir, '.shardwise.yaml');
      writeFileSync(settings, 'hardwar: h100-sxm\n');
      const files = ['a.yaml', 'b.yaml'].map((name) => join(dir, name));
      for (const f of files) writeFileSync(f, TRAP);
      await withServer(
        async (c) => {
          const warnings = () => c.shownMessages.filter((m) => m.type === 2 && m.message.includes('hardwar'));
          for (const f of files) {
            await c.open(pathToFileURL(f).href, TRAP);
            await c.waitForDiagnostics(pathToFileURL(f).href, has('yaml-boolean-trap'), WAIT);
          }
          assert.equal(warnings().length, 1, JSON.stringify(c.shownMessages));
          assert.match(warnings()[0].message, /Unknown setting `hardwar`.*did you mean `hardware`/);
          writeFileSync(settings, 'hardwar: h200\n');
          await c.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(settings).href, type: FileChangeType.Changed }] });
          const deadline = Date.now() + WAIT;
          while (warnings().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
          assert.equal(warnings().length, 2, 'the mistake is still there after the change: shown again');
        },
        { rootUri: pathToFileURL(dir).href, workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'tmp' }] },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('pull client: .shardwise.yaml changed on disk + didChangeWatchedFiles → refresh, and the next pull follows the new settings', { timeout: TEST_TIMEOUT }, async () => {
    const dir = tempDir();
    try {
      const settings = join(dir, '.shardwise.yaml');
      writeFileSync(settings, 'rules:\n  unknown-key: warning\n');
      const file = join(dir, 'accelerate.yaml');
      writeFileSync(file, TRAP);
      const uri = pathToFileURL(file).href;
      await withServer(
        async (c) => {
          await c.open(uri, TRAP);
          const before = await pullDiagnostics(c, uri);
          assert.equal(before.kind, 'full');
          assert.deepEqual((before as FullReport).items.map((d) => d.code), ['yaml-boolean-trap']);

          writeFileSync(settings, 'rules:\n  yaml-boolean-trap: off\n');
          const refreshed = c.waitForMessage((m) => (m as { method?: string }).method === 'workspace/diagnostic/refresh', WAIT, false);
          await c.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(settings).href, type: FileChangeType.Changed }] });
          await refreshed;
          const after = await pullDiagnostics(c, uri, before.resultId);
          assert.equal(after.kind, 'full', 'the diagnostics changed: a full report');
          assert.deepEqual((after as FullReport).items, []);
          assert.equal(c.published.get(uri), undefined, 'nothing is pushed to a client that pulls');
        },
        { pullDiagnostics: true, rootUri: pathToFileURL(dir).href, workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'tmp' }] },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('pull diagnostics', () => {
  test('a client that declares textDocument.diagnostic pulls: the findings, `unchanged` on the same version, a new result after an edit', { timeout: TEST_TIMEOUT }, () =>
    withServer(
      async (c) => {
        const provider = c.initializeResult!.capabilities.diagnosticProvider;
        assert.ok(provider, 'diagnosticProvider is announced');
        assert.equal(provider.interFileDependencies, true);
        const uri = 'untitled:pull.yaml';
        await c.open(uri, TRAP);
        const first = await pullDiagnostics(c, uri);
        assert.equal(first.kind, 'full');
        assert.ok(first.resultId, 'a result id');
        const d = find({ uri, diagnostics: (first as FullReport).items }, 'yaml-boolean-trap');
        assert.deepEqual(d.range, { start: { line: 2, character: 17 }, end: { line: 2, character: 19 } });

        const again = await pullDiagnostics(c, uri, first.resultId);
        assert.deepEqual(again, { kind: 'unchanged', resultId: first.resultId });

        await c.change(uri, TRAP.replace('mixed_precision: no', "mixed_precision: 'no'"));
        const edited = await pullDiagnostics(c, uri, first.resultId);
        assert.equal(edited.kind, 'full');
        assert.notEqual(edited.resultId, first.resultId);
        assert.deepEqual((edited as FullReport).items, []);
        assert.equal(c.published.get(uri), undefined, 'nothing is pushed to a client that pulls');
        await c.close(uri);
        const status = await c.request<{ documents: number; reported: number }>('shardwise/serverStatus', {});
        assert.deepEqual([status.documents, status.reported], [0, 0], 'a closed document\'s last report is forgotten');
      },
      { pullDiagnostics: true },
    ),
  );

  test('a client that does not declare it gets pushed diagnostics and no diagnosticProvider', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      assert.equal(c.initializeResult!.capabilities.diagnosticProvider, undefined);
      const uri = 'untitled:push.yaml';
      await c.open(uri, TRAP);
      const p = await c.waitForDiagnostics(uri, (x) => x.version === 1, WAIT);
      assert.deepEqual(codes(p), ['yaml-boolean-trap']);
    }),
  );
});

describe('diagnostic metadata', () => {
  test('codeDescription links the rule documentation; tags mark a deprecated key', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:deprecated.yaml';
      await c.open(uri, DEPRECATED);
      const p = await c.waitForDiagnostics(uri, has('deprecated-key'), WAIT);
      const d = find(p, 'deprecated-key');
      assert.equal(d.codeDescription?.href, 'https://github.com/shardwise/shardwise/blob/main/docs/rules.md#deprecated-key');
      assert.deepEqual(d.tags, [2], 'DiagnosticTag.Deprecated');
      for (const other of p.diagnostics.filter((x) => x.code !== 'deprecated-key')) assert.ok(!other.tags?.includes(2), `${other.code} is tagged deprecated`);
    }),
  );

  test('an ignored section is tagged Unnecessary', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:irrelevant.yaml';
      await c.open(uri, 'distributed_type: MULTI_GPU\nnum_processes: 2\nfsdp_config:\n  fsdp_version: 2\n');
      const p = await c.waitForDiagnostics(uri, has('irrelevant-section'), WAIT);
      assert.deepEqual(find(p, 'irrelevant-section').tags, [1], 'DiagnosticTag.Unnecessary');
    }),
  );

  test('a client that declares none of them gets no codeDescription, tags or relatedInformation', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:bare.yaml';
      await c.open(uri, DEPRECATED);
      const p = await c.waitForDiagnostics(uri, has('deprecated-key'), WAIT);
      for (const d of p.diagnostics) {
        assert.equal(d.codeDescription, undefined);
        assert.equal(d.tags, undefined);
        assert.equal(d.relatedInformation, undefined);
      }
    }, noDiagnosticExtras),
  );

  test('relatedInformation: a key the DeepSpeed JSON replaces points at deepspeed_config_file and at the JSON line that sets it', { timeout: TEST_TIMEOUT }, async () => {
    const dir = tempDir();
    try {
      const json = join(dir, 'ds.json');
      const jsonText = '{\n  "bf16": { "enabled": true },\n  "zero_optimization": {\n    "stage": 3\n  }\n}\n';
      writeFileSync(json, jsonText);
      const yamlText = 'distributed_type: DEEPSPEED\nnum_processes: 8\ndeepspeed_config:\n  deepspeed_config_file: ds.json\n  zero_stage: 2\n';
      const file = join(dir, 'accelerate.yaml');
      writeFileSync(file, yamlText);
      const uri = pathToFileURL(file).href;
      await withServer(async (c) => {
        await c.open(uri, yamlText);
        const p = await c.waitForDiagnostics(uri, has('deepspeed-config-file-conflict'), WAIT);
        const d = p.diagnostics.find((x) => x.code === 'deepspeed-config-file-conflict' && x.range.start.line === 4)!;
        assert.ok(d, JSON.stringify(p.diagnostics));
        const related = d.relatedInformation ?? [];
        assert.equal(related.length, 2, JSON.stringify(related));
        assert.equal(related[0].location.uri, uri);
        assert.equal(related[0].location.range.start.line, 3, 'the deepspeed_config_file line');
        assert.match(related[0].message, /deepspeed_config_file/);
        assert.equal(related[1].location.uri, pathToFileURL(json).href);
        assert.deepEqual(related[1].location.range.start, { line: 3, character: 4 }, '"stage" in the JSON');
        assert.match(related[1].message, /zero_optimization\.stage/);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('commands any client can run', () => {
  const MEGATRON = readFileSync(join(REPO_ROOT, 'examples', 'accelerate', 'megatron-70b.yaml'), 'utf8');

  test('without client-side commands the layout lens runs the server command, which answers the layout and shows it', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const commands: string[] = c.initializeResult!.capabilities.executeCommandProvider?.commands ?? [];
      const uri = 'untitled:megatron-70b.yaml';
      await c.open(uri, MEGATRON);
      const lenses = await c.request<{ command: Command }[]>('textDocument/codeLens', { textDocument: { uri } });
      assert.equal(lenses.length, 1);
      const lens = lenses[0].command;
      assert.equal(lens.command, 'shardwise.server.showLayout');
      assert.ok(commands.includes(lens.command), `executeCommandProvider.commands ${JSON.stringify(commands)}`);
      const md = await c.request<string | null>('workspace/executeCommand', { command: lens.command, arguments: lens.arguments });
      assert.match(md ?? '', /DP = 64 \/ \(TP 16 × PP 2 × CP 1\) = 2/);
      const shown: any = await c.waitForMessage((m) => (m as { method?: string }).method === 'window/showMessage', WAIT);
      assert.match(shown.params.message, /TP 16/);
    }),
  );

  test('"Show documentation" runs the server command, which opens the rule page with window/showDocument', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:docs.yaml';
      await c.open(uri, TRAP);
      const p = await c.waitForDiagnostics(uri, has('yaml-boolean-trap'), WAIT);
      const d = find(p, 'yaml-boolean-trap');
      const actions = (await c.codeActions(uri, d.range, [d])) ?? [];
      const docs = actions.find((a) => a.title === 'Show documentation for yaml-boolean-trap') as { command?: Command } | undefined;
      assert.equal(docs?.command?.command, 'shardwise.server.showRuleDocumentation');
      const md = await c.request<string | null>('workspace/executeCommand', { command: docs!.command!.command, arguments: docs!.command!.arguments });
      assert.match(md ?? '', /yaml-boolean-trap/);
      assert.deepEqual(c.shownDocuments, [{ uri: 'https://github.com/shardwise/shardwise/blob/main/docs/rules.md#yaml-boolean-trap', external: true }]);
    }),
  );
});

describe('plan a layout for this model', () => {
  const text = readFileSync(SCRIPT, 'utf8');
  const uri = pathToFileURL(SCRIPT).href;
  const errors = (t: string) => analyze({ text: t, path: SCRIPT, languageId: 'shellscript' }, {}).findings.filter((f) => f.severity === 'error').length;

  test('on a degree: the action, the planner’s layouts as checked edits, and the server command that offers them as buttons and applies the one chosen', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      await c.open(uri, text, 'shellscript');
      await c.waitForDiagnostics(uri, () => true, WAIT);
      const onTp = rangeOf(text, '--tensor-model-parallel-size');
      const actions = ((await c.codeActions(uri, onTp, [])) ?? []) as { title: string; kind?: string; command?: Command }[];
      const plan = actions.find((a) => a.title === 'Plan a layout for this model…');
      assert.ok(plan, `offered on the TP flag: ${actions.map((a) => a.title).join(' | ')}`);
      assert.equal(plan.kind, 'refactor.rewrite');
      assert.equal(plan.command?.command, 'shardwise.server.planLayout');
      const elsewhere = ((await c.codeActions(uri, rangeOf(text, '--master_port'), [])) ?? []) as { title: string }[];
      assert.ok(!elsewhere.some((a) => a.title === plan.title), 'not offered on a flag that is no degree');

      const planned = await c.request<{ version: number; layouts: { label: string; description: string; changes: string; edit: WorkspaceEdit }[] }>('shardwise/planLayouts', { uri, docIndex: plan.command!.arguments![1] });
      assert.ok(planned.layouts.length > 0 && planned.layouts.length <= 8);
      const before = errors(text);
      for (const l of planned.layouts) {
        assert.match(l.label, /^TP \d+ · PP \d+/);
        assert.match(l.description, /GiB\/GPU · step ~/);
        assert.match(l.changes, /^changes the layout: /);
        const after = applyTextEdits(text, l.edit.changes![uri]);
        assert.notEqual(after, text);
        assert.ok(errors(after) <= before, `${l.label} brings no new error`);
        const plan2 = analyze({ text: after, path: SCRIPT, languageId: 'shellscript' }, {}).docs[0].plan!;
        const [, tp, pp] = /^TP (\d+) · PP (\d+)/.exec(l.label)!;
        assert.deepEqual([plan2.tp.value, plan2.pp.value], [Number(tp), Number(pp)], `the edit writes ${l.label}`);
      }

      const applied: WorkspaceEdit[] = [];
      c.answerMessageRequest = (p) => {
        assert.match(p.message, /layouts for this model, fastest first/);
        assert.equal(p.actions?.length, planned.layouts.length);
        return p.actions![0];
      };
      c.answerApplyEdit = (p) => {
        applied.push(p.edit);
        return { applied: true };
      };
      const done = await c.request<boolean>('workspace/executeCommand', { command: plan.command!.command, arguments: plan.command!.arguments });
      assert.equal(done, true);
      assert.deepEqual(applied, [planned.layouts[0].edit], 'the layout chosen is applied as offered');
    }),
  );

  test('a client with the quick pick gets the action with its own command', { timeout: TEST_TIMEOUT }, () =>
    withServer(
      async (c) => {
        await c.open(uri, text, 'shellscript');
        await c.waitForDiagnostics(uri, () => true, WAIT);
        const actions = ((await c.codeActions(uri, rangeOf(text, '--pipeline-model-parallel-size'), [])) ?? []) as { title: string; command?: Command }[];
        assert.equal(actions.find((a) => a.title === 'Plan a layout for this model…')?.command?.command, 'shardwise.planLayout');
      },
      { initializationOptions: { clientCommands: ['shardwise.planLayout'] } },
    ),
  );
});

describe('outline and folding', () => {
  const text = readFileSync(SCRIPT, 'utf8');
  const lineOf = (re: RegExp) => text.split('\n').findIndex((l) => re.test(l));
  const symbolCaps = { textDocumentCapabilities: { documentSymbol: { hierarchicalDocumentSymbolSupport: true }, foldingRange: { lineFoldingOnly: true } } };
  interface Sym {
    name: string;
    kind: number;
    range: { start: { line: number }; end: { line: number } };
    selectionRange: { start: { line: number } };
    children?: Sym[];
  }

  test('document symbols of a launch script: its arrays with the flags written in them, and the training command', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = pathToFileURL(SCRIPT).href;
      await c.open(uri, text, 'shellscript');
      const symbols = await c.request<Sym[]>('textDocument/documentSymbol', { textDocument: { uri } });
      const names = symbols.map((s) => s.name);
      for (const n of ['TP', 'PP', 'DISTRIBUTED_ARGS', 'MODEL_ARGS', 'MODEL_PARALLEL_ARGS', 'torchrun pretrain_gpt.py']) assert.ok(names.includes(n), `${n} not in ${JSON.stringify(names)}`);
      const parallel = symbols.find((s) => s.name === 'MODEL_PARALLEL_ARGS')!;
      assert.equal(parallel.range.start.line, lineOf(/^MODEL_PARALLEL_ARGS=\(/));
      assert.equal(parallel.range.end.line, lineOf(/^MODEL_PARALLEL_ARGS=\(/) + 5);
      assert.deepEqual(parallel.children!.map((s) => s.name), ['--tensor-model-parallel-size', '--pipeline-model-parallel-size', '--use-distributed-optimizer', '--overlap-grad-reduse']);
      assert.deepEqual(symbols.find((s) => s.name === 'DISTRIBUTED_ARGS')!.children!.map((s) => s.name), ['--nproc_per_node', '--nnodes', '--node_rank', '--master_addr', '--master_port']);
      const command = symbols.find((s) => s.name === 'torchrun pretrain_gpt.py')!;
      assert.equal(command.range.start.line, lineOf(/^torchrun /));
      assert.deepEqual(command.children!.map((s) => s.name), ['--log-interval', '--save-interval', '--eval-interval']);
      for (const s of symbols) {
        for (const child of s.children ?? []) assert.ok(child.range.start.line >= s.range.start.line && child.range.end.line <= s.range.end.line, `${child.name} outside ${s.name}`);
      }
    }, symbolCaps),
  );

  test('a client without hierarchical symbols gets SymbolInformation with the container name', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = pathToFileURL(SCRIPT).href;
      await c.open(uri, text, 'shellscript');
      const symbols = await c.request<{ name: string; location: { uri: string }; containerName?: string }[]>('textDocument/documentSymbol', { textDocument: { uri } });
      const tp = symbols.find((s) => s.name === '--tensor-model-parallel-size')!;
      assert.equal(tp.containerName, 'MODEL_PARALLEL_ARGS');
      assert.equal(tp.location.uri, uri);
    }),
  );

  test('folding ranges of a launch script: each array, the continued training command and the leading comments', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = pathToFileURL(SCRIPT).href;
      await c.open(uri, text, 'shellscript');
      const ranges = await c.request<{ startLine: number; endLine: number; kind?: string }[]>('textDocument/foldingRange', { textDocument: { uri } });
      const at = (line: number) => ranges.find((r) => r.startLine === line);
      const array = lineOf(/^MODEL_ARGS=\(/);
      assert.deepEqual(at(array), { startLine: array, endLine: lineOf(/^MODEL_ARGS=\(/) + 14 });
      const torchrun = lineOf(/^torchrun /);
      assert.deepEqual(at(torchrun), { startLine: torchrun, endLine: text.trimEnd().split('\n').length - 1 });
      assert.deepEqual(at(1), { startLine: 1, endLine: 3, kind: 'comment' });
      // A YAML file is left to the editor's own folding.
      await c.open('untitled:fold.yaml', TRAP);
      assert.equal(await c.request('textDocument/foldingRange', { textDocument: { uri: 'untitled:fold.yaml' } }), null);
    }, symbolCaps),
  );

  test('document symbols of a YAML config: its sections and keys', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const uri = 'untitled:outline.yaml';
      await c.open(uri, FSDP_KEYS.replace('  \n', '  fsdp_version: 2\n'));
      const symbols = await c.request<Sym[]>('textDocument/documentSymbol', { textDocument: { uri } });
      assert.deepEqual(symbols.map((s) => s.name), ['distributed_type', 'num_processes', 'fsdp_config']);
      assert.deepEqual(symbols[2].children!.map((s) => s.name), ['fsdp_auto_wrap_policy', 'fsdp_version']);
    }, symbolCaps),
  );
});

describe('pieces', () => {
  test('snippetToPlainText: placeholders become their default or first choice, tab stops vanish, escapes resolve', () => {
    assert.equal(snippetToPlainText('fsdp_version: ${1|1,2|}'), 'fsdp_version: 1');
    assert.equal(snippetToPlainText('zero_stage: ${1:2}$0'), 'zero_stage: 2');
    assert.equal(snippetToPlainText('fsdp_config:\n  $0'), 'fsdp_config:\n  ');
    assert.equal(snippetToPlainText('"a": {\n\t$0\n}'), '"a": {\n\t\n}');
    assert.equal(snippetToPlainText('path: ${1:\\$HOME/x\\}}'), 'path: $HOME/x}');
    assert.equal(snippetToPlainText('v: ${1|a\\,b,c|}'), 'v: a,b');
    assert.equal(snippetToPlainText('${1:outer ${2:inner}} end'), 'outer inner end');
    assert.equal(snippetToPlainText('cost: 5$ and $'), 'cost: 5$ and $');
  });

  test('world-size-mismatch points at the lines that set the degrees', () => {
    const text = 'distributed_type: MEGATRON_LM\nnum_processes: 8\nmegatron_lm_config:\n  megatron_lm_tp_degree: 8\n  megatron_lm_pp_degree: 2\n';
    const a = analyze({ path: '/x/megatron.yaml', text });
    const f = a.findings.find((x) => x.code === 'world-size-mismatch');
    assert.ok(f, JSON.stringify(a.findings.map((x) => x.code)));
    const lines = (f.related ?? []).map((r) => ({ line: a.lines.position(r.span.start).line, message: r.message, path: r.path }));
    assert.deepEqual(lines, [
      { line: 3, message: 'TP 8 is set here', path: undefined },
      { line: 4, message: 'PP 2 is set here', path: undefined },
    ]);
  });
});
