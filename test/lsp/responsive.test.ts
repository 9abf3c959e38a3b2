/**
 * The server stays responsive while a heavy document is analysed: the analysis runs in a worker
 * thread (server/src/lsp/heavy.ts), hovers in another document are answered meanwhile, and the heavy
 * document's findings arrive with a note saying why hover and fixes are off for it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { performance } from 'node:perf_hooks';
import { LspClient } from './client';

const TEST_TIMEOUT = 240_000;

/**
 * A Megatron YAML of about 5 MB with 300,000 keys: with the size limit raised to 64 MB the engine
 * parses it (seconds) before it finds more keys than any real config holds and says so.
 */
function heavyText(): string {
  const lines = ['# shardwise: format=megatron-yaml', 'tensor_model_parallel_size: 2'];
  for (let i = 0; i < 300_000; i++) lines.push(`key_${i}: ${i}`);
  lines.push('');
  return lines.join('\n');
}

test('a hover in one document is answered within 1 s while a heavy document is analysed in a worker', { timeout: TEST_TIMEOUT }, async () => {
  const c = await LspClient.start({ settings: { maxFileSizeKB: 65536 } });
  try {
    const small = 'file:///tmp/responsive/accelerate.yaml';
    await c.open(small, 'compute_environment: LOCAL_MACHINE\ndistributed_type: MULTI_GPU\nnum_processes: 2\n');
    await c.waitForDiagnostics(small);
    const heavy = 'file:///tmp/responsive/heavy.yaml';
    const text = heavyText();
    const opened = performance.now();
    await c.open(heavy, text);
    let done = false;
    const arrived = c.waitForDiagnostics(heavy, (p) => p.diagnostics.some((d) => /analysed apart from the editor/.test(d.message)), 180_000).then((p) => ((done = true), { p, at: performance.now() }));
    // Hovers in the other document, one after another, for as long as the heavy analysis runs.
    const latencies: number[] = [];
    while (!done) {
      const t0 = performance.now();
      const h = await c.hover(small, { line: 1, character: 3 });
      latencies.push(performance.now() - t0);
      assert.ok(h, 'the hover has an answer');
      await new Promise((r) => setTimeout(r, 100));
    }
    const { p, at } = await arrived;
    assert.ok(latencies.length >= 10, `${latencies.length} hovers answered while it ran (${Math.round(at - opened)} ms)`);
    assert.ok(Math.max(...latencies) < 1000, `hover latencies: ${latencies.map(Math.round).join(', ')} ms`);
    // Its finding is there: more keys than a real config holds, which took seconds to find out.
    assert.ok(p.diagnostics.some((d) => d.code === 'parse-error' && /more than 5,000 keys/.test(d.message)), p.diagnostics.map((d) => d.message).join('\n'));
    const took = Number(/took ([\d.]+) s/.exec(p.diagnostics.find((d) => /analysed apart/.test(d.message))!.message)?.[1]);
    assert.ok(took >= 2, `the heavy analysis took ${took} s`);
    // No hover for the heavy document itself: it has no analysis on the request thread.
    assert.equal(await c.hover(heavy, { line: 1, character: 3 }), null);
  } finally {
    await c.shutdown();
  }
});
