/**
 * MFU from a measured step: Megatron's iteration log lines, the step time they give, and the model
 * FLOPs, achieved TFLOP/s per GPU and MFU of a launch script's layout, each checked against the
 * arithmetic written out by hand.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyze, mfuOf, readMegatronLog, stepFromLog } from '../../server/src/engine';
import { LOG, SCRIPT } from '../mfu-excerpt';

/**
 * Model FLOPs per token of a GPT with a GELU MLP of 4h, written out: per layer 72·h² for the GEMMs
 * (QKV 3h², projection h², MLP 8h², × 2 FLOPs × 3 passes) plus 6·h·s for the causal attention
 * scores, and 6·h·V for the logits: 72·L·h²·(1 + s/(12h) + V/(12·L·h)).
 */
function byHand(L: number, h: number, s: number, V: number): number {
  return 72 * L * h * h * (1 + s / (12 * h) + V / (12 * L * h));
}

test('readMegatronLog: the iteration lines with their time, throughput and global batch; other lines skipped', () => {
  const rows = readMegatronLog(LOG);
  assert.deepEqual(
    rows.map((r) => [r.line, r.iteration, r.elapsedMs, r.tflopsPerGpu, r.globalBatch]),
    [
      [1, 10, 3100, 179.3, 512],
      [3, 20, 2500, 222.3, 512],
      [5, 30, 2400, 231.6, 512],
      [6, 40, 2600, 213.8, 512],
    ],
  );
  assert.deepEqual(readMegatronLog('no iterations here\n'), []);
  assert.deepEqual(readMegatronLog(' iteration 5/10 | elapsed time per iteration (ms): nan |'), [], 'a time that is not a number is no measurement');
});

test('stepFromLog: the median of the intervals after the first; lines of another global batch left out', () => {
  const s = stepFromLog(readMegatronLog(LOG), 512);
  assert.ok(!('problem' in s));
  assert.equal(s.seconds, 2.5, 'median of 2500, 2400, 2600 ms');
  assert.equal(s.loggedTflops, 222.3);
  assert.match(s.from, /median of 3 logged intervals \(iterations 20–40\); the first, iteration 10, holds the warm-up/);
  const ramp = stepFromLog(readMegatronLog(LOG.replace('global batch size:   512 | lm loss: 8.12', 'global batch size:   256 | lm loss: 8.12')), 512);
  assert.ok(!('problem' in ramp));
  assert.equal(ramp.seconds, 2.5, 'median of 2400 and 2600 ms');
  assert.match(ramp.from, /1 line at another global batch size left out/);
  assert.ok('problem' in stepFromLog([], 512));
});

test('mfuOf: model FLOPs per step, achieved TFLOP/s per GPU and MFU of a launch script, as computed by hand', () => {
  const plan = analyze({ path: 'train.sh', text: SCRIPT }, { hardware: 'h100-sxm' }).docs[0].plan!;
  const step = stepFromLog(readMegatronLog(LOG), plan.globalBatch?.value);
  assert.ok(!('problem' in step));
  const m = mfuOf(plan, step);
  assert.ok(!('missing' in m), JSON.stringify(m));
  const perToken = byHand(24, 2048, 2048, 51200);
  const tokens = 512 * 2048;
  const achieved = (perToken * tokens) / (16 * 2.5) / 1e12;
  assert.equal(m.flopsPerToken, perToken);
  assert.equal(m.tokensPerStep, tokens);
  assert.equal(m.gpus, 16);
  assert.ok(Math.abs(m.achievedTflops - achieved) < 1e-9, `${m.achievedTflops} vs ${achieved}`);
  assert.equal(m.peakTflops, 989);
  assert.ok(Math.abs(m.mfu! - achieved / 989) < 1e-12);
  assert.equal(achieved.toFixed(1), '222.3', 'the figure the log gives for the interval of the median');
  assert.equal((m.mfu! * 100).toFixed(1), '22.5');
});

test('mfuOf: what a layout does not say is named, never guessed', () => {
  const plan = analyze({ path: 'train.sh', text: SCRIPT.replace(' --global-batch-size 512', '').replace('--seq-length 2048 ', '') }).docs[0].plan!;
  const m = mfuOf(plan, { seconds: 2, from: 'given' });
  assert.ok('missing' in m);
  assert.deepEqual(m.missing, ['the sequence length']);
  const noWorld = analyze({ path: 'train.sh', text: SCRIPT.replace('torchrun --nproc_per_node 8 --nnodes 2', 'python') }).docs[0].plan!;
  const w = mfuOf(noWorld, { seconds: 2, from: 'given' });
  assert.ok('missing' in w && w.missing.includes('the number of GPUs'));
  const given = mfuOf(noWorld, { seconds: 2.5, from: 'given' }, 16);
  assert.ok(!('missing' in given));
  assert.equal(given.gpus, 16);
});
