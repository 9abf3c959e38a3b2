/**
 * A default is a fact of the format that reads it (`x-default-in`, scripts/history/megatron-format-defaults.mjs):
 * Megatron-LM's argparse default is what a launch script gets, while a `--yaml-cfg` file, a NeMo model
 * config and a Megatron Bridge override build Megatron Core's config dataclasses, whose own defaults
 * hold for a key they leave out — or, for a Bridge model field a provider sets, no default can be known.
 * The engine reads them in one place (formats/megatron/args.ts formatDefault), through model.ts's
 * helpers, the Plan and the rule context's certainty; hovers show the file's format's default.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze, hover } from '../../server/src/engine';
import { argAbsent, argOff, argOnByDefault, argOr, type MegatronModel } from '../../server/src/engine/formats/megatron/model';
import { formatDefault } from '../../server/src/engine/formats/megatron/args';

const PROPS: Record<string, any> = JSON.parse(readFileSync(join(__dirname, '../../schemas/megatron.schema.json'), 'utf8')).properties;

const YAML_CFG = `# shardwise: format=megatron-yaml world_size=8
micro_batch_size: 1
global_batch_size: 8
language_model:
  num_layers: 4
  hidden_size: 64
  num_attention_heads: 4
  masked_softmax_fusion: true
model_parallel:
  tensor_model_parallel_size: 1
`;
const NEMO = `# shardwise: format=nemo
trainer:
  devices: 8
  num_nodes: 1
  precision: bf16
model:
  micro_batch_size: 1
  global_batch_size: 8
  tensor_model_parallel_size: 1
  apply_rope_fusion: false
`;
const BRIDGE = `# shardwise: format=megatron-bridge world_size=8
model:
  gradient_accumulation_fusion: true
optimizer:
  optimizer_offload_fraction: 0.5
`;
const SCRIPT = 'torchrun --nproc-per-node 8 pretrain_gpt.py --num-layers 4 --hidden-size 64 --num-attention-heads 4 --micro-batch-size 1 --no-masked-softmax-fusion\n';

const modelOf = (path: string, text: string): MegatronModel => analyze({ path, text }).docs[0].model as MegatronModel;
const hoverAt = (path: string, text: string, word: string): string => hover(analyze({ path, text }), text.indexOf(word) + 2)!.markdown;

test('x-default-in: the Core config dataclass defaults that differ from the flags (transformer_config.py, model_parallel_config.py, optimizer_config.py @core_v0.19.0)', () => {
  // TransformerConfig: masked_softmax_fusion False (:485), bias_dropout_fusion False (:496), apply_rope_fusion
  // False (:499), attention_softmax_in_fp32 True (:471); the flags: --no-masked-softmax-fusion (training/arguments.py@core_v0.19.0:2750),
  // --no-rope-fusion (:2765) store_false (on by default).
  for (const [key, value] of [['masked_softmax_fusion', false], ['bias_dropout_fusion', false], ['apply_rope_fusion', false], ['attention_softmax_in_fp32', true]] as const) {
    assert.notEqual(PROPS[key].default, value, key);
    assert.deepEqual(PROPS[key]['x-default-in']['yaml-cfg'], [{ value }], key);
  }
  // ModelParallelConfig: gradient_accumulation_fusion False (model_parallel_config.py@core_v0.19.0:250), which NeMo keeps too.
  assert.deepEqual(PROPS.gradient_accumulation_fusion['x-default-in'].nemo, [{ value: false }]);
  // MLATransformerConfig only: kv_lora_rank 512 (:2912), rotary_scaling_factor 40 (:2936); the flags say 32 and 1.0.
  assert.deepEqual(PROPS.kv_lora_rank['x-default-in']['yaml-cfg'], [{ mla: 512 }]);
  assert.deepEqual(PROPS.rotary_scaling_factor['x-default-in']['yaml-cfg'], [{ mla: 40 }]);
  // OptimizerConfig.optimizer_offload_fraction 0.0 (optimizer_config.py@core_v0.19.0:347); --optimizer-offload-fraction 1.0 (arguments.py:2785).
  assert.deepEqual(PROPS.optimizer_offload_fraction['x-default-in'].bridge, [{ value: 0 }]);
  // The `--yaml-cfg` reader reads `args.overlap_p2p_comm` itself (yaml_arguments.py@core_v0.19.0:406): no default there.
  assert.match(PROPS.overlap_p2p_comm['x-default-in']['yaml-cfg'].at(-1).unknown, /reads it itself/);
  // A Bridge model provider sets its own fusions (gpt_provider.py@067f987:204-206): no default for a bare override.
  assert.match(PROPS.masked_softmax_fusion['x-default-in'].bridge[0].unknown, /model provider the recipe picks/);
});

test('the switches read with the format\'s default: a --yaml-cfg file leaves the fusions off and the fp32 softmax on, a NeMo config the RoPE fusion off, where a script has them the other way', () => {
  const yaml = modelOf('model.yaml', YAML_CFG);
  assert.equal(argOnByDefault(yaml, 'bias_dropout_fusion'), false);
  assert.equal(argOff(yaml, 'apply_rope_fusion'), true);
  assert.equal(argOff(yaml, 'attention_softmax_in_fp32'), false);
  assert.equal(argOnByDefault(yaml, 'attention_softmax_in_fp32'), true);
  // An MLA-only default holds with multi-latent attention on; the command line's otherwise.
  assert.equal(argOr(yaml, 'kv_lora_rank', 32), 32);
  const mla = modelOf('model.yaml', YAML_CFG.replace('  masked_softmax_fusion: true\n', '  multi_latent_attention: true\n'));
  assert.equal(argOr(mla, 'kv_lora_rank', 32), 512);
  assert.equal(argOr(mla, 'rotary_scaling_factor', 1.0), 40);
  // A key the reader reads itself has no default there: not known to be absent.
  assert.equal(argAbsent(yaml, 'overlap_p2p_comm'), false);
  assert.ok(formatDefault(yaml.args, 'overlap_p2p_comm') && 'unknown' in formatDefault(yaml.args, 'overlap_p2p_comm')!);

  const nemo = modelOf('megatron_gpt_config.yaml', NEMO.replace('  apply_rope_fusion: false\n', ''));
  assert.equal(argOnByDefault(nemo, 'apply_rope_fusion'), false);
  assert.equal(argOnByDefault(nemo, 'gradient_accumulation_fusion'), false);

  const script = modelOf('train.sh', SCRIPT);
  assert.equal(argOnByDefault(script, 'apply_rope_fusion'), true);
  assert.equal(argOnByDefault(script, 'bias_dropout_fusion'), true);
  assert.equal(argOff(script, 'attention_softmax_in_fp32'), true);
});

test("hover shows the default of the file's format, with the command line's beside it", () => {
  const yaml = hoverAt('model.yaml', YAML_CFG, 'masked_softmax_fusion');
  assert.match(yaml, /Default in a `--yaml-cfg` file[^:]*: `false` \(Megatron-LM's command line: `true`\)/);
  const nemo = hoverAt('megatron_gpt_config.yaml', NEMO, 'apply_rope_fusion');
  assert.match(nemo, /Default in a NeMo model config: `false` \(Megatron-LM's command line: `true`\)/);
  const bridge = hoverAt('override.yaml', BRIDGE, 'gradient_accumulation_fusion');
  assert.match(bridge, /Default in a Megatron Bridge override: not known here, the model provider the recipe picks sets its own/);
  assert.doesNotMatch(bridge, /^- Default: /m);
  const offload = hoverAt('override.yaml', BRIDGE, 'optimizer_offload_fraction');
  assert.match(offload, /Default in a Megatron Bridge override: `0` \(Megatron-LM's command line: `1(\.0)?`\)/);
  // A launch script keeps the command line's default.
  const script = hoverAt('train.sh', SCRIPT, '--no-masked-softmax-fusion');
  assert.match(script, /Default: `true`/);
  assert.doesNotMatch(script, /Default in a/);
});

test('a format default that changed between releases is known only at a release that is named: async_tensor_model_parallel_allreduce in a --yaml-cfg file (off before 0.16.0, on from it)', () => {
  // TransformerConfig's field defaults to False before 0.16.0 and True from it (x-default-in, written by the history builder).
  assert.deepEqual(PROPS.async_tensor_model_parallel_allreduce['x-default-in']['yaml-cfg'], [{ value: false }, { from: '0.16.0', value: true }]);
  const at = (release?: string) => formatDefault({ ...modelOf('model.yaml', YAML_CFG).args, defaultsRelease: release } as MegatronModel['args'], 'async_tensor_model_parallel_allreduce');
  assert.ok(at(undefined) && 'unknown' in at(undefined)!, 'no release named: not known');
  assert.match((at(undefined) as { unknown: string }).unknown, /differs between Megatron Core releases/);
  assert.deepEqual((at('0.15.0') as { value: unknown }).value, false);
  assert.deepEqual((at('0.16.0') as { value: unknown }).value, true);
  // One that never changed is known without a release.
  assert.deepEqual((formatDefault(modelOf('model.yaml', YAML_CFG).args, 'masked_softmax_fusion') as { value: unknown }).value, false);
});
