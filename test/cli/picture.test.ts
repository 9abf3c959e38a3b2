/** `shardwise layout FILE --svg/--html`: the picture written for reports and pull requests. Run after `npm run build`. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCli } from './run-cli';

const tmp = mkdtempSync(join(tmpdir(), 'shardwise-picture-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
writeFileSync(join(tmp, 'train.sh'), '#!/bin/bash\ntorchrun --nproc_per_node 8 --nnodes 2 pretrain_gpt.py --tensor-model-parallel-size 4 --pipeline-model-parallel-size 2 --num-layers 32 --hidden-size 4096 --num-attention-heads 32 --micro-batch-size 1 --global-batch-size 64 --seq-length 4096 --max-position-embeddings 4096 --bf16\n');
writeFileSync(join(tmp, 'odd.sh'), '#!/bin/bash\ntorchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 3 --num-layers 32 --hidden-size 4096 --num-attention-heads 32 --micro-batch-size 1 --bf16\n');

test('layout --svg and --html write the picture, coloured as asked', () => {
  const r = runCli(['layout', 'train.sh', '--svg', 'out.svg', '--html', 'out.html', '--colour', 'pp', '--no-config'], { cwd: tmp });
  assert.equal(r.code, 0, r.err);
  const svg = readFileSync(join(tmp, 'out.svg'), 'utf8');
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.match(svg, /16 GPUs = TP 4 × CP 1 × DP 2 × PP 2/);
  assert.match(svg, /colour: PP stage/);
  assert.equal((svg.match(/<g class="gpu"/g) ?? []).length, 16);
  const html = readFileSync(join(tmp, 'out.html'), 'utf8');
  assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">/);
  assert.ok(html.includes(svg.trim()), 'the page holds the same picture');
  assert.doesNotMatch(html, /<script|https?:\/\/(?!www\.w3\.org\/2000\/svg)/, 'no script and no remote resource');
});

test('layout --svg: a usage mistake or a layout with no rank grid exits 2 and says why', () => {
  const bad = runCli(['layout', 'train.sh', '--svg', 'x.svg', '--colour', 'zz'], { cwd: tmp });
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--colour colours by tp, pp, dp, cp, ep, not "zz"/);
  const odd = runCli(['layout', 'odd.sh', '--svg', 'odd.svg', '--no-config'], { cwd: tmp });
  assert.equal(odd.code, 2);
  assert.match(odd.err, /the degrees do not multiply to a known world size/);
});
