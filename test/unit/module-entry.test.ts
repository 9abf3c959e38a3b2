/**
 * The program a launch runs as a module (syntax/shell/launchers.ts `moduleEntryIndex`): which word is
 * the module for each launcher form, and the commands whose `-m` names no training program.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyze } from '../../server/src/engine';
import { parseShell } from '../../server/src/engine/syntax/shell';

function entry(text: string): { path: string; module?: boolean } | undefined {
  const e = parseShell(text).entrypoint;
  return e && { path: e.path, ...(e.module ? { module: true } : {}) };
}

test('each launcher form that runs a module names it as the entry', () => {
  const mod = { path: 'pkg.train', module: true };
  // python's `-m` ends its own options; torchrun's, accelerate's and deepspeed's switch takes no value
  // (torch/distributed/run.py `-m/--module`; accelerate commands/launch.py@v1.14.0:350-355; deepspeed launcher/runner.py@v0.19.5:141-146).
  assert.deepEqual(entry('python -u -m pkg.train --output_dir o\n'), mod);
  assert.deepEqual(entry('torchrun --nproc_per_node 2 -m pkg.train --output_dir o\n'), mod);
  assert.deepEqual(entry('torchrun -m --standalone --nnodes=1 --nproc_per_node 2 pkg.train --output_dir o\n'), mod);
  assert.deepEqual(entry('python -m torch.distributed.launch --nproc_per_node 2 --module pkg.train --output_dir o\n'), mod);
  assert.deepEqual(entry('deepspeed --num_gpus 2 --module pkg.train --output_dir o\n'), mod);
  assert.deepEqual(entry('deepspeed --module --no_local_rank --num_gpus 2 pkg.train --output_dir o\n'), mod);
  assert.deepEqual(entry('accelerate launch --config_file a.yaml -m pkg.train --output_dir o\n'), mod);
  assert.deepEqual(entry('srun -N 2 --ntasks-per-node 1 torchrun --nproc_per_node 8 -m pkg.train --output_dir o\n'), mod);
});

test('a file entry is still the file; a launcher word or tool run with -m is no program of ours', () => {
  assert.deepEqual(entry('torchrun --nproc_per_node 2 train.py -m x --output_dir o\n'), { path: 'train.py' });
  assert.deepEqual(entry('python -m torch.distributed.run --nproc_per_node 2 train.py --output_dir o\n'), { path: 'train.py' });
  // A profiler run as a module runs the file after it.
  assert.deepEqual(entry('python -m cProfile -o prof.out train.py --output_dir o\n'), { path: 'train.py' });
  assert.equal(entry('python -m pip install -r requirements.txt\n'), undefined);
  // srun's own `-m` (its task distribution) is not a module switch.
  assert.equal(entry('srun -m block python\n'), undefined);
  // A module word whose text is not known is no entry.
  assert.equal(entry('torchrun -m $MODULE --output_dir o\n'), undefined);
  // torchrun without its switch runs a file: a dotted word is not a module then.
  assert.equal(entry('torchrun --nproc_per_node 2 pkg.train --output_dir o\n'), undefined);
});

test('the format line says what the program shows of its own arguments', () => {
  const reason = (files: Record<string, string>): string => {
    const a = analyze({ path: '/w/launch.sh', text: 'torchrun --nproc_per_node 2 -m pkg.ft --output_dir o --per_device_train_batch_size 2 --deepspeed ds.json\n', resolve: (ref) => ({ ref, path: `/w/${ref}`, text: files[ref], tried: [`/w/${ref}`] }) });
    return a.docs[0].detection.reason;
  };
  const alone = 'from transformers import HfArgumentParser, TrainingArguments\n(args,) = HfArgumentParser((TrainingArguments,)).parse_args_into_dataclasses()\n';
  assert.match(reason({ 'pkg/ft/__main__.py': alone }), /\(`pkg\.ft` reads TrainingArguments alone\)/);
  const beside = 'from dataclasses import dataclass\nfrom transformers import HfArgumentParser, TrainingArguments\n@dataclass\nclass ModelArguments:\n    model: str = "m"\nm, t = HfArgumentParser((ModelArguments, TrainingArguments)).parse_args_into_dataclasses()\n';
  assert.match(reason({ 'pkg/ft.py': beside }), /\(`pkg\.ft` defines arguments of its own beside TrainingArguments\)/);
  assert.match(reason({}), /\(`pkg\.ft` is not read here and may define arguments of its own\)/);
});

test('a module run after the training command to evaluate or convert is a later step, not the training', () => {
  // FlagOpen/FlagEmbedding@7ed43d6 research/llm_embedder/scripts/llm-embedder.sh:8-36: training, then `torchrun -m evaluation.eval_mmlu` in a loop.
  const text = 'torchrun --nproc_per_node=8 run_dense.py --output_dir o --deepspeed ds.json\nfor m in a b; do\n  torchrun --nproc_per_node 8 -m evaluation.eval_mmlu --query_encoder o/$m\ndone\n';
  assert.deepEqual(entry(text), { path: 'run_dense.py' });
  assert.deepEqual(entry('python -m pip install -e .\ntorchrun -m pkg.train --output_dir o\n'), { path: 'pkg.train', module: true });
});

test('a Megatron-LM launch of an inference module is judged as inference, by the file the module is', () => {
  // NVIDIA/Megatron-LM@core_v0.16.0 examples/inference/llama_mistral/run_static_inference_llama4_scout.sh:64: `torchrun … -m examples.inference.gpt.gpt_static_inference`, TP 8 in an MoE model.
  const text = 'torchrun --nproc_per_node 8 -m examples.inference.gpt.gpt_static_inference --tensor-model-parallel-size 8 --num-layers 4 --hidden-size 512 --num-attention-heads 8 --num-experts 16 --seq-length 1024 --max-position-embeddings 1024 --micro-batch-size 1 --load ckpt\n';
  const a = analyze({ path: 'run.sh', text }, { targetVersions: { 'megatron-core': '0.16.0' } });
  assert.equal(a.docs[0].format?.id, 'megatron-args', a.docs[0].detection.reason);
  // The MoE layer's refusal of TP without sequence parallelism happens on a training step: none here.
  assert.ok(!a.findings.some((f) => f.code === 'tp-without-sequence-parallel'), a.findings.map((f) => f.code).join(', '));
});
