/**
 * NeMo 1.x/2.x Megatron configs: the keys NeMo's model classes read under `model:` are accepted,
 * configs of NeMo's other collections are not ours, and versions are named as Megatron Core's.
 * Each key cites where NeMo (NVIDIA/NeMo at x-source.nemoCommit, or the named tag) reads it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyze } from '../../server/src/engine';

const nemo = (model: string) => `trainer:
  devices: 8
  num_nodes: 1
  precision: bf16
model:
  micro_batch_size: 1
  global_batch_size: 8
  tensor_model_parallel_size: 1
  pipeline_model_parallel_size: 1
${model}`;
const run = (text: string, path = 'megatron_gpt_config.yaml') => analyze({ path, text });
const unknown = (text: string) => run(text).findings.filter((f) => f.code === 'unknown-key').map((f) => f.message);

test('keys NeMo model classes read are accepted', () => {
  const keys = [
    'qkv_bias: true', // megatron_base_model.py build_transformer_config: cfg.get('qkv_bias') → add_qkv_bias (first in r2.0.0)
    'override_vocab_size: 32000', // megatron_gpt_model.py model_provider_func: cfg.get('override_vocab_size', padded_vocab_size)
    'name: megatron_falcon_gpt', // megatron_gpt_model.py __init__: self.spec_name = cfg.get('name', '')
    'tokens_head_bias: true', // megatron_lm_encoder_decoder_model.py (T5/BART): cfg.get('tokens_head_bias')
    'fp8_params: true', // megatron_base_model.py (optimizer setup) and megatron_gpt_model.py: cfg.get('fp8_params')
    'kd_teacher_restore_from_path: /ckpt/teacher.nemo', // examples/nlp/language_modeling/megatron_gpt_distillation.py (r2.0.0)
    'channels: 4', // multimodal/models/text_to_image/stable_diffusion/ldm/ddpm.py (v2.4.0): cfg.channels
  ];
  for (const k of keys) assert.deepEqual(unknown(nemo(`  ${k}\n`)), [], k);
});

test('a misspelling of a key NeMo reads is still a warning, with the spelling NeMo reads', () => {
  // nemotron_340b.yaml in NeMo-Framework-Launcher writes `deteministic_mode`; NeMo copies TransformerConfig's deterministic_mode by name.
  const found = run(nemo('  deteministic_mode: true\n')).findings.filter((f) => f.code === 'unknown-key');
  assert.equal(found.length, 1);
  assert.equal(found[0].severity, 'warning');
  assert.match(found[0].message, /deterministic_mode/);
});

test("configs of NeMo's ASR, TTS and audio collections are not Megatron configs", () => {
  // examples/tts/conf/fastpitch_align_v1.05.yaml: a trainer and a model, none of Megatron's settings.
  const tts = 'trainer:\n  devices: 1\nmodel:\n  n_window_size: 1024\n  window: hann\n  pitch_loss_scale: 0.1\n';
  const a = run(tts, 'fastpitch.yaml');
  assert.equal(a.docs[0].format, undefined);
  assert.deepEqual(a.findings, []);
});

test('deprecations in a NeMo config are dated in Megatron Core releases, not "NeMo 0.x"', () => {
  // cuda_graph_scope: a TransformerConfig field NeMo copies by name; Megatron Core 0.18.0 renamed it cuda_graph_modules.
  const msgs = run(nemo('  cuda_graph_scope: full\n')).findings.filter((f) => f.code === 'deprecated-key').map((f) => f.message);
  for (const m of msgs) {
    assert.doesNotMatch(m, /NeMo \d/);
    assert.match(m, /Megatron Core \d/);
  }
  assert.ok(msgs.length >= 1);
});

test("Megatron's removal of a name NeMo's own code reads does not apply to NeMo configs", () => {
  // nemo/collections/nlp/models/language_modeling/megatron_base_model.py reads cfg.pipeline_model_parallel_split_rank
  // for encoder-decoder models; Megatron-LM removed the flag of that name in 0.14.0.
  const text = nemo('  pipeline_model_parallel_split_rank: 0\n');
  assert.deepEqual(run(text).findings.filter((f) => f.code === 'deprecated-key'), []);
  const script = '#!/bin/bash\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --tensor-model-parallel-size 1 \\\n    --pipeline-model-parallel-split-rank 0 \\\n    --micro-batch-size 1\n';
  assert.equal(run(script, 'train.sh').findings.filter((f) => f.code === 'deprecated-key').length, 1);
});

test('a misspelled key under NeMo\'s `model:` is offered only keys NeMo reads there, never another Megatron-LM argument', async () => {
  // The class behind `merges_file` → `merge_file`: Megatron-LM's `--merge-file` is NeMo's
  // `model.tokenizer.merge_file`, so renaming a `model:` key to it changes nothing. One slip (the last
  // letter doubled) of every long Megatron argument name NeMo does not read under `model:`.
  const { MEGATRON_SCHEMA, megatronIndexes } = await import('../../server/src/engine/formats/megatron/schema');
  const read = megatronIndexes().nemoPrefixes.get('model') ?? new Set<string>();
  const names = Object.keys(MEGATRON_SCHEMA.properties ?? {}).filter((k) => k.length >= 12 && !read.has(k));
  assert.ok(names.length > 100);
  const text = nemo(names.map((k) => `  ${k}${k.slice(-1)}: 1\n`).join(''));
  const offered = run(text).findings.filter((f) => f.code === 'unknown-key').flatMap((f) => [...f.message.matchAll(/`([a-z0-9_]+)`(?= or |\?)/g)].map((x) => x[1]));
  const foreign = offered.filter((k) => !read.has(k) && MEGATRON_SCHEMA.properties?.[k]);
  assert.deepEqual(foreign, []);
});

test('keys NeMo writes into a saved model\'s config are records: neither misspellings nor Megatron arguments', () => {
  // NeMo 1.5–1.7 register the tokenizer files as artifacts under `model:` (megatron_gpt_model.py@v1.5.0:72-74,
  // save_restore_connector.py@v1.5.0:298-300); every model from 1.7 stamps `nemo_version` (modelPT.py@v1.7.0:113-115).
  const text = nemo('  vocab_file: nemo:c4ae_vocab.json\n  merges_file: nemo:5028_merges.txt\n  tokenizer_model: nemo:2b3f_tokenizer.model\n  t5_base_model: nemo:7e6d_t5.nemo\n  nemo_version: 1.7.2\n');
  const a = run(text);
  assert.deepEqual(a.findings.filter((f) => f.code === 'unknown-key'), []);
  // `model.tokenizer_model` is not Megatron-LM's `--tokenizer-model` (the tokenizer reads `model.tokenizer.model`).
  const args = (a.docs[0].model as { args: { get(d: string): unknown } }).args;
  assert.equal(args.get('tokenizer_model'), undefined);
});
