/**
 * Cross-file support: an Accelerate config that points at a DeepSpeed JSON
 * (`deepspeed_config.deepspeed_config_file`), and a Transformers Trainer recipe that names one (`deepspeed:`).
 *
 *   - the host resolver (server/src/host/resolve.ts) and the dependency graph (server/src/host/graph.ts),
 *     directly;
 *   - the built language server over stdio: re-analysis across files on edits and on disk changes,
 *     the "not found" message with the locations tried, document links and go-to-definition.
 *
 * Run `node scripts/build.mjs` first, then `node --import tsx --test test/lsp/*.test.ts`.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { absenceCache, candidates, createResolver, resolveReference } from '../../server/src/host/resolve';
import { DependencyGraph, MAX_CLOSED_REFERRERS, MAX_WATCHED_PER_DOCUMENT } from '../../server/src/host/graph';
import { FileChangeType, LspClient, positionOf, rangeOf, type Range, type StartOptions, withServer, codes, has, find } from './client';

const TEST_TIMEOUT = 180_000;
const WAIT = 60_000;

const MIXED_PRECISION_CONFLICT = 'mixed-precision-conflict';
const FILE_MISSING = 'deepspeed-config-file-missing';
const BATCH_SIZE_MISMATCH = 'batch-size-mismatch';
const TRAINER_MISMATCH = 'trainer-deepspeed-mismatch';
const AUTO = 'auto-without-integration';


/** A fresh temp folder (real path: macOS' /var is a symlink), removed after `fn`. */
async function withDir<T>(fn: (dir: string) => Promise<T> | T): Promise<T> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'shardwise-links-')));
  try {
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const folder = (dir: string): StartOptions => ({ rootUri: pathToFileURL(dir).href, workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'ws' }] });
const lineOf = (text: string, re: RegExp) => text.split('\n').findIndex((l) => re.test(l));

/** An Accelerate config launching DeepSpeed from a JSON file. */
function accelerateYaml(ref: string, { mixedPrecision = 'bf16', processes = 8 } = {}): string {
  return [
    'compute_environment: LOCAL_MACHINE',
    'distributed_type: DEEPSPEED',
    'deepspeed_config:',
    `  deepspeed_config_file: ${ref}`,
    '  zero3_init_flag: true',
    'machine_rank: 0',
    `mixed_precision: ${mixedPrecision}`,
    'num_machines: 1',
    `num_processes: ${processes}`,
    '',
  ].join('\n');
}

/** A ZeRO-3 DeepSpeed JSON with fp16 or bf16 enabled. */
function dsJson(precision: 'fp16' | 'bf16'): string {
  return [
    '{',
    '  "train_micro_batch_size_per_gpu": "auto",',
    '  "gradient_accumulation_steps": "auto",',
    '  "train_batch_size": "auto",',
    `  "fp16": {"enabled": ${precision === 'fp16'}},`,
    `  "bf16": {"enabled": ${precision === 'bf16'}},`,
    '  "zero_optimization": { "stage": 3 }',
    '}',
    '',
  ].join('\n');
}

/** A DeepSpeed JSON with explicit batch sizes. */
function batchJson(train: number, micro: number, accumulation: number): string {
  return `{\n  "train_batch_size": ${train},\n  "train_micro_batch_size_per_gpu": ${micro},\n  "gradient_accumulation_steps": ${accumulation},\n  "zero_optimization": { "stage": 2 }\n}\n`;
}

// ---------------------------------------------------------------------------------------------

describe('host resolver', () => {
  test('the order: absolute as is; else the file folder, then each base folder; no duplicates', () => {
    assert.deepEqual(candidates('/abs/ds.json', '/w/cfg/a.yaml', ['/w']), ['/abs/ds.json']);
    assert.deepEqual(candidates('ds/ds.json', '/w/cfg/a.yaml', ['/w', '/other']), ['/w/cfg/ds/ds.json', '/w/ds/ds.json', '/other/ds/ds.json']);
    assert.deepEqual(candidates('./ds.json', '/w/a.yaml', ['/w']), ['/w/ds.json'], 'the file folder is the base folder');
    // An example launched from its own folder: every folder between the file and its base folder, nearest first.
    assert.deepEqual(candidates('configs/ds.json', '/w/examples/proj/configs/a.yaml', ['/w']), ['/w/examples/proj/configs/configs/ds.json', '/w/examples/proj/configs/ds.json', '/w/examples/configs/ds.json', '/w/configs/ds.json']);
    assert.deepEqual(candidates('ds.json', '/elsewhere/x/a.yaml', ['/w']), ['/elsewhere/x/ds.json', '/w/ds.json'], 'no folders above a file outside every base');
    assert.deepEqual(candidates('../ds.json', undefined, ['/w/sub']), ['/w/ds.json'], 'no file folder (an unsaved document)');
    assert.deepEqual(candidates('', '/w/a.yaml', ['/w']), []);
    assert.deepEqual(candidates('a\u0000b', '/w/a.yaml', ['/w']), []);
    assert.deepEqual(candidates('ds.json', 'relative/a.yaml', ['not-absolute']), [], 'relative folders are not guessed');
  });

  test('every location tried is listed, in order; found at the second one', () =>
    withDir((dir) => {
      mkdirSync(join(dir, 'configs'));
      writeFileSync(join(dir, 'ds.json'), '{}');
      const tried: string[] = [];
      const r = resolveReference('ds.json', { from: join(dir, 'configs', 'a.yaml'), bases: [dir], onTry: (p) => tried.push(p) });
      assert.equal(r.path, join(dir, 'ds.json'));
      assert.equal(r.text, '{}');
      assert.deepEqual(r.tried, [join(dir, 'configs', 'ds.json'), join(dir, 'ds.json')]);
      assert.deepEqual(tried, r.tried);
      const missing = resolveReference('nope.json', { from: join(dir, 'configs', 'a.yaml'), bases: [dir, '/elsewhere'] });
      // Nothing found: also the deepest folder of the first location that exists (the file's own folder here).
      assert.deepEqual(missing, { ref: 'nope.json', tried: [join(dir, 'configs', 'nope.json'), join(dir, 'nope.json'), '/elsewhere/nope.json'], deepestFolder: join(dir, 'configs') });
    }));

  test('a directory is not found; an open document wins over the disk, even when it is not saved yet', () =>
    withDir((dir) => {
      mkdirSync(join(dir, 'ds.json'));
      const r = resolveReference('ds.json', { from: join(dir, 'a.yaml') });
      assert.equal(r.path, undefined);
      assert.deepEqual(r.tried, [join(dir, 'ds.json')]);
      writeFileSync(join(dir, 'disk.json'), 'on disk');
      const open = new Map([[join(dir, 'disk.json'), 'in the editor'], [join(dir, 'new.json'), 'unsaved']]);
      const resolve = createResolver({ from: join(dir, 'a.yaml'), openText: (p) => open.get(p) });
      assert.equal(resolve('disk.json').text, 'in the editor');
      assert.equal(resolve('new.json').text, 'unsaved');
      assert.equal(resolve('new.json').path, join(dir, 'new.json'));
    }));

  test('a run keeps what it found absent: the same answers from file after file, without looking again; what exists is read each time', () =>
    withDir((dir) => {
      mkdirSync(join(dir, 'a'));
      mkdirSync(join(dir, 'b'));
      writeFileSync(join(dir, 'ds.json'), '{}');
      const absent = absenceCache();
      const plain = (from: string, ref: string) => resolveReference(ref, { from: join(dir, from), bases: [dir] });
      const kept = (from: string, ref: string) => resolveReference(ref, { from: join(dir, from), bases: [dir], absent });
      for (const [from, ref] of [['a/x.sh', 'torch.py'], ['b/y.sh', 'torch.py'], ['a/x.sh', 'ds.json'], ['a/x.sh', 'torch.py']]) assert.deepEqual(kept(from, ref), plain(from, ref));
      assert.ok(absent.missing.has(join(dir, 'torch.py')) && absent.missing.has(join(dir, 'a', 'torch.py')));
      // A file the run writes exists already: its new text is what the next lookup reads.
      writeFileSync(join(dir, 'ds.json'), '{"train_batch_size": 8}');
      assert.equal(kept('b/y.sh', 'ds.json').text, '{"train_batch_size": 8}');
    }));

  test('never throws: throwing callbacks, odd references', () => {
    const boom = () => {
      throw new Error('boom');
    };
    const r = resolveReference('x.json', { from: '/w/a.yaml', openText: boom, onTry: boom, onFound: boom });
    assert.deepEqual(r, { ref: 'x.json', tried: ['/w/x.json'], deepestFolder: '/' });
    assert.deepEqual(resolveReference(undefined as unknown as string, {}), { ref: undefined, tried: [] });
    assert.deepEqual(resolveReference('a\u0000.json', { from: '/w/a.yaml' }).tried, []);
  });
});

describe('dependency graph', () => {
  test('dependents and referrers; the targets a document gains or loses are returned; remove forgets it', () => {
    const g = new DependencyGraph();
    assert.deepEqual(g.set('file:///w/a.yaml', ['/w/cfg/ds.json', '/w/ds.json'], ['/w/ds.json']), ['/w/ds.json']);
    assert.deepEqual(g.dependents('/w/cfg/ds.json'), ['file:///w/a.yaml'], 'a location tried but not found is watched');
    assert.deepEqual(g.referrersOf('/w/ds.json'), ['file:///w/a.yaml']);
    assert.deepEqual(g.set('file:///w/a.yaml', ['/w/ds.json'], ['/w/ds.json']), [], 'same target: nothing changed');
    assert.deepEqual(g.dependents('/w/cfg/ds.json'), []);
    assert.deepEqual(g.set('file:///w/a.yaml', ['/w/other.json'], ['/w/other.json']).sort(), ['/w/ds.json', '/w/other.json']);
    assert.deepEqual(g.referrersOf('/w/ds.json'), []);
    const removed = g.remove('file:///w/a.yaml');
    assert.deepEqual([...removed!.targets], ['/w/other.json']);
    assert.deepEqual(g.stats(), { documents: 0, watchedKeys: 0, referredKeys: 0, closed: 0 });
  });

  test('bounded: locations per document, and remembered closed referrers (least recently used first out)', () => {
    const g = new DependencyGraph();
    g.set('file:///w/big.yaml', Array.from({ length: 10_000 }, (_, i) => `/w/${i}.json`), []);
    assert.equal(g.get('file:///w/big.yaml')!.watched.size, MAX_WATCHED_PER_DOCUMENT);
    for (let i = 0; i < MAX_CLOSED_REFERRERS + 10; i++) g.rememberClosed(`/w/${i}.yaml`, { uri: `file:///w/${i}.yaml`, path: `/w/${i}.yaml`, targets: new Set(['/w/ds.json']) });
    assert.equal(g.stats().closed, MAX_CLOSED_REFERRERS);
    assert.equal(g.closedAt('/w/0.yaml'), undefined, 'the oldest went first');
    g.touchClosed('/w/10.yaml');
    g.rememberClosed('/w/new.yaml', { uri: 'file:///w/new.yaml', path: '/w/new.yaml', targets: new Set(['/w/ds.json']) });
    assert.ok(g.closedAt('/w/10.yaml'), 'a referrer just used stays');
    assert.equal(g.closedAt('/w/11.yaml'), undefined);
    g.rememberClosed('/w/none.yaml', { uri: 'file:///w/none.yaml', path: '/w/none.yaml', targets: new Set() });
    assert.equal(g.closedAt('/w/none.yaml'), undefined, 'a file that refers to nothing is not remembered');
  });
});

// ---------------------------------------------------------------------------------------------

describe('language server: Accelerate config ↔ DeepSpeed JSON', () => {
  test('initialize announces document links and go-to-definition', { timeout: TEST_TIMEOUT }, () =>
    withServer(async (c) => {
      const caps = c.initializeResult!.capabilities;
      assert.ok(caps.documentLinkProvider, 'documentLinkProvider');
      assert.ok(caps.definitionProvider, 'definitionProvider');
    }),
  );

  test('editing the open JSON re-publishes the config: mixed-precision-conflict appears, then goes', { timeout: TEST_TIMEOUT }, () =>
    withDir(async (dir) => {
      // Neither file is on disk: the open documents are what the server reads.
      const yamlUri = pathToFileURL(join(dir, 'accelerate.yaml')).href;
      const jsonUri = pathToFileURL(join(dir, 'ds_config.json')).href;
      const yaml = accelerateYaml('ds_config.json');
      await withServer(async (c) => {
        await c.open(yamlUri, yaml);
        await c.open(jsonUri, dsJson('bf16'), 'json');
        const before = await c.waitForDiagnostics(yamlUri, (p) => !has(FILE_MISSING)(p), WAIT);
        assert.ok(!has(MIXED_PRECISION_CONFLICT)(before), `bf16 in both: ${JSON.stringify(codes(before))}`);

        await c.change(jsonUri, dsJson('fp16'));
        const conflict = await c.waitForDiagnostics(yamlUri, has(MIXED_PRECISION_CONFLICT), WAIT);
        const d = find(conflict, MIXED_PRECISION_CONFLICT);
        assert.equal(d.range.start.line, lineOf(yaml, /^mixed_precision:/), 'on the mixed_precision line');
        assert.equal(conflict.version, 1, 'the config itself did not change');

        await c.change(jsonUri, dsJson('bf16'));
        await c.waitForDiagnostics(yamlUri, (p) => !has(MIXED_PRECISION_CONFLICT)(p), WAIT);
      }, folder(dir));
    }),
  );

  test('a fix across files: the code action edits the config and the open JSON in one WorkspaceEdit', { timeout: TEST_TIMEOUT }, () =>
    withDir(async (dir) => {
      const yamlUri = pathToFileURL(join(dir, 'accelerate.yaml')).href;
      const jsonUri = pathToFileURL(join(dir, 'ds_config.json')).href;
      const yaml = accelerateYaml('ds_config.json');
      await withServer(async (c) => {
        await c.open(jsonUri, dsJson('fp16'), 'json');
        await c.open(yamlUri, yaml);
        const p = await c.waitForDiagnostics(yamlUri, has(MIXED_PRECISION_CONFLICT), WAIT);
        const d = find(p, MIXED_PRECISION_CONFLICT);
        const actions = ((await c.codeActions(yamlUri, d.range, [d])) ?? []) as { title: string; isPreferred?: boolean; edit?: { changes?: Record<string, { newText: string }[]> } }[];
        const trainIn = actions.find((a) => /^Train in bf16/.test(a.title));
        assert.ok(trainIn?.edit?.changes, `offered: ${actions.map((a) => a.title).join(' | ')}`);
        assert.equal(trainIn.isPreferred, false);
        assert.deepEqual(Object.keys(trainIn.edit.changes).sort(), [jsonUri, yamlUri].sort());
        assert.deepEqual(trainIn.edit.changes[jsonUri].map((e) => e.newText), ['false', 'true']);
        assert.ok(trainIn.edit.changes[yamlUri].length > 0, 'mixed_precision is removed from the config');
      }, folder(dir));
    }),
  );

  test('a JSON that is not there: deepspeed-config-file-missing lists the locations tried; creating it clears it', { timeout: TEST_TIMEOUT }, () =>
    withDir(async (dir) => {
      mkdirSync(join(dir, 'configs'));
      const yamlPath = join(dir, 'configs', 'accelerate.yaml');
      const yamlUri = pathToFileURL(yamlPath).href;
      const yaml = accelerateYaml('ds/zero3.json');
      await withServer(async (c) => {
        await c.open(yamlUri, yaml);
        const p = await c.waitForDiagnostics(yamlUri, has(FILE_MISSING), WAIT);
        const d = find(p, FILE_MISSING);
        const nextToIt = join(dir, 'configs', 'ds', 'zero3.json');
        const atRoot = join(dir, 'ds', 'zero3.json');
        assert.ok(d.message.includes(nextToIt), `the config's folder is listed: ${d.message}`);
        assert.ok(d.message.includes(atRoot), `the workspace folder is listed: ${d.message}`);
        assert.ok(d.message.indexOf(nextToIt) < d.message.indexOf(atRoot), `in the order tried: ${d.message}`);
        assert.deepEqual(d.range, rangeOf(yaml, 'ds/zero3.json'));

        // Created on disk at the second location: the watcher event re-analyses the config.
        mkdirSync(join(dir, 'ds'));
        writeFileSync(atRoot, dsJson('bf16'));
        await c.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(atRoot).href, type: FileChangeType.Created }] });
        await c.waitForDiagnostics(yamlUri, (x) => !has(FILE_MISSING)(x), WAIT);
        const links = await c.request<{ range: Range; target?: string }[]>('textDocument/documentLink', { textDocument: { uri: yamlUri } });
        assert.deepEqual(links.map((l) => l.target), [pathToFileURL(atRoot).href]);
      }, folder(dir));
    }),
  );

  test('documentLink: the path as written (inside its quotes) → the JSON; definition on it → the JSON, start of file', { timeout: TEST_TIMEOUT }, () =>
    withDir(async (dir) => {
      const jsonPath = join(dir, 'ds_config.json');
      writeFileSync(jsonPath, dsJson('bf16'));
      const yamlUri = pathToFileURL(join(dir, 'accelerate.yaml')).href;
      const yaml = accelerateYaml('"ds_config.json"');
      const jsonUri = pathToFileURL(jsonPath).href;
      const start = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
      const pathRange = rangeOf(yaml, 'ds_config.json');
      for (const linkSupport of [false, true]) {
        await withServer(
          async (c) => {
            await c.open(yamlUri, yaml);
            const links = await c.request<{ range: Range; target?: string }[]>('textDocument/documentLink', { textDocument: { uri: yamlUri } });
            assert.equal(links.length, 1, JSON.stringify(links));
            assert.deepEqual(links[0].range, pathRange);
            assert.equal(links[0].target, jsonUri);

            const def = await c.request<unknown>('textDocument/definition', { textDocument: { uri: yamlUri }, position: positionOf(yaml, 'ds_config.json', 5) });
            if (linkSupport) {
              assert.deepEqual(def, [{ originSelectionRange: pathRange, targetUri: jsonUri, targetRange: start, targetSelectionRange: start }]);
            } else {
              assert.deepEqual(def, { uri: jsonUri, range: start });
            }
            const elsewhere = await c.request<unknown>('textDocument/definition', { textDocument: { uri: yamlUri }, position: positionOf(yaml, 'num_processes', 2) });
            assert.equal(elsewhere, null);
          },
          { ...folder(dir), textDocumentCapabilities: linkSupport ? { definition: { linkSupport: true } } : undefined },
        );
      }
    }),
  );

  test('a change on disk notified by workspace/didChangeWatchedFiles re-analyses the config (the JSON is not open)', { timeout: TEST_TIMEOUT }, () =>
    withDir(async (dir) => {
      const jsonPath = join(dir, 'ds_config.json');
      writeFileSync(jsonPath, dsJson('bf16'));
      const yamlPath = join(dir, 'accelerate.yaml');
      const yaml = accelerateYaml('ds_config.json');
      writeFileSync(yamlPath, yaml);
      const yamlUri = pathToFileURL(yamlPath).href;
      const changed = async (c: LspClient, precision: 'fp16' | 'bf16') => {
        writeFileSync(jsonPath, dsJson(precision));
        await c.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(jsonPath).href, type: FileChangeType.Changed }] });
      };
      await withServer(async (c) => {
        await c.open(yamlUri, yaml);
        const first = await c.waitForDiagnostics(yamlUri, (p) => p.version === 1, WAIT);
        assert.ok(!has(MIXED_PRECISION_CONFLICT)(first) && !has(FILE_MISSING)(first), JSON.stringify(codes(first)));
        await changed(c, 'fp16');
        const conflict = await c.waitForDiagnostics(yamlUri, has(MIXED_PRECISION_CONFLICT), WAIT);
        assert.equal(find(conflict, MIXED_PRECISION_CONFLICT).range.start.line, lineOf(yaml, /^mixed_precision:/));
        await changed(c, 'bf16');
        await c.waitForDiagnostics(yamlUri, (p) => !has(MIXED_PRECISION_CONFLICT)(p), WAIT);
      }, folder(dir));
    }),
  );

  test("the JSON takes the world size from the configs that point at it: an edit of the config re-checks the JSON; closed, it is read from disk", { timeout: TEST_TIMEOUT }, () =>
    withDir(async (dir) => {
      const jsonPath = join(dir, 'ds_batch.json');
      const yamlPath = join(dir, 'accelerate.yaml');
      // On disk the config launches 2 processes; in the editor (unsaved) 4, then 8.
      writeFileSync(yamlPath, accelerateYaml('ds_batch.json', { processes: 2 }));
      const yamlUri = pathToFileURL(yamlPath).href;
      const jsonUri = pathToFileURL(jsonPath).href;
      await withServer(async (c) => {
        await c.open(jsonUri, batchJson(32, 4, 2), 'json');
        await c.open(yamlUri, accelerateYaml('ds_batch.json', { processes: 4 }));
        // 32 = 4 × 2 × 4 processes.
        await c.waitForDiagnostics(yamlUri, (p) => p.version === 1, WAIT);
        const fits = await c.waitForDiagnostics(jsonUri, (p) => !has(BATCH_SIZE_MISMATCH)(p), WAIT);
        assert.ok(!has(BATCH_SIZE_MISMATCH)(fits));

        await c.change(yamlUri, accelerateYaml('ds_batch.json', { processes: 8 }));
        const eight = await c.waitForDiagnostics(jsonUri, has(BATCH_SIZE_MISMATCH), WAIT);
        assert.match(find(eight, BATCH_SIZE_MISMATCH).message, /\b64\b/, '4 × 2 × 8 processes');
        assert.equal(eight.version, 1, 'the JSON itself did not change');

        await c.change(yamlUri, accelerateYaml('ds_batch.json', { processes: 4 }));
        await c.waitForDiagnostics(jsonUri, (p) => !has(BATCH_SIZE_MISMATCH)(p), WAIT);

        // Closed without saving: the config on disk (2 processes) is what `accelerate launch` reads.
        await c.close(yamlUri);
        const two = await c.waitForDiagnostics(jsonUri, has(BATCH_SIZE_MISMATCH), WAIT);
        assert.match(find(two, BATCH_SIZE_MISMATCH).message, /\b16\b/, '4 × 2 × 2 processes');
      }, folder(dir));
    }),
  );

  test('a Trainer recipe and the DeepSpeed JSON it names: editing the JSON re-checks the recipe, editing the recipe re-checks the JSON', { timeout: TEST_TIMEOUT }, () =>
    withDir(async (dir) => {
      const recipeUri = pathToFileURL(join(dir, 'sft.yaml')).href;
      const jsonUri = pathToFileURL(join(dir, 'ds_z3.json')).href;
      const recipe = (link: boolean) => ['model_name_or_path: gpt2', 'stage: sft', 'finetuning_type: full', 'output_dir: out', 'per_device_train_batch_size: 4', ...(link ? ['deepspeed: ds_z3.json'] : []), ''].join('\n');
      const json = (micro: number | string) => `{\n  "train_micro_batch_size_per_gpu": ${JSON.stringify(micro)},\n  "gradient_accumulation_steps": "auto",\n  "zero_optimization": { "stage": 3 }\n}\n`;
      await withServer(async (c) => {
        await c.open(jsonUri, json(2), 'json');
        await c.open(recipeUri, recipe(true));
        const mismatch = await c.waitForDiagnostics(recipeUri, has(TRAINER_MISMATCH), WAIT);
        assert.equal(find(mismatch, TRAINER_MISMATCH).range.start.line, lineOf(recipe(true), /^per_device_train_batch_size:/));
        // The recipe names the JSON: the Trainer fills its "auto" values, so the JSON gets no note about them.
        await c.waitForDiagnostics(jsonUri, (p) => !has(AUTO)(p), WAIT);

        await c.change(jsonUri, json(4));
        const agreed = await c.waitForDiagnostics(recipeUri, (p) => !has(TRAINER_MISMATCH)(p), WAIT);
        assert.equal(agreed.version, 1, 'the recipe itself did not change');

        // The recipe no longer names the JSON: its "auto" placeholders need an integration again.
        await c.change(recipeUri, recipe(false));
        await c.waitForDiagnostics(jsonUri, has(AUTO), WAIT);
      }, folder(dir));
    }),
  );

  test('a workspace folder added later is tried too (workspace/didChangeWorkspaceFolders)', { timeout: TEST_TIMEOUT }, () =>
    withDir(async (dir) => {
      const first = join(dir, 'first');
      const second = join(dir, 'second');
      mkdirSync(join(first, 'configs'), { recursive: true });
      mkdirSync(second);
      writeFileSync(join(second, 'ds_config.json'), dsJson('bf16'));
      const yamlUri = pathToFileURL(join(first, 'configs', 'accelerate.yaml')).href;
      await withServer(async (c) => {
        await c.open(yamlUri, accelerateYaml('ds_config.json'));
        const missing = find(await c.waitForDiagnostics(yamlUri, has(FILE_MISSING), WAIT), FILE_MISSING);
        assert.ok(!missing.message.includes(second), missing.message);
        await c.notify('workspace/didChangeWorkspaceFolders', { event: { added: [{ uri: pathToFileURL(second).href, name: 'second' }], removed: [] } });
        await c.waitForDiagnostics(yamlUri, (p) => !has(FILE_MISSING)(p), WAIT);
        await c.notify('workspace/didChangeWorkspaceFolders', { event: { added: [], removed: [{ uri: pathToFileURL(second).href, name: 'second' }] } });
        await c.waitForDiagnostics(yamlUri, has(FILE_MISSING), WAIT);
      }, folder(first));
    }),
  );

  test('the config re-points at another JSON: the new target is read, the old one no longer counts', { timeout: TEST_TIMEOUT }, () =>
    withDir(async (dir) => {
      writeFileSync(join(dir, 'bf16.json'), dsJson('bf16'));
      writeFileSync(join(dir, 'fp16.json'), dsJson('fp16'));
      const yamlUri = pathToFileURL(join(dir, 'accelerate.yaml')).href;
      await withServer(async (c) => {
        await c.open(yamlUri, accelerateYaml('bf16.json'));
        await c.waitForDiagnostics(yamlUri, (p) => p.version === 1 && !has(MIXED_PRECISION_CONFLICT)(p), WAIT);
        await c.change(yamlUri, accelerateYaml('fp16.json'));
        await c.waitForDiagnostics(yamlUri, (p) => p.version === 2 && has(MIXED_PRECISION_CONFLICT)(p), WAIT);
        // A disk change of the JSON it no longer points at re-analyses nothing, and breaks nothing.
        writeFileSync(join(dir, 'bf16.json'), dsJson('fp16'));
        await c.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(join(dir, 'bf16.json')).href, type: FileChangeType.Changed }] });
        await c.change(yamlUri, accelerateYaml('fp16.json', { mixedPrecision: 'fp16' }));
        await c.waitForDiagnostics(yamlUri, (p) => p.version === 3 && !has(MIXED_PRECISION_CONFLICT)(p), WAIT);
      }, folder(dir));
    }),
  );
});

describe('language server: a launch script and the file it sources', () => {
  test('a sourced file is read with the script, and a change to it on disk re-checks the script', { timeout: TEST_TIMEOUT }, () =>
    withDir(async (dir) => {
      const modelPath = join(dir, 'model.sh');
      const model = (experts: boolean) => `MODEL_ARGS=(\n  --num-layers 24\n  --hidden-size 2048\n  --num-attention-heads 16\n${experts ? '  --num-experts 64\n' : ''})\n`;
      writeFileSync(modelPath, model(true));
      const scriptPath = join(dir, 'train.sh');
      const script = '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\nsource "$(dirname "$0")/model.sh"\ntorchrun --nproc_per_node 8 pretrain_gpt.py "${MODEL_ARGS[@]}" \\\n  --expert-model-parallel-size 8 --micro-batch-size 1 --global-batch-size 64 --bf16\n';
      writeFileSync(scriptPath, script);
      const uri = pathToFileURL(scriptPath).href;
      await withServer(async (c) => {
        await c.open(uri, script, 'shellscript');
        const first = await c.waitForDiagnostics(uri, (p) => p.version === 1, WAIT);
        assert.ok(!has('moe-config-invalid')(first), JSON.stringify(codes(first)));
        // The experts go from the sourced file: expert parallelism without experts, reported in the script.
        writeFileSync(modelPath, model(false));
        await c.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(modelPath).href, type: FileChangeType.Changed }] });
        const after = await c.waitForDiagnostics(uri, has('moe-config-invalid'), WAIT);
        assert.equal(find(after, 'moe-config-invalid').range.start.line, lineOf(script, /--expert-model-parallel-size/));
      }, folder(dir));
    }),
  );
});
