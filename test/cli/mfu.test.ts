/** `shardwise mfu`: the built CLI on a launch script with a step time or a Megatron log. Run after `npm run build`. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { LOG, SCRIPT } from '../mfu-excerpt';
import { runCli } from './run-cli';

const tmp = mkdtempSync(join(tmpdir(), 'shardwise-mfu-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
writeFileSync(join(tmp, 'train.sh'), SCRIPT);
writeFileSync(join(tmp, 'train.log'), LOG);
writeFileSync(join(tmp, 'notes.yaml'), 'title: not a config\n');

test('mfu --log: the figures, the log’s own throughput beside them, and what they rest on', () => {
  const r = runCli(['mfu', '--config', 'train.sh', '--log', 'train.log', '--hardware', 'h100-sxm', '--no-config'], { cwd: tmp });
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^step time {14}2\.500 s$/m);
  assert.match(r.out, /^achieved {15}222\.3 TFLOP\/s per GPU over 16 GPUs \(the log says 222\.3\)$/m);
  assert.match(r.out, /^peak {19}989 TFLOP\/s per GPU \(dense BF16\)$/m);
  assert.match(r.out, /^MFU {20}22\.5 %$/m);
  assert.match(r.out, /tokens per step 1,048,576 = global batch 512 × sequence 2048/);
  assert.match(r.out, /the first, iteration 10, holds the warm-up and is left out/);
});

test('mfu --step-time, JSON, and the GPUs given when the file does not say', () => {
  const r = runCli(['mfu', '--config', 'train.sh', '--step-time', '5', '--gpus', '32', '--output-format', 'json', '--no-config'], { cwd: tmp });
  assert.equal(r.code, 0, r.err);
  const m = JSON.parse(r.out);
  assert.equal(m.gpus, 32);
  assert.equal(m.stepSeconds, 5);
  assert.equal(m.achievedTflops.toFixed(1), (222.3 / 4).toFixed(1), 'twice the GPUs and twice the time: a quarter per GPU');
});

test('mfu: usage mistakes and files that cannot answer exit 2 with what is wrong', () => {
  const cases: [string[], RegExp][] = [
    [['mfu', '--config', 'train.sh'], /exactly one of --step-time SECONDS and --log TRAIN\.LOG/],
    [['mfu', '--log', 'train.log'], /mfu needs --config FILE/],
    [['mfu', '--config', 'train.sh', '--step-time', 'fast'], /--step-time takes the seconds one optimizer step takes/],
    [['mfu', '--config', 'notes.yaml', '--step-time', '2'], /notes\.yaml does not describe a parallel layout/],
    [['mfu', '--config', 'train.sh', '--log', 'notes.yaml'], /notes\.yaml: the log has no Megatron iteration lines/],
    [['mfu', '--config', 'missing.sh', '--step-time', '2'], /cannot read missing\.sh/],
  ];
  for (const [args, message] of cases) {
    const r = runCli([...args, '--no-config'], { cwd: tmp });
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.out}${r.err}`);
    assert.match(r.err, message, args.join(' '));
  }
});
