/**
 * When each value of a Megatron argument with a fixed set of choices arrived (`x-enum-since` in
 * schemas/megatron.schema.json), and the version-unsupported-key rule reading it. The facts are
 * computed by scripts/schema-history.mjs from the choices of every core_vX.Y.Z release
 * (`node scripts/schema-history.mjs --megatron <Megatron-LM git dir>`); this test needs no
 * checkout: it pins what the schema records, checks a few facts by hand against upstream (the
 * evidence is in the comments), and analyses a seeded sample of (argument, value) pairs.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze } from '../../server/src/engine';
import { mulberry32, sample } from './seeded';

type Prop = Record<string, any>;
const MEGATRON = JSON.parse(readFileSync(join(__dirname, '../../schemas/megatron.schema.json'), 'utf8'));
const PROPS: Record<string, Prop> = MEGATRON.properties;
/** The releases the facts were computed from, oldest first: the tags, then the commit x-source names. */
const RELEASES: string[] = [...MEGATRON['x-source'].tagsCompared, MEGATRON['x-source'].version];
const cmp = (a: string, b: string) => {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
};
const enumOf = (p: Prop): unknown[] | undefined => p.enum ?? p.items?.enum;
const enumSince = (dest: string): Record<string, string> | undefined => {
  const p = PROPS[dest];
  assert.ok(p, `no Megatron property ${dest}`);
  return p['x-enum-since'];
};

/** The version-unsupported-key findings for `<flag>: <value>` in a Megatron YAML file targeting `release`. */
function findings(flag: string, value: string, release: string) {
  const text = `# shardwise: format=megatron-yaml megatron_core=${release}\nMODEL_ARGS:\n  ${flag}: ${value}\n`;
  return analyze({ path: 'train.yaml', text })
    .findings.filter((f) => f.code === 'version-unsupported-key')
    .map((f) => ({ on: text.slice(f.span.start, f.span.end), message: f.message }));
}

test('x-enum-since as recorded: every value that arrived after its argument, with its release', () => {
  const recorded = Object.fromEntries(Object.entries(PROPS).filter(([, p]) => p['x-enum-since']).map(([k, p]) => [k, p['x-enum-since']]));
  assert.deepEqual(recorded, {
    experimental_attention_variant: { gdn: '0.20.0', gdn2: '0.20.0' },
    fp8_recipe: { blockwise: '0.13.0', custom: '0.16.0' },
    fp4_recipe: { custom: '0.16.0' },
    moe_router_score_function: { sqrtsoftplus: '0.18.0' },
    moe_token_dispatcher_type: { flex: '0.12.0' },
    moe_flex_dispatcher_backend: { ncclep: '0.19.0' },
    cuda_graph_impl: { full_iteration: '0.18.0' },
    // choices ['full', 'attn'] (arguments.py@core_v0.12.0:1129), + full_iteration (@core_v0.14.0:1297), then a type lambda over
    // CudaGraphScope (@core_v0.16.0:1430; enums.py@core_v0.17.0:61-71 adds full_iteration_inference).
    cuda_graph_scope_deprecated: { full_iteration: '0.14.0', mlp: '0.16.0', moe: '0.16.0', moe_router: '0.16.0', moe_preprocess: '0.16.0', mamba: '0.16.0', full_iteration_inference: '0.17.0' },
    inference_grouped_gemm_backend: { flashinfer: '0.18.0', vllm: '0.18.0' },
    transformer_impl: { inference_optimized: '0.16.0' },
    position_embedding_type: { yarn: '0.18.0', mrope: '0.12.0', relative: '0.11.0', none: '0.8.0' },
    optimizer: { muon: '0.16.0', dist_muon: '0.16.0', lion: '0.17.0', soap: '0.18.0', adaptive_muon: '0.18.0' },
    dataloader_type: { external: '0.6.0' },
    lr_decay_style: { WSD: '0.8.0' },
    lr_wsd_decay_style: { minus_sqrt: '0.13.0' },
    ckpt_format: { torch_dcp: '0.12.0', fsdp_dtensor: '0.14.0' },
    tokenizer_type: { HuggingFaceTokenizer: '0.8.0', TikTokenizer: '0.8.0', MultimodalTokenizer: '0.10.0', NullMultimodalTokenizer: '0.12.0', SFTTokenizer: '0.13.0' },
    moe_router_load_balancing_type: { seq_aux_loss: '0.11.0', global_aux_loss: '0.15.0', quantile_balancing: '0.19.0' },
    inference_dynamic_batching_prefix_caching_coordinator_policy: { load_balanced: '0.19.0' },
    exp_avg_dtype: { bf16: '0.13.0' },
    exp_avg_sq_dtype: { bf16: '0.13.0' },
    export_model_type: { HybridModel: '0.18.0' },
    export_kv_cache_quant: { none: '0.16.0', fp8: '0.16.0', fp8_affine: '0.16.0', nvfp4: '0.16.0', nvfp4_affine: '0.16.0', nvfp4_rotate: '0.16.0' },
    model_provider: { hybrid: '0.18.0' },
    // Checked in TransformerConfig.__post_init__ against an allowed set (transformer_config.py@core_v0.12.0:728,
    // @core_v0.14.0:869-878 adds shared_experts, @core_v0.19.0:1768-1778 gdn_norm_out; the rest only at the source commit).
    recompute_modules: { shared_experts: '0.14.0', gdn_norm_out: '0.19.0', gdp_in_proj: '0.20.0', gdp_qkv: '0.20.0', mhc: '0.20.0' },
    offload_modules: { fused_group_mlp: '0.19.0', gdp_qkv: '0.20.0' },
    // No argparse choices: the SFT tokenizer raises NotImplementedError on a format it does not know
    // (training/tokenizer/sft_tokenizer.py@core_v0.13.0:44-53 nemotron-h-aligned only, @core_v0.15.0:45-62
    // adds nemotron-nano-v2; core/tokenizers/text/libraries/sft_tokenizer.py@core_v0.17.0:70-107 identity, default).
    sft_tokenizer_prompt_format: { 'nemotron-nano-v2': '0.15.0', identity: '0.17.0', default: '0.17.0' },
  });
});

test('x-enum-since is well formed: values of the enum, releases compared, later than the argument', () => {
  for (const [dest, p] of Object.entries(PROPS)) {
    const since: Record<string, string> | undefined = p['x-enum-since'];
    if (!since) continue;
    const values = (enumOf(p) ?? []).map(String);
    for (const [value, release] of Object.entries(since)) {
      assert.ok(values.includes(value), `${dest}: ${value} is not in the enum`);
      assert.ok(RELEASES.includes(release), `${dest}: ${value}: ${release} is not a release compared`);
      assert.ok(RELEASES.indexOf(release) > 0, `${dest}: ${value}: the oldest release compared needs no x-enum-since`);
      if (p['x-since']) assert.ok(cmp(release, p['x-since']) > 0, `${dest}: ${value} ${release} is not later than the argument (${p['x-since']})`);
    }
    // The rule compares string values only: a dated number would never be reported.
    assert.ok(Object.keys(since).every((v) => typeof enumOf(p)?.find((e) => String(e) === v) === 'string'), `${dest}: a number value is dated`);
  }
});

test('x-enum-since checked by hand against the upstream parsers', () => {
  // megatron/training/arguments.py@core_v0.15.0 line ~1318: --fp8-recipe choices=['tensorwise', 'delayed', 'mxfp8', 'blockwise'];
  // megatron/core/transformer/transformer_config.py@core_v0.16.0 line ~436: fp8_recipe: Optional[Literal[..., 'blockwise', 'custom']]
  // (the flag comes from TransformerConfig through ArgumentGroupFactory from 0.16.0).
  // megatron/training/arguments.py@core_v0.12.3 line ~1067: choices=['tensorwise', 'delayed', 'mxfp8']; @core_v0.13.0 line ~1184 adds 'blockwise'.
  assert.deepEqual(enumSince('fp8_recipe'), { blockwise: '0.13.0', custom: '0.16.0' });
  // megatron/training/arguments.py@core_v0.15.3 line ~1357: --fp4-recipe choices=['nvfp4'];
  // transformer_config.py@core_v0.16.0 line ~516: fp4_recipe: Optional[Literal['nvfp4', 'custom']].
  assert.deepEqual(enumSince('fp4_recipe'), { custom: '0.16.0' });
  // arguments.py@core_v0.15.0 line ~3090: --moe-router-score-function choices=['softmax', 'sigmoid'];
  // transformer_config.py@core_v0.16.0..core_v0.17.1 (line ~698 at 0.17.1): Literal['softmax', 'sigmoid'];
  // transformer_config.py@core_v0.18.0 line ~724: Literal['softmax', 'sigmoid', 'sqrtsoftplus'].
  // softmax and sigmoid are both in the choices of core_v0.11.0 (arguments.py line ~2189), the flag's first release.
  assert.deepEqual(enumSince('moe_router_score_function'), { sqrtsoftplus: '0.18.0' });
  // arguments.py@core_v0.17.1 line ~2047: --position-embedding-type choices without 'yarn'; @core_v0.18.0 line ~2116 with it.
  // @core_v0.11.0 line ~1034 adds 'relative', @core_v0.12.0 line ~1251 'mrope'; megatron/arguments.py@core_v0.4.0 line ~604 has
  // ['learned_absolute', 'rope'] and megatron/training/arguments.py@core_v0.8.0 line ~776 adds 'none'.
  assert.deepEqual(enumSince('position_embedding_type'), { yarn: '0.18.0', mrope: '0.12.0', relative: '0.11.0', none: '0.8.0' });
  // arguments.py@core_v0.7.0 line ~1447: --tokenizer-type choices without HuggingFaceTokenizer / TikTokenizer; @core_v0.8.0 line ~1549 with them
  // (and Llama3Tokenizer, MistralTokenizer, which core_v0.9.0 drops again: not in the enum, so never valid).
  assert.equal(enumSince('tokenizer_type')?.HuggingFaceTokenizer, '0.8.0');
  assert.equal(enumSince('tokenizer_type')?.TikTokenizer, '0.8.0');
  assert.ok(!enumOf(PROPS.tokenizer_type)!.includes('Llama3Tokenizer'));
  // megatron/arguments.py@core_v0.5.0 line ~944: --dataloader-type choices=['single', 'cyclic'];
  // megatron/training/arguments.py@core_v0.6.0 line ~1043 adds 'external'.
  assert.deepEqual(enumSince('dataloader_type'), { external: '0.6.0' });
  // arguments.py@core_v0.11.0 line ~1672: --ckpt-format choices=['torch', 'torch_dist', 'zarr']; @core_v0.12.0 line ~1950 adds 'torch_dcp'.
  // ('zarr' is accepted 0.9.0–0.15.3 and refused from 0.16.0: not in the enum.)
  assert.equal(enumSince('ckpt_format')?.torch_dcp, '0.12.0');
  assert.ok(!enumOf(PROPS.ckpt_format)!.includes('zarr'));
  // arguments.py@core_v0.11.0 line ~2221: --moe-token-dispatcher-type choices=['allgather', 'alltoall', 'alltoall_seq'];
  // @core_v0.12.0 line ~2547 adds 'flex'.
  assert.deepEqual(enumSince('moe_token_dispatcher_type'), { flex: '0.12.0' });
  // arguments.py@core_v0.7.0 line ~1150: --lr-decay-style without 'WSD'; @core_v0.8.0 line ~1227 with it.
  assert.deepEqual(enumSince('lr_decay_style'), { WSD: '0.8.0' });
  // arguments.py@core_v0.15.3 line ~2197: --optimizer choices=['adam', 'sgd']; @core_v0.16.0 line ~2056 adds 'muon', 'dist_muon'.
  assert.equal(enumSince('optimizer')?.muon, '0.16.0');
  assert.equal(enumSince('optimizer')?.dist_muon, '0.16.0');
  // megatron/post_training/arguments.py@core_v0.15.3 line ~34: --export-kv-cache-quant action='store_true' (a switch, no value);
  // @core_v0.16.0 line ~33: choices=['none', 'fp8', 'fp8_affine', 'nvfp4', 'nvfp4_affine', 'nvfp4_rotate'].
  assert.equal(enumSince('export_kv_cache_quant')?.nvfp4, '0.16.0');
  // transformer_config.py@core_v0.19.0 line ~294: experimental_attention_variant: Optional[Literal['gated_delta_net', 'dsa']];
  // at d98e8a64 (x-source.commit, 0.20.0) line ~301: Literal['gdn', 'gdn2', 'dsa', 'gated_delta_net'].
  assert.deepEqual(enumSince('experimental_attention_variant'), { gdn: '0.20.0', gdn2: '0.20.0' });
  // megatron/core/transformer/enums.py@core_v0.11.0 line ~41: AttnBackend has flash, fused, unfused, local, auto, and
  // --attention-backend (choices=list(AttnBackend)) arrives with all of them: nothing to date.
  assert.equal(enumSince('attention_backend'), undefined);
});

test('version-unsupported-key reports fp8_recipe custom for 0.15.0 (on the value), not for 0.16.0', () => {
  const old = findings('--fp8-recipe', 'custom', '0.15.0');
  assert.equal(old.length, 1);
  assert.equal(old[0].on, 'custom');
  assert.match(old[0].message, /`custom` for `--fp8-recipe` arrived in .* 0\.16\.0; the targeted 0\.15\.0 rejects it/);
  assert.deepEqual(findings('--fp8-recipe', 'custom', '0.16.0'), []);
  // A value the first release of the flag already accepts is never reported.
  assert.deepEqual(findings('--fp8-recipe', 'delayed', '0.12.0'), []);
});

interface Pair {
  dest: string;
  flag: string;
  value: string;
  since?: string;
}

// Every (argument, string value) of an enum with a command-line flag; the rule compares string values.
const PAIRS: Pair[] = Object.entries(PROPS).flatMap(([dest, p]) =>
  p['x-flag'] ? (enumOf(p) ?? []).filter((v): v is string => typeof v === 'string').map((value) => ({ dest, flag: p['x-flag'] as string, value, since: p['x-enum-since']?.[value] as string | undefined })) : [],
);
const random = mulberry32(0x5eed);
// Half of the sample among the dated values, which are few; half among the others.
const SAMPLE = [...sample(PAIRS.filter((x) => x.since), 15, random), ...sample(PAIRS.filter((x) => !x.since), 15, random)];

test('the sample: 30 (argument, value) pairs, 15 dated and 15 not', () => {
  assert.equal(SAMPLE.length, 30);
  assert.equal(new Set(SAMPLE.map((x) => `${x.dest}=${x.value}`)).size, 30);
  assert.ok(PAIRS.filter((x) => x.since).length >= 15);
});

for (const { dest, flag, value, since } of SAMPLE) {
  const p = PROPS[dest];
  // The first release of the spelling written: a flag can be younger than its setting.
  const flagSince = [p['x-since'], p['x-flag-since']?.[flag]].filter(Boolean).sort(cmp).at(-1) as string | undefined;
  if (since) {
    const before = RELEASES[RELEASES.indexOf(since) - 1];
    test(`${flag} ${value}: reported for ${before}, not for ${since} (x-enum-since ${since})`, () => {
      assert.equal(p['x-enum-since'][value], since);
      assert.ok(!flagSince || cmp(before, flagSince) >= 0, `${before} predates the flag (${flagSince})`);
      const old = findings(flag, value, before);
      assert.equal(old.length, 1, JSON.stringify(old));
      assert.equal(old[0].on, value);
      // A flag that was a switch at that release (x-nargs-before 0) is refused for taking a value at all.
      const wasSwitch = Object.entries(p['x-nargs-before'] ?? {}).some(([v, n]) => n === 0 && cmp(before, v) < 0);
      assert.ok(old[0].message.includes(wasSwitch ? 'takes no value (a switch)' : `arrived in Megatron-LM ${since}`), old[0].message);
      assert.deepEqual(findings(flag, value, since), []);
    });
  } else {
    const first = flagSince ?? RELEASES[0];
    test(`${flag} ${value}: no x-enum-since, not reported for ${first} (the flag's first release)`, () => {
      assert.equal(p['x-enum-since']?.[value], undefined);
      assert.deepEqual(findings(flag, value, first), []);
    });
  }
}

test('values a run of releases accepted and later ones refuse (x-enum-removed): outside the enum, dated inside the releases compared, and judged by the release', () => {
  const removed = Object.entries(PROPS).flatMap(([dest, p]) => Object.entries((p['x-enum-removed'] ?? {}) as Record<string, { since?: string; removed: string }>).map(([v, r]) => ({ dest, v, ...r, p })));
  // The values the 0.4.0–0.20.0 choices show removed (checked against upstream by the script's read).
  assert.ok(removed.length >= 9, `${removed.length} dated removals`);
  for (const r of removed) {
    assert.ok(!enumOf(r.p)?.includes(r.v), `${r.dest}: ${r.v} is still in the enum`);
    assert.ok(RELEASES.includes(r.removed), `${r.dest}: ${r.v} removed in ${r.removed}, not a release compared`);
    if (r.since) assert.ok(cmp(r.since, r.removed) < 0, `${r.dest}: ${r.v} since ${r.since} ≥ removed ${r.removed}`);
  }
  // By hand: inference_grouped_gemm_backend took auto/torch/te in 0.17.0–0.17.1 (transformer_config.py@core_v0.17.1), its new set from 0.18.0.
  assert.deepEqual(PROPS.inference_grouped_gemm_backend['x-enum-removed'].te, { since: '0.17.0', removed: '0.18.0' });
  const run = (release: string) => analyze({ path: 'train.sh', text: '#!/bin/bash\ntorchrun pretrain_gpt.py --num-layers 2 --hidden-size 64 --num-attention-heads 4 --inference-grouped-gemm-backend te\n' }, { targetVersions: { 'megatron-core': release } }).findings.filter((f) => f.code === 'invalid-value').map((f) => f.severity);
  assert.deepEqual(run('0.17.1'), [], 'valid in 0.17.1');
  assert.deepEqual(run('0.18.0'), ['error'], 'refused from 0.18.0');
});

// The seeded sample of 30 enum values checked against the choices of every release: test/unit/facts-sample.test.ts.

test('DeepSpeed values dated by the reader that checks them (scripts/history/deepspeed-enums.mjs): every x-enum-since outside optimizer.type, as recorded', () => {
  const DS = JSON.parse(readFileSync(join(__dirname, '../../schemas/deepspeed.schema.json'), 'utf8'));
  const found: Record<string, Record<string, string>[]> = {};
  const walk = (node: Prop, path: string[]) => {
    if (!node || typeof node !== 'object') return;
    if (node['x-enum-since'] && path.join('.') !== 'optimizer.type') (found[path.join('.')] ??= []).push(node['x-enum-since']);
    for (const [k, v] of Object.entries(node.properties ?? {})) walk(v as Prop, [...path, k]);
    for (const kw of ['anyOf', 'oneOf', 'allOf']) for (const sub of node[kw] ?? []) walk(sub, path);
    for (const kw of ['then', 'else', 'items']) if (node[kw]) walk(node[kw], path);
  };
  walk(DS, []);
  const one = Object.fromEntries(Object.entries(found).map(([k, list]) => [k, list[0]]));
  assert.deepEqual(one, {
    // deepspeed/runtime/fp16/onebit/{adam,zoadam,lamb}.py: `hccl` from v0.12.5, `compressed` from v0.14.3; before, an unknown backend leaves no handle and the constructor fails on it.
    'optimizer.params.comm_backend_name': { hccl: '0.12.5', compressed: '0.14.3' },
    // deepspeed/runtime/config.py@v0.5.8 … @v0.14.0 get_communication_data_type: fp32, fp16, `bfp16`; else ValueError. `bf16` (replacing `bfp16`) from v0.14.1.
    communication_data_type: { bf16: '0.14.1' },
    // The same reader for the key 0.11.2-0.16.4 read for Ulysses (runtime/constants.py@v0.16.4:252 "seq_parallel_comm_data_type").
    seq_parallel_comm_data_type: { bf16: '0.14.1' },
    // deepspeed/runtime/data_pipeline/curriculum_scheduler.py@v0.7.7: fixed_discrete/fixed_root/fixed_linear, else RuntimeError; `custom` from v0.8.0.
    'curriculum_learning.schedule_type': { custom: '0.8.0' },
    // deepspeed/compile/config.py: PassName is z1/z3/autosp from v0.18.9 to v0.19.5; `autotp` only on master (0.19.6).
    'compile.passes': { autotp: '0.19.6' },
    // deepspeed/elasticity/constants.py@v0.6.7:30 LATEST_ELASTICITY_VERSION = 0.1, 0.2 from v0.7.0; elasticity.py@v0.6.7:281-284 refuses a higher version (written by hand: the version is read only with elasticity enabled).
    'elasticity.version': { '0.2': '0.7.0' },
    // deepspeed/runtime/lr_schedules.py: WarmupDecayLR from v0.3.1, WarmupCosineLR from v0.12.3 (VALID_LR_SCHEDULES @v0.12.2 lacks it); engine.py _scheduler_from_config refuses another name torch does not have.
    'scheduler.type': { WarmupDecayLR: '0.3.1', WarmupCosineLR: '0.12.3' },
  });
  const run = (release: string) => analyze({ path: 'ds_config.json', text: '{"train_micro_batch_size_per_gpu": 4, "curriculum_learning": {"enabled": true, "min_difficulty": 8, "max_difficulty": 64, "schedule_type": "custom"}}\n' }, { targetVersions: { deepspeed: release } }).findings.filter((f) => f.code === 'version-unsupported-key').map((f) => f.severity);
  assert.deepEqual(run('0.7.7'), ['error']);
  assert.deepEqual(run('0.8.0'), []);
});
