/**
 * A seeded sample of the upstream facts the schemas record, checked against what
 * scripts/schema-history.mjs read from the upstream sources at every release tag and committed as
 * snapshots under schemas/history/ (the test needs no checkout):
 *   - 30 enum values of Megatron-LM arguments: the enum, `x-enum-since` and `x-enum-removed`
 *     against the choices of each release (megatron-choices.json);
 *   - 30 Megatron-LM defaults: `default` and `x-default-before` against the default of each
 *     release (megatron-defaults.json);
 *   - 10 ranges of DeepSpeed releases: whether a section refuses an unknown key
 *     (`x-unknown-key-effect`, `x-strict-since`, `x-value-forms` unused) against the pydantic models
 *     of each release (deepspeed-strictness.json), and what the unknown-key rule says there.
 * The seeds are fixed, so the sample is the same on every run; a change to the schema data that no
 * longer matches upstream fails here.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze, hover } from '../../server/src/engine';
import { defaultAt, defaultsBefore, noneDefaultRefused, strictSince, unknownKeyEffect, valueForms } from '../../server/src/engine/schema/vocabulary';
import { yamlCfgSectionAt } from '../../server/src/engine/formats/megatron/schema';
import type { JsonSchema } from '../../server/src/engine/schema/types';
import { compareVersions as cmp } from '../../server/src/engine/version';
import { mulberry32, sample } from './seeded';

type Prop = Record<string, any>;
const read = (name: string) => JSON.parse(readFileSync(join(__dirname, '../../schemas', name), 'utf8'));
const MEGATRON = read('megatron.schema.json');
const PROPS: Record<string, Prop> = MEGATRON.properties;
const DEEPSPEED = read('deepspeed.schema.json');
/** The Megatron releases the facts were computed from, oldest first: the tags, then the commit x-source names. */
const RELEASES: string[] = [...MEGATRON['x-source'].tagsCompared, MEGATRON['x-source'].version];
const enumOf = (p: Prop): unknown[] | undefined => p.enum ?? p.items?.enum;

interface Run<T> {
  from: string;
  to: string;
  kind: string;
  values?: string[];
  value?: T;
}
/** The run of a snapshot that holds `release`, if any. */
const runAt = <T>(runs: Run<T>[], release: string) => runs.find((x) => cmp(x.from, release) <= 0 && cmp(release, x.to) <= 0);
/** The releases of `all` a run covers. */
const releasesOf = (all: string[], run: { from: string; to: string }) => all.filter((r) => cmp(run.from, r) <= 0 && cmp(r, run.to) <= 0);

// ------------------------------------------------------------------------------------------------
// Enum values

const CHOICES: { releases: string[]; choices: Record<string, Run<never>[]> } = read('history/megatron-choices.json');

test('30 enum values: what the schema records (enum, x-enum-since, x-enum-removed) is what the parser of each release accepted', () => {
  const rel = CHOICES.releases;
  assert.deepEqual(rel, RELEASES, 'the snapshot was read from the releases the schema names');
  /** Per release: true (accepts), false (refuses), undefined (not read: choices computed at run time) or null (no flag). */
  const accepted = (dest: string, v: string): (boolean | null | undefined)[] =>
    rel.map((r) => {
      const run = runAt(CHOICES.choices[dest], r);
      if (!run || run.kind === 'absent') return null;
      return run.kind === 'free' ? true : run.kind === 'novalue' ? false : run.kind === 'dynamic' ? undefined : run.values!.includes(v);
    });
  const pairs = Object.keys(CHOICES.choices)
    .filter((d) => PROPS[d] && CHOICES.choices[d].every((x) => x.kind === 'static' || x.kind === 'absent'))
    .flatMap((d) => [...((enumOf(PROPS[d]) ?? []) as unknown[]).map(String), ...Object.keys(PROPS[d]['x-enum-removed'] ?? {})].map((v) => [d, v] as const));
  assert.ok(pairs.length > 200, `${pairs.length} pairs`);
  const picked = sample(pairs, 30, mulberry32(2026));
  assert.equal(new Set(picked.map(([d, v]) => `${d}=${v}`)).size, 30);
  for (const [dest, v] of picked) {
    const p = PROPS[dest];
    const a = accepted(dest, v);
    const first = a.indexOf(true);
    const last = a.lastIndexOf(true);
    const flagFirst = a.findIndex((x) => x !== null);
    // The last release with the flag (the newest, unless the argument itself was removed: x-removed).
    const flagLast = a.length - 1 - [...a].reverse().findIndex((x) => x !== null);
    assert.equal(p['x-removed']?.version, rel[flagLast + 1], `${dest}: the argument's x-removed`);
    assert.ok(first >= 0, `${dest}: ${v} is accepted by no release`);
    const removed = p['x-enum-removed']?.[v];
    if (removed) {
      assert.ok(!enumOf(p)?.includes(v) && last < flagLast, `${dest}: ${v} is dated removed but the last release with the flag takes it`);
      assert.equal(removed.removed, rel[last + 1], `${dest}: ${v} removed`);
      assert.equal(removed.since, first === 0 ? undefined : rel[first], `${dest}: ${v} since`);
    } else {
      assert.equal(a[flagLast], true, `${dest}: ${v} is in the enum but the last release with the flag refuses it`);
      assert.equal(p['x-enum-since']?.[v], first > flagFirst ? rel[first] : undefined, `${dest}: ${v} x-enum-since`);
    }
    assert.ok(a.slice(first, last + 1).every((x) => x === true), `${dest}: ${v} refused between releases that take it`);
  }
});

// ------------------------------------------------------------------------------------------------
// Defaults

const DEFAULTS: { releases: string[]; defaults: Record<string, Run<unknown>[]> } = read('history/megatron-defaults.json');
/** The schema's default at a release as the engine reads it (no default: None). */
const schemaDefaultAt = (p: Prop, release: string) => {
  const v = defaultAt(p as JsonSchema, release);
  return v === undefined ? null : v;
};

test('30 defaults: the default the schema gives each release (default, x-default-before) is the one its parser had', () => {
  assert.deepEqual(DEFAULTS.releases, RELEASES, 'the snapshot was read from the releases the schema names');
  const args = Object.keys(DEFAULTS.defaults).filter((d) => PROPS[d] && DEFAULTS.defaults[d].some((r) => r.kind === 'value'));
  assert.ok(args.length > 900, `${args.length} arguments with a read default`);
  const changed = args.filter((d) => new Set(DEFAULTS.defaults[d].filter((r) => r.kind === 'value').map((r) => JSON.stringify(r.value))).size > 1);
  assert.ok(changed.length >= 30, `${changed.length} arguments whose default changed`);
  // Half of the sample among the defaults that changed, which are few; half among the others.
  const random = mulberry32(0xdefa);
  const picked = [...sample(changed, 15, random), ...sample(args.filter((d) => !changed.includes(d)), 15, random)];
  assert.equal(new Set(picked).size, 30);
  for (const dest of picked) {
    const p = PROPS[dest];
    let compared = 0;
    for (const run of DEFAULTS.defaults[dest]) {
      if (run.kind !== 'value') continue;
      for (const r of releasesOf(RELEASES, run)) {
        assert.deepEqual(schemaDefaultAt(p, r), run.value, `${dest}: the default at ${r}`);
        compared++;
      }
    }
    assert.ok(compared > 0, dest);
    // Every entry of x-default-before marks a release whose read default differs from the one before it.
    for (const { before } of defaultsBefore(p as JsonSchema)) {
      const i = RELEASES.indexOf(before);
      assert.ok(i > 0, `${dest}: x-default-before names ${before}, not a release compared after the first`);
    }
  }
});

test('x-default-before is well formed: releases compared, oldest entry after the argument arrived, and no entry equal to the default after it', () => {
  const dated = Object.entries(PROPS).filter(([, p]) => p['x-default-before']);
  assert.ok(dated.length >= 30, `${dated.length} arguments`);
  for (const [dest, p] of dated) {
    const entries = defaultsBefore(p as JsonSchema);
    for (const [i, { before, value }] of entries.entries()) {
      assert.ok(RELEASES.includes(before), `${dest}: ${before} is not a release compared`);
      if (p['x-since']) assert.ok(cmp(before, p['x-since']) > 0, `${dest}: ${before} is not later than the argument (${p['x-since']})`);
      const next = i + 1 < entries.length ? entries[i + 1].value : p.default ?? null;
      assert.notDeepEqual(value, next, `${dest}: the default before ${before} is the one after it`);
    }
  }
  // By hand: megatron/core/transformer/transformer_config.py@core_v0.17.1 line ~851
  // `cuda_graph_use_single_mempool: bool = False`; @core_v0.18.0 line ~909 `= True`.
  assert.equal(schemaDefaultAt(PROPS.cuda_graph_use_single_mempool, '0.17.1'), false);
  assert.equal(schemaDefaultAt(PROPS.cuda_graph_use_single_mempool, '0.18.0'), true);
  // megatron/arguments.py@core_v0.5.0 line ~510: --transformer-impl default='local';
  // megatron/training/arguments.py@core_v0.6.0: default='transformer_engine'.
  assert.equal(schemaDefaultAt(PROPS.transformer_impl, '0.5.0'), 'local');
  assert.equal(schemaDefaultAt(PROPS.transformer_impl, '0.6.0'), 'transformer_engine');
  // A switch that stored another attribute: its default is not the property's. transformer_config.py@core_v0.13.0:612
  // `use_mamba_mem_eff_path: bool = True`, while arguments.py@core_v0.13.0:2926 `--disable-mamba-mem-eff-path`
  // (store_true) stored `disable_mamba_mem_eff_path`, which nothing reads; arguments.py@core_v0.16.0:1515
  // `--enable-chunked-prefill` stored False into `disable_chunked_prefill` (default True: chunked prefill off);
  // arguments.py@core_v0.17.1:3271 `--disable-msc` stored False into `enable_msc` (default True: MSC on).
  assert.equal(schemaDefaultAt(PROPS.use_mamba_mem_eff_path, '0.13.0'), true);
  assert.equal(schemaDefaultAt(PROPS.enable_chunked_prefill, '0.16.0'), false);
  assert.equal(schemaDefaultAt(PROPS.disable_msc_deprecated, '0.17.1'), false);
  // The attribute that other flag stored is the property's own: `--disable-msc` (store_false, dest enable_msc,
  // default True) is how 0.13.0-0.17.x set enable_msc, so MSC is on by default there; off from 0.18.0
  // (arguments.py@core_v0.17.1:3271; @core_v0.18.0:3326-3331 `--enable-msc`).
  assert.equal(schemaDefaultAt(PROPS.enable_msc, '0.17.1'), true);
  assert.equal(schemaDefaultAt(PROPS.enable_msc, '0.18.0'), false);
});

test('hover gives the default of older releases, and the default of the release a file is checked against', () => {
  const text = '#!/bin/bash\ntorchrun pretrain_gpt.py --num-layers 2 --inference-grouped-gemm-backend vllm\n';
  const on = text.indexOf('--inference-grouped-gemm-backend') + 3;
  const newest = hover(analyze({ path: 'train.sh', text }), on)!.markdown;
  assert.match(newest, /Default: `vllm` \(`auto` before 0\.18\.0\)/);
  assert.doesNotMatch(newest, /the release checked against/);
  const old = hover(analyze({ path: 'train.sh', text }, { targetVersions: { 'megatron-core': '0.17.1' } }), on)!.markdown;
  assert.match(old, /Default in 0\.17\.1, the release checked against: `auto`/);
});

// ------------------------------------------------------------------------------------------------
// Strictness

const STRICT: { releases: string[]; strict: Record<string, { from: string; to: string; strict: boolean }[]> } = read('history/deepspeed-strictness.json');

/** The schema node of a dotted DeepSpeed section. */
const sectionSchema = (dotted: string): Prop => dotted.split('.').reduce((node: Prop, k) => node.properties[k], DEEPSPEED);
/** The release a section arrived in: its own x-since or a parent's, whichever is later. */
const sectionSince = (dotted: string): string | undefined =>
  dotted
    .split('.')
    .map((_, i) => sectionSchema(dotted.split('.').slice(0, i + 1).join('.'))['x-since'] as string | undefined)
    .filter((v): v is string => !!v)
    .sort(cmp)
    .at(-1);
/** Whether the schema says `release` refuses an unknown key in the section, read as the engine reads it. */
function schemaRefuses(section: JsonSchema, release: string): boolean {
  if (unknownKeyEffect(section) !== 'error') return false;
  const since = strictSince(section);
  if (since && cmp(release, since) < 0) return false;
  return !(valueForms(section) ?? []).some((f) => f.form === 'unused' && (!f.since || cmp(release, f.since) >= 0) && (!f.until || cmp(release, f.until) < 0));
}
/** The severity of the unknown-key finding for a made-up key in the section, at `release`. */
function unknownKeySeverity(dotted: string, release: string): string | undefined {
  const config: Record<string, unknown> = { train_batch_size: 8 };
  let node = config;
  for (const k of dotted.split('.')) node = (node[k] = {}) as Record<string, unknown>;
  node.shardwise_probe_key = 1;
  const text = JSON.stringify(config, null, 2);
  const found = analyze({ path: 'ds_config.json', text }, { targetVersions: { deepspeed: release } }).findings.filter((f) => f.code === 'unknown-key' && text.slice(f.span.start, f.span.end).includes('shardwise_probe_key'));
  return found[0]?.severity;
}

test('10 ranges of DeepSpeed releases: whether a section refuses an unknown key is what its pydantic model did at each release', () => {
  const all = STRICT.releases;
  // The runs within the releases that have the section.
  const ranges = Object.entries(STRICT.strict).flatMap(([section, runs]) => {
    const since = sectionSince(section);
    return runs
      .map((r) => ({ section, strict: r.strict, releases: releasesOf(all, r).filter((v) => !since || cmp(v, since) >= 0) }))
      .filter((r) => r.releases.length > 0);
  });
  assert.ok(ranges.length >= 25, `${ranges.length} ranges`);
  const picked = sample(ranges, 10, mulberry32(0x57a1c7));
  for (const { section, strict, releases } of picked) {
    const schema = sectionSchema(section) as JsonSchema;
    for (const r of releases) assert.equal(schemaRefuses(schema, r), strict, `${section} at ${r}: ${strict ? 'refuses' : 'ignores'} an unknown key`);
    // What a file for the first and the last release of the range is told.
    for (const r of new Set([releases[0], releases.at(-1)!])) {
      const severity = unknownKeySeverity(section, r);
      assert.ok(severity && (severity === 'error') === strict, `${section} at ${r}: ${severity}`);
    }
  }
});

test('by hand: DeepSpeed read zero_optimization key by key before 0.7.0 and fp16 before 0.17.1', () => {
  // deepspeed/runtime/zero/config.py@v0.6.7 reads each key with get_scalar_param; @v0.7.0
  // `class DeepSpeedZeroConfig(DeepSpeedConfigModel)`, whose Config sets extra = "forbid"
  // (deepspeed/runtime/config_utils.py@v0.7.0 line ~90).
  assert.deepEqual(STRICT.strict.zero_optimization.map((r) => [r.from, r.strict]), [
    ['0.3.0', false],
    ['0.7.0', true],
  ]);
  assert.equal(unknownKeySeverity('zero_optimization', '0.6.0'), 'information');
  assert.equal(unknownKeySeverity('zero_optimization', '0.7.0'), 'error');
  // deepspeed/runtime/precision_config.py@v0.17.1 line ~100: class DeepSpeedFP16Config(DeepSpeedConfigModel).
  assert.equal(runAt(STRICT.strict.fp16 as never, '0.17.0')?.['strict' as never], false);
  assert.equal(unknownKeySeverity('fp16', '0.17.0'), 'information');
  assert.equal(unknownKeySeverity('fp16', '0.17.1'), 'error');
});

// ------------------------------------------------------------------------------------------------
// DeepSpeed defaults

const DS_DEFAULTS: { releases: string[]; default: Record<string, { from: string; to: string; default: unknown }[]> } = read('history/deepspeed-defaults.json');

test('DeepSpeed defaults: the default the schema gives each release (default, x-default-before) is the one its pydantic model had', () => {
  const keys = Object.keys(DS_DEFAULTS.default);
  assert.ok(keys.length > 100, `${keys.length} keys with a read default`);
  let compared = 0;
  for (const dotted of keys) {
    let p: Prop | undefined;
    try {
      p = sectionSchema(dotted);
    } catch {
      p = undefined;
    }
    // A key the schema gives no default: nothing the engine would say to compare.
    if (!p || !('default' in p)) continue;
    for (const run of DS_DEFAULTS.default[dotted]) {
      for (const r of releasesOf(DS_DEFAULTS.releases, run)) {
        if (p['x-since'] && cmp(r, p['x-since']) < 0) continue;
        assert.deepEqual(defaultAt(p as JsonSchema, r), run.default, `${dotted}: the default at ${r}`);
        compared++;
      }
    }
  }
  assert.ok(compared > 1000, `${compared} release defaults compared`);
  // By hand: deepspeed/runtime/zero/offload_config.py@v0.19.4 `pin_memory: bool = False`, @v0.19.5 `= True`.
  const pin = sectionSchema('zero_optimization.offload_param.pin_memory') as JsonSchema;
  assert.equal(defaultAt(pin, '0.19.4'), false);
  assert.equal(defaultAt(pin, '0.19.5'), true);
});

test('DeepSpeed defaults of the releases that read a section key by key (the `_DEFAULT` constants), by hand', () => {
  // deepspeed/runtime/zero/offload_constants.py@v0.5.6:26,54 `OFFLOAD_PARAM_DEVICE_DEFAULT = OFFLOAD_CPU_DEVICE`
  // (and the optimizer's); @v0.5.7:28,56 and @v0.6.7:28,56 `= None`, which zero/offload_config.py@v0.5.7:44,62
  // refuses; zero/offload_config.py@v0.7.0:19,28 `device: OffloadDeviceEnum = OffloadDeviceEnum.none`.
  for (const section of ['offload_param', 'offload_optimizer']) {
    const device = sectionSchema(`zero_optimization.${section}.device`) as JsonSchema;
    assert.equal(defaultAt(device, '0.5.6'), 'cpu', section);
    assert.equal(defaultAt(device, '0.5.7'), null, section);
    assert.equal(defaultAt(device, '0.6.7'), null, section);
    assert.equal(defaultAt(device, '0.7.0'), 'none', section);
    assert.deepEqual(noneDefaultRefused(device), [{ since: '0.5.7', before: '0.7.0' }], section);
  }
  // deepspeed/runtime/constants.py@v0.16.4 `BFLOAT16_IMMEDIATE_GRAD_UPDATE_DEFAULT = False`, @v0.16.5 `= True`
  // (read by runtime/config.py@v0.16.5 whenever a bf16 section is written); the pydantic field of
  // runtime/precision_config.py@v0.17.1 is False again.
  const igu = sectionSchema('bf16.immediate_grad_update') as JsonSchema;
  assert.deepEqual(['0.16.4', '0.16.5', '0.17.0', '0.17.1'].map((r) => defaultAt(igu, r)), [false, true, true, false]);
  // deepspeed/runtime/constants.py@v0.7.7 `FP16_INITIAL_SCALE_POWER_DEFAULT = 32`; 16 in the pydantic model from 0.8.0.
  const isp = sectionSchema('fp16.initial_scale_power') as JsonSchema;
  assert.equal(defaultAt(isp, '0.7.7'), 32);
  assert.equal(defaultAt(isp, '0.8.0'), 16);
  // The hover of a file checked against 0.5.0 gives that release's default.
  const text = '{\n  "train_micro_batch_size_per_gpu": 1,\n  "zero_optimization": { "stage": 3, "offload_param": { "device": "none" } }\n}\n';
  const on = text.indexOf('"device"') + 2;
  const old = hover(analyze({ path: 'ds_config.json', text }, { targetVersions: { deepspeed: '0.5.0' } }), on)!.markdown;
  assert.match(old, /Default in 0\.5\.0, the release checked against: `cpu`/);
  // At 0.6.0 the default is None, not the text "none".
  const none = hover(analyze({ path: 'ds_config.json', text }, { targetVersions: { deepspeed: '0.6.0' } }), on)!.markdown;
  assert.match(none, /Default in 0\.6\.0, the release checked against: `None`/);
});

test('an argument a release has before its flag arrived defaults to the config dataclass field there', () => {
  // megatron/core/transformer/transformer_config.py@core_v0.10.0:633 and :636 give MLATransformerConfig
  // `mscale = 0.707` and `mscale_all_dim = 0.707`; arguments.py@core_v0.10.0 has neither flag, and
  // core_transformer_config_from_args (arguments.py@core_v0.10.0:776-778) copies only the attributes
  // the parser has, so the field's default stands. The flags come in arguments.py@core_v0.11.0:2259-2262
  // with 1.0 and 1.0; --mscale-all-dim takes 0.0 at arguments.py@core_v0.14.0:2915.
  const at = (dest: string, r: string) => defaultAt(PROPS[dest] as JsonSchema, r);
  assert.equal(at('mscale', '0.10.0'), 0.707);
  assert.equal(at('mscale', '0.11.0'), 1);
  assert.equal(at('mscale', '0.14.0'), 1);
  assert.equal(at('mscale_all_dim', '0.10.0'), 0.707);
  assert.equal(at('mscale_all_dim', '0.13.1'), 1);
  assert.equal(at('mscale_all_dim', '0.14.0'), 0);
  // transformer_config.py@core_v0.11.0:895 `rope_type = "yarn"`; the flag (arguments.py@core_v0.14.0)
  // defaults to None, which the config builder drops so the field keeps "yarn" (arguments.py@core_v0.14.0:1188-1190).
  assert.equal(at('rope_type', '0.12.0'), 'yarn');
  assert.equal(at('rope_type', '0.14.0'), undefined);
  for (const dest of ['mscale', 'mscale_all_dim', 'rope_type']) assert.equal(DEFAULTS.defaults[dest][0].from, PROPS[dest]['x-since'], dest);
  // The hover of a launch script checked against 0.10.0 names that release's default.
  const text = '#!/bin/bash\ntorchrun pretrain_gpt.py --multi-latent-attention --mscale-all-dim 1.0\n';
  const on = text.indexOf('--mscale-all-dim') + 3;
  const md = hover(analyze({ path: 'train.sh', text }, { targetVersions: { 'megatron-core': '0.10.0' } }), on)!.markdown;
  assert.match(md, /`0\.707` in 0\.10\.0/);
});

test('the --yaml-cfg place of a key follows the config dataclasses of each release (x-yaml-cfg, x-yaml-cfg-before)', () => {
  // The reader builds TransformerConfig from `language_model` and `model_parallel` (yaml_arguments.py@core_v0.6.0
  // core_transformer_config_from_yaml, core_config_from_args raising "Missing argument" for a field in neither);
  // any other key is a top-level argument.
  const place = (dest: string) => [PROPS[dest]['x-yaml-cfg'], PROPS[dest]['x-yaml-cfg-before']];
  // transformer_config.py@core_v0.16.0:211 adds `qk_l2_norm`; before, --qk-l2-norm (arguments.py@core_v0.13.0) only sets the argument.
  assert.deepEqual(place('qk_l2_norm'), ['language_model', { '0.16.0': 'top' }]);
  // transformer_config.py@core_v0.14.0:662 adds `transformer_impl`; examples/gpt3/gpt_config.yaml@core_v0.13.0:167 has it at the top.
  assert.deepEqual(place('transformer_impl'), ['language_model', { '0.14.0': 'top' }]);
  // TransformerConfig has `max_position_embeddings` at core_v0.6.0 (transformer_config.py:255) and core_v0.7.0, not from core_v0.8.0.
  assert.deepEqual(place('max_position_embeddings'), ['top', { '0.8.0': 'language_model' }]);
  // model_parallel_config.py@core_v0.7.0:239, @core_v0.13.0:289: a ModelParallelConfig field for as long as it existed (removed in 0.14.0).
  assert.deepEqual(place('pipeline_model_parallel_split_rank'), ['model_parallel', undefined]);
  const at = (dest: string, release: string) => yamlCfgSectionAt(dest, (v) => cmp(release, v) >= 0);
  assert.equal(at('qk_l2_norm', '0.15.0'), 'top');
  assert.equal(at('qk_l2_norm', '0.16.0'), 'language_model');
  assert.equal(at('max_position_embeddings', '0.7.0'), 'language_model');
  assert.equal(at('max_position_embeddings', '0.8.0'), 'top');
  // Every entry names a release compared, later than the argument, and another place than the one after it.
  for (const [dest, p] of Object.entries(PROPS)) {
    const entries = Object.entries((p['x-yaml-cfg-before'] ?? {}) as Record<string, string>).sort(([a], [b]) => cmp(a, b));
    for (const [i, [before, where]] of entries.entries()) {
      assert.ok(RELEASES.includes(before) && (!p['x-since'] || cmp(before, p['x-since']) > 0), `${dest}: ${before}`);
      assert.notEqual(where, i + 1 < entries.length ? entries[i + 1][1] : p['x-yaml-cfg'], `${dest}: ${before}`);
    }
  }
});

test('flags of the inference helper are dated by the first release any Python file of Megatron-LM has them', () => {
  // examples/inference/gpt/utils.py@core_v0.12.0 is the helper's first release; no .py file at
  // core_v0.11.0 has these four, so they arrived with it. --temperature was already read by the
  // older inference tools (tools/run_text_generation_server.py@core_v0.11.0), so it stays undated.
  for (const dest of ['incoming_requests_duration', 'incoming_requests_per_sec', 'num_tokens_to_prompt', 'top_n_logprobs']) {
    assert.equal(PROPS[dest]['x-since'], '0.12.0', dest);
    assert.equal(DEFAULTS.defaults[dest][0].from, '0.12.0', dest);
  }
  assert.equal(PROPS.temperature['x-since'], undefined);
  // An example's own parser counts too: examples/inference/gpt/gpt_static_inference.py@core_v0.13.0:58 adds
  // --output-path, which the helper (examples/inference/gpt/utils.py) has only from core_v0.14.0:77.
  assert.equal(PROPS.output_path['x-since'], '0.13.0');
  // One of the inference tools has its own parser too: tools/run_inference_performance_test.py@core_v0.12.0:79
  // adds --model-provider (mamba or gpt) a release before the helper (examples/inference/gpt/utils.py@core_v0.13.0:68),
  // and no Python file of core_v0.11.0 has it.
  const inTools: Record<string, string> = { model_provider: '0.12.0' };
  assert.equal(PROPS.model_provider['x-since'], '0.12.0');
  assert.equal(DEFAULTS.defaults.model_provider[0].from, '0.13.0');
  // An inference flag the history first sees after 0.12.0 carries that release, or the tool's.
  for (const [dest, p] of Object.entries(PROPS)) {
    if (!(p['x-entrypoints'] ?? []).includes('examples/inference')) continue;
    const first = DEFAULTS.defaults[dest]?.[0]?.from;
    if (first && cmp(first, '0.12.0') > 0) assert.equal(p['x-since'], inTools[dest] ?? first, dest);
  }
});

test('a deprecation never advises a replacement the targeted release does not have: each replacement is dated no later than the deprecation, or the message says when it arrives', () => {
  // megatron/training/arguments.py@core_v0.18.0 has neither --inference-dynamic-batching-cuda-graph-max-tokens
  // nor --inference-cuda-graph-max-tokens (arguments.py@core_v0.19.0:2059 adds the latter); --hybrid-layer-pattern
  // arrives with the deprecation of --hybrid-override-pattern in arguments.py@core_v0.17.0:592 (absent @core_v0.16.0);
  // Accelerate reads fp8_config from commands/launch.py@v1.4.0:1063, where amax_history_len etc. start to count.
  const text = '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun pretrain_gpt.py --num-layers 2 --inference-dynamic-batching-cuda-graph-max-tokens 8192\n';
  const at = (v: string) => analyze({ path: 'train.sh', text }, { targetVersions: { 'megatron-core': v } }).findings.filter((f) => f.code === 'deprecated-key').map((f) => f.message);
  const old = at('0.18.0');
  assert.equal(old.length, 1);
  assert.doesNotMatch(old[0], /Use `--inference-cuda-graph-max-tokens` instead/);
  assert.match(old[0], /`--inference-cuda-graph-max-tokens` replaces it from Megatron-LM 0\.19\.0/);
  assert.match(at('0.19.0')[0], /Use `--inference-cuda-graph-max-tokens` instead/);
  // Every other deprecation with a replacement: the replacement exists from the deprecation on.
  const late: string[] = [];
  for (const [name, schema] of [['megatron', MEGATRON], ['deepspeed', DEEPSPEED], ['accelerate', read('accelerate.schema.json')]] as const) {
    const props = new Map<string, Prop>();
    const walk = (node: Prop | undefined, path: string[]) => {
      for (const [k, v] of Object.entries((node?.properties ?? {}) as Record<string, Prop>)) {
        props.set([...path, k].join('.'), v);
        walk(v, [...path, k]);
      }
    };
    walk(schema, []);
    for (const [def, node] of Object.entries((schema.definitions ?? {}) as Record<string, Prop>)) walk(node, [def]);
    for (const [dotted, p] of props) {
      for (const d of [p['x-deprecated'], p['x-removed']]) {
        if (!d?.replacement) continue;
        const parent = dotted.split('.').slice(0, -1);
        const rep = String(d.replacement).replace(/^\//, '');
        const r = props.get(rep) ?? props.get([...parent, rep].join('.'));
        const from = d.since ?? d.version;
        if (r?.['x-since'] && from && cmp(r['x-since'], from) > 0) late.push(`${name} ${dotted} → ${rep}`);
      }
    }
  }
  assert.deepEqual(late, ['megatron inference_dynamic_batching_cuda_graph_max_tokens → inference_cuda_graph_max_tokens', 'megatron inference_dynamic_batching_cuda_graph_max_tokens → inference_cuda_graph_max_tokens']);
});

test("an entry-point note names every script the schema's table says adds the flag", () => {
  // examples/multimodal/multimodal_args.py@core_v0.10.0 adds --freeze-LM, --freeze-ViT, --dataloader-seq-length
  // (examples/multimodal/train.py@core_v0.8.0 added the first ones itself), beside pretrain_vlm.py: a note
  // saying "pretrain_vlm.py only" contradicts the table `x-entrypoint-flags` the unknown-flag check uses.
  // examples/mimo/train.py@core_v0.18.0 defines a --model-provider of its own (llava_vlm, llava_avlm, mock),
  // another setting under the same name.
  const own: Record<string, string[]> = { model_provider: ['examples/mimo/train.py'] };
  const table = (MEGATRON['x-entrypoint-flags'] ?? {}) as Record<string, string[]>;
  const silent: string[] = [];
  for (const [dest, p] of Object.entries(PROPS)) {
    const note = p['x-entrypoint-note'] as string | undefined;
    if (!note) continue;
    for (const [script, flags] of Object.entries(table)) {
      if (!flags.includes(p['x-flag'] as string) || own[dest]?.includes(script)) continue;
      if (!note.includes(script) && !(p['x-entrypoints'] ?? []).includes(script)) silent.push(`${dest}: ${script}`);
    }
  }
  assert.deepEqual(silent, []);
});
