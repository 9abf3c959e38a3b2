/**
 * The built CLI on a repository where a launch script starts a Trainer through an Accelerate config
 * that names a DeepSpeed JSON (script → Accelerate config → JSON): the JSON is checked knowing the
 * script, two links away, so an `"auto"` only the Trainer fills is not reported as stopping Accelerate.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCli, type JsonFinding } from './run-cli';

const tmp = mkdtempSync(join(tmpdir(), 'shardwise-cli-launch-chain-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const DS = '{\n  "train_micro_batch_size_per_gpu": "auto",\n  "optimizer": { "type": "AdamW", "params": { "lr": "auto", "betas": "auto", "eps": "auto" } },\n  "zero_optimization": { "stage": 2 }\n}\n';
const ACCELERATE = 'compute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\nnum_processes: 8\ndeepspeed_config:\n  deepspeed_config_file: configs/ds_rm.json\n  zero3_init_flag: false\n';
const TRAINER = '#!/bin/bash\naccelerate launch --config_file configs/accelerate_rm.yaml src/rm_train.py \\\n    --model_name_or_path /models/base \\\n    --per_device_train_batch_size 2 \\\n    --gradient_accumulation_steps 4 \\\n    --learning_rate 1e-5 \\\n    --bf16 True \\\n    --output_dir out\n';
const OTHER = '#!/bin/bash\naccelerate launch --config_file configs/accelerate_rm.yaml src/eval.py\n';

function repo(name: string, script: string): string {
  const root = join(tmp, name);
  mkdirSync(join(root, 'configs'), { recursive: true });
  mkdirSync(join(root, 'scripts'), { recursive: true });
  writeFileSync(join(root, 'configs', 'ds_rm.json'), DS);
  writeFileSync(join(root, 'configs', 'accelerate_rm.yaml'), ACCELERATE);
  writeFileSync(join(root, 'scripts', 'run_rm.sh'), script);
  return root;
}

function betas(root: string): JsonFinding[] {
  const r = runCli(['check', '.', '--output-format', 'json', '--show-info'], { cwd: root });
  const findings = JSON.parse(r.out) as JsonFinding[];
  return findings.filter((f) => f.code === 'auto-without-integration' && /optimizer\.params\.(betas|eps)/.test(f.message) && f.severity === 'warning');
}

test('a DeepSpeed JSON whose Accelerate config a launch script uses to start a Trainer: the Trainer fills its "auto" values', () => {
  assert.deepEqual(betas(repo('trainer', TRAINER)), []);
});

test('the same files with a launch script whose program is not shown to be a Trainer: the warning that names the assumption stays', () => {
  assert.equal(betas(repo('other', OTHER)).length, 2);
});

const NEMO = 'trainer:\n  num_nodes: 1\n  devices: 8\nmodel:\n  mcore_gpt: true\n  tensor_model_parallel_size: 1\n  pipeline_model_parallel_size: 1\n  micro_batch_size: 16\n  global_batch_size: 16\n';
const HYDRA = (overrides: string) => `#!/bin/bash\ntorchrun --nproc_per_node 8 megatron_gpt_pretraining.py \\\n    --config-path=conf \\\n    --config-name=megatron_gpt_config${overrides}\n`;

function nemoRepo(name: string, script: string): string {
  const root = join(tmp, name);
  mkdirSync(join(root, 'examples', 'conf'), { recursive: true });
  writeFileSync(join(root, 'examples', 'conf', 'megatron_gpt_config.yaml'), NEMO);
  writeFileSync(join(root, 'examples', 'pretrain.sh'), script);
  return root;
}

const batchErrors = (root: string) =>
  (JSON.parse(runCli(['check', '.', '--output-format', 'json'], { cwd: root }).out) as JsonFinding[]).filter((f) => f.code === 'global-batch-not-divisible' && f.severity === 'error');

test('a NeMo config a launch script names with --config-name and overrides on the command line: the values written there are not the ones that run', () => {
  assert.deepEqual(batchErrors(nemoRepo('hydra-override', HYDRA(' \\\n    trainer.num_nodes=$NNODES \\\n    model.global_batch_size=$GBS'))), []);
  // The same launch without overriding the batch: the file's batch is what runs, and Megatron stops on it.
  assert.equal(batchErrors(nemoRepo('hydra-plain', HYDRA(' \\\n    trainer.max_steps=100'))).length, 1);
});

// The launch of a benchmark container: the entry and the config folder are paths inside the image
// (`/workspace/llm/...`), and the launcher comes from an array set in the arms of a branch.
const CONTAINER = (overrides: string) =>
  `#!/bin/bash\nif [[ -n "\${SLURM_LOCALID-}" ]]; then\n    CMD=( 'bindpcie' '--cpu=exclusive' \${IB_BIND} '--' \${NSYSCMD} 'python' '-u')\nelse\n    CMD=( \${NSYSCMD} 'python' '-u' )\nfi\n\${LOGGER:-} \${CMD[@]} /workspace/llm/megatron_gpt_pretraining.py \\\n    --config-path=/workspace/llm/conf \\\n    --config-name=megatron_gpt_config${overrides}\n`;

test('a NeMo config a container launch names by paths inside the image, with the launcher from the arms of a branch: its overrides are read', () => {
  assert.deepEqual(batchErrors(nemoRepo('container-override', CONTAINER(' \\\n    model.global_batch_size=${GLOBAL_BATCH_SIZE} \\\n    trainer.num_nodes=${SLURM_JOB_NUM_NODES-1}'))), []);
  assert.equal(batchErrors(nemoRepo('container-plain', CONTAINER(' \\\n    trainer.max_steps=100'))).length, 1);
});

test('a NeMo config whose launch passes words whose text is not known: they may override what the file writes, so no error rests on it', () => {
  assert.deepEqual(batchErrors(nemoRepo('hydra-open', HYDRA(' \\\n    trainer.max_steps=100 \\\n    $EXTRA_ARGS'))), []);
});
