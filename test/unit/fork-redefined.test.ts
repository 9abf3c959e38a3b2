/**
 * A flag of a fork's own, passed in the same launch, that names the setting a finding rests on leaves
 * what the fork makes of that setting unknown (formats/megatron/runtime.ts upstreamRedefined): it must
 * name the whole setting (every word of the flag but the filler ones), not share two common words.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyze } from '../../server/src/engine';
import { upstreamRedefined } from '../../server/src/engine/formats/megatron/runtime';

const launch = (own: string) => `#!/bin/bash
torchrun --nproc_per_node 8 pretrain_gpt.py \\
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 --seq-length 1024 --max-position-embeddings 1024 \\
    --tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 --micro-batch-size 1 --global-batch-size 8 --bf16 \\
    --recompute-granularity full --recompute-method block --recompute-num-layers 4 \\
    ${own}
`;
const redefined = (own: string, flag: string) => {
  const da = analyze({ path: 'train.sh', text: launch(own) }).docs[0];
  return upstreamRedefined(da.format?.id, da.model, [[flag]]);
};

test('a fork flag naming the whole setting makes it the fork\'s; one sharing only common words does not', () => {
  // MindSpeed-LLM's per-rank count of recomputed layers is about --recompute-num-layers (`num` names no setting).
  assert.match(redefined('--enable-recompute-layers-per-pp-rank', '--recompute-num-layers') ?? '', /--enable-recompute-layers-per-pp-rank/);
  // A per-stage layer list is about --num-layers.
  assert.match(redefined('--num-layer-list 2,2', '--num-layers') ?? '', /--num-layer-list/);
  // An RL framework's own engine size shares "parallel size" with the trainer's TP, and is another setting.
  assert.equal(redefined('--sglang-pipeline-parallel-size 2', '--tensor-model-parallel-size'), undefined);
  assert.equal(redefined('--context-parallel-algo ring', '--context-parallel-size'), undefined);
});
