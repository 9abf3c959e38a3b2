/**
 * The values of a Megatron Bridge override are Bridge's, not Megatron-LM's: a field whose values in
 * a Megatron-LM `--yaml-cfg` file are names Megatron-LM's yaml loader knows (`activation_func:
 * swiglu`) is read by Bridge through its own names, or not at all. The names are read by
 * scripts/schema-history.mjs --bridge at `x-source.bridgeCommit` (x-bridge-enum).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze, complete, hover } from '../../server/src/engine';

const MEGATRON = JSON.parse(readFileSync(join(__dirname, '../../schemas/megatron.schema.json'), 'utf8'));
const PROPS: Record<string, any> = MEGATRON.properties;
const BRIDGE = '# shardwise: format=megatron-bridge\nmodel:\n  activation_func: \n';
const YAML_CFG = '# shardwise: format=megatron-yaml\nlanguage_model:\n  activation_func: \n';

test('x-bridge-enum: Bridge restores only activation_func from a name, by the names of its ACTIVATION_FUNC_MAP', () => {
  // Megatron-Bridge src/megatron/bridge/training/utils/omegaconf_utils.py@067f987 line ~43:
  // _SERIALIZABLE_CALLABLE_FIELDS = frozenset({"activation_func"}); lines ~508-513 restore such a field with
  // str_to_callable and keep any other string as written. src/megatron/bridge/utils/activation_map.py@067f987
  // lines ~41-62: ACTIVATION_FUNC_MAP has gelu, relu, silu, sigmoid, tanh, relu2, squared_relu, gelu_pytorch_tanh,
  // fast_gelu, quick_gelu and the torch.nn.functional spellings; no swiglu, no squaredrelu.
  assert.deepEqual(PROPS.activation_func['x-bridge-enum'].slice(0, 10), ['gelu', 'relu', 'silu', 'sigmoid', 'tanh', 'relu2', 'squared_relu', 'gelu_pytorch_tanh', 'fast_gelu', 'quick_gelu']);
  assert.deepEqual(PROPS.init_method['x-bridge-enum'], []);
  assert.deepEqual(PROPS.embedding_init_method['x-bridge-enum'], []);
  // The class: every field with Bridge paths whose enum is not argparse choices (no command-line flag) says what Bridge reads.
  const open = Object.entries(PROPS).filter(([, p]) => p['x-cli'] === false && p.enum && p['x-bridge']?.length && !Array.isArray(p['x-bridge-enum']));
  assert.deepEqual(open.map(([k]) => k), []);
});

test('completion and hover offer Bridge its own activation names, and Megatron-LM its own', () => {
  const bridge = complete(analyze({ path: 'override.yaml', text: BRIDGE }), BRIDGE.length - 1).map((e) => e.label);
  assert.ok(bridge.includes('silu') && bridge.includes('squared_relu'), bridge.join(' '));
  assert.ok(!bridge.includes('swiglu') && !bridge.includes('squaredrelu'), bridge.join(' '));
  const yamlCfg = complete(analyze({ path: 'model.yaml', text: YAML_CFG }), YAML_CFG.length - 1).map((e) => e.label);
  assert.ok(yamlCfg.includes('swiglu') && !yamlCfg.includes('silu'), yamlCfg.join(' '));
  const text = BRIDGE.replace('activation_func: ', 'activation_func: silu');
  const h = hover(analyze({ path: 'override.yaml', text }), text.indexOf('activation_func') + 2)!.markdown;
  const allowed = h.slice(h.indexOf('Allowed values:'));
  assert.match(allowed, /- `silu`/);
  assert.doesNotMatch(allowed, /`swiglu`|`squaredrelu`/);
  // init_method: Bridge keeps a string as written, so no value is offered.
  const init = '# shardwise: format=megatron-bridge\nmodel:\n  init_method: \n';
  assert.ok(!complete(analyze({ path: 'override.yaml', text: init }), init.length - 1).some((e) => e.label === 'xavier_uniform'));
});

test('x-bridge: every MixedPrecisionConfig field copied over a model/optimizer/DDP field is a spelling of that property, and the mixed_precision one wins', () => {
  // Megatron-Bridge src/megatron/bridge/training/mixed_precision.py@067f987 lines 58-59: MixedPrecisionConfig has
  // fp8_dot_product_attention and fp8_multi_head_attention (default False), line 43 params_dtype; lines 148-156
  // (update_config_with_precision_overrides) copy every field that differs onto the model, optimizer and DDP
  // configs whenever mixed_precision is set, so `model.fp8_dot_product_attention: true` is reset by a preset.
  for (const key of ['fp8_dot_product_attention', 'fp8_multi_head_attention', 'params_dtype', 'pipeline_dtype', 'autocast_dtype', 'fp8_margin']) {
    const p = PROPS[key];
    assert.ok(p['x-bridge'].includes(`model.${key}`) && p['x-bridge'].includes(`mixed_precision.${key}`), key);
    assert.match(p.markdownDescription, new RegExp(`\`mixed_precision\\.${key}\` wins`), key);
  }
});

test("hover in a Megatron Bridge or NeMo file names Megatron-LM's default as Megatron-LM's: the config those tools build may set its own (Bridge's ProfilingConfig.profile_ranks is [0], training/config.py@067f987)", () => {
  const bridge = '# shardwise: format=megatron-bridge world_size=8\nprofiling:\n  profile_ranks: [1]\n';
  const md = hover(analyze({ path: 'override.yaml', text: bridge }), bridge.indexOf('profile_ranks') + 2)!.markdown;
  assert.match(md, /Megatron-LM's default: .*Megatron Bridge's config may set its own/);
  assert.doesNotMatch(md, /^- Default:/m);
  const script = 'torchrun --nproc-per-node 8 pretrain_gpt.py --profile-ranks 1\n';
  const plain = hover(analyze({ path: 'train.sh', text: script }), script.indexOf('--profile-ranks') + 3)!.markdown;
  assert.match(plain, /^- Default:/m);
});

test('hover in a Megatron Bridge file dates a key by the Megatron Core release it arrived in, not as a Bridge release (Bridge releases are v0.x; model.high_priority_a2a_comm_stream is a TransformerConfig field from core 0.18.0)', () => {
  const bridge = '# shardwise: format=megatron-bridge world_size=8\nmodel:\n  high_priority_a2a_comm_stream: true\n';
  const md = hover(analyze({ path: 'override.yaml', text: bridge }), bridge.indexOf('high_priority') + 2)!.markdown;
  assert.match(md, /Megatron Core ≥ 0\.18\.0/);
  assert.doesNotMatch(md, /Megatron Bridge ≥/);
});

test('Bridge reads the count of zero gradients from optimizer.log_num_zeros_in_grad (training/train.py@067f987:972, OptimizerConfig in Megatron Core), not the logger copy nothing reads: the hover names the argument there', () => {
  const bridge = '# shardwise: format=megatron-bridge world_size=8\noptimizer:\n  log_num_zeros_in_grad: true\n';
  const md = hover(analyze({ path: 'override.yaml', text: bridge }), bridge.indexOf('log_num_zeros') + 2)!.markdown;
  assert.match(md, /`--log-num-zeros-in-grad`/);
  assert.match(md, /Megatron Bridge: `optimizer\.log_num_zeros_in_grad`/);
  assert.deepEqual(PROPS.log_num_zeros_in_grad['x-bridge'], ['optimizer.log_num_zeros_in_grad']);
});

test('x-bridge-enum on an argument: Bridge is offered only the non-persistent checkpoint types it saves (checkpointing.py@067f987:1148-1168 raises ValueError for any other), and keeps their descriptions', () => {
  // Megatron-LM training_config.py@2a75ac1:448: the field Bridge's CheckpointConfig inherits is
  // Literal["global", "local", "in_memory"], so Bridge's config takes in_memory; its save does not.
  assert.deepEqual(PROPS.non_persistent_ckpt_type['x-bridge-enum'], ['global', 'local']);
  const bridge = '# shardwise: format=megatron-bridge\ncheckpoint:\n  non_persistent_ckpt_type: \n';
  const offered = complete(analyze({ path: 'override.yaml', text: bridge }), bridge.length - 1).map((e) => e.label);
  assert.ok(offered.includes('global') && offered.includes('local') && !offered.includes('in_memory'), offered.join(' '));
  const text = bridge.replace('non_persistent_ckpt_type: ', 'non_persistent_ckpt_type: global');
  const md = hover(analyze({ path: 'override.yaml', text }), text.indexOf('non_persistent') + 2)!.markdown;
  assert.match(md, /- `global`: Regular checkpoint/);
  assert.doesNotMatch(md.slice(md.indexOf('Allowed values:')), /in_memory/);
  // Megatron-LM's flag still offers all three (its argument checks refuse in_memory: checkpoint-config-invalid).
  const script = 'torchrun --nproc-per-node 8 pretrain_gpt.py --non-persistent-ckpt-type \n';
  const flags = complete(analyze({ path: 'train.sh', text: script }), script.length - 1).map((e) => e.label);
  assert.ok(flags.includes('in_memory'), flags.join(' '));
});

test('x-deprecated.bridge: a deprecation whose conversion only Megatron-LM\'s argument checks make says what Megatron Bridge does instead; the others are made by code Bridge runs too', () => {
  // Made outside validate_args, so a Bridge override meets them as the message says: TransformerConfig.__post_init__
  // (megatron/core/transformer/transformer_config.py@2a75ac1: moe_router_padding_for_fp8 :2400, moe_enable_deepep
  // :1647-1660, moe_deepep_num_sms/moe_hybridep_num_sms :1679, enable_cuda_graph/external_cuda_graph :2457-2470),
  // Bridge's own hybrid provider for hybrid_override_pattern (models/hybrid/hybrid_provider.py@067f987:181-195,
  // models/mamba/mamba_provider.py@v0.4.0), and rampup_batch_size, whose message speaks of Bridge itself.
  const flagWorded = Object.entries(PROPS)
    .filter(([, p]) => p['x-deprecated'] && p['x-bridge']?.length && !p['x-deprecated'].bridge && /`--/.test(p['x-deprecated'].message ?? ''))
    .map(([k]) => k);
  assert.deepEqual(flagWorded.sort(), ['enable_cuda_graph', 'external_cuda_graph', 'hybrid_override_pattern', 'moe_deepep_num_sms', 'moe_enable_deepep', 'moe_hybridep_num_sms', 'moe_router_padding_for_fp8', 'rampup_batch_size']);
  // Converted only by validate_args (training/arguments.py@2a75ac1:1331-1340, :733-759): Bridge's own account.
  assert.equal(PROPS.no_weight_decay_cond_type['x-deprecated'].bridge.effect, 'ignored');
  assert.equal(PROPS.mtp_hybrid_override_pattern['x-deprecated'].bridge.effect, 'migrated');
  const bridge = '# shardwise: format=megatron-bridge world_size=8 megatron_core=0.19.0\nscheduler:\n  no_weight_decay_cond_type: apply_wd_to_qk_layernorm\n';
  const md = hover(analyze({ path: 'override.yaml', text: bridge }), bridge.indexOf('no_weight_decay') + 2)!.markdown;
  assert.match(md, /⚠ \*\*Deprecated since 0\.16\.0\.\*\* Only Megatron-LM's argument checks/);
});

test('--mtp-hybrid-override-pattern is not renamed to --hybrid-layer-pattern: Megatron-LM puts it after a `/` of that pattern (training/arguments.py@2a75ac1:747-759), so the rename would make the MTP part the main pattern', () => {
  const script = '#!/bin/bash\ntorchrun --nproc_per_node 8 pretrain_mamba.py --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --micro-batch-size 1 --global-batch-size 8 --mtp-num-layers 1 --mtp-hybrid-override-pattern MM\n';
  const found = analyze({ path: 'train.sh', text: script }, { targetVersions: { 'megatron-core': '0.19.0' } }).findings.filter((f) => f.code === 'deprecated-key');
  assert.equal(found.length, 1);
  assert.deepEqual(found[0].fixes().map((f) => f.title).filter((t) => /hybrid-layer-pattern/.test(t)), []);
});
