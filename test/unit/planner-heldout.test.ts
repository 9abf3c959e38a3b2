/**
 * The held-back published runs (test/planner/published-heldout.ts) and the fresh MoE runs
 * (test/planner/published-fresh.ts) are well-formed: each row cites
 * its source, its numbers are positive, its degrees divide its GPUs and batch, its layout fits its
 * model, its throughput is one a GPU of its kind can reach, and it repeats no row of the tuning
 * table or of the other table. Nothing here runs the planner: the tables' worth is that the planner
 * never saw them.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { hardwareById } from '../../server/src/engine';
import { countParameters } from '../../server/src/engine/plan/memory';
import { FRESH_RUNS } from '../planner/published-fresh';
import { HELDOUT_RUNS } from '../planner/published-heldout';
import { PUBLISHED_RUNS, type PublishedRun } from '../planner/published';

const isMoe = (r: PublishedRun) => (r.shape.experts ?? 0) > 0;
/** The rows checked here: both tables the planner is never tuned on. */
const CHECKED: readonly PublishedRun[] = [...HELDOUT_RUNS, ...FRESH_RUNS];
const posInt = (x: number | undefined) => x === undefined || (Number.isSafeInteger(x) && x > 0);

function degrees(r: PublishedRun) {
  const l = r.layout;
  const cp = l.cp ?? 1;
  return { tp: l.tp, pp: l.pp, cp, ep: l.ep ?? 1, etp: l.etp ?? 1, vpp: l.vpp ?? 1, mbs: l.microBatch ?? 1, dp: r.gpus / (l.tp * l.pp * cp) };
}

test('the held-back table holds at least 24 runs, 12 of them MoE and 10 on A100', () => {
  assert.ok(HELDOUT_RUNS.length >= 24, `${HELDOUT_RUNS.length} runs`);
  assert.ok(HELDOUT_RUNS.filter(isMoe).length >= 12, 'MoE runs');
  assert.ok(HELDOUT_RUNS.filter((r) => r.hardware.startsWith('a100')).length >= 10, 'A100 runs');
});

test('the fresh table holds at least 8 runs, all MoE', () => {
  assert.ok(FRESH_RUNS.length >= 8, `${FRESH_RUNS.length} runs`);
  assert.ok(FRESH_RUNS.every(isMoe), 'a fresh run is dense');
});

test('every held-back run cites its source and says how its throughput follows from it', () => {
  for (const r of CHECKED) {
    assert.ok(r.source.trim().length >= 40, `${r.id}: source`);
    assert.ok(r.how.trim().length >= 20, `${r.id}: how`);
    assert.ok(r.model.trim().length > 0, `${r.id}: model`);
    assert.match(r.id, /^[a-z0-9][a-z0-9.-]*$/, `${r.id}: id is kebab-case`);
  }
});

test('no held-back or fresh run repeats a run of the tuning table or of each other, by id or by what ran', () => {
  const key = (r: PublishedRun) => JSON.stringify([r.shape, r.hardware, r.gpus, r.seqLength, r.globalBatch, r.precision, degrees(r)]);
  const ids = new Set(PUBLISHED_RUNS.map((r) => r.id));
  const runs = new Set(PUBLISHED_RUNS.map(key));
  const seenIds = new Set<string>();
  const seenRuns = new Set<string>();
  for (const r of CHECKED) {
    assert.ok(!ids.has(r.id) && !seenIds.has(r.id), `${r.id}: id used twice`);
    assert.ok(!runs.has(key(r)) && !seenRuns.has(key(r)), `${r.id}: the same run appears twice`);
    seenIds.add(r.id);
    seenRuns.add(key(r));
  }
});

test('every held-back run names known hardware, positive counts and a precision its GPU has', () => {
  for (const r of CHECKED) {
    const hw = hardwareById(r.hardware);
    assert.ok(hw, `${r.id}: hardware ${r.hardware}`);
    for (const [k, v] of Object.entries({ gpus: r.gpus, seqLength: r.seqLength, globalBatch: r.globalBatch, ...r.layout })) assert.ok(posInt(v), `${r.id}: ${k} = ${v}`);
    assert.ok(Number.isFinite(r.tokens) && r.tokens > 0, `${r.id}: tokens`);
    assert.ok(r.precision === 'bf16' || (r.precision === 'fp8' && hw!.fp8Tflops !== undefined), `${r.id}: ${r.precision} on ${r.hardware}`);
  }
});

test('every held-back layout divides its GPUs and its global batch', () => {
  for (const r of CHECKED) {
    const d = degrees(r);
    assert.ok(Number.isInteger(d.dp) && d.dp >= 1, `${r.id}: TP·PP·CP does not divide ${r.gpus}`);
    assert.equal(r.globalBatch % (d.dp * d.mbs), 0, `${r.id}: GBS ${r.globalBatch} is not a multiple of DP ${d.dp} × MBS ${d.mbs}`);
    if (d.cp > 1) assert.equal(r.seqLength % (2 * d.cp), 0, `${r.id}: sequence not split in 2·CP chunks`);
  }
});

test('every held-back layout fits its model: heads and groups by TP, experts by EP, layers by the pipeline', () => {
  for (const r of CHECKED) {
    const m = r.shape;
    const d = degrees(r);
    assert.equal(m.heads % d.tp, 0, `${r.id}: ${m.heads} heads over TP ${d.tp}`);
    if (!m.mla) assert.equal((m.queryGroups ?? m.heads) % d.tp, 0, `${r.id}: ${m.queryGroups} query groups over TP ${d.tp}`);
    if (isMoe(r)) {
      assert.equal(m.experts! % d.ep, 0, `${r.id}: ${m.experts} experts over EP ${d.ep}`);
      assert.equal((r.gpus / d.pp) % (d.ep * d.etp), 0, `${r.id}: EP ${d.ep} × ETP ${d.etp} does not divide the ${r.gpus / d.pp} ranks of a stage`);
    } else {
      assert.equal(d.ep, 1, `${r.id}: expert parallelism on a dense model`);
    }
    if (d.vpp > 1) assert.ok(d.pp > 1, `${r.id}: VPP without a pipeline`);
    assert.ok(d.pp * d.vpp <= m.layers, `${r.id}: more pipeline chunks than layers`);
    if (m.layers % (d.pp * d.vpp) !== 0) assert.match(r.how, /do not split evenly/, `${r.id}: ${m.layers} layers over ${d.pp * d.vpp} chunks, and the row does not say so`);
  }
});

test('every held-back throughput is one a GPU of its kind can reach: 6 × active parameters per token below its peak', () => {
  for (const r of CHECKED) {
    const hw = hardwareById(r.hardware)!;
    const peak = (r.precision === 'fp8' ? hw.fp8Tflops! : hw.bf16Tflops) * 1e12;
    const used = (6 * countParameters(r.shape).active * r.tokens) / peak;
    // Below 2 % or above the peak means the figure is per node or per cluster, or the shape is wrong.
    assert.ok(used > 0.02 && used < 1, `${r.id}: 6N·tokens is ${(used * 100).toFixed(1)} % of the peak`);
  }
});

test('nothing under server/ reads the held-back or the fresh table', () => {
  const root = join(__dirname, '../../server');
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const p = join(dir, name);
      if (name === 'node_modules' || name === 'out' || name === 'dist') return [];
      return statSync(p).isDirectory() ? walk(p) : /\.(ts|js|mjs)$/.test(name) ? [p] : [];
    });
  for (const file of walk(root)) {
    const text = readFileSync(file, 'utf8');
    assert.ok(!text.includes('published-heldout'), `${file} reads the held-back runs`);
    assert.ok(!text.includes('published-fresh'), `${file} reads the fresh runs`);
  }
});
