/**
 * Which format a file is read as, by weight of evidence (server/src/engine/formats/evidence.ts):
 * for each format a true config is still read as it and a near miss is not, each with the reason
 * `check --verbose` and the hover show; markers of other systems contradict; a directive, an
 * association and a link still decide.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyze, hover } from '../../server/src/engine';
import { foreignMarkers, weigh, type EvidenceRules } from '../../server/src/engine/formats/evidence';
import { parseYaml } from '../../server/src/engine/syntax/yaml';
import { LineIndex } from '../../server/src/engine/text';

/** The format of the first document, and why. */
function read(path: string, text: string, settings = {}): { format: string | undefined; reason: string; misses: string[] } {
  const d = analyze({ path, text }, settings).docs[0];
  return { format: d?.format?.id, reason: d?.detection.reason ?? '', misses: d?.detection.nearMisses.map((m) => m.reason) ?? [] };
}

function readAs(format: string, path: string, text: string, reason?: RegExp): void {
  const r = read(path, text);
  assert.equal(r.format, format, `${path}: ${r.reason}`);
  assert.match(r.reason, /^read as /);
  if (reason) assert.match(r.reason, reason);
}

function notRead(path: string, text: string, reason: RegExp): void {
  const a = analyze({ path, text });
  const d = a.docs[0];
  assert.equal(d.format, undefined, `${path} was read as ${d.format?.id}: ${d.detection.reason}`);
  assert.deepEqual(a.findings, [], `${path}: ${a.findings.map((f) => f.code).join(', ')}`);
  assert.equal(d.detection.by, 'none');
  // The first reason is the closest format's; the one asked about may be another's.
  const reasons = [d.detection.reason, ...d.detection.nearMisses.map((m) => m.reason)];
  assert.ok(reasons.some((r) => reason.test(r)), `${path}: ${reasons.join(' | ')}`);
}

/** Read as `format`, and another format that came close says why not (`reason`). */
function readOverMiss(format: string, path: string, text: string, reason: RegExp): void {
  const r = read(path, text);
  assert.equal(r.format, format, `${path}: ${r.reason}`);
  assert.ok(r.misses.some((m) => reason.test(m)), `${path}: ${r.misses.join(' | ')}`);
}

test('Accelerate: a distinctive key, or two it reads, with most top-level keys its own', () => {
  readAs('accelerate', 'a.yaml', 'compute_environment: LOCAL_MACHINE\ndistributed_type: FSDP\nnum_processes: 8\nmixed_precision: bf16\nfsdp_config:\n  fsdp_version: 2\nmain_training_function: main\nbogus: 1\n', /^read as an Accelerate config: `compute_environment`, `distributed_type`, `main_training_function`… are Accelerate keys, 6 of 7 top-level keys known$/);
  // Two keys it reads and nothing else: a hand-written config missing its distributed_type (which a rule says).
  readAs('accelerate', 'a.yaml', 'num_processes: 8\nmixed_precision: bf16\n', /`num_processes`, `mixed_precision` are Accelerate keys, 2 of 2/);
  // A misplaced or misspelled key is Accelerate's written wrong: it counts for the format.
  readAs('accelerate', 'a.yaml', 'distributed_type: FSDP\nfsdp_offload_params: true\nnum_procesess: 8\n', /`fsdp_offload_params`, `num_procesess` are unfinished, misspelled or misplaced Accelerate keys/);
  // So is a key still being typed: the file stays read (completion goes on) while it is written.
  readAs('accelerate', 'a.yaml', 'distributed_type: MULTI_GPU\nnum_proc', /`num_proc` is an unfinished, misspelled or misplaced Accelerate key/);
  notRead('a.yaml', 'distributed_type: MULTI_GPU\nnum_proc: 8\n', /1 of 2 top-level keys \(`num_proc`\) is not Accelerate's/);
  notRead('eval.yaml', 'models:\n  - name: m\nicl_tasks: tasks.yaml\nprecision: amp_bf16\nseed: 1\nfsdp_config:\n  sharding_strategy: FULL_SHARD\n', /^not read as an Accelerate config: 4 of 5 top-level keys \(`models`, `icl_tasks`, `precision`…\) are not Accelerate's; `fsdp_config` alone is not enough$/);
  notRead('x.yaml', 'distributed_type: FSDP\nfoo: 1\nbar: 2\n', /2 of 3 top-level keys \(`foo`, `bar`\) are not Accelerate's/);
});

test('Accelerate: another system\'s markers contradict, whatever the keys', () => {
  notRead('trainer.json', JSON.stringify({ fsdp: 'full_shard auto_wrap', fsdp_config: { fsdp_version: 2 }, mixed_precision: 'bf16' }), /`fsdp` with `fsdp_config` and no `distributed_type` is the Transformers Trainer's FSDP setting/);
  notRead('hydra.yaml', 'defaults:\n  - _self_\nnum_processes: 8\nmixed_precision: bf16\nfsdp_config:\n  x: 1\n', /`defaults` is a Hydra defaults list/);
  notRead('hydra.yaml', 'num_processes: 8\nmixed_precision: bf16\nfsdp_config:\n  policy:\n    _target_: my.Policy\n', /`_target_` \(in `fsdp_config.policy`\) names a class for Hydra to build/);
  notRead('omega.yaml', 'num_processes: ${oc.env:WORLD}\nmixed_precision: bf16\n', /`\$\{oc.env:WORLD\}` \(at `num_processes`\) is an OmegaConf interpolation/);
  // A Trainer recipe is not an Accelerate config: it is read as the recipe it is.
  readOverMiss('trainer', 'sft.yaml', 'mixed_precision: bf16\nfsdp_config:\n  x: 1\noutput_dir: out\nper_device_train_batch_size: 4\nlearning_rate: 1.0e-5\n', /`output_dir`, `per_device_train_batch_size`, `learning_rate` are Transformers Trainer arguments/);
  notRead('ds.yaml', 'num_processes: 8\nmixed_precision: fp16\ntrain_micro_batch_size_per_gpu: 4\n', /`train_micro_batch_size_per_gpu` is a DeepSpeed key, and there is no `distributed_type`/);
  // A shell placeholder filled before the tool reads the file is not OmegaConf's.
  readAs('accelerate', 'a.yaml', 'distributed_type: MULTI_GPU\nnum_processes: 8\nmain_process_ip: ${MASTER_ADDR}\n');
});

test('DeepSpeed: a ZeRO section or a batch key, or two DeepSpeed keys, with at most one key in three unknown', () => {
  readAs('deepspeed', 'ds.json', JSON.stringify({ train_micro_batch_size_per_gpu: 'auto', zero_optimization: { stage: 3 }, bf16: { enabled: true } }), /`train_micro_batch_size_per_gpu`, `zero_optimization`, `bf16` are DeepSpeed keys, 3 of 3 top-level keys known$/);
  readAs('deepspeed', 'ds.json', JSON.stringify({ gradient_accumulation_steps: 4, gradient_clipping: 1.0 }));
  // A batch key outweighs a section written as a switch (a mistake a rule reports).
  readAs('deepspeed', 'ds.json', JSON.stringify({ train_batch_size: 8, bf16: true }));
  notRead('recipe.yaml', 'gradient_accumulation_steps: 4\ngradient_clipping: 1.0\nbf16: true\n', /`bf16` is written as a switch where DeepSpeed reads a section/);
  notRead('model.json', JSON.stringify({ architectures: ['X'], hidden_size: 8, num_hidden_layers: 2, vocab_size: 10, steps_per_print: 10, gradient_clipping: 1 }), /4 of 6 top-level keys .* are not DeepSpeed's/);
  notRead('hydra.yaml', 'defaults:\n  - base\ntrain_batch_size: 8\nzero_optimization:\n  stage: 2\n', /`defaults` is a Hydra defaults list/);
  notRead('acc.json', JSON.stringify({ distributed_type: 'DEEPSPEED', zero_optimization: { stage: 2 }, weird: 1, other: 2 }), /`distributed_type` is an Accelerate key/);
});

test('Megatron-LM YAML: MODEL_ARGS flags mostly Megatron-LM\'s, or both --yaml-cfg sections', () => {
  readAs('megatron-yaml', 'model_config.yaml', 'ENV_VARS:\n  CUDA_DEVICE_MAX_CONNECTIONS: 1\nMODEL_ARGS:\n  --num-layers: 2\n  --hidden-size: 64\n  --my-own-flag: 1\nTEST_TYPE: regular\n', /^read as a Megatron-LM YAML \(`MODEL_ARGS`\): `MODEL_ARGS` is a map of `--flags`, as a functional test writes them; `--num-layers`, `--hidden-size` are Megatron-LM flags, 2 of 3 flags in `MODEL_ARGS` known$/);
  notRead('model_config.yaml', 'MODEL_ARGS:\n  --alpha: 1\n  --beta: 2\n  --gamma: 3\n  --num-layers: 2\n', /3 of 4 flags in `MODEL_ARGS` \(`--alpha`, `--beta`, `--gamma`\) are not Megatron-LM's/);
  readAs('megatron-yaml', 'gpt.yaml', 'language_model:\n  num_layers: 2\nmodel_parallel:\n  tensor_model_parallel_size: 1\nseed: 1\n');
  notRead('gpt.yaml', 'language_model:\n  num_layers: 2\nmodel_parallel:\n  tensor_model_parallel_size: 1\n_target_: x.Y\n', /`_target_` names a class for Hydra to build/);
});

test('Megatron Bridge: two ConfigContainer sections and every top-level key one of them', () => {
  readAs('megatron-bridge', 'override.yaml', 'model:\n  tensor_model_parallel_size: 2\ntrain:\n  global_batch_size: 32\n', /`model`, `train` are Megatron Bridge sections, 2 of 2 top-level sections known/);
  readAs('megatron-bridge', 'override.yaml', 'model.tensor_model_parallel_size: 4\n');
  notRead('override.yaml', 'model:\n  tensor_model_parallel_size: 2\ntrain:\n  global_batch_size: 32\nserver:\n  port: 8000\n', /1 of 3 top-level sections \(`server`\) is not Megatron Bridge's/);
  notRead('override.yaml', 'model:\n  tensor_model_parallel_size: 2\n', /`model` alone is not enough/);
});

test('NeMo: trainer and a model with Megatron\'s settings; not an ASR model, a template or a conversion job', () => {
  readAs('nemo', 'gpt.yaml', 'defaults:\n  - base\ntrainer:\n  devices: 8\nmodel:\n  tensor_model_parallel_size: 2\nserver: true\n', /^read as a NeMo config: `trainer` and `model` sections, with Megatron's parallel or batch settings, 3 of 4 top-level sections known \(a NeMo script's Hydra config adds sections of its own\)$/);
  notRead('asr.yaml', 'trainer:\n  devices: 8\nmodel:\n  sample_rate: 16000\n  encoder:\n    d_model: 256\n', /./);
  const template = 'trainer:\n  devices: 8\nmodel:\n  tensor_model_parallel_size: 2\n';
  const r = read('launcher_scripts/conf/auto_configurator/base_configs/gpt3.yaml', template);
  assert.equal(r.format, undefined);
  assert.match(r.reason, /^not read as a NeMo config: the auto-configurator fills this template in before anything runs$/);
  // Another framework shaped like NeMo (AWS's neuronx-distributed-training): its parallel degrees in a
  // top-level section NeMo does not read.
  const neuron = 'name: hf_llama\nmodel_source: hf\ntrainer:\n  devices: 32\n  num_nodes: 1\ndistributed_strategy:\n  tensor_model_parallel_size: 32\n  pipeline_model_parallel_size: 1\ndata:\n  micro_batch_size: 1\n  global_batch_size: 4\nmodel:\n  num_layers: 32\n  hidden_size: 4096\n  sequence_parallel: true\n  activations_checkpoint_granularity: full\n';
  notRead('hf_llama3_8B_config.yaml', neuron, /^not read as a NeMo config: `distributed_strategy.tensor_model_parallel_size`: the parallel degrees are in a section NeMo does not read$/);
});

test('launch scripts: Megatron-LM\'s own entry point, or three of its flags; Trainer arguments rule it out', () => {
  readAs('megatron-args', 'train.sh', 'torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 2\n', /^read as a Megatron-LM launch script: `pretrain_gpt.py` is Megatron-LM's own entry point; `--num-layers` is a Megatron-LM flag/);
  readAs('megatron-args', 'run.sh', 'python my_trainer.py --tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 --num-layers 4 --my-flag 1\n', /3 of 4 flags of the training command known \(the entry script may define flags of its own\)/);
  readOverMiss('trainer', 'run.sh', 'python train.py --num-layers 2 --hidden-size 8 --seq-length 16 --per_device_train_batch_size 4 --output_dir out\n', /`--per_device_train_batch_size`, `--output_dir` are Transformers Trainer arguments/);
  notRead('run.sh', 'python tools/convert.py --num-layers 2 --input a\n', /`--num-layers` alone is not enough/);
  // After a program that cannot be read, a few shared names among many flags of its own are not
  // Megatron-LM's (nor the Trainer's): a plain PyTorch FSDP trainer with `--seed`, `--bf16`, `--lr`.
  const fsdp = 'TRAIN_SCRIPT=./src/train.py\ntorchrun --nproc_per_node 8 $TRAIN_SCRIPT --seed=1 --bf16=1 --lr=1e-4 --weight_decay=0.1 --max_steps=100 --num_layers=32 --hidden_width=4096 --num_heads=32 --model_type=mixtral --sharding_strategy=full --offload_activations=1 --dataset=c4 --epochs=3\n';
  notRead('train.sbatch', fsdp, /only \d of the 13 flags are Megatron-LM's, after `train.py`, which is not read here/);
  notRead('train.sbatch', fsdp, /only \d of the 13 flags are the Transformers Trainer's, after `train.py`/);
  // A program that adds flags of its own still passes Megatron-LM's in the main.
  readAs('megatron-args', 'run.sh', 'torchrun rl_train.py --tensor-model-parallel-size 2 --num-layers 4 --hidden-size 8 --num-attention-heads 2 --rollout-batch-size 8 --kl-coef 0.1 --n-samples 4\n');
});

test('Trainer recipes: a LLaMA-Factory or axolotl sign, or three TrainingArguments a recipe writes; scripts: two such flags after a Python entry', () => {
  readAs('trainer', 'llama3_full_sft.yaml', 'model_name_or_path: m\nstage: sft\ndo_train: true\nfinetuning_type: full\ndeepspeed: ds.json\ndataset: alpaca\ntemplate: llama3\n', /^read as a Transformers Trainer recipe: `stage: sft` with `finetuning_type: full` is a LLaMA-Factory recipe; `do_train` is a Transformers Trainer argument/);
  readAs('trainer', 'qlora.yml', 'base_model: NousResearch/Llama-2-7b-hf\nload_in_4bit: true\ndatasets:\n  - path: mhenrichsen/alpaca_2k_test\n    type: alpaca\nsequence_len: 4096\nmicro_batch_size: 2\ngradient_accumulation_steps: 4\n', /`base_model` with `micro_batch_size`, `sequence_len`, `datasets` is an axolotl config/);
  readAs('trainer', 'sft.yaml', 'model_name_or_path: Qwen/Qwen2-0.5B\ndataset_name: trl-lib/Capybara\nlearning_rate: 2.0e-5\nnum_train_epochs: 1\nper_device_train_batch_size: 8\nuse_peft: true\n', /`learning_rate`, `num_train_epochs`, `per_device_train_batch_size` are Transformers Trainer arguments/);
  readAs('trainer', 'args.json', JSON.stringify({ output_dir: 'out', per_device_train_batch_size: 4, learning_rate: 1e-5, deepspeed: 'ds.json' }));
  readAs('trainer', 'finetune.sh', 'deepspeed train.py --deepspeed ./zero3.json --per_device_train_batch_size 16 --learning_rate 2e-5 --my_flag 1\n', /3 of 4 flags of the training command known \(`train.py` is not read here and may define arguments of its own\)/);
  readAs('trainer', 'finetune.sh', 'accelerate launch --num_processes 8 train.py --output_dir out --num_train_epochs 3\n');
  // Two arguments are not a recipe; a DeepSpeed section, Accelerate's type or Hydra rule it out.
  notRead('eval.yaml', 'output_dir: out\nseed: 42\nbatch_size: 8\n', /`output_dir`, `seed` are not enough/);
  notRead('ds.yaml', 'output_dir: out\nlearning_rate: 1.0e-5\nnum_train_epochs: 2\nzero_optimization:\n  stage: 2\n', /`zero_optimization` is a DeepSpeed section/);
  notRead('cfg.yaml', 'defaults:\n  - base\noutput_dir: out\nlearning_rate: 1.0e-5\nnum_train_epochs: 2\n', /`defaults` is a Hydra defaults list/);
  // A NeMo model section written flat (MLPerf's llama2_70b_lora nemo/conf/base/model_config.yaml): `seed`,
  // `optim` and `resume_from_checkpoint` are shared names, and Megatron's model keys rule a recipe out.
  notRead('model_config.yaml', 'mcore_gpt: true\nmicro_batch_size: 4\nglobal_batch_size: 8\ntensor_model_parallel_size: 1\npipeline_model_parallel_size: 1\nnum_layers: 80\nhidden_size: 8192\nseed: 1234\nresume_from_checkpoint: null\noptim:\n  name: fused_adam\n  lr: 0.0004\n', /are Megatron model settings/);
  // A framework's own settings file of dozens of keys that shares three common names with the Trainer
  // (AMD Primus's Megatron module YAMLs, MaxDiffusion configs): a fifth of the keys must be the Trainer's.
  const own = Array.from({ length: 40 }, (_, i) => `own_setting_${i}: ${i}`).join('\n');
  notRead('sft_trainer.yaml', `learning_rate: 1.0e-5\nweight_decay: 0.1\nseed: 1234\n${own}\n`, /only 3 of 43 top-level keys are Transformers Trainer's/);
  readAs('trainer', 'sft.yaml', `learning_rate: 1.0e-5\nweight_decay: 0.1\nseed: 1234\nper_device_train_batch_size: 4\noutput_dir: out\nnum_train_epochs: 1\n${own.split('\n').slice(0, 20).join('\n')}\n`);
  readAs('trainer', 'lf.yaml', `stage: sft\nfinetuning_type: lora\ndo_train: true\n${own}\n`, /is a LLaMA-Factory recipe/);
  // Megatron-LM's own entry point is not a Trainer script; a script with no Python entry is none.
  const megatron = read('run.sh', 'torchrun pretrain_gpt.py --output_dir out --learning_rate 1 --num_train_epochs 1\n');
  assert.notEqual(megatron.format, 'trainer');
  assert.ok(megatron.misses.some((m) => /`pretrain_gpt.py` is Megatron-LM's own entry point/.test(m)), megatron.misses.join(' | '));
});

test('OmegaConf interpolations are told from shell placeholders', () => {
  const markers = (value: string) => foreignMarkers(parseYaml(`k: "${value}"\n`, new LineIndex(`k: "${value}"\n`))[0]).interpolation.length > 0;
  for (const v of ['${max_len}', '${model.tp}', '${..x}', '${oc.env:HOME}', 'a-${now:%H}']) assert.ok(markers(v), v);
  for (const v of ['${DATA_PATH}/x', '$HOME', '${ENV_VAR:-1}', 'cost: $5']) assert.ok(!markers(v), v);
});

test('the evidence model: a distinctive key, several telling keys, the balance and contradictions', () => {
  const rules: EvidenceRules = { what: 'a T config', owner: 'T', where: 'keys', distinctive: (k) => k === 'd', telling: (k) => k.startsWith('t'), known: (k) => k !== 'x' && k !== 'y', several: 2, balance: 'most' };
  const keys = (...ks: string[]) => ks.map((key) => ({ key }));
  assert.equal(weigh({ keys: keys('d') }, rules).claimed, true);
  assert.equal(weigh({ keys: keys('t1') }, rules).claimed, false);
  assert.equal(weigh({ keys: keys('t1', 't2') }, rules).claimed, true);
  assert.equal(weigh({ keys: keys('d', 'x', 'y') }, rules).claimed, false);
  assert.equal(weigh({ keys: keys('d'), contradictions: ['no'] }, rules).claimed, false);
  // A doubt is outweighed by a distinctive key or a sign, not by telling keys.
  assert.equal(weigh({ keys: keys('d'), doubts: ['hmm'] }, rules).claimed, true);
  assert.equal(weigh({ keys: keys('t1', 't2'), doubts: ['hmm'] }, rules).claimed, false);
  assert.equal(weigh({ keys: keys('k'), signs: ['a sign'] }, rules).claimed, true);
  assert.equal(weigh({ keys: keys('d', 'x', 'y') }, { ...rules, balance: { open: 'open' } }).claimed, true);
  // More evidence weighs more.
  assert.ok(weigh({ keys: keys('d', 't1') }, rules).score > weigh({ keys: keys('t1', 't2') }, rules).score);
});

test('a directive, an association and a link still decide, and say so', () => {
  const directive = read('x.yaml', '# shardwise: format=accelerate\nfoo: 1\n');
  assert.equal(directive.format, 'accelerate');
  assert.equal(directive.reason, 'read as an Accelerate config: the directive `shardwise: format=accelerate`');
  const association = read('conf/train.yaml', 'models: []\nfsdp_config: {}\n', { associations: { 'conf/*.yaml': 'accelerate' } });
  assert.equal(association.format, 'accelerate');
  assert.equal(association.reason, 'read as an Accelerate config: the association `conf/*.yaml` → `accelerate`');
  // The DeepSpeed JSON an Accelerate config names is read as DeepSpeed whatever its content.
  const json = '{"fp16": {"enabled": true}}';
  assert.equal(read('ds.json', json).format, undefined);
  const acc = 'distributed_type: DEEPSPEED\nnum_processes: 8\ndeepspeed_config:\n  deepspeed_config_file: ds.json\n';
  const a = analyze({ path: '/w/acc.yaml', text: acc, resolve: (ref) => ({ ref, path: `/w/${ref}`, text: json, tried: [`/w/${ref}`] }) });
  const linked = (a.docs[0].model as { deepspeedFile?: { model?: unknown } }).deepspeedFile;
  assert.ok(linked?.model, 'the linked JSON is read as a DeepSpeed config');
  // Checked on its own, with the config that names it as a referrer (as the CLI and the editor hand it over), it is read the same way.
  const own = analyze({ path: '/w/ds.json', text: json, referrers: [{ path: '/w/acc.yaml', text: acc }] }).docs[0];
  assert.equal(own.format?.id, 'deepspeed');
  assert.deepEqual([own.detection.by, own.detection.reason], ['link', 'read as a DeepSpeed config: `acc.yaml` names it as its `deepspeed_config_file`']);
  // A referrer that names another file, or is no DeepSpeed launch, does not make it one.
  for (const other of [acc.replace('ds.json', 'zero3.json'), acc.replace('DEEPSPEED', 'MULTI_GPU')]) assert.equal(analyze({ path: '/w/ds.json', text: json, referrers: [{ path: '/w/acc.yaml', text: other }] }).docs[0].format, undefined);
});

test('hover on the first line: what the file was read as and why; a near miss with a key of its own says why not', () => {
  const text = 'distributed_type: MULTI_GPU\nnum_processes: 8\n';
  const h = hover(analyze({ path: 'a.yaml', text }), 3)!;
  assert.match(h.markdown, /\*\*distributed_type\*\*/);
  assert.match(h.markdown, /\*\*Format\*\*: read as an Accelerate config: `distributed_type`, `num_processes` are Accelerate keys, 2 of 2 top-level keys known\./);
  // And what it is checked against, each with how it is known.
  assert.match(h.markdown, /\*\*Release\*\*: the newest Accelerate release Shardwise knows \(assumed: /);
  assert.match(h.markdown, /\*\*Hardware\*\*: h100-sxm \(assumed: /);
  const pinned = hover(analyze({ path: 'a.yaml', text: `# shardwise: accelerate=1.6.0 hardware=h200\n${text}` }), 40)!;
  assert.match(pinned.markdown, /\*\*Release\*\*: Accelerate 1\.6\.0, as set\./);
  assert.match(pinned.markdown, /\*\*Hardware\*\*: h200 \(hardware profile `h200`\)\./);
  assert.doesNotMatch(hover(analyze({ path: 'a.yaml', text }), text.indexOf('num_processes') + 2)!.markdown, /Format/);
  const hydra = 'defaults:\n  - base\ndistributed_type: FSDP\nnum_processes: 8\n';
  const near = hover(analyze({ path: 'a.yaml', text: hydra }), 2)!;
  assert.equal(near.markdown, '**Format**: not read as an Accelerate config: `defaults` is a Hydra defaults list.');
  assert.deepEqual(near.span, { start: 0, end: 'defaults:'.length });
  // Nothing of ours, or only a shared key: nothing to say.
  assert.equal(hover(analyze({ path: 'p.yaml', text: 'kind: Pod\nmetadata: {}\n' }), 1), undefined);
  assert.equal(hover(analyze({ path: 't.json', text: '{"fsdp": "full_shard", "fsdp_config": {}}' }), 1), undefined);
});
