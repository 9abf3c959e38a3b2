/**
 * DeepSpeed JSON configs and the Accelerate configs that point at them: the Plan of a ds_config,
 * reading the linked file through the host, and the checks across the two files.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze, applyEdits, codeActions, fixRound, parseProjectConfig, type FileInput } from '../../server/src/engine';
import { defaultAt } from '../../server/src/engine/schema/vocabulary';
import { hostFor } from './annotate';

const YAML = (extra = '') => `distributed_type: DEEPSPEED
num_processes: 4
mixed_precision: bf16
deepspeed_config:
  deepspeed_config_file: ds.json
  zero3_init_flag: true
${extra}`;
const JSON_OF = (o: unknown) => JSON.stringify(o, null, 2) + '\n';
const codes = (input: FileInput) => analyze(input).findings.map((f) => f.code);

test('the Accelerate config reads the DeepSpeed JSON it points at: precision and stage checked across files', () => {
  const fp16 = JSON_OF({ train_micro_batch_size_per_gpu: 'auto', fp16: { enabled: true }, zero_optimization: { stage: 2 } });
  const a = analyze({ path: '/project/accelerate.yaml', text: YAML(), ...hostFor({ files: { 'ds.json': fp16 } }) });
  const mp = a.findings.find((f) => f.code === 'mixed-precision-conflict')!;
  assert.ok(mp, a.findings.map((f) => f.code).join(', '));
  assert.match(mp.message, /ds\.json, which enables `fp16`/);
  assert.equal(a.text.slice(mp.span.start, mp.span.end), 'bf16');
  const z3 = a.findings.find((f) => f.code === 'zero3-init-without-stage3')!;
  assert.match(z3.message, /ds\.json sets stage 2/);
  // The link: the path as written, resolved by the host.
  assert.deepEqual(a.links.map((l) => [a.text.slice(l.span.start, l.span.end), l.target]), [['ds.json', '/project/ds.json']]);
  assert.deepEqual(a.dependencies, ['/project/ds.json']);
  // The same config with a bf16 stage-3 JSON: neither finding.
  const bf16 = JSON_OF({ train_micro_batch_size_per_gpu: 'auto', bf16: { enabled: true }, zero_optimization: { stage: 3 } });
  const ok = codes({ path: '/project/accelerate.yaml', text: YAML(), ...hostFor({ files: { 'ds.json': bf16 } }) });
  assert.ok(!ok.includes('mixed-precision-conflict') && !ok.includes('zero3-init-without-stage3'), ok.join(', '));
});

test('a missing or unusable JSON is said, with where it was looked for; without a host nothing is guessed', () => {
  const missing = analyze({ path: '/project/accelerate.yaml', text: YAML(), ...hostFor({ files: {} }) });
  const f = missing.findings.find((x) => x.code === 'deepspeed-config-file-missing')!;
  assert.match(f.message, /Looked for: `\/project\/ds\.json`/);
  assert.equal(missing.links[0].target, undefined);
  const commented = '{\n  // accelerate reads this with json.load\n  "zero_optimization": { "stage": 2 }\n}\n';
  const bad = analyze({ path: '/project/accelerate.yaml', text: YAML(), ...hostFor({ files: { 'ds.json': commented } }) });
  assert.match(bad.findings.find((x) => x.code === 'deepspeed-config-file-invalid')!.message, /line 2: JSON syntax: JSON has no comments; Python's json\.load rejects the file\): accelerate/);
  const noZero = analyze({ path: '/project/accelerate.yaml', text: YAML(), ...hostFor({ files: { 'ds.json': JSON_OF({ bf16: { enabled: true } }) } }) });
  assert.match(noZero.findings.find((x) => x.code === 'deepspeed-config-file-invalid')!.message, /no `zero_optimization`/);
  const alone = codes({ path: '/project/accelerate.yaml', text: YAML() });
  assert.ok(!alone.some((c) => /deepspeed-config-file-(missing|invalid)|mixed-precision-conflict/.test(c)), alone.join(', '));
});

test('a host resolver that throws is a missing file, not a crash', () => {
  const a = analyze({
    path: '/project/accelerate.yaml',
    text: YAML(),
    resolve: () => {
      throw new Error('EACCES');
    },
  });
  assert.ok(a.findings.some((f) => f.code === 'deepspeed-config-file-conflict'));
});

test('the DeepSpeed JSON takes its world size from the Accelerate configs that use it', () => {
  const ds = JSON_OF({ train_batch_size: 30, train_micro_batch_size_per_gpu: 4, gradient_accumulation_steps: 2, zero_optimization: { stage: 2, overlap_comm: true } });
  const a = analyze({ path: '/project/ds.json', text: ds, ...hostFor({ referrers: { 'accelerate.yaml': YAML() } }) });
  const p = a.docs[0].plan!;
  assert.equal(p.world?.value, 4);
  assert.equal(p.dp?.value, 4);
  assert.equal(p.sharding.value.group, 4);
  const f = a.findings.find((x) => x.code === 'batch-size-mismatch')!;
  assert.match(f.message, /train_batch_size 30 ≠ micro batch 4 × gradient accumulation 2 × 4 data-parallel ranks .*num_processes` of accelerate\.yaml/);
  assert.deepEqual(a.dependencies, ['/project/accelerate.yaml']);
  // Sequence parallelism divides the world before the batch identity.
  const sp = JSON_OF({ train_batch_size: 16, train_micro_batch_size_per_gpu: 4, gradient_accumulation_steps: 2, sequence_parallel_size: 2, zero_optimization: { stage: 3 } });
  assert.ok(!codes({ path: '/project/ds.json', text: sp, ...hostFor({ referrers: { 'accelerate.yaml': YAML() } }) }).includes('batch-size-mismatch'));
  // Referrers that disagree leave the world unknown.
  const other = YAML().replace('num_processes: 4', 'num_processes: 8');
  const b = analyze({ path: '/project/ds.json', text: ds, ...hostFor({ referrers: { 'a.yaml': YAML(), 'b.yaml': other } }) });
  assert.equal(b.docs[0].plan!.world, undefined);
});

test('the batch identity with the world from a setting, by inference and without a world', () => {
  const all3 = JSON_OF({ train_batch_size: 32, train_micro_batch_size_per_gpu: 4, gradient_accumulation_steps: 2, zero_optimization: { stage: 3 } });
  assert.ok(codes({ path: 'ds.json', text: all3 }).every((c) => c !== 'batch-size-mismatch'), 'no world: 32 = 4 × 2 × 4 is possible');
  const a = analyze({ path: 'ds.json', text: all3 }, { worldSize: 8 });
  const f = a.findings.find((x) => x.code === 'batch-size-mismatch')!;
  assert.match(f.message, /≠ micro batch 4 × gradient accumulation 2 × 8 data-parallel ranks/);
  assert.deepEqual(f.fixes().map((x) => x.title), ['Set train_batch_size to 64 (changes the batch size)', 'Set gradient_accumulation_steps to 1 (changes gradient accumulation)']);
  const two = JSON_OF({ train_batch_size: 100, train_micro_batch_size_per_gpu: 4, zero_optimization: { stage: 3 } });
  assert.match(analyze({ path: 'ds.json', text: two }, { worldSize: 8 }).findings.find((x) => x.code === 'batch-size-mismatch')!.message, /100 \/\/ 32 = 3/);
  const autos = JSON_OF({ train_batch_size: 'auto', train_micro_batch_size_per_gpu: 'auto', gradient_accumulation_steps: 'auto', zero_optimization: { stage: 3 } });
  assert.ok(!codes({ path: 'ds.json', text: autos }).includes('batch-size-mismatch'));
});

test('the Plan of a ds_config: ZeRO stage and offload, overlap default by stage, precision', () => {
  const ds = JSON_OF({ train_micro_batch_size_per_gpu: 2, bf16: { enabled: 'true' }, zero_optimization: { stage: 3, offload_optimizer: { device: 'cpu' }, offload_param: { device: 'cpu' } } });
  const p = analyze({ path: 'ds.json', text: ds }, { worldSize: 16 }).docs[0].plan!;
  assert.deepEqual([p.sharding.value.kind, p.sharding.value.stage, p.sharding.value.offloadOptimizer, p.sharding.value.offloadParams, p.sharding.value.group], ['zero', 3, true, true, 16]);
  assert.equal(p.overlap.gradReduce?.value, true);
  assert.equal(p.precision.value, 'bf16');
  assert.equal(p.microBatch?.value, 2);
  const s2 = analyze({ path: 'ds.json', text: JSON_OF({ train_micro_batch_size_per_gpu: 2, zero_optimization: { stage: 2, offload_param: { device: 'cpu' } } }) }).docs[0].plan!;
  assert.equal(s2.overlap.gradReduce?.value, false);
  assert.equal(s2.sharding.value.offloadParams, false, 'stage 2 never offloads parameters');
});

test('the world size of a DeepSpeed JSON can come from .shardwise.yaml (JSON has no comments for a directive)', () => {
  const loaded = parseProjectConfig('world_size: 16\nnodes: 2\n');
  assert.deepEqual([loaded.settings.worldSize, loaded.settings.nodes, loaded.problems], [16, 2, []]);
  const ds = JSON_OF({ train_batch_size: 32, train_micro_batch_size_per_gpu: 4, gradient_accumulation_steps: 2, zero_optimization: { stage: 3 } });
  assert.ok(analyze({ path: 'ds.json', text: ds }, loaded.settings).findings.some((f) => f.code === 'batch-size-mismatch'));
  assert.match(parseProjectConfig('world_size: many\n').problems.join(' '), /`world_size` must be a positive integer/);
});

test('fixes across the two files: a replaced key moves into the JSON; the JSON can take the precision mixed_precision asks for', () => {
  const ds = JSON_OF({ train_micro_batch_size_per_gpu: 'auto', fp16: { enabled: true }, zero_optimization: { stage: 2 } });
  const yaml = YAML('  gradient_clipping: 1.0\n');
  const input = { path: '/project/accelerate.yaml', text: yaml, ...hostFor({ files: { 'ds.json': ds } }) };
  const a = analyze(input);
  const conflict = a.findings.find((f) => f.code === 'deepspeed-config-file-conflict' && /gradient_clipping/.test(f.message))!;
  const move = conflict.fixes().find((x) => x.otherFiles)!;
  assert.equal(move.title, 'Move gradient_clipping: 1 into ds.json (`gradient_clipping`) (changes the DeepSpeed JSON)');
  assert.equal(move.applicability, 'unsafe');
  assert.equal(move.preferred, false, 'a fix across files is never applied unasked');
  assert.ok(!applyEdits(yaml, move.edits).includes('gradient_clipping'));
  const [other] = move.otherFiles!;
  assert.equal(other.path, '/project/ds.json');
  const moved = JSON.parse(applyEdits(ds, other.edits));
  assert.equal(moved.gradient_clipping, 1);
  // The JSON already sets the stage: only removing the YAML key is offered.
  const stage = analyze({ path: '/project/accelerate.yaml', text: YAML('  zero_stage: 3\n'), ...hostFor({ files: { 'ds.json': ds } }) });
  assert.ok(stage.findings.filter((f) => f.code === 'deepspeed-config-file-conflict').every((f) => !/zero_stage/.test(f.message) || f.fixes().every((x) => !x.otherFiles)));
  // Training in the precision mixed_precision asks for: the JSON says it and the key goes, since
  // Accelerate from 0.16.0 refuses mixed_precision beside a DeepSpeed file whatever its value.
  const mp = a.findings.find((f) => f.code === 'mixed-precision-conflict')!;
  assert.ok(mp.fixes().every((x) => !/^Set mixed_precision|"auto"/.test(x.title)), mp.fixes().map((x) => x.title).join(' | '));
  const trainIn = mp.fixes().find((x) => x.otherFiles)!;
  assert.equal(trainIn.applicability, 'unsafe');
  assert.ok(!applyEdits(yaml, trainIn.edits).includes('mixed_precision'));
  const switched = JSON.parse(applyEdits(ds, trainIn.otherFiles![0].edits));
  assert.deepEqual([switched.fp16.enabled, switched.bf16.enabled], [false, true]);
  const both = analyze({ ...input, text: applyEdits(yaml, trainIn.edits), ...hostFor({ files: { 'ds.json': applyEdits(ds, trainIn.otherFiles![0].edits) } }) });
  assert.deepEqual(both.findings.filter((f) => f.code === 'mixed-precision-conflict' || (f.code === 'deepspeed-config-file-conflict' && /mixed_precision/.test(f.message))), []);
  // fix-all never reaches into another file.
  assert.ok(codeActions(a, { start: 0, end: yaml.length }).some((x) => x.otherFiles));
  assert.ok(fixRound(a, input, {}, { unsafe: true }).edits.every((e) => e.span.end <= yaml.length));
});

test('a DeepSpeed config only on positive evidence: training recipes that share a key or two are not ours', () => {
  // Recipes are read as what they are (Transformers Trainer recipes); a model's config.json as nothing.
  const notOurs: [string, string, string | undefined][] = [
    // An axolotl-style recipe: DeepSpeed's accumulation key among thirty of its own, `optimizer` as a name.
    ['recipe.yaml', 'base_model: org/model-7b\ndatasets:\n  - path: org/data\n    type: alpaca\nsequence_len: 4096\nmicro_batch_size: 2\ngradient_accumulation_steps: 4\nnum_epochs: 1\noptimizer: adamw_torch_fused\nlr_scheduler: cosine\nlearning_rate: 0.0002\nbf16: auto\ndeepspeed: deepspeed_configs/zero2.json\n', 'trainer'],
    // A Trainer/TRL arguments file: `bf16: true` where DeepSpeed wants a section.
    ['sft.yaml', 'model_name_or_path: org/model\nper_device_train_batch_size: 4\ngradient_accumulation_steps: 8\ngradient_clipping: 1.0\nbf16: true\nlearning_rate: 2.0e-5\nnum_train_epochs: 3\noutput_dir: out\n', 'trainer'],
    // A model's config.json.
    ['config.json', JSON.stringify({ architectures: ['LlamaForCausalLM'], hidden_size: 4096, num_attention_heads: 32, num_hidden_layers: 32, vocab_size: 128256, torch_dtype: 'bfloat16', gradient_clipping: 1.0, steps_per_print: 10 }), undefined],
  ];
  for (const [path, text, format] of notOurs) {
    const a = analyze({ path, text });
    assert.deepEqual(a.docs.map((d) => d.format?.id), [format], `${path} was taken for ${a.docs[0].format?.id}`);
    assert.deepEqual(a.findings, [], `${path}: ${a.findings.map((f) => f.code).join(', ')}`);
  }
  const ours: [string, string][] = [
    ['ds.json', JSON.stringify({ train_batch_size: 8, fp16: { enabled: true } })],
    ['zero.json', JSON.stringify({ gradient_accumulation_steps: 4, zero_optimization: { stage: 2 } })],
    ['two.json', JSON.stringify({ gradient_accumulation_steps: 4, gradient_clipping: 1.0, steps_per_print: 10 })],
    ['ds.yaml', 'train_micro_batch_size_per_gpu: 2\nzero_optimization:\n  stage: 3\nbf16:\n  enabled: true\n'],
  ];
  for (const [path, text] of ours) assert.deepEqual(analyze({ path, text }).docs.map((d) => d.format?.id), ['deepspeed'], path);
});

test('a JSON template (placeholders where values go) gets one note, not a parse error per placeholder; a real syntax error stays an error', () => {
  const template = '{\n  "train_batch_size": CONFIG_BATCH_SIZE,\n  "train_micro_batch_size_per_gpu": CONFIG_MBSIZE,\n  "zero_optimization": { "stage": ZERO_STAGE },\n  "fp16": { "enabled": {{ fp16 }} }\n}\n';
  const a = analyze({ path: 'ds_config_TEMPLATE.json', text: template });
  assert.deepEqual(a.findings.map((f) => [f.severity, f.code]), [['information', 'parse-error']]);
  assert.match(a.findings[0].message, /template: `CONFIG_BATCH_SIZE`, `CONFIG_MBSIZE`, `ZERO_STAGE` and 1 more placeholders/);
  // Python's True is a mistake, not a placeholder.
  const broken = analyze({ path: 'ds.json', text: '{\n  "train_batch_size": 8,\n  "fp16": { "enabled": True }\n}\n' });
  assert.ok(broken.findings.some((f) => f.code === 'parse-error' && f.severity === 'error'));
});

test('a key written twice in a DeepSpeed JSON: DeepSpeed refuses the file when it reads it, Accelerate and the Trainer keep the last', () => {
  const a = analyze({ path: 'ds_config.json', text: '{\n  "train_batch_size": 8,\n  "train_batch_size": 16,\n  "zero_optimization": { "stage": 2 }\n}\n' });
  const d = a.findings.filter((f) => f.code === 'duplicate-key');
  assert.equal(d.length, 1);
  assert.match(d[0].message, /DeepSpeed refuses the file when it reads it itself \("Duplicate keys in DeepSpeed config"/);
  // Nothing names what loads the file: DeepSpeed opening it is an assumption, named, and a warning.
  assert.equal(d[0].severity, 'warning');
  assert.match(d[0].message, /this assumes it does, as nothing here names what loads the file/);
});

test('max_grad_norm in optimizer.params: a note on the JSON alone, since DeepSpeed refuses it only when it builds the optimizer', () => {
  // deepspeed/runtime/engine.py (master): _configure_optimizer calls _configure_basic_optimizer, which raises
  // "'max_grad_norm' is not supported as an optimizer parameter", only when no client optimizer is passed;
  // Megatron-DeepSpeed passes its own optimizer to deepspeed.initialize and never reads the section.
  const text = '{\n  "train_batch_size": 8,\n  "optimizer": { "type": "Adam", "params": { "lr": 0.001, "max_grad_norm": 1.0 } }\n}\n';
  const found = analyze({ path: 'ds_config.json', text }).findings.filter((f) => f.code === 'deprecated-key');
  assert.equal(found.length, 1);
  assert.equal(found[0].severity, 'information', 'whether DeepSpeed builds the optimizer is not in the file');
  assert.match(found[0].message, /passes its own optimizer/);
  // An Accelerate config that uses the JSON: Accelerate lets DeepSpeed build the optimizer the JSON names.
  const used = analyze({ path: '/project/ds.json', text, ...hostFor({ referrers: { 'accelerate.yaml': YAML() } }) }).findings.filter((f) => f.code === 'deprecated-key');
  assert.equal(used.length, 1);
  assert.equal(used[0].severity, 'warning');
});

test('an invalid value reads as one sentence: the effect the schema states ends with the message\'s own full stop', () => {
  const text = '{\n  "train_micro_batch_size_per_gpu": 4,\n  "fp16": { "enabled": true, "min_loss_scale": 0.5 },\n  "zero_optimization": { "stage": 2, "overlap_comm": true, "reduce_bucket_size": "big" },\n  "gradient_clipping": "x"\n}\n';
  const found = analyze({ path: 'ds.json', text }, { targetVersions: { deepspeed: '0.18.0' } }).findings.filter((f) => f.code === 'invalid-value');
  assert.ok(found.length >= 2, found.map((f) => f.message).join('\n'));
  for (const f of found) assert.doesNotMatch(f.message, /[^.]\.\.(\s|$)/, f.message);
});

test('x-invalid-effect of the keys DeepSpeed reads key by key says a check only where its reader has one (scripts/history/deepspeed-checks.mjs)', () => {
  const DS = JSON.parse(readFileSync(join(__dirname, '../../schemas/deepspeed.schema.json'), 'utf8'));
  const effects = new Map<string, string>();
  const walk = (node: any, path: string[]) => {
    if (!node || typeof node !== 'object') return;
    if (typeof node['x-invalid-effect'] === 'string') effects.set(path.join('.'), node['x-invalid-effect']);
    for (const [k, v] of Object.entries(node.properties ?? {})) walk(v, [...path, k]);
    for (const kw of ['anyOf', 'oneOf', 'allOf']) for (const sub of node[kw] ?? []) walk(sub, path);
    for (const kw of ['then', 'else', 'items']) if (node[kw]) walk(node[kw], path);
  };
  walk(DS, []);
  // No key says DeepSpeed leaves its type unchecked: some readers do check.
  assert.deepEqual([...effects].filter(([, e]) => /does not check its type/.test(e)).map(([k]) => k), []);
  // deepspeed/module_inject/auto_ep_config.py@v0.19.2 (validate_autoep_config): ValueError for a non-bool has_shared_experts and a non-string or dotted attribute name;
  // deepspeed/runtime/pipe/engine.py@v0.12.3: `assert isinstance(..., bool)` on grad_partitioned.
  for (const [key, file] of [
    ['expert_parallel.has_shared_experts', 'deepspeed/module_inject/auto_ep_config.py'],
    ['expert_parallel.expert_w3', 'deepspeed/module_inject/auto_ep_config.py'],
    ['expert_parallel.shared_experts_gate_pattern', 'deepspeed/module_inject/auto_ep_config.py'],
    ['pipeline.grad_partitioned', 'deepspeed/runtime/pipe/engine.py'],
  ])
    assert.match(effects.get(key) ?? '', new RegExp(`^DeepSpeed checks this key where it reads it \\(\`${file.replace(/\./g, '\\.')}\`\\)`), key);
  // A key whose only check is a conversion into an enum: the ValueError quotes the value and the enum, not the key
  // (DtypeEnum has no `_missing_`, runtime/config.py@v0.19.5:101-118; runtime/engine.py@v0.19.5:1454, :1471, :1492;
  // PartitionType, module_inject/autotp_config.py@v0.19.5:283-285).
  for (const [key, name] of [['data_types.buffer_dtype', 'DtypeEnum'], ['data_types.param_dtype', 'DtypeEnum'], ['data_types.grad_accum_dtype', 'DtypeEnum'], ['tensor_parallel.partition_config.layer_specs.partition_type', 'PartitionType']])
    assert.match(effects.get(key) ?? '', new RegExp(`^DeepSpeed converts this key with \`${name}\` .*quotes the value, not the key`), key);
  // deepspeed/runtime/data_pipeline/curriculum_scheduler.py: max_difficulty is stored and compared, never checked.
  assert.match(effects.get('curriculum_learning.max_difficulty') ?? '', /^DeepSpeed stops, or silently misbehaves, where it first uses a wrong value/);
  // A check against the values the reader knows refuses an unresolved "auto" like any other word (compression/config.py@v0.19.5:182-184,
  // :365-367; model_checkpointing/config.py@v0.19.5:22-28; curriculum_scheduler.py@v0.19.5:104-105), and so does an enum conversion:
  // PartitionType (autotp_config.py@v0.19.5:20-24) and DtypeEnum (runtime/config.py@v0.19.5:101-105) have no `auto`.
  for (const key of ['compression_training.head_pruning.shared_parameters.method', 'compression_training.activation_quantization.shared_parameters.range_calibration', 'compression_training.activation_quantization.shared_parameters.quantization_type', 'checkpoint.writer.type', 'curriculum_learning.schedule_type'])
    assert.match(effects.get(key) ?? '', /^DeepSpeed checks this key against the values it knows .*an unresolved `"auto"` included\.$/, key);
  for (const key of ['tensor_parallel.partition_config.layer_specs.partition_type', 'data_types.param_dtype', 'torch_autocast.dtype'])
    assert.match(effects.get(key) ?? '', /when the value is not one of its names, an unresolved `"auto"` included;/, key);
  // No sentence about a reader that checks or converts says an "auto" gets through: whether it does depends on the check.
  assert.deepEqual([...effects].filter(([, e]) => /^DeepSpeed (checks|converts) this key/.test(e) && /lets through \(for example an unresolved/.test(e)).map(([k]) => k), []);
});

test('NVMe optimizer offload at stage 1 with bf16 and fp32 accumulation: the cpu fix is not safe, since it changes which optimizer runs (deepspeed/runtime/engine.py@v0.10.1, _do_optimizer_sanity_check)', () => {
  const ds = (extra: Record<string, unknown>, stage: number) => JSON_OF({ train_micro_batch_size_per_gpu: 1, ...extra, zero_optimization: { stage, overlap_comm: true, offload_optimizer: { device: 'nvme', nvme_path: '/nvme' } } });
  const fixOf = (text: string) => {
    const f = analyze({ path: 'ds_config.json', text }, { targetVersions: { deepspeed: '0.19.5' } }).findings.find((x) => x.code === 'stage3-key-without-stage3')!;
    assert.ok(f);
    return { message: f.message, applicability: f.fixes().find((x) => x.title.startsWith('Offload to cpu'))?.applicability };
  };
  const bf16 = fixOf(ds({ bf16: { enabled: true }, data_types: { grad_accum_dtype: 'fp32' } }, 1));
  assert.equal(bf16.applicability, 'unsafe');
  assert.match(bf16.message, /BF16 optimizer/);
  // Stage 2, or stage 1 without fp32 accumulation: the ZeRO 1/2 optimizer offloads to CPU for nvme as for cpu.
  for (const [extra, stage] of [[{ bf16: { enabled: true }, data_types: { grad_accum_dtype: 'fp32' } }, 2], [{ bf16: { enabled: true } }, 1]] as const) {
    const other = fixOf(ds(extra, stage));
    assert.equal(other.applicability, 'safe');
    assert.match(other.message, /offloads the optimizer to CPU memory instead/);
  }
});

test('keys DeepSpeed validates but never reads say so (scripts/history/deepspeed-readers.mjs prints them)', () => {
  const DS = JSON.parse(readFileSync(join(__dirname, '../../schemas/deepspeed.schema.json'), 'utf8'));
  // deepspeed/runtime/config.py@v0.10.3 and @v0.19.5 build WeightQuantConfig; only zero/partition_parameters.py
  // (quantized_initialization) and inference/quantization/quantization.py (post_init_quant) read the section.
  const wq = DS.properties.weight_quantization;
  for (const k of ['enabled', 'num_bits', 'q_type', 'q_groups']) assert.match(wq.properties[k].markdownDescription, /read by nothing/, k);
  assert.doesNotMatch(wq.properties.q_groups.markdownDescription, /better accuracy/);
  // deepspeed/compile/config.py@v0.16.6…@v0.19.5 declare offload_activation; no release reads it (compile/init_z3.py uses it only after v0.19.5).
  assert.match(DS.properties.compile.properties.offload_activation.markdownDescription, /^DeepSpeed 0\.16\.6 to 0\.19\.5 accept the field but nothing reads it/);
});

test('behaviour prose dated or said as the reader does it', () => {
  const DS = JSON.parse(readFileSync(join(__dirname, '../../schemas/deepspeed.schema.json'), 'utf8'));
  // deepspeed/runtime/engine.py: the client-optimizer stop under optimizer offload first @v0.8.3 (absent @v0.8.2); DeepSpeedCPULion exempt first @v0.17.6.
  const off = DS.properties.zero_optimization.properties.offload_optimizer.markdownDescription;
  assert.match(off, /from 0\.8\.3 on/);
  assert.match(off, /DeepSpeedCPULion too from 0\.17\.6/);
  // deepspeed/utils/timer.py@v0.19.5 ThroughputTimer reports samples/s and memory, no FLOPS.
  const tp = DS.properties.timers.properties.throughput.properties.enabled;
  assert.doesNotMatch(`${tp.description} ${tp.markdownDescription}`, /TFLOPS/);
  // deepspeed/runtime/engine.py@v0.5.0 (forward): for `seqlen` the engine passes curriculum_seqlen to the model's forward; it truncates nothing itself.
  assert.match(DS.properties.curriculum_learning.properties.curriculum_type.markdownDescription, /`curriculum_seqlen`/);
  // deepspeed/module_inject/auto_ep.py@v0.19.5 reads these with getattr; auto_ep_config.py@v0.19.2 refuses a dotted name.
  for (const k of ['router_pattern', 'expert_pattern', 'shared_experts_pattern', 'shared_experts_gate_pattern']) assert.match(DS.properties.expert_parallel.properties[k].description, /child attribute .*\(not a regex\)/, k);
});

test('prose of one section or key is its own reader\'s, dated where a release changed it', () => {
  const DS = JSON.parse(readFileSync(join(__dirname, '../../schemas/deepspeed.schema.json'), 'utf8'));
  // deepspeed/runtime/config_utils.py@v0.17.0 get_scalar_param keeps "auto"; engine.py@v0.17.0 tests `if self.fp16_auto_cast():`; precision_config.py@v0.17.1 drops it.
  assert.match(DS.properties.fp16.properties.auto_cast.markdownDescription, /from DeepSpeed 0\.17\.1; earlier releases read this section key by key and keep the text `"auto"`, which a test of the key takes as true/);
  // deepspeed/compression/config.py@v0.7.0…@v0.19.5 get_layer_reduction copies the keys as written; compress.py reads
  // module_name_prefix, teacher_layer, other_module_name; keep_number_layer has no reader.
  const ct = DS.properties.compression_training.properties;
  assert.doesNotMatch(ct.layer_reduction.markdownDescription, /shared_parameters|different_groups/);
  assert.match(ct.layer_reduction.markdownDescription, /`teacher_layer`.*`keep_number_layer` appears .* nothing reads it/s);
  for (const k of ['weight_quantization', 'activation_quantization', 'sparse_pruning', 'row_pruning', 'head_pruning', 'channel_pruning']) assert.match(ct[k].markdownDescription, /`different_groups`/, k);
  // deepspeed/runtime/activation_checkpointing/checkpointing.py@v0.5.1 asserts partition_activations for CPU checkpointing; @v0.5.2 only for contiguous.
  assert.match(DS.properties.activation_checkpointing.properties.cpu_checkpointing.markdownDescription, /Up to DeepSpeed 0\.5\.1 it required `partition_activations`.*from 0\.5\.2 it works alone/);
  // deepspeed/autotuning/autotuner.py@v0.5.7…HEAD reads num_params and hidden_size (stage 3 template); nothing reads num_layers.
  const mi = DS.properties.autotuning.properties.model_info.properties;
  assert.match(mi.num_layers.markdownDescription, /nothing reads it/);
  assert.doesNotMatch(mi.hidden_size.markdownDescription, /activation memory/);
  // deepspeed/inference/quantization/quantization.py@v0.10.3…HEAD: ds_config['weight_quantization']['post_init_quant'].
  assert.match(DS.properties.weight_quantization.properties.post_init_quant['x-auto-effect'], /config dictionary as written/);
});

test('prose of a key says what its own reader does, at the releases it does it', () => {
  const DS = JSON.parse(readFileSync(join(__dirname, '../../schemas/deepspeed.schema.json'), 'utf8'));
  // deepspeed/module_inject/auto_ep_layer.py@v0.19.2 resolve_combine_impl: "auto" is weighted_sum, whatever the preset.
  const ep = DS.properties.expert_parallel.properties;
  assert.match(ep.combine_impl.markdownDescription, /always means `weighted_sum`/);
  assert.doesNotMatch(JSON.stringify(ep.combine_impl), /follow(s)? the preset/);
  // deepspeed/runtime/engine.py@v0.18.6 first compares tp_size with autotp_size (absent @v0.18.5), and lets 1 through;
  // the comparison runs only with AutoTP on (`if self.autotp_size() > 1`, @v0.18.6:279-280, @v0.19.5:329-330).
  for (const spelling of ['tp', 'tensor_parallel']) {
    const tp = DS.properties.tensor_parallel.properties[spelling];
    assert.match(tp.markdownDescription, /From DeepSpeed 0\.18\.6, with AutoTP on \(`autotp_size` above 1\), a `tp_size` other than 1/, spelling);
    assert.match(tp.properties.tp_size.markdownDescription, /with AutoTP on .*1 always passes\. With AutoTP off .*earlier releases never compare the two/, spelling);
  }
  // deepspeed/runtime/engine.py@v0.19.5:1082,3469-3470,3517-3539 (@v0.5.7:1924): every run reads autotuning.enabled and exits after end_profile_step + 1.
  assert.doesNotMatch(DS.properties.autotuning.markdownDescription, /Only used by/);
  assert.match(DS.properties.autotuning.properties.enabled.markdownDescription, /ends the process \(`exit\(\)`\) after step `end_profile_step` \+ 1/);
  // deepspeed/runtime/engine.py@v0.19.5:1244-1245,1664-1666: the check is stage >= 2, only its message says stage 2.
  assert.match(DS.properties.zero_optimization.properties.overlap_comm.markdownDescription, /refused below stage 2/);
  // deepspeed/profiling/constants.py@v0.3.11 and @v0.3.16: top_modules defaults to 3; @v0.4.0: 1.
  assert.equal(defaultAt(DS.properties.flops_profiler.properties.top_modules, '0.3.16'), 3);
  assert.equal(defaultAt(DS.properties.flops_profiler.properties.top_modules, '0.4.0'), 1);
  // accelerate src/accelerate/accelerator.py@v1.8.0 first warns about a differing gradient_accumulation_steps and takes DeepSpeed's (absent @v1.7.0).
  assert.match(DS.properties.gradient_accumulation_steps.markdownDescription, /From Accelerate 1\.8\.0, Accelerate warns/);
});

test('prose of a behaviour that changed between releases names the releases', () => {
  const DS = JSON.parse(readFileSync(join(__dirname, '../../schemas/deepspeed.schema.json'), 'utf8'));
  // deepspeed/runtime/engine.py@v0.6.5 get_summary_writer: an empty output_path writes under ~/tensorboard;
  // deepspeed/monitor/tensorboard.py@v0.6.6: output_path joined with job_name.
  assert.match(DS.properties.tensorboard.properties.output_path.markdownDescription, /from DeepSpeed 0\.6\.6.*before 0\.6\.6 an empty path sends them to `~\/tensorboard/);
  for (const section of ['bf16', 'bfloat16']) {
    const p = DS.properties[section].properties;
    // deepspeed/runtime/engine.py@v0.19.1 overrides fp32_optimizer_states of DeepSpeedCPUAdam; @v0.19.0 does not.
    assert.match(p.bf16_optimizer_states.markdownDescription, /DeepSpeed 0\.19\.1 and later build DeepSpeedCPUAdam.*0\.18\.3 to 0\.19\.0/, section);
    // deepspeed/runtime/config.py@v0.6.0:902 (bf16 only with ZeRO); engine.py@v0.6.7 (stage 0: BF16 optimizer);
    // @v0.7.6 _do_optimizer_sanity_check (bf16 accumulation refused), @v0.17.6 get_data_types (the default
    // becomes the model dtype) and the DDP_BFLOAT16 path, @v0.18.5 (fp32 accumulation refused).
    assert.match(p.enabled.markdownDescription, /Without ZeRO \(stage 0\), 0\.6\.0 and 0\.6\.1 refuse bf16; 0\.6\.2 to 0\.17\.5 accumulate in fp32.*refused in 0\.7\.6 to 0\.17\.5.*From 0\.17\.6 stage 0 accumulates in bf16.*`grad_accum_dtype: "fp32"` .*refused from 0\.18\.5/, section);
    assert.doesNotMatch(p.enabled.markdownDescription, /0\.6\.0 to 0\.17\.5 use the BF16 optimizer/, section);
    assert.doesNotMatch(p.enabled.markdownDescription, /otherwise the ZeRO optimizer handles bf16/, section);
  }
  // deepspeed/runtime/zero/config.py@v0.14.5:319-324 (root validator that never fires) vs @v0.15.0:330-335.
  const ratio = DS.properties.zero_optimization.properties.offload_optimizer.properties.ratio;
  assert.match(`${ratio.markdownDescription} ${ratio['x-invalid-effect']}`, /0\.15\.0 and later (refuse|stop)/);
});

test('one setting, one description: the legacy `bfloat16` section and `bf16`, and the two spellings of an aliased ZeRO key, say the same thing about what the setting does', () => {
  const schema = JSON.parse(readFileSync(join(__dirname, '../../schemas/deepspeed.schema.json'), 'utf8'));
  const bf16 = schema.properties.bf16.properties;
  const legacy = schema.properties.bfloat16.properties;
  const shared = Object.keys(bf16).filter((k) => k in legacy);
  assert.ok(shared.length >= 5);
  for (const k of shared) assert.equal(legacy[k].description, bf16[k].description, `bfloat16.${k} and bf16.${k}`);
  // An alias's long text adds a paragraph about the two spellings; its first paragraph is the field's.
  const zero = schema.properties.zero_optimization.properties;
  const pairs = Object.entries(zero).filter(([, p]: [string, any]) => p['x-alias-of'] && zero[p['x-alias-of']]) as [string, any][];
  assert.ok(pairs.length >= 5);
  for (const [k, p] of pairs) assert.equal(p.markdownDescription.split('\n\n')[0], zero[p['x-alias-of']].markdownDescription.split('\n\n')[0], `zero_optimization.${k} and ${p['x-alias-of']}`);
});
