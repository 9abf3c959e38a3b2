/**
 * Version facts of the schemas (x-since, x-enum-since, x-removed, x-deprecated.since), each checked
 * against the upstream release that proves it, and the version-unsupported-key / deprecated-key
 * rules reading them. The data is recomputed by scripts/schema-history.mjs from the upstream git
 * history (`node scripts/schema-history.mjs --megatron <git dir> --deepspeed <git dir>`); these
 * tests pin the facts that were verified by hand.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../server/src/engine';
import { preReleaseAt } from '../../server/src/engine/rules/release';

type Prop = Record<string, any>;
const load = (name: string) => JSON.parse(readFileSync(join(__dirname, '../../schemas', `${name}.schema.json`), 'utf8'));
const MEGATRON = load('megatron');
const DEEPSPEED = load('deepspeed');
const mg = (dest: string): Prop => {
  const p = MEGATRON.properties[dest];
  assert.ok(p, `no Megatron property ${dest}`);
  return p;
};
/** A DeepSpeed property by dotted path (plain `properties` nesting). */
const ds = (dotted: string): Prop => {
  let node: Prop = DEEPSPEED;
  for (const k of dotted.split('.')) {
    node = node.properties?.[k];
    assert.ok(node, `no DeepSpeed property ${dotted}`);
  }
  return node;
};

test('Megatron: every final release from 0.4.0 is compared; flags present in 0.4.0 carry no x-since', () => {
  const tags: string[] = MEGATRON['x-source'].tagsCompared;
  assert.equal(tags[0], '0.4.0');
  assert.ok(tags.every((t) => /^\d+\.\d+\.\d+$/.test(t)), 'final releases only, no rc');
  for (const v of ['0.5.0', '0.6.0', '0.8.0', '0.10.0', '0.12.3', '0.13.1', '0.19.0']) assert.ok(tags.includes(v), v);
  // megatron/arguments.py at core_v0.4.0 adds --tensor-model-parallel-size, --num-layers, --seq-length.
  for (const dest of ['tensor_model_parallel_size', 'num_layers', 'seq_length']) assert.equal(mg(dest)['x-since'], undefined, dest);
});

test('Megatron: flags 0.4.0 added (absent from the 23.04, 23.06 and 23.08 parsers, megatron/arguments.py) are marked x-absent-before-core', () => {
  // megatron/arguments.py@core_v0.4.0 adds --use-mcore-models, --context-parallel-size, --overlap-param-gather; @refs/heads/23.08 has none of them.
  for (const dest of ['deprecated_use_mcore_models', 'context_parallel_size', 'overlap_param_gather', 'expert_model_parallel_size']) assert.equal(mg(dest)['x-absent-before-core'], true, dest);
  for (const dest of ['tensor_model_parallel_size', 'num_layers', 'seq_length', 'DDP_impl']) assert.equal(mg(dest)?.['x-absent-before-core'], undefined, dest);
});

test('Megatron: x-since of flags added in 0.5.0–0.12.0 (first release whose parser has them)', () => {
  const cases: [string, string][] = [
    // megatron/arguments.py at core_v0.5.0 adds --add-qkv-bias; absent at core_v0.4.0
    ['add_qkv_bias', '0.5.0'],
    // megatron/arguments.py at core_v0.5.0 adds --mock-data; absent at core_v0.4.0
    ['mock_data', '0.5.0'],
    // megatron/training/arguments.py at core_v0.6.0 adds --qk-layernorm; absent from megatron/arguments.py at core_v0.5.0
    ['qk_layernorm', '0.6.0'],
    // megatron/training/arguments.py at core_v0.6.0 adds --decoupled-lr; absent from megatron/arguments.py at core_v0.5.0
    ['decoupled_lr', '0.6.0'],
    // megatron/training/arguments.py at core_v0.7.0 adds --calculate-per-token-loss; absent at core_v0.6.0
    ['calculate_per_token_loss', '0.7.0'],
    // megatron/training/arguments.py at core_v0.7.0 adds --async-save; absent at core_v0.6.0
    ['async_save', '0.7.0'],
    // megatron/training/arguments.py at core_v0.8.0 adds --rotary-base; absent at core_v0.7.0
    ['rotary_base', '0.8.0'],
    // megatron/training/arguments.py at core_v0.8.0 adds --deterministic-mode; absent at core_v0.7.0
    ['deterministic_mode', '0.8.0'],
    // megatron/training/arguments.py at core_v0.9.0 adds --ckpt-format; absent at core_v0.8.0
    ['ckpt_format', '0.9.0'],
    // megatron/training/arguments.py at core_v0.9.0 adds --non-persistent-save-interval; absent at core_v0.8.0
    ['non_persistent_save_interval', '0.9.0'],
    // megatron/training/arguments.py at core_v0.10.0 adds --multi-latent-attention; absent at core_v0.9.0
    ['multi_latent_attention', '0.10.0'],
    // megatron/training/arguments.py at core_v0.10.0 adds --expert-tensor-parallel-size; absent at core_v0.9.0
    ['expert_tensor_parallel_size', '0.10.0'],
    // megatron/training/arguments.py at core_v0.11.0 adds --attention-backend; absent at core_v0.10.0
    ['attention_backend', '0.11.0'],
    // megatron/training/arguments.py at core_v0.11.0 adds --moe-router-score-function; absent at core_v0.10.0
    ['moe_router_score_function', '0.11.0'],
    // megatron/training/arguments.py at core_v0.12.0 adds --mtp-num-layers; absent at core_v0.11.0
    ['mtp_num_layers', '0.12.0'],
    // megatron/training/arguments.py at core_v0.12.0 adds --fp8-recipe; absent at core_v0.11.0
    ['fp8_recipe', '0.12.0'],
    // megatron/training/arguments.py at core_v0.12.0 adds --recompute-modules; absent at core_v0.11.0
    ['recompute_modules', '0.12.0'],
    // megatron/inference/arguments.py add_modelopt_args at core_v0.8.0 adds --export-quant-cfg (core_v0.7.0's add_ammo_args has no such flag)
    ['export_quant_cfg', '0.8.0'],
    // pretrain_vlm.py add_vlm_extra_args at core_v0.10.0 adds --freeze-ViT; absent at core_v0.9.0
    ['freeze_ViT', '0.10.0'],
    // megatron/core/transformer/transformer_config.py at core_v0.12.0 has the field cuda_graph_scope; absent at core_v0.11.0
    ['cuda_graph_scope', '0.12.0'],
  ];
  for (const [dest, since] of cases) assert.equal(mg(dest)['x-since'], since, dest);
  // The hover text states the same version as x-since.
  for (const [dest, since] of cases) assert.match(mg(dest).markdownDescription, new RegExp(`since Megatron Core ${since.replace(/\./g, '\\.')}\\b`), dest);
});

test('Megatron: spellings and removals the static read cross-checked', () => {
  // megatron/training/arguments.py at core_v0.9.0: add_argument('--save-interval', '--persistent-save-interval', ...); only --save-interval at core_v0.8.0
  assert.deepEqual(mg('save_interval')['x-flag-since'], { '--persistent-save-interval': '0.9.0' });
  // megatron/training/arguments.py at core_v0.18.0 adds --enable-msc; the dest enable_msc exists since core_v0.13.0 behind --disable-msc
  assert.equal(mg('enable_msc')['x-since'], '0.13.0');
  assert.deepEqual(mg('enable_msc')['x-flag-since'], { '--enable-msc': '0.18.0' });
  // megatron/training/arguments.py at core_v0.9.0 no longer has --no-delay-grad-reduce (core_v0.8.0 does)
  assert.equal(mg('delay_grad_reduce')['x-removed'].version, '0.9.0');
  // core_v0.16.0 builds --no-/--disable-async-tensor-model-parallel-allreduce from ModelParallelConfig; core_v0.17.0 has neither
  assert.equal(mg('async_tensor_model_parallel_allreduce')['x-removed'].version, '0.17.0');
  assert.deepEqual(mg('async_tensor_model_parallel_allreduce')['x-flag-since'], { '--disable-async-tensor-model-parallel-allreduce': '0.16.0' });
});

test('Megatron: --checkpoint-activations and the other pre-0.12 deprecations', () => {
  // megatron/arguments.py at core_v0.4.0, validate_args: `if args.checkpoint_activations: ... print(...); exit()`
  assert.equal(mg('checkpoint_activations')['x-deprecated'].since, '0.4.0');
  assert.equal(mg('checkpoint_activations')['x-deprecated'].effect, 'error');
  // megatron/arguments.py at core_v0.4.0, validate_args: asserts --batch-size, --warmup, --model-parallel-size are unset
  for (const dest of ['batch_size', 'warmup', 'model_parallel_size']) assert.equal(mg(dest)['x-deprecated'].since, '0.4.0', dest);
  // megatron/training/arguments.py at core_v0.8.0: --use-mcore-models gets dest='deprecated_use_mcore_models' ("DEPRECATED ... Now ignored")
  assert.equal(mg('deprecated_use_mcore_models')['x-deprecated'].since, '0.8.0');
  // megatron/training/arguments.py at core_v0.9.0: '--use-dist-ckpt is deprecated and has no effect'
  assert.equal(mg('use_dist_ckpt_deprecated')['x-deprecated'].since, '0.9.0');
});

test('Megatron Bridge and Megatron facts: max_position_embeddings, cuda_graph_scope, fp4_recipe', () => {
  // Megatron-Bridge src/megatron/bridge/models/gpt_provider.py (and hybrid/hybrid_provider.py) at 067f987d: no
  // max_position_embeddings field, GPTModel(max_sequence_length=self.seq_length); scripts/translate_mlm_to_bridge.py
  // --reverse derives --max-position-embeddings from model.seq_length.
  assert.deepEqual(mg('max_position_embeddings')['x-bridge'], ['model.seq_length', 'model.max_position_embeddings']);
  // megatron/core/transformer/transformer_config.py at core_v0.16.0: cuda_graph_scope: Union[str, CudaGraphScope, List[str], ...];
  // at core_v0.18.0 it is Optional, "Deprecated: renamed to cuda_graph_modules", migrated in __post_init__.
  const scope = mg('cuda_graph_scope');
  assert.deepEqual(scope.type, ['array', 'string']);
  assert.equal(scope.deprecated, true);
  assert.deepEqual({ since: scope['x-deprecated'].since, effect: scope['x-deprecated'].effect, replacement: scope['x-deprecated'].replacement }, { since: '0.18.0', effect: 'migrated', replacement: 'cuda_graph_modules' });
  // megatron/core/enums.py Fp4Recipe at core_v0.15.3: nvfp4 only (--fp4-recipe choices=['nvfp4']); core_v0.16.0 adds custom
  assert.deepEqual(mg('fp4_recipe')['x-enum-since'], { custom: '0.16.0' });
});

test('DeepSpeed: x-since and x-deprecated.since from the config code of each release', () => {
  // deepspeed/runtime/constants.py at v0.3.0: TENSORBOARD = "tensorboard" (read by engine.py); v0.6.6 only made it pydantic
  assert.equal(ds('tensorboard')['x-since'], undefined);
  // deepspeed/runtime/zero/config.py at v0.3.15: cpu_offload converted to offload_optimizer (offload_constants.py is new)
  // A deprecation in phases starts at its first phase (`earlier`; `since` is the newest phase's).
  const firstPhase = (d: { since?: string; earlier?: { since: string }[] }) => d.earlier?.[0]?.since ?? d.since;
  assert.equal(firstPhase(ds('zero_optimization.cpu_offload')['x-deprecated']), '0.3.15');
  // deepspeed/runtime/zero/constants.py at v0.3.12 adds 'cpu_offload_use_pin_memory'; zero/config.py stops reading it at v0.3.15
  assert.equal(ds('zero_optimization.cpu_offload_use_pin_memory')['x-since'], '0.3.12');
  assert.equal(firstPhase(ds('zero_optimization.cpu_offload_use_pin_memory')['x-deprecated']), '0.3.15');
  // deepspeed/runtime/zero/config.py at v0.7.0: `cpu_offload_param: bool = Field(None, deprecated=True, ...)`; v0.3.12–v0.6.7 read 'cpu_offload_params'
  assert.equal(ds('zero_optimization.cpu_offload_param')['x-since'], '0.7.0');
  assert.equal(ds('zero_optimization.cpu_offload_param')['x-deprecated'].since, '0.7.0');
  // deepspeed/runtime/constants.py at v0.16.4: SEQ_PARALLEL_COMMUNICATION_DATA_TYPE = "seq_parallel_comm_data_type"; v0.16.5: the documented key
  assert.equal(ds('seq_parallel_communication_data_type')['x-since'], '0.16.5');
  // deepspeed/runtime/zero/config.py at v0.7.0: pydantic field gather_16bit_weights_on_model_save (v0.6.0 has only the stage3_ constant)
  assert.equal(ds('zero_optimization.gather_16bit_weights_on_model_save')['x-since'], '0.7.0');
  // deepspeed/compile/config.py at v0.18.0 adds free_activation_threshold; absent at v0.17.6
  assert.equal(ds('compile.free_activation_threshold')['x-since'], '0.18.0');
  // deepspeed/runtime/constants.py at v0.5.5 adds "bfloat16"; v0.6.0 adds "bf16" and keeps bfloat16 as BFLOAT16_OLD
  assert.equal(ds('bfloat16')['x-since'], '0.5.5');
  assert.equal(ds('bfloat16')['x-deprecated'].since, '0.6.0');
  assert.equal(ds('bf16')['x-since'], '0.6.0');
  // deepspeed/runtime/zero/offload_constants.py at v0.3.15 adds offload_optimizer / offload_param; absent at v0.3.14
  assert.equal(ds('zero_optimization.offload_optimizer')['x-since'], '0.3.15');
  // deepspeed/runtime/zero/constants.py at v0.3.12 adds 'sub_group_size'; absent at v0.3.11
  assert.equal(ds('zero_optimization.sub_group_size')['x-since'], '0.3.12');
  // deepspeed/profiling/constants.py at v0.3.11: FLOPS_PROFILER = "flops_profiler"; absent at v0.3.10
  assert.equal(ds('flops_profiler')['x-since'], '0.3.11');
  // deepspeed/elasticity/constants.py at v0.3.9: "elasticity"; absent at v0.3.8
  assert.equal(ds('elasticity')['x-since'], '0.3.9');
  // deepspeed/runtime/swap_tensor/constants.py at v0.3.15: AIO = "aio"; absent at v0.3.14
  assert.equal(ds('aio')['x-since'], '0.3.15');
  // deepspeed/runtime/constants.py at v0.9.3: FP16_CONSECUTIVE_HYSTERESIS = "consecutive_hysteresis"; absent at v0.9.2
  assert.equal(ds('fp16.consecutive_hysteresis')['x-since'], '0.9.3');
  // deepspeed/runtime/config.py at v0.12.3 adds "pipe_partitioned" to the pipeline defaults (read by runtime/pipe/engine.py)
  assert.equal(ds('pipeline.pipe_partitioned')['x-since'], '0.12.3');
});

const script = (version: string, flags: string) => `# shardwise: megatron_core=${version}
torchrun --nproc_per_node 8 pretrain_gpt.py \\
    --tensor-model-parallel-size 1 \\
${flags}
`;
const codes = (text: string, code: string, path = 'train.sh') => analyze({ path, text }).findings.filter((f) => f.code === code).map((f) => f.message);

test('version-unsupported-key: a flag added in 0.9.0 is reported when 0.8.0 is targeted, not with 0.9.0', () => {
  // --ckpt-format: megatron/training/arguments.py at core_v0.9.0, absent at core_v0.8.0
  const flags = '    --ckpt-format torch_dist';
  const old = codes(script('0.8.0', flags), 'version-unsupported-key');
  assert.equal(old.length, 1);
  assert.match(old[0], /`--ckpt-format` arrived in .* 0\.9\.0; the targeted 0\.8\.0/);
  assert.deepEqual(codes(script('0.9.0', flags), 'version-unsupported-key'), []);
  // A value added later than its flag: --fp4-recipe custom (core_v0.16.0) on 0.15.0.
  assert.equal(codes(script('0.15.0', '    --fp4-recipe custom'), 'version-unsupported-key').length, 1);
  assert.deepEqual(codes(script('0.16.0', '    --fp4-recipe custom'), 'version-unsupported-key'), []);
});

test('deprecated-key: --checkpoint-activations is reported for every Megatron Core release', () => {
  const msgs = codes(script('0.5.0', '    --checkpoint-activations'), 'deprecated-key');
  assert.equal(msgs.length, 1);
  assert.match(msgs[0], /deprecated since .* 0\.4\.0/);
});

test('DeepSpeed: offload_optimizer is unknown to 0.3.14, and cpu_offload is deprecated only from 0.3.15', () => {
  const text = (zero: string) => `{\n  "train_batch_size": 8,\n  "zero_optimization": {\n    "stage": 2,\n    ${zero}\n  }\n}\n`;
  const run = (v: string, zero: string, code: string) => analyze({ path: 'ds_config.json', text: text(zero) }, { targetVersions: { deepspeed: v } }).findings.filter((f) => f.code === code);
  assert.equal(run('0.3.14', '"offload_optimizer": { "device": "cpu" }', 'version-unsupported-key').length, 1);
  assert.equal(run('0.3.15', '"offload_optimizer": { "device": "cpu" }', 'version-unsupported-key').length, 0);
  assert.equal(run('0.3.14', '"cpu_offload": true', 'deprecated-key').length, 0);
  assert.equal(run('0.3.15', '"cpu_offload": true', 'deprecated-key').length, 1);
});

test('version-unsupported-key: a config field older than its flag is dated by the spelling written', () => {
  // cpu_offloading_num_layers: a field of megatron/core/model_parallel_config.py since core_v0.5.0;
  // megatron/training/arguments.py gains --cpu-offloading-num-layers only at core_v0.16.0.
  assert.equal(mg('cpu_offloading_num_layers')['x-since'], '0.5.0');
  assert.equal((mg('cpu_offloading_num_layers') as Record<string, unknown>)['x-flag-since'] && (mg('cpu_offloading_num_layers') as { 'x-flag-since': Record<string, string> })['x-flag-since']['--cpu-offloading-num-layers'], '0.16.0');
  // The flag in a launch script is too new for 0.13.0 ...
  assert.equal(codes(script('0.13.0', '    --cpu-offloading-num-layers 2'), 'version-unsupported-key').length, 1);
  // ... the field in a --yaml-cfg file is not (examples/gpt3/gpt_config.yaml at core_v0.13.0 sets it).
  const yamlCfg = '# shardwise: megatron_core=0.13.0 format=megatron-yaml\nlanguage_model:\n  num_layers: 4\nmodel_parallel:\n  tensor_model_parallel_size: 1\n  cpu_offloading_num_layers: 0\n';
  assert.deepEqual(codes(yamlCfg, 'version-unsupported-key', 'gpt_config.yaml'), []);
  assert.equal(codes(yamlCfg.replace('0.13.0', '0.4.0'), 'version-unsupported-key', 'gpt_config.yaml').length, 1);
});

test('the release facts of every property agree with one another: nothing is deprecated, removed, or given a value, a form or a default change before it exists', () => {
  const cmp = (a: string, b: string): number => {
    const x = a.split('.').map(Number);
    const y = b.split('.').map(Number);
    for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
    return 0;
  };
  const problems: string[] = [];
  const visit = (schema: string, node: unknown, path: string): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((n, i) => visit(schema, n, `${path}[${i}]`));
    const p = node as Prop;
    const since: string | undefined = p['x-since'];
    const later = (what: string, v: string | undefined): void => {
      if (since && v && cmp(v, since) < 0) problems.push(`${schema} ${path}: ${what} ${v} is before x-since ${since}`);
    };
    if (typeof since === 'string') {
      later('x-deprecated.since', p['x-deprecated']?.since);
      later('x-removed.version', p['x-removed']?.version);
      for (const [v, at] of Object.entries(p['x-enum-since'] ?? {})) later(`x-enum-since of ${v}`, at as string);
      for (const f of p['x-value-forms'] ?? []) later('an x-value-forms range end', f.until);
    }
    if (p['x-removed'] && p['x-deprecated']?.since && cmp(p['x-deprecated'].since, p['x-removed'].version) > 0) problems.push(`${schema} ${path}: deprecated (${p['x-deprecated'].since}) after its removal (${p['x-removed'].version})`);
    for (const f of p['x-value-forms'] ?? []) if (f.since && f.until && cmp(f.since, f.until) >= 0) problems.push(`${schema} ${path}: an x-value-forms range ${f.since}–${f.until} is empty`);
    for (const [k, v] of Object.entries(p)) if (typeof v === 'object') visit(schema, v, `${path}/${k}`);
  };
  for (const name of ['megatron', 'deepspeed', 'accelerate']) visit(name, load(name), '');
  assert.deepEqual(problems, []);
});

test('a pre-release is open at the very release it leads to; a post-release is that release (release.ts preReleaseAt)', () => {
  const rel = (label: string) => ({ value: '0.9.0', label, from: { kind: 'assumed' as const, note: 'test' } });
  assert.ok(preReleaseAt(rel('0.9.0rc0'), '0.9.0'), 'rc0 may not have what 0.9.0 changed');
  assert.ok(preReleaseAt(rel('0.9.0.dev0'), '0.9.0'));
  assert.equal(preReleaseAt(rel('0.9.0rc0'), '0.8.0'), undefined, 'what 0.8.0 changed, 0.9.0rc0 has');
  assert.equal(preReleaseAt(rel('0.9.0.post1'), '0.9.0'), undefined, 'a post-release comes after its release');
});
