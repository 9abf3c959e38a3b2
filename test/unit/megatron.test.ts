/**
 * The Megatron formats in the editor features: detection, hover (help, layout, effective values),
 * completion of flags and values, and the Plan each format reads.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyze, complete, hover } from '../../server/src/engine';

const at = (text: string, marker: string, delta = 0) => {
  const i = text.indexOf(marker);
  assert.ok(i >= 0, `marker ${marker} not in the text`);
  return i + delta;
};
const formatOf = (path: string, text: string) => analyze({ path, text }).docs[0]?.format?.id;

const SCRIPT = `#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
GPUS_PER_NODE=8
NNODES=2
TP=4
ARGS=(
    --tensor-model-parallel-size $TP
    --pipeline-model-parallel-size 2
    --sequence-parallel
)
torchrun --nproc_per_node $GPUS_PER_NODE --nnodes $NNODES pretrain_gpt.py \\
    "\${ARGS[@]}" \\
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\
    --bf16
`;

test('detection: launch scripts by entry point or flags; other shell scripts are none of our business', () => {
  assert.equal(formatOf('train.sh', SCRIPT), 'megatron-args');
  assert.equal(formatOf('run.sh', 'python my_trainer.py --tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 --num-layers 4\n'), 'megatron-args');
  const other = '#!/bin/bash\nset -e\nfor f in *.txt; do echo "$f"; done\npython tools/convert.py --input a --output b\n';
  const a = analyze({ path: 'tools.sh', text: other });
  assert.equal(a.docs[0]?.format, undefined);
  assert.deepEqual(a.findings, []);
  // MODEL_ARGS flags, --yaml-cfg sections, Bridge sections, NeMo trainer + model.
  assert.equal(formatOf('model_config.yaml', 'MODEL_ARGS:\n  --num-layers: 2\n  --hidden-size: 64\n'), 'megatron-yaml');
  assert.equal(formatOf('gpt.yaml', 'language_model:\n  num_layers: 2\nmodel_parallel:\n  tensor_model_parallel_size: 1\n'), 'megatron-yaml');
  assert.equal(formatOf('override.yaml', 'model:\n  tensor_model_parallel_size: 2\ntrain:\n  global_batch_size: 32\n'), 'megatron-bridge');
  assert.equal(formatOf('gpt.yaml', 'trainer:\n  devices: 8\nmodel:\n  tensor_model_parallel_size: 2\n'), 'nemo');
});

test('the Plan of a launch script: world from the launcher, degrees through variables and arrays', () => {
  const p = analyze({ path: 'train.sh', text: SCRIPT }).docs[0].plan!;
  assert.equal(p.world?.value, 16);
  assert.equal(p.nodes.value, 2);
  assert.equal(p.tp.value, 4);
  assert.equal(p.pp.value, 2);
  assert.equal(p.dp?.value, 2);
  assert.equal(p.sp.value, true);
  assert.equal(p.model?.value.layers, 32);
  // Where TP is written: the flag, whose value is `$TP`; the fix edits `TP=4`.
  assert.equal(p.tp.from.kind, 'written');
});

test('a value from the environment is unknown, not guessed: no layout arithmetic on it', () => {
  const text = 'torchrun --nproc_per_node 8 --nnodes $SLURM_NNODES pretrain_gpt.py --tensor-model-parallel-size 16 --sequence-parallel --tp-comm-overlap\n';
  const a = analyze({ path: 'train.sh', text });
  const p = a.docs[0].plan!;
  assert.equal(p.world, undefined);
  assert.ok(p.notes.some((n) => /SLURM_NNODES/.test(n)), p.notes.join(' | '));
  assert.ok(!a.findings.some((f) => f.code === 'world-size-mismatch'));
  // TP 16 is known, and wider than the NVLink domain of 8 whatever the world.
  assert.ok(a.findings.some((f) => f.code === 'tp-exceeds-nvlink-domain'));
});

test('hover on a script flag: its help, and for a degree the derived layout', () => {
  const a = analyze({ path: 'train.sh', text: SCRIPT });
  const h = hover(a, at(SCRIPT, '--tensor-model-parallel-size', 4))!;
  assert.match(h.markdown, /\*\*--tensor-model-parallel-size\*\* · argument `tensor_model_parallel_size`/);
  assert.match(h.markdown, /DP = 16 \/ \(TP 4 × PP 2 × CP 1\) = 2/);
  assert.match(h.markdown, /Megatron Bridge: `model\.tensor_model_parallel_size`/);
  assert.equal(SCRIPT.slice(h.span.start, h.span.end), '--tensor-model-parallel-size');
  const bf16 = hover(a, at(SCRIPT, '--bf16', 3))!;
  assert.match(bf16.markdown, /\*\*--bf16\*\*/);
});

test('hover shows what Megatron really runs when it changes a value silently', () => {
  const sp = '# shardwise: world_size=8\nMODEL_ARGS:\n  --tensor-model-parallel-size: 1\n  --sequence-parallel: true\n';
  const h = hover(analyze({ path: 'model_config.yaml', text: sp }), at(sp, '--sequence-parallel', 3))!;
  assert.match(h.markdown, /sequence parallel: on as written, \*\*off in effect\*\*: Megatron turns sequence parallelism off/);
  const bridge = '# shardwise: world_size=8\nmodel:\n  tensor_model_parallel_size: 4\n  sequence_parallel: false\ncomm_overlap:\n  tp_comm_overlap: true\n';
  const b = hover(analyze({ path: 'o.yaml', text: bridge }), at(bridge, 'tp_comm_overlap', 3))!;
  assert.match(b.markdown, /TP communication overlap: on as written, \*\*off in effect\*\*: TP communication overlap does nothing without sequence parallelism/);
});

test('hover on Bridge and NeMo keys explains the Megatron argument they set', () => {
  const bridge = 'model:\n  tensor_model_parallel_size: 2\nddp:\n  overlap_grad_reduce: true\ntrain:\n  global_batch_size: 32\n';
  const b = hover(analyze({ path: 'o.yaml', text: bridge }), at(bridge, 'overlap_grad_reduce', 2))!;
  assert.match(b.markdown, /\*\*overlap_grad_reduce\*\* · in `ddp`/);
  assert.match(b.markdown, /`--overlap-grad-reduce` · default `false`/);
  const nemo = 'trainer:\n  devices: 8\n  num_nodes: 1\nmodel:\n  tensor_model_parallel_size: 2\n  encoder_seq_length: 4096\n  optim:\n    name: distributed_fused_adam\n    overlap_grad_sync: true\n';
  const a = analyze({ path: 'gpt.yaml', text: nemo });
  assert.match(hover(a, at(nemo, 'encoder_seq_length', 2))!.markdown, /`--seq-length`/);
  assert.match(hover(a, at(nemo, 'overlap_grad_sync', 2))!.markdown, /`--overlap-grad-reduce`/);
  assert.equal(a.docs[0].plan!.seqLength?.value, 4096);
  assert.equal(a.docs[0].plan!.overlap.gradReduce?.value, true);
});

test('completion of flags in a script: bare switches, valued flags as snippets, written ones left out', () => {
  const text = '#!/bin/bash\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --tensor-model-parallel-size 2 \\\n    --seq\n';
  const items = complete(analyze({ path: 'train.sh', text }), text.length - 1);
  const byLabel = new Map(items.map((i) => [i.label, i]));
  assert.equal(byLabel.get('--sequence-parallel')?.insertText, '--sequence-parallel');
  assert.equal(byLabel.get('--seq-length')?.insertText, '--seq-length $0');
  assert.ok(!byLabel.has('--tensor-model-parallel-size'), 'a flag already passed is not offered again');
  // Removed flags are not offered.
  assert.ok(!byLabel.has('--no-async-tensor-model-parallel-allreduce'));
});

test('completion of a flag value offers its choices; in MODEL_ARGS, flags are the keys', () => {
  const text = '#!/bin/bash\ntorchrun --nproc_per_node 8 pretrain_gpt.py --recompute-granularity \n';
  const values = complete(analyze({ path: 'train.sh', text }), text.length - 1).map((i) => i.label);
  assert.deepEqual(values.sort(), ['full', 'selective']);
  const yaml = 'MODEL_ARGS:\n  --num-layers: 2\n  \n';
  const keys = complete(analyze({ path: 'model_config.yaml', text: yaml }), yaml.length - 1).map((i) => i.label);
  assert.ok(keys.includes('--hidden-size'), keys.slice(0, 10).join(', '));
  assert.ok(!keys.includes('--num-layers'));
});

test('flag values are converted as argparse converts them: a data blend stays text, sizes become numbers', () => {
  const text = `#!/bin/bash
BLEND=(
    0.3 /data/web_text_document
    0.7 /data/code_text_document
)
torchrun --nproc_per_node 8 pretrain_gpt.py \\
    --data-path \${BLEND[@]} \\
    --hierarchical-context-parallel-sizes 2 4 \\
    --recompute-granularity selective --recompute-modules core_attn mlp \\
    --split 990,8,2 \\
    --tensor-model-parallel-size two
`;
  const a = analyze({ path: 'train.sh', text });
  const invalid = a.findings.filter((f) => f.code === 'invalid-value');
  assert.deepEqual(invalid.map((f) => text.slice(f.span.start, f.span.end)), ['two'], invalid.map((f) => f.message).join('\n'));
  const yaml = 'MODEL_ARGS:\n  --data-path: 0.3 /data/a 0.7 /data/b\n  --seq-length: 4096\n  --recompute-modules: core_attn mlpp\n';
  const y = analyze({ path: 'model_config.yaml', text: yaml }).findings.filter((f) => f.code === 'invalid-value');
  assert.equal(y.length, 1, y.map((f) => f.message).join('\n'));
  assert.match(y[0].message, /mlpp/);
});

test('world size from the script variables when the launcher options come from elsewhere', () => {
  const text = '#!/bin/bash\nGPUS_PER_NODE=8\nNUM_NODES=2\npython -m torch.distributed.run $DIST_ARGS pretrain_gpt.py --tensor-model-parallel-size 8 --pipeline-model-parallel-size 4\n';
  const p = analyze({ path: 'train.sh', text }).docs[0].plan!;
  assert.equal(p.world?.value, 16);
  assert.equal(p.nodes.value, 2);
  const unknown = '#!/bin/bash\nGPUS_PER_NODE=8\nNUM_NODES=$SLURM_NNODES\npython -m torch.distributed.run $DIST_ARGS pretrain_gpt.py --tensor-model-parallel-size 8\n';
  const q = analyze({ path: 'train.sh', text: unknown }).docs[0].plan!;
  assert.equal(q.world, undefined);
  assert.ok(q.notes.some((n) => /SLURM_NNODES/.test(n)), q.notes.join(' | '));
});

test('a script is a Megatron-LM launch script on positive evidence: another program that shares `--batch-size` is not', () => {
  const inference = '#!/bin/bash\ndeepspeed --num_gpus 1 run_model.py --model facebook/opt-30b --batch-size 8 --cpu-offload --gen-len 32 --pin-memory 1\n';
  const a = analyze({ path: 'run_model.sh', text: inference });
  assert.deepEqual(a.docs.map((d) => d.format?.id), [undefined]);
  assert.deepEqual(a.findings, []);
  const megatron = '#!/bin/bash\ntorchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 2 --batch-size 8\n';
  assert.deepEqual(analyze({ path: 'train.sh', text: megatron }).docs.map((d) => d.format?.id), ['megatron-args']);
});

test("flag values convert as Python's int() does: 183_105 is a number, 1__0 is not", () => {
  const a = analyze({ path: 'x.sh', text: '#!/bin/bash\ntorchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 2 --train-iters 183_105 --micro-batch-size 1__0\n' });
  const v = a.docs[0].instance?.value as Record<string, unknown>;
  assert.equal(v.train_iters, 183105);
  assert.deepEqual(a.findings.filter((f) => f.code === 'invalid-value').map((f) => f.message.split(':')[0]), ['`--micro-batch-size` must be an integer ≥ 1, not `1__0`']);
});

test('a recompute method under selective granularity stops Megatron-LM (its argparse check), not NeMo, which configures Megatron Core directly', () => {
  const nemo = 'trainer:\n  devices: 8\n  num_nodes: 1\nmodel:\n  tensor_model_parallel_size: 1\n  pipeline_model_parallel_size: 1\n  num_layers: 12\n  hidden_size: 768\n  num_attention_heads: 12\n  activations_checkpoint_granularity: selective\n  activations_checkpoint_method: uniform\n';
  const a = analyze({ path: 'megatron_gpt_config.yaml', text: nemo });
  assert.deepEqual(a.docs.map((d) => d.format?.id), ['nemo']);
  assert.ok(!a.findings.some((f) => f.code === 'recompute-config-invalid'));
  const flags = '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --recompute-granularity: selective\n  --recompute-method: uniform\n';
  assert.deepEqual(analyze({ path: 'model_config.yaml', text: flags }).findings.filter((f) => f.code === 'recompute-config-invalid').map((f) => f.severity), ['error']);
});

test('TP overlap without sequence parallelism: Megatron-LM stops (an error in MODEL_ARGS), Megatron Bridge turns it off (a warning)', () => {
  const flags = '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --tensor-model-parallel-size: 4\n  --tp-comm-overlap: true\n';
  const yaml = analyze({ path: 'model_config.yaml', text: flags }).findings.filter((f) => f.code === 'tp-comm-overlap-requires-sequence-parallel');
  assert.deepEqual(yaml.map((f) => f.severity), ['error']);
  const bridge = '# shardwise: format=megatron-bridge world_size=8\nmodel:\n  tensor_model_parallel_size: 4\n  sequence_parallel: false\ncomm_overlap:\n  tp_comm_overlap: true\n';
  const b = analyze({ path: 'override.yaml', text: bridge }).findings.filter((f) => f.code === 'tp-comm-overlap-requires-sequence-parallel');
  assert.deepEqual(b.map((f) => f.severity), ['warning']);
  assert.match(b[0].message, /by Megatron Bridge, which logs it, when the run has a `comm_overlap` config/);
});

test('NeMo: recompute method and layer count are not checked while the granularity is null; a negative layer count is advice (Megatron Core never checks its range)', () => {
  const nemo = (g: string) => `trainer:\n  devices: 8\n  num_nodes: 1\nmodel:\n  tensor_model_parallel_size: 1\n  pipeline_model_parallel_size: 1\n  num_layers: 12\n  hidden_size: 768\n  num_attention_heads: 12\n  activations_checkpoint_granularity: ${g}\n  activations_checkpoint_method: null\n  activations_checkpoint_num_layers: -1\n`;
  const off = analyze({ path: 'megatron_gpt_config.yaml', text: nemo('null') });
  assert.deepEqual(off.docs.map((d) => d.format?.id), ['nemo']);
  assert.deepEqual(off.findings.filter((f) => f.severity === 'error').map((f) => f.code), []);
  const on = analyze({ path: 'megatron_gpt_config.yaml', text: nemo('full') });
  assert.ok(on.findings.some((f) => f.severity === 'hint' && f.code === 'invalid-value' && /activations_checkpoint_num_layers/.test(f.message)), on.findings.map((f) => f.code).join(', '));
});

test('a Megatron-DeepSpeed script is recognised by the fork\'s own schedule flags too, without --deepspeed', () => {
  const a = analyze({ path: 'ds_pretrain.sh', text: '#!/bin/bash\ntorchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 2 --train-tokens 300000000000 --lr-decay-tokens 260000000000 --no-pipeline-parallel --data-impl mmap\n' });
  assert.deepEqual(a.findings.filter((f) => f.severity === 'error').map((f) => f.code), []);
  assert.ok(a.findings.some((f) => f.code === 'fork-flags-not-checked'));
});

test('a quoted value split by an unquoted array expansion is explained as bash splitting it, with no fix that rewrites the value', () => {
  const text = '#!/bin/bash\nARGS=(\n    --tensor-model-parallel-size 2\n    --step-batch-size-schedule "0:16 2.4B:320"\n)\ntorchrun --nproc_per_node 8 pretrain_gpt.py ${ARGS[@]}\n';
  const f = analyze({ path: 'train.sh', text }).findings.find((x) => x.code === 'invalid-value');
  assert.ok(f, 'the split value is reported');
  assert.match(f.message, /bash passes it as 2 words/);
  assert.deepEqual(f.fixes(), []);
});

test('a Megatron-LM script started by accelerate launch --num_processes: the world is that total; without it, the world is not guessed from the script\'s variables', () => {
  const flags = 'pretrain_gpt.py --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --micro-batch-size 1 --global-batch-size 8 --tensor-model-parallel-size 2';
  const eight = analyze({ path: 'train.sh', text: `GPUS_PER_NODE=4\naccelerate launch --num_processes 8 ${flags}\n` }).docs[0].plan;
  assert.equal(eight?.world?.value, 8);
  assert.equal(eight?.dp?.value, 4);
  const unsaid = analyze({ path: 'train.sh', text: `GPUS_PER_NODE=4\naccelerate launch ${flags}\n` }).docs[0].plan;
  assert.equal(unsaid?.world, undefined);
});

test("NeMo's optimizer name decides the distributed optimizer, but it is a name: no fix writes `true` there", () => {
  const nemo = [
    'trainer:\n  devices: 8\n  num_nodes: 1\n  precision: bf16',
    'model:\n  mcore_gpt: true\n  micro_batch_size: 1\n  global_batch_size: 64\n  tensor_model_parallel_size: 2\n  sequence_parallel: true',
    '  encoder_seq_length: 4096\n  num_layers: 32\n  hidden_size: 4096\n  num_attention_heads: 32',
    '  optim:\n    name: fused_adam\n    overlap_param_sync: true\n    overlap_grad_sync: false\n',
  ].join('\n');
  const a = analyze({ path: 'gpt.yaml', text: nemo });
  // NeMo runs none of Megatron-LM's argument checks: beside `fused_adam` it ignores the overlap
  // (megatron_gpt_model.py@v2.4.0:598-610) and refuses it only without `overlap_grad_sync` (:383-384).
  assert.equal(a.findings.find((f) => f.code === 'overlap-param-gather-requires-distributed-optimizer'), undefined);
  const own = a.findings.find((f) => f.code === 'overlap-config-invalid');
  assert.ok(own, a.findings.map((f) => f.code).join(', '));
  assert.match(own.message, /Must use overlap_param_sync together with overlap_grad_sync/);
  for (const f of a.findings) {
    for (const fix of f.fixes()) {
      for (const e of fix.edits) assert.ok(!/optim/.test(String((e as { newText?: string }).newText ?? '')) || !/true/.test(String((e as { newText?: string }).newText)), `${f.code}: ${fix.title}`);
      assert.doesNotMatch(fix.title, /optim\.name/, `${f.code}: ${fix.title}`);
    }
  }
});

test('older argument names read in place of today\'s agree with the schema: same type and action, removed when today\'s name arrived', async () => {
  const { OLDER_NAMES } = await import('../../server/src/engine/formats/megatron/model');
  const { readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const props = JSON.parse(readFileSync(join(__dirname, '../../schemas/megatron.schema.json'), 'utf8')).properties;
  for (const [now, o] of Object.entries(OLDER_NAMES)) {
    const old = props[o.dest];
    assert.equal(old?.['x-removed']?.replacement, now, o.dest);
    assert.equal(old['x-removed'].version, o.until, o.dest);
    assert.equal(old['x-flag'], o.flag, o.dest);
    assert.equal(props[now]['x-flag'], o.newFlag, now);
    assert.equal(old.type, props[now].type, now);
    assert.equal(old['x-action'], props[now]['x-action'], now);
  }
});

test('a `--yaml-cfg` initializer text is told to leave init_method out, never to write xavier_uniform, which stops too (yaml_arguments.py@core_v0.6.0:440-442, @d98e8a6:424-426 pass scaled_init_method, no TransformerConfig field at any release)', () => {
  for (const value of ['normal', 'xavier_unifrom']) {
    const text = `# shardwise: format=megatron-yaml world_size=8 megatron_core=0.19.0\nlanguage_model:\n  num_layers: 2\n  hidden_size: 64\n  num_attention_heads: 4\n  init_method: ${value}\nmodel_parallel:\n  tensor_model_parallel_size: 1\n`;
    const f = analyze({ path: 'model.yaml', text }).findings.filter((x) => x.code === 'invalid-value');
    assert.equal(f.length, 1, value);
    assert.match(f[0].message, /must be left out \(or null\)/);
    assert.doesNotMatch(f[0].message, /Write `xavier_uniform`|Did you mean/);
    // No change to a listed name.
    assert.deepEqual(f[0].fixes().map((x) => x.title).filter((t) => /xavier_uniform/.test(t)), [], value);
  }
  // embedding_init_method: xavier_uniform runs there (no scaled_init_method beside it), so it is still advised.
  const emb = '# shardwise: format=megatron-yaml world_size=8 megatron_core=0.19.0\nlanguage_model:\n  num_layers: 2\n  hidden_size: 64\n  num_attention_heads: 4\n  embedding_init_method: normal\nmodel_parallel:\n  tensor_model_parallel_size: 1\n';
  const e = analyze({ path: 'model.yaml', text: emb }).findings.find((x) => x.code === 'invalid-value');
  assert.match(e!.message, /must be `xavier_uniform`.*Write `xavier_uniform`/);
});

test('hover of --allow-ambiguous-pad-tokens says what on does: the colliding pad id is kept, so tokens sharing it (EOD) are masked out of the loss; off, the pad id becomes -1 (megatron/core/datasets/megatron_dataset.py@core_v0.16.0:20,97-114; gpt_dataset.py@core_v0.16.0:272-276)', () => {
  const script = 'torchrun --nproc-per-node 8 pretrain_gpt.py --allow-ambiguous-pad-tokens\n';
  const md = hover(analyze({ path: 'train.sh', text: script }), at(script, '--allow-ambiguous', 3))!.markdown;
  assert.match(md, /Keep a pad token id that another special token \(such as EOD\) shares: every token with that id is then masked out of the loss/);
  assert.match(md, /Off \(the default\), the dataset replaces a colliding pad id with -1/);
  assert.doesNotMatch(md, /Do not mask pad tokens/);
});

test('a flag named in a message is spelled as the key of its argument in a config file: its dest, not the flag made into a name', async () => {
  const { inFormat, named } = await import('../../server/src/engine/formats/megatron/checks');
  const modelOf = (path: string, text: string) => analyze({ path, text }).docs[0]!.model as import('../../server/src/engine/formats/megatron/model').MegatronModel;
  // `--fp4-format` sets TransformerConfig's `fp4` (transformer_config.py@core_v0.15.0:410), `--fp8-format` its `fp8`.
  const bridge = modelOf('over.yaml', '# shardwise: format=megatron-bridge\nmodel:\n  tensor_model_parallel_size: 2\n');
  assert.equal(named(bridge, '--fp4-format', 'e2m1'), '`model.fp4: e2m1`');
  assert.equal(inFormat(bridge, 'megatron-bridge', 'Add `--fp8-format e4m3`.'), 'Add `mixed_precision.fp8: e4m3`.');
  // A negative spelling is its switch written false.
  assert.equal(inFormat(bridge, 'megatron-bridge', 'Drop `--no-rope-fusion`.'), 'Drop `model.apply_rope_fusion: false`.');
  const yamlCfg = modelOf('cfg.yaml', '# shardwise: format=megatron-yaml\nseq_length: 128\nlanguage_model:\n  num_layers: 2\nmodel_parallel:\n  tensor_model_parallel_size: 1\n');
  assert.equal(named(yamlCfg, '--fp4-format', 'e2m1'), '`language_model.fp4: e2m1`');
  // Only the flags' config builder reads this one; a `--yaml-cfg` file writes the config field it feeds.
  assert.equal(named(yamlCfg, '--decoder-first-pipeline-num-layers', '3'), '`language_model.num_layers_in_first_pipeline_stage: 3`');
  // A launch script keeps the flag.
  const script = modelOf('train.sh', SCRIPT);
  assert.equal(named(script, '--fp4-format', 'e2m1'), '`--fp4-format e2m1`');
});
