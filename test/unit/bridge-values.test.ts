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
