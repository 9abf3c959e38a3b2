/**
 * The server does not grow without bound over a long session: 2,000 cycles of opening a
 * 5,000-line NeMo config (each under its own file URI), editing it and closing it, with a hover
 * that forces an analysis of the edited text every fourth cycle and an Accelerate config linking a
 * DeepSpeed JSON every twentieth (so the dependency graph and its closed-referrer memory are used too);
 * in the other cycles a document-link request races the close.
 *
 * It asserts that every per-document state is gone once the documents are closed (the server's
 * `shardwise/serverStatus`), and, on Linux, that the server process's resident memory (VmRSS of
 * /proc/<pid>/status) after the cycles is within a generous bound of what it was after a warm-up:
 * at most 150 MB more, and less than three times as much. The figures are printed as test
 * diagnostics (`# rss …`) so they can be quoted.
 *
 * The cycles are pipelined (the client does not wait for each publication); every fourth cycle waits
 * for its hover, which keeps the server's input queue short; at the end the test waits until the
 * server has settled (its status answers and nothing is pending).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { hoverText, LspClient, REPO_ROOT, withServer } from './client';

const CYCLES = 2000;
const LINES = 5000;
const MB = 1024 * 1024;

interface Status {
  documents: number;
  cached: number;
  settings: number;
  pending: number;
  openByPath: number;
  graph: { documents: number; watchedKeys: number; referredKeys: number; closed: number };
}

/** Resident and peak resident memory of a process, in bytes (Linux). */
function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/**
 * A NeMo 1.x config of about `LINES` lines: the example's trainer and model, and under exp_manager
 * many unique keys (2,000: well inside the work budget) and a list of unique items for the rest.
 */
function nemoConfig(cycle: number): string {
  const head = readFileSync(join(REPO_ROOT, 'examples', 'megatron', 'nemo-gpt3-20b.yaml'), 'utf8');
  const rest = LINES - head.split('\n').length;
  const keys = Array.from({ length: 2000 }, (_, i) => `  setting_${cycle}_${i}: ${i}\n`).join('');
  const items = Array.from({ length: rest - 2001 }, (_, i) => `    - item_${cycle}_${i}\n`).join('');
  return head.replace('exp_manager:\n', `exp_manager:\n${keys}  items:\n${items}`);
}

async function settle(c: LspClient, probe: string): Promise<Status> {
  // Requests are answered in order after every earlier message was handled; then wait for the
  // analyses still pending (they run once the input pauses).
  for (let i = 0; i < 200; i++) {
    const h = await c.hover(probe, { line: 1, character: 3 });
    assert.match(hoverText(h), /num_processes/);
    const s = await c.request<Status>('shardwise/serverStatus', {});
    if (s.pending === 0) return s;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the server did not settle');
}

test(`${CYCLES} open/edit/close cycles of a ${LINES}-line document: per-document state is dropped, memory stays bounded`, { timeout: 300_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'shardwise-memory-'));
  const linux = process.platform === 'linux';
  try {
    writeFileSync(join(dir, 'ds_config.json'), JSON.stringify({ train_micro_batch_size_per_gpu: 1, gradient_accumulation_steps: 1, zero_optimization: { stage: 2 } }));
    const accelerate = ['compute_environment: LOCAL_MACHINE', 'distributed_type: DEEPSPEED', 'deepspeed_config:', '  deepspeed_config_file: ds_config.json', 'num_machines: 1', 'num_processes: 8', ''].join('\n');
    await withServer(async (c) => {
      const variants = Array.from({ length: 7 }, (_, v) => nemoConfig(v));
      assert.ok(variants.every((v) => v.split('\n').length >= LINES));
      const probe = 'untitled:memory-probe.yaml';
      await c.open(probe, 'distributed_type: MULTI_GPU\nnum_processes: 2\n');
      const started = Date.now();
      let forced = 0;
      const racing: Promise<unknown>[] = [];
      const cycle = async (i: number) => {
        const uri = pathToFileURL(join(dir, `run ${i}.yaml`)).href;
        const text = variants[i % variants.length];
        await c.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
        // An edit in the middle of the file: a key inserted.
        const line = 1000 + (i % 3000);
        await c.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ range: { start: { line, character: 0 }, end: { line, character: 0 } }, text: `  edited_${i}: true\n` }] });
        if (i % 4 === 0) {
          // Forces an analysis of the edited text (and caches it) before the close.
          const h = await c.hover(uri, { line: 3, character: 4 });
          assert.match(hoverText(h), /TP 4/, `cycle ${i}: the hover on trainer.num_nodes shows the layout`);
          forced++;
        }
        if (i % 20 === 0) {
          const linked = pathToFileURL(join(dir, `accelerate ${i}.yaml`)).href;
          await c.notify('textDocument/didOpen', { textDocument: { uri: linked, languageId: 'yaml', version: 1, text: accelerate } });
          const links = await c.request<unknown[]>('textDocument/documentLink', { textDocument: { uri: linked } });
          assert.equal(links.length, 1, `cycle ${i}: the deepspeed_config_file link`);
          await c.notify('textDocument/didClose', { textDocument: { uri: linked } });
        }
        // A request racing the close (an editor asks for links and lenses as it opens a file).
        if (i % 4 !== 0) racing.push(c.request('textDocument/documentLink', { textDocument: { uri } }));
        await c.notify('textDocument/didClose', { textDocument: { uri } });
        if (racing.length >= 16) await Promise.all(racing.splice(0));
        // The client keeps every publication; only the newest few matter here.
        c.published.delete(uri);
      };

      const warmup = 50;
      for (let i = 0; i < warmup; i++) await cycle(i);
      await settle(c, probe);
      const before = linux ? memoryOf(c.pid) : undefined;
      const cyclesStarted = Date.now();
      for (let i = warmup; i < warmup + CYCLES; i++) await cycle(i);
      await Promise.all(racing.splice(0));
      const status = await settle(c, probe);
      const cyclesMs = Date.now() - cyclesStarted;
      // A moment for the collector, as an editor's idle time would give it.
      await new Promise((r) => setTimeout(r, 1000));
      const after = linux ? memoryOf(c.pid) : undefined;

      t.diagnostic(`${CYCLES} cycles of ${LINES} lines (${forced} with a forced analysis) in ${(cyclesMs / 1000).toFixed(1)} s; whole test ${((Date.now() - started) / 1000).toFixed(1)} s`);
      t.diagnostic(`status after the cycles: ${JSON.stringify(status)}`);
      if (before && after) {
        t.diagnostic(`rss before ${(before.rss / MB).toFixed(1)} MB, after ${(after.rss / MB).toFixed(1)} MB (${after.rss >= before.rss ? '+' : ''}${((after.rss - before.rss) / MB).toFixed(1)} MB); peak ${(after.hwm / MB).toFixed(1)} MB`);
        console.log(`memory.test: rss before ${(before.rss / MB).toFixed(1)} MB, after ${(after.rss / MB).toFixed(1)} MB, peak ${(after.hwm / MB).toFixed(1)} MB`);
      } else t.diagnostic('rss: not measured (reads /proc/<pid>/status, Linux only)');
      // Only the probe is open; nothing of the closed documents is kept but the bounded closed-referrer memory.
      assert.equal(status.documents, 1, JSON.stringify(status));
      assert.ok(status.cached <= 1 && status.settings <= 1, JSON.stringify(status));
      assert.equal(status.pending, 0);
      assert.equal(status.openByPath, 0);
      assert.equal(status.graph.documents, status.cached, JSON.stringify(status));
      assert.ok(status.graph.closed <= 32, JSON.stringify(status));
      assert.ok(status.graph.watchedKeys <= 8 && status.graph.referredKeys <= 8, JSON.stringify(status));
      if (!before || !after) return;
      assert.ok(after.rss <= before.rss + 150 * MB, `RSS grew from ${(before.rss / MB).toFixed(1)} MB to ${(after.rss / MB).toFixed(1)} MB`);
      assert.ok(after.rss < 3 * before.rss, `RSS grew from ${(before.rss / MB).toFixed(1)} MB to ${(after.rss / MB).toFixed(1)} MB`);
    });
  } finally {
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  }
});
