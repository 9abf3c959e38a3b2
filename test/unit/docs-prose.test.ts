/**
 * Sentences of the rule pages and hovers that say what upstream does, checked against what the tool
 * itself reports for the same file (a page must not call a run silent that another rule stops).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze, RULES } from '../../server/src/engine';
import { ACCELERATE_SCHEMA } from '../../server/src/engine/formats/accelerate/format';

const rule = (id: string) => RULES.find((r) => r.id === id)!;
type Prop = { description?: string; markdownDescription?: string; properties?: Record<string, Prop> };
const schema = (name: string): { properties: Record<string, Prop> } => JSON.parse(readFileSync(join(__dirname, '../../schemas', name), 'utf8'));

test('missing-key-prefix: with `tp_size` dropped the example mesh is 4 ranks for 8 processes, which Accelerate stops on (src/accelerate/parallelism_config.py@v1.10.0:283-287 "ParallelismConfig total_size … does not match num_processes"); the page says so, not that the run goes on silently', () => {
  const r = rule('missing-key-prefix');
  const codes = analyze({ path: 'accelerate.yaml', text: r.docs!.bad! }, { targetVersions: { accelerate: '1.10.0' } }).findings.map((f) => `${f.severity}:${f.code}`);
  assert.ok(codes.includes('error:world-size-mismatch'), codes.join(', '));
  assert.doesNotMatch(r.docs!.why, /silently uses a tensor-parallel size of 1/);
  assert.match(r.docs!.why, /does not match num_processes/);
});

test('missing-distributed-type: `distributed_type` has no default at every release before 0.34 (src/accelerate/commands/config/config_args.py@v0.2.0:67, @v0.33.0:78), so the page does not date the requirement from 0.34', () => {
  const r = rule('missing-distributed-type');
  assert.doesNotMatch(r.docs!.why, /^Since accelerate 0\.34/);
  assert.match(r.docs!.why, /every release/);
  const codes = analyze({ path: 'accelerate.yaml', text: 'num_processes: 2\nmixed_precision: bf16\n' }, { targetVersions: { accelerate: '0.33.0' } }).findings.map((f) => f.code);
  assert.ok(codes.includes('missing-distributed-type'), codes.join(', '));
});

test('megatron_lm_sequence_parallelism: at TP 1 Megatron turns sequence parallelism off instead of refusing it (megatron/training/arguments.py@core_v0.8.0, `args.sequence_parallel = False`): the hover says that, as sequence-parallel-without-tp does', () => {
  const schema = ACCELERATE_SCHEMA as { definitions: Record<string, { properties: Record<string, { markdownDescription?: string }> }> };
  const text = schema.definitions.megatron_lm_config.properties.megatron_lm_sequence_parallelism.markdownDescription ?? '';
  assert.doesNotMatch(text, /only accepts/);
  assert.match(text, /turns it off/);
});

test('hysteresis: the loss scalers halve the scale on the overflow that uses up the allowance, and Megatron Core and DeepSpeed (without consecutive_hysteresis) refill it only when they raise the scale, so the overflows need not be in a row; the hovers say so', () => {
  // Megatron Core: each overflow lowers the tracker, which only a growth after `growth_interval` clean
  // steps refills (optimizer/grad_scaler.py@core_v0.4.0 DynamicGradScaler.update, same @core_v0.19.0).
  const mg = schema('megatron.schema.json').properties.hysteresis;
  for (const t of [mg.description!, mg.markdownDescription!]) assert.doesNotMatch(t, /in a row \(2: the second\)/);
  assert.match(mg.markdownDescription!, /need not be consecutive/);
  // NeMo's own scaler refills it after every clean step (nemo/collections/nlp/parts/nlp_overrides.py@v2.5.0rc0:1637-1663).
  assert.match(mg.markdownDescription!, /NeMo's own scaler .* after every overflow-free step/);
  // DeepSpeed: halves when the allowance is 1, otherwise lowers it; refills on growth, or on every
  // clean step with consecutive_hysteresis (runtime/fp16/loss_scaler.py@v0.3.0:154-164, @v0.19.5 update_scale).
  const ds = schema('deepspeed.schema.json').properties.fp16.properties!.hysteresis;
  assert.doesNotMatch(ds.markdownDescription!, /only halved after this many/);
  assert.match(ds.markdownDescription!, /the second halves the scale/);
  assert.match(ds.markdownDescription!, /need not be consecutive/);
});

test('stage3_gather_16bit_weights_on_model_save: off under ZeRO-3, save_16bit_model writes no file at all (runtime/engine.py@v0.19.5 save_16bit_model returns False, "Did not save the model"; @v0.3.14 save_fp16_model returns before saving), and Accelerate\'s get_state_dict raises (src/accelerate/accelerator.py@v1.14.0:4033-4050); no hover says a partial or empty state dict is written', () => {
  const z = schema('deepspeed.schema.json').properties.zero_optimization.properties!;
  for (const k of ['stage3_gather_16bit_weights_on_model_save', 'gather_16bit_weights_on_model_save']) {
    assert.doesNotMatch(z[k].markdownDescription!, /empty or partial/, k);
    assert.match(z[k].markdownDescription!, /writes no file/, k);
  }
  assert.match(z.stage3_gather_fp16_weights_on_model_save.markdownDescription!, /writes no file/);
  const acc = (schema('accelerate.schema.json') as unknown as { definitions: Record<string, Prop> }).definitions.deepspeed_config.properties!.zero3_save_16bit_model;
  assert.doesNotMatch(acc.markdownDescription!, /instead of ZeRO shards/);
  assert.match(acc.markdownDescription!, /ValueError/);
});

test('quantize_training.eigenvalue: before 0.7.0 read under `quantize_training.enabled`, where `enabled: true` runs the schedule (runtime/config.py@v0.6.7:621-637, engine.py@v0.6.7:337-338); from 0.7.0 under compression weight quantization, where it is refused (runtime/config.py@v0.7.0:555-557): the hovers give both ranges', () => {
  const q = schema('deepspeed.schema.json').properties.quantize_training;
  const e = q.properties!.eigenvalue;
  assert.match(e.markdownDescription!, /before 0\.7\.0 with `quantize_training\.enabled`/);
  assert.match(e.markdownDescription!, /from 0\.7\.0 with `compression_training` weight quantization/);
  assert.doesNotMatch(e.properties!.enabled.markdownDescription!, /^Currently rejected/);
  assert.match(q.markdownDescription!, /0\.7\.0 to 0\.19\.2 stop when the file has no `quantize_training` section/);
});
