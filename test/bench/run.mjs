#!/usr/bin/env node
// `npm run bench`: Shardwise's language server against yaml-language-server 2.0.0, on the same
// files (Accelerate: same schema, schemas/accelerate.schema.json), in the same run, on this machine.
// A benchmark, never a test: it asserts nothing about speed; it prints a table with ratios.
//
//   node test/bench/run.mjs [--quick] [--skip-50k] [--no-peer] [--timeout=SECONDS] [--json=FILE]
//                           [--cache-dir=DIR] [--keep-inputs]
//
// Method (after /work/shared/reference/peers.md §3): each server runs over stdio, driven by a small
// JSON-RPC client in this file that answers `workspace/configuration` with the server's settings.
// A latency is the time from just before a message is written to the server's stdin to the moment
// the matching answer is parsed from its stdout:
//   - didChange → the publishDiagnostics of that change: a one-line incremental edit that adds or
//     removes one error (`main_process_port: 29500` ↔ `95000`, above the schema maximum),
//     alternating, so the two states have different diagnostic counts. A publish matches when it
//     carries the change's version, or (for a server that publishes no version) when its count is
//     the count of the new text. Every matched publish's count is checked against its state, so a
//     stale publish is never timed. On the Megatron and NeMo inputs the two states may have the same
//     count (see below): a versioned server is still matched by version; for a server that
//     publishes no version the publish timed is the first one after the change (each change waits
//     for its publish before the next is sent, and the peer publishes once per change);
//   - didOpen → first publishDiagnostics (same URI each time, closed in between, a new version
//     number on each open so that yaml-language-server's parse cache, keyed on URI + version and
//     kept after close, cannot answer from the previous open);
//   - spawn → initialize result (fresh processes);
//   - hover on the `num_processes` key (Megatron script: the `--tensor-model-parallel-size` flag;
//     NeMo: the `tensor_model_parallel_size` key).
// Median and p95 are nearest-rank, over n ≥ 30 measured iterations after warm-up (--quick: fewer).
// RSS is VmRSS from /proc/<pid>/status of a fresh server: after a warm-up, and after 100
// open → diagnostics → close cycles of distinct URIs with the 5k-line file (retention); VmHWM is the peak.
//
// Inputs (generated at bench time into a temp folder; nothing large is committed):
//   - small: ~60-line Accelerate config (examples/accelerate/clean-fsdp2-hsdp.yaml grown with the
//     comments and keys a real config has) with 3 planted errors (an enum typo, a key typo inside
//     fsdp_config, a boolean written as text);
//   - large-5k / large-50k: an XLA (TPU pod) Accelerate config whose long sections are the
//     `commands` list (setup commands `accelerate tpu-config` runs on every VM) and the `tpu_env`
//     list, split around `main_process_port` so the edited line is mid-file, plus the same 3 planted
//     errors. Both lists are arrays of strings in the schema, so both servers parse every line and
//     validate every item against the schema (Accelerate has no list of runs; this is the one
//     place a real config grows long);
//   - megatron-sh: a ~300-line Megatron-LM launch script (bash: GPUS_PER_NODE / NUM_NODES, the
//     torchrun DISTRIBUTED_ARGS array, GPT_MODEL_ARGS / TRAINING_ARGS / MODEL_PARALLEL_ARGS /
//     DATA_ARGS / EVAL_AND_LOGGING_ARGS flag arrays, a long data blend, comments, the
//     `torchrun ${DISTRIBUTED_ARGS[@]} pretrain_gpt.py ${GPT_MODEL_ARGS[@]} ...` line), opened as
//     `shellscript` with a `.sh` URI; the edit toggles `--tensor-model-parallel-size 8` ↔ `16`
//     (16 is wider than a node's 8 GPUs: a layout finding). Shardwise only: the peer does not
//     read shell scripts;
//   - nemo-yaml: a ~250-line NeMo 1.x training config (`trainer:` / `exp_manager:` / `model:`,
//     after NeMo's megatron_gpt_config.yaml), edit `tensor_model_parallel_size: 8` ↔ `3` (32 heads
//     and 32 GPUs are not divisible by 3). The peer has no NeMo schema: it gets this file without
//     a schema (excluded from the Accelerate association), which still measures its parse and
//     validation pipeline; it then reports no diagnostics in either state.
//
// The peer is installed by `npm ci` from test/bench/package.json + package-lock.json into a cache
// folder outside the clone ($SHARDWISE_BENCH_CACHE, or $XDG_CACHE_HOME/shardwise-bench, or
// ~/.cache/shardwise-bench), with a stamp file so later runs skip the install.
// It gets `yaml.schemas: { "file:///…/accelerate.schema.json": ["*.yaml", "!nemo-*.yaml"] }`, SchemaStore off,
// validation on, `yaml.customTags: []`; it validates after a fixed delay, which is the point of the
// comparison.

import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, homedir, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BENCH = join(ROOT, 'test', 'bench');
const SCHEMA = join(ROOT, 'schemas', 'accelerate.schema.json');
const SHARDWISE_MAIN = join(ROOT, 'dist', 'server', 'main.js');
const PEER_NAME = 'yaml-language-server';
const PEER_VERSION = '2.0.0';

// ---------------------------------------------------------------------------------------------
// Options

const { values: opt } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    'skip-50k': { type: 'boolean', default: false },
    'no-peer': { type: 'boolean', default: false },
    timeout: { type: 'string' },
    json: { type: 'string' },
    'cache-dir': { type: 'string' },
    'keep-inputs': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});
if (opt.help) {
  process.stdout.write(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 7).map((l) => l.replace(/^\/\/ ?/, '')).join('\n') + '\n');
  process.exit(0);
}
const QUICK = opt.quick;
const N = QUICK ? 6 : 30; // measured iterations per latency
const WARMUP = QUICK ? 2 : 5;
const SPAWNS = QUICK ? 2 : 7;
const CYCLES = QUICK ? 20 : 100;
const WITH_50K = !opt['skip-50k'] && !QUICK;
const HARD_TIMEOUT_S = Number(opt.timeout ?? (QUICK ? 600 : 2400));
const WAIT_MS = 180_000; // one answer; far above anything expected, only to never hang

// ---------------------------------------------------------------------------------------------
// Hard overall timeout and child bookkeeping: no server outlives the bench.

const live = new Set();
let inputsDir; // removed on every way out unless --keep-inputs
function removeInputs() {
  if (inputsDir && !opt['keep-inputs']) rmSync(inputsDir, { recursive: true, force: true });
}
function killAll() {
  for (const child of live) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}
const hardTimer = setTimeout(() => {
  console.error(`\nbench: overall timeout (${HARD_TIMEOUT_S} s) reached; killing the servers.`);
  killAll();
  removeInputs();
  process.exit(1);
}, HARD_TIMEOUT_S * 1000);
process.on('exit', killAll);
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    killAll();
    removeInputs();
    process.exit(130);
  });
}

function log(...args) {
  console.error(...args);
}

// ---------------------------------------------------------------------------------------------
// Peer installation (cached)

function peerCacheRoot() {
  if (opt['cache-dir']) return resolve(opt['cache-dir']);
  if (process.env.SHARDWISE_BENCH_CACHE) return resolve(process.env.SHARDWISE_BENCH_CACHE);
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'shardwise-bench');
}

function installPeer() {
  const manifest = readFileSync(join(BENCH, 'package.json'));
  const lock = readFileSync(join(BENCH, 'package-lock.json'));
  const hash = createHash('sha256').update(manifest).update('\0').update(lock).digest('hex').slice(0, 16);
  const dir = join(peerCacheRoot(), `peers-${hash}`);
  const bin = join(dir, 'node_modules', PEER_NAME, 'bin', PEER_NAME);
  const stamp = join(dir, '.installed.json');
  if (existsSync(stamp) && existsSync(bin)) return { bin, dir, cached: true };
  log(`bench: installing ${PEER_NAME}@${PEER_VERSION} into ${dir} (npm ci) …`);
  try {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(BENCH, 'package.json'), join(dir, 'package.json'));
    copyFileSync(join(BENCH, 'package-lock.json'), join(dir, 'package-lock.json'));
  } catch (e) {
    throw new Error(`cannot prepare the peer cache folder ${dir}: ${e.message}. Set --cache-dir=DIR or SHARDWISE_BENCH_CACHE to a writable folder.`);
  }
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', '--engine-strict=false'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 10 * 60_000,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  if (r.error || r.status !== 0 || !existsSync(bin)) {
    const why = r.error ? r.error.message : r.status !== 0 ? `npm ci exited with ${r.status}${r.signal ? ` (${r.signal})` : ''}` : `${bin} is missing after npm ci`;
    const tail = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-25).join('\n');
    throw new Error(
      `could not install the peer ${PEER_NAME}@${PEER_VERSION}: ${why}\n${tail ? `--- npm output (tail) ---\n${tail}\n` : ''}` +
        'Check that npm can reach its registry (proxy / offline cache), then run the bench again; ' +
        `or run with --no-peer to measure Shardwise alone. Cache folder: ${dir}`,
    );
  }
  writeFileSync(stamp, JSON.stringify({ package: `${PEER_NAME}@${PEER_VERSION}`, hash, node: process.version, installedAt: new Date().toISOString() }, null, 2) + '\n');
  return { bin, dir, cached: false };
}

// ---------------------------------------------------------------------------------------------
// Inputs

/** The realistic ~60-line config: examples/accelerate/clean-fsdp2-hsdp.yaml grown, 3 planted errors. */
function smallConfig() {
  return [
    '# Llama-3.1-8B supervised fine-tuning on 2 nodes x 8 H100 SXM.',
    '# Launch on every node: accelerate launch --config_file fsdp2-hsdp.yaml --machine_rank $RANK train.py',
    '# FSDP2 with hybrid sharding: replicate across the nodes, shard within a node, TP inside.',
    '# 16 processes = dp_replicate 2 x dp_shard 4 x tp 2.',
    'compute_environment: LOCAL_MACHINE',
    'debug: false',
    'distributed_type: FSDP',
    "downcast_bf16: 'no'",
    'enable_cpu_affinity: false',
    'gpu_ids: all',
    '',
    '# --- rendezvous ---------------------------------------------------------',
    'num_machines: 2',
    'machine_rank: 0',
    'main_process_ip: 10.0.0.1',
    'main_process_port: 29500',
    'rdzv_backend: static',
    'same_network: true',
    'num_processes: 16',
    '',
    '# --- precision and entry point ----------------------------------------',
    'mixed_precision: bf16',
    'main_training_function: main',
    'use_cpu: false',
    '',
    '# --- FSDP (v2) ---------------------------------------------------------',
    'fsdp_config:',
    '  fsdp_version: 2',
    '  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP',
    '  fsdp_transformer_layer_cls_to_wrap: LlamaDecoderLayer',
    '  # Reshard after forward (ZeRO-3 style): less memory, one more all-gather per layer.',
    '  fsdp_reshard_after_forward: true',
    '  fsdp_state_dict_type: SHARDED_STATE_DIC', // planted 1: enum typo
    '  fsdp_cpu_ram_efficient_loading: false',
    '  fsdp_offload_params: false',
    '  fsdp_activation_checkpointing: true',
    '  fsdp_activaton_checkpointing_reentrant: false', // planted 2: unknown key in fsdp_config
    '',
    '# --- N-D parallelism ----------------------------------------------------',
    'parallelism_config:',
    '  parallelism_config_dp_replicate_size: 2',
    '  parallelism_config_dp_shard_size: 4',
    '  parallelism_config_tp_size: 2',
    '  parallelism_config_cp_size: 1',
    '',
    '# --- torch.compile --------------------------------------------------------',
    'dynamo_config:',
    '  dynamo_backend: INDUCTOR',
    '  dynamo_mode: default',
    '  dynamo_use_fullgraph: false',
    '  dynamo_use_dynamic: maybe', // planted 3: not a boolean
    '  dynamo_use_regional_compilation: true',
    '',
    '# Checkpoints are written by the training script (save_state every 500 steps);',
    '# the sharded state dict above keeps each rank writing only its own shard.',
    '# Numbers for this layout: ~41 GiB per GPU with activation checkpointing,',
    '# ~3,900 tokens/s per GPU at sequence length 8192.',
    '',
  ].join('\n');
}

const COMMAND_TEMPLATES = [
  (i) => `pip install --upgrade --quiet "torch~=2.6.0" "torch_xla[tpu]~=2.6.0" -f https://storage.googleapis.com/libtpu-releases/index.html # step ${i}`,
  (i) => `gsutil -m cp -r gs://my-bucket/datasets/shard-${String(i).padStart(5, '0')} /mnt/data/`,
  (i) => `export XLA_PERSISTENT_CACHE_PATH=/mnt/cache/xla-${i % 64} && mkdir -p "$XLA_PERSISTENT_CACHE_PATH"`,
  (i) => `python -c "import torch_xla; print(torch_xla.__version__)" >> /tmp/setup-${i}.log`,
  (i) => `sudo sysctl -w net.core.rmem_max=${4194304 + i} && echo tuned >> /tmp/setup.log`,
];

/**
 * A long XLA config: header keys, `commands` (half the lines), `main_process_port` mid-file (the
 * edited line), `tpu_env` (the other half), a dynamo section; the 3 planted errors as in `small`.
 */
function largeConfig(totalLines) {
  const head = [
    '# TPU v5p-128 pod: setup commands and environment for every VM, used by',
    '# `accelerate tpu-config` and `accelerate launch` (generated by the Shardwise bench).',
    'compute_environment: LOCAL_MACHINE',
    'distributed_type: XLA',
    "downcast_bf16: 'no'",
    'mixed_precision: bf16',
    'num_machines: 1',
    'machine_rank: 0',
    'num_processes: 8',
    'main_training_function: main',
    'tpu_name: train-v5p-128',
    'tpu_zone: us-east5-a',
    'tpu_use_cluster: true',
    'tpu_use_sudo: false',
    'tpu_vm:',
    '  - train-v5p-128-w-0',
    '  - train-v5p-128-w-1',
    'dynamo_config:',
    '  dynamo_backend: AOT_TORCHXLA_TRACE_ONCE',
    '  dynamo_mode: defualt', // planted 1: enum typo
    '  dynamo_use_fullgraph: maybe', // planted 2: not a boolean
    'tpu_zonee: us-east5-b', // planted 3: unknown top-level key
    'commands:',
  ];
  const tail = ['# end of the generated config', ''];
  const listLines = totalLines - head.length - tail.length - 2; // 2: main_process_port + tpu_env:
  const half = Math.floor(listLines / 2);
  const out = [...head];
  for (let i = 0; i < half; i++) {
    if (i % 500 === 499) out.push(`  # --- batch ${Math.floor(i / 500) + 1} of setup commands ---`);
    else out.push(`  - ${COMMAND_TEMPLATES[i % COMMAND_TEMPLATES.length](i)}`);
  }
  out.push('main_process_port: 29500');
  out.push('tpu_env:');
  for (let i = 0; i < listLines - half; i++) out.push(`  - XLA_FLAG_${i}=--xla_tpu_enable_latency_hiding_scheduler=true`);
  out.push(...tail);
  return out.join('\n');
}

/**
 * A Megatron-LM launch script in the style of Megatron-LM's examples/gpt3/train_gpt3_175b_distributed.sh,
 * grown the way real ones grow (SLURM header, NCCL environment, a long weighted data blend):
 * `totalLines` lines, the edited line `--tensor-model-parallel-size 8` in MODEL_PARALLEL_ARGS.
 */
function megatronScript(totalLines) {
  const head = [
    '#!/bin/bash',
    '# Llama-3-70B-style GPT pretraining with Megatron-LM on 4 nodes x 8 H100 SXM',
    '# (generated by the Shardwise bench). Launch on every node, e.g. from an sbatch script:',
    '#   srun --nodes=4 --ntasks-per-node=1 bash train_llama70b.sh $CKPT $TB $TOKENIZER $DATA_ROOT',
    '#SBATCH --job-name=llama70b-pretrain',
    '#SBATCH --nodes=4',
    '#SBATCH --ntasks-per-node=1',
    '#SBATCH --gpus-per-node=8',
    '#SBATCH --exclusive',
    '',
    'set -euo pipefail',
    '',
    'export CUDA_DEVICE_MAX_CONNECTIONS=1',
    'export NCCL_IB_SL=1',
    'export NCCL_IB_TIMEOUT=19',
    'export NCCL_NVLS_ENABLE=0',
    'export TORCH_NCCL_AVOID_RECORD_STREAMS=1',
    'export NVTE_FWD_LAYERNORM_SM_MARGIN=16',
    'export NVTE_BWD_LAYERNORM_SM_MARGIN=16',
    '',
    '# --- cluster -------------------------------------------------------------',
    'GPUS_PER_NODE=8',
    '# Change for multinode config',
    'NUM_NODES=${SLURM_NNODES:-4}',
    'NODE_RANK=${SLURM_NODEID:-0}',
    'MASTER_ADDR=${MASTER_ADDR:-$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)}',
    'MASTER_PORT=6000',
    'WORLD_SIZE=$(($GPUS_PER_NODE*$NUM_NODES))',
    '',
    '# --- paths ---------------------------------------------------------------',
    'CHECKPOINT_PATH=$1 # <Specify path>',
    'TENSORBOARD_LOGS_PATH=$2 # <Specify path>',
    'TOKENIZER_MODEL=$3 # <Specify path to a Hugging Face tokenizer folder>',
    'DATA_ROOT=$4 # <Specify the folder of the *_text_document files>',
    'DATA_CACHE_PATH=${DATA_CACHE_PATH:-/lustre/cache/llama70b-index}',
    'LOG_DIR=${LOG_DIR:-$CHECKPOINT_PATH/logs}',
    '',
    'DISTRIBUTED_ARGS=(',
    '    --nproc_per_node $GPUS_PER_NODE',
    '    --nnodes $NUM_NODES',
    '    --node_rank $NODE_RANK',
    '    --master_addr $MASTER_ADDR',
    '    --master_port $MASTER_PORT',
    ')',
    '',
    'GPT_MODEL_ARGS=(',
    '    --use-mcore-models',
    '    --num-layers 80',
    '    --hidden-size 8192',
    '    --ffn-hidden-size 28672',
    '    --num-attention-heads 64',
    '    --group-query-attention',
    '    --num-query-groups 8',
    '    --seq-length 8192',
    '    --max-position-embeddings 8192',
    '    --position-embedding-type rope',
    '    --rotary-base 500000',
    '    --normalization RMSNorm',
    '    --swiglu',
    '    --untie-embeddings-and-output-weights',
    '    --disable-bias-linear',
    '    --attention-dropout 0.0',
    '    --hidden-dropout 0.0',
    '    --init-method-std 0.008',
    '    --make-vocab-size-divisible-by 128',
    '    --transformer-impl transformer_engine',
    '    --attention-backend auto # Can use (flash/fused/unfused/local)',
    ')',
    '',
    'TRAINING_ARGS=(',
    '    --micro-batch-size 1',
    '    --global-batch-size 512',
    '    --train-iters 250000',
    '    --weight-decay 0.1',
    '    --adam-beta1 0.9',
    '    --adam-beta2 0.95',
    '    --adam-eps 1e-8',
    '    --init-method-std 0.008',
    '    --clip-grad 1.0',
    '    --bf16',
    '    --lr 1.5e-4',
    '    --lr-decay-style cosine',
    '    --min-lr 1.5e-5',
    '    --lr-warmup-iters 2000',
    '    --lr-decay-iters 250000',
    '    # ZeRO-1 style optimizer sharding over DP, with the gradient reduce-scatter and the',
    '    # parameter all-gather overlapped with the backward and forward passes.',
    '    --use-distributed-optimizer',
    '    --overlap-grad-reduce',
    '    --overlap-param-gather',
    '    --recompute-granularity selective',
    '    --cross-entropy-loss-fusion',
    '    --manual-gc',
    '    --manual-gc-interval 100',
    '    --exit-duration-in-mins 230',
    ')',
    '',
    '# 8-way tensor parallelism inside a node (NVLink), 2 pipeline stages across nodes.',
    'MODEL_PARALLEL_ARGS=(',
    '    --tensor-model-parallel-size 8',
    '    --pipeline-model-parallel-size 2',
    '    --context-parallel-size 1',
    '    --sequence-parallel',
    ')',
    '',
    '# Weighted blend of pre-tokenized shards: <weight> <prefix> pairs (weights sum to ~1).',
    'DATA_BLEND=(',
  ];
  const tail = [
    ')',
    '',
    'DATA_ARGS=(',
    '    --data-path ${DATA_BLEND[@]}',
    '    --data-cache-path $DATA_CACHE_PATH',
    '    --tokenizer-type HuggingFaceTokenizer',
    '    --tokenizer-model $TOKENIZER_MODEL',
    '    --split 990,8,2',
    '    --num-workers 4',
    '    --no-create-attention-mask-in-dataloader',
    ')',
    '',
    'EVAL_AND_LOGGING_ARGS=(',
    '    --log-interval 10',
    '    --log-throughput',
    '    --log-timers-to-tensorboard',
    '    --log-memory-to-tensorboard',
    '    --log-validation-ppl-to-tensorboard',
    '    --save-interval 1000',
    '    --eval-interval 1000',
    '    --eval-iters 32',
    '    --save $CHECKPOINT_PATH',
    '    --load $CHECKPOINT_PATH',
    '    --ckpt-format torch_dist',
    '    --async-save',
    '    --tensorboard-dir $TENSORBOARD_LOGS_PATH',
    '    --wandb-project llama70b-pretrain',
    '    --wandb-exp-name "tp8-pp2-n${NUM_NODES}"',
    ')',
    '',
    'mkdir -p "$CHECKPOINT_PATH" "$TENSORBOARD_LOGS_PATH" "$LOG_DIR"',
    'if [ ! -f "$TOKENIZER_MODEL/tokenizer.json" ]; then',
    '    echo "tokenizer not found: $TOKENIZER_MODEL" >&2',
    '    exit 1',
    'fi',
    'echo "node $NODE_RANK of $NUM_NODES: $WORLD_SIZE GPUs, master $MASTER_ADDR:$MASTER_PORT"',
    '',
    'torchrun ${DISTRIBUTED_ARGS[@]} pretrain_gpt.py \\',
    '    ${GPT_MODEL_ARGS[@]} \\',
    '    ${TRAINING_ARGS[@]} \\',
    '    ${MODEL_PARALLEL_ARGS[@]} \\',
    '    ${DATA_ARGS[@]} \\',
    '    ${EVAL_AND_LOGGING_ARGS[@]} \\',
    '    2>&1 | tee "$LOG_DIR/train_node${NODE_RANK}.log"',
    '',
  ];
  const sources = ['web/cc-2023-50', 'web/cc-2024-10', 'code/stack-v2-dedup', 'books/pg19', 'papers/arxiv', 'wiki/en-20240601', 'math/open-web-math'];
  const blendLines = totalLines - head.length - tail.length + 1; // the last '' is the final newline
  const out = [...head];
  for (let i = 0; i < blendLines; i++) {
    if (i % 40 === 0) out.push(`    # ${sources[(i / 40) % sources.length]} and friends`);
    else out.push(`    0.${String(1000 + ((i * 7919) % 9000)).padStart(5, '0')} \${DATA_ROOT}/${sources[i % sources.length]}/shard_${String(i).padStart(5, '0')}_text_document`);
  }
  out.push(...tail);
  return out.join('\n');
}

/**
 * A NeMo 1.x Megatron GPT training config shaped like NeMo's
 * examples/nlp/language_modeling/conf/megatron_gpt_config.yaml (`trainer:`, `exp_manager:`,
 * `model:` with tokenizer / optim / data sections), for an ~8B model on 4 nodes x 8 GPUs: about
 * `totalLines` lines, the edited line `  tensor_model_parallel_size: 8`.
 */
function nemoConfig(totalLines) {
  const head = [
    '# Megatron GPT ~8B pretraining with NeMo 1.x (generated by the Shardwise bench).',
    '# python megatron_gpt_pretraining.py --config-path=conf --config-name=gpt_8b',
    'defaults:',
    '  - _self_',
    '  - optional tp_overlap@model.ub_tp_comm_overlap_cfg:',
    '',
    'name: megatron_gpt_8b',
    '',
    'trainer:',
    '  devices: 8',
    '  num_nodes: 4',
    '  accelerator: gpu',
    '  precision: bf16',
    '  logger: False # logger provided by exp_manager',
    '  enable_checkpointing: False',
    '  use_distributed_sampler: False',
    '  max_epochs: -1 # max_steps is reached first',
    '  max_steps: 300000 # consumed_samples = global_step * global_batch_size',
    "  max_time: '05:23:30:00' # days:hours:minutes:seconds",
    '  log_every_n_steps: 10',
    '  val_check_interval: 2000',
    '  limit_val_batches: 32',
    '  limit_test_batches: 50',
    '  accumulate_grad_batches: 1 # grad accumulation is automatic for Megatron models',
    '  gradient_clip_val: 1.0',
    '  num_sanity_val_steps: 0',
    '  benchmark: False',
    '  enable_model_summary: False',
    '',
    'exp_manager:',
    '  explicit_log_dir: null',
    '  exp_dir: /results/megatron_gpt_8b',
    '  name: megatron_gpt_8b',
    '  create_wandb_logger: True',
    '  wandb_logger_kwargs:',
    '    project: gpt-8b-pretraining',
    '    name: gpt8b-tp8-pp1-n4',
    '  create_tensorboard_logger: True',
    '  resume_if_exists: True',
    '  resume_ignore_no_checkpoint: True',
    '  resume_from_checkpoint: ${model.resume_from_checkpoint}',
    '  create_checkpoint_callback: True',
    '  checkpoint_callback_params:',
    '    monitor: val_loss',
    '    save_top_k: 5',
    '    mode: min',
    '    always_save_nemo: False # not implemented for model parallel',
    '    save_nemo_on_train_end: False',
    "    filename: 'megatron_gpt--{val_loss:.2f}-{step}-{consumed_samples}'",
    '    model_parallel_size: ${multiply:${model.tensor_model_parallel_size}, ${model.pipeline_model_parallel_size}}',
    '    every_n_train_steps: 2000',
    '    async_save: True',
    '  log_step_timing: True',
    '  step_timing_kwargs:',
    '    sync_cuda: True',
    '    buffer_size: 5',
    '  seconds_to_sleep: 60',
    '',
    'model:',
    '  mcore_gpt: True',
    '  restore_from_path: null # a .nemo file to restore the weights from',
    '  resume_from_checkpoint: null',
    '',
    '  # Batch sizes and model parallelism: gradient accumulation follows from the data-parallel size.',
    '  micro_batch_size: 1',
    '  global_batch_size: 256',
    '  rampup_batch_size: null',
    '  tensor_model_parallel_size: 8 # intra-layer model parallelism',
    '  pipeline_model_parallel_size: 1 # inter-layer model parallelism',
    '  virtual_pipeline_model_parallel_size: null',
    '  context_parallel_size: 1',
    '  expert_model_parallel_size: 1',
    '  sequence_parallel: True',
    '',
    '  # Architecture',
    '  encoder_seq_length: 4096',
    '  max_position_embeddings: ${.encoder_seq_length}',
    '  num_layers: 32',
    '  hidden_size: 4096',
    '  ffn_hidden_size: 14336',
    '  num_attention_heads: 32',
    '  num_query_groups: 8 # grouped-query attention',
    '  kv_channels: null',
    '  init_method_std: 0.01',
    '  use_scaled_init_method: True',
    '  hidden_dropout: 0.0',
    '  attention_dropout: 0.0',
    '  ffn_dropout: 0.0',
    '  apply_query_key_layer_scaling: False',
    '  normalization: rmsnorm',
    '  layernorm_epsilon: 1e-5',
    '  do_layer_norm_weight_decay: False',
    '  make_vocab_size_divisible_by: 128',
    '  pre_process: True',
    '  post_process: True',
    '  persist_layer_norm: True',
    '  bias: False',
    '  activation: fast-swiglu',
    '  headscale: False',
    '  transformer_block_type: pre_ln',
    '  openai_gelu: False',
    '  normalize_attention_scores: True',
    '  position_embedding_type: rope',
    '  rotary_percentage: 1.0',
    '  rotary_base: 500000',
    '  attention_type: multihead',
    '  share_embeddings_and_output_weights: False',
    '  overlap_p2p_comm: False',
    '  batch_p2p_comm: True',
    '  seq_len_interpolation_factor: null',
    '',
    '  tokenizer:',
    '    library: huggingface',
    '    type: /models/tokenizers/llama3',
    '    model: null',
    '    vocab_file: null',
    '    merge_file: null',
    '    delimiter: null',
    '    sentencepiece_legacy: False',
    '    use_fast: True',
    '',
    '  # Mixed precision',
    '  native_amp_init_scale: 4294967296 # 2 ** 32',
    '  native_amp_growth_interval: 1000',
    '  hysteresis: 2',
    '  fp32_residual_connection: False',
    '  fp16_lm_cross_entropy: False',
    '  megatron_amp_O2: True',
    '  grad_allreduce_chunk_size_mb: 125',
    '',
    '  # Fusions',
    '  grad_div_ar_fusion: True',
    '  gradient_accumulation_fusion: True',
    '  bias_activation_fusion: True',
    '  bias_dropout_add_fusion: True',
    '  masked_softmax_fusion: True',
    '  get_attention_mask_from_fusion: True',
    '  apply_rope_fusion: True',
    '  cross_entropy_loss_fusion: True',
    '',
    '  # Miscellaneous',
    '  seed: 1234',
    '  use_cpu_initialization: False',
    '  onnx_safe: False',
    '  apex_transformer_log_level: 30',
    '  gradient_as_bucket_view: True',
    '  sync_batch_comm: False',
    '  nccl_communicator_config_path: null',
    '',
    '  # Distributed checkpoints',
    '  dist_ckpt_format: torch_dist',
    '  dist_ckpt_load_on_device: True',
    '  dist_ckpt_parallel_save: True',
    '  dist_ckpt_parallel_load: False',
    '  dist_ckpt_assume_constant_structure: False',
    '',
    '  # Activation checkpointing: off, sequence parallelism keeps activations in memory budget.',
    '  activations_checkpoint_granularity: null # selective or full',
    '  activations_checkpoint_method: null # uniform or block',
    '  activations_checkpoint_num_layers: null',
    '  num_micro_batches_with_partial_activation_checkpoints: null',
    '  activations_checkpoint_layers_per_pipeline: null',
    '',
    '  # Transformer Engine',
    '  transformer_engine: True',
    '  fp8: False',
    '  fp8_e4m3: False',
    '  fp8_hybrid: True',
    '  fp8_margin: 0',
    '  fp8_interval: 1',
    '  fp8_amax_history_len: 1024',
    '  fp8_amax_compute_algo: max',
    '  reduce_amax: True',
    '  use_emha: False',
    '  ub_tp_comm_overlap: False',
    '  ub_tp_comm_overlap_cfg: null',
    '  use_flash_attention: True',
    '',
    '  optim:',
    '    name: distributed_fused_adam',
    '    lr: 3e-4',
    '    weight_decay: 0.1',
    '    betas:',
    '    - 0.9',
    '    - 0.95',
    '    bucket_cap_mb: 125',
    '    overlap_grad_sync: True',
    '    overlap_param_sync: True',
    '    contiguous_grad_buffer: True',
    '    contiguous_param_buffer: True',
    '    sched:',
    '      name: CosineAnnealing',
    '      warmup_steps: 2000',
    '      constant_steps: 0',
    '      min_lr: 3e-5',
    '',
    '  data:',
    '    # Weighted blend: <weight>, <prefix> pairs.',
    '    data_prefix:',
  ];
  const tail = [
    '    index_mapping_dir: /lustre/cache/gpt8b-index',
    '    data_impl: mmap',
    '    splits_string: 990,8,2',
    '    seq_length: ${model.encoder_seq_length}',
    '    skip_warmup: True',
    '    num_workers: 2',
    '    dataloader_type: single',
    '    reset_position_ids: False',
    '    reset_attention_mask: False',
    '    eod_mask_loss: False',
    '    validation_drop_last: True',
    '    pad_samples_to_global_batch_size: False',
    '    shuffle_documents: True',
    '',
    '  nsys_profile:',
    '    enabled: False',
    '    start_step: 10',
    '    end_step: 10',
    '    ranks: [0]',
    '    gen_shape: False',
    '',
  ];
  const pairs = Math.max(1, Math.floor((totalLines - head.length - tail.length + 1) / 2));
  const out = [...head];
  for (let i = 0; i < pairs; i++) {
    out.push(`    - ${(0.5 + ((i * 37) % 50) / 100).toFixed(2)}`);
    out.push(`    - /lustre/data/pretrain/${['web', 'code', 'books', 'papers'][i % 4]}/shard_${String(i).padStart(4, '0')}_text_document`);
  }
  out.push(...tail);
  return out.join('\n');
}

/**
 * The inputs. Each has its one-line edit (`editValues[state]` written after `editPrefix` on the one
 * line that starts with it), its hover position (3 characters into the key or flag on the line
 * starting with `hoverPrefix`) and the peer's part: `schema` (the Accelerate schema), `no-schema`
 * (the peer runs without one) or `none` (Shardwise only).
 */
function makeInputs(dir) {
  const accelerate = (name, text) => ({
    name,
    file: join(dir, `${name}.yaml`),
    text,
    languageId: 'yaml',
    peer: 'schema',
    editPrefix: 'main_process_port: ',
    editValues: ['29500', '95000'],
    hoverPrefix: 'num_processes: ',
    hoverKey: 'num_processes',
    states: 'valid port ↔ out-of-range port',
  });
  const files = [accelerate('small', smallConfig()), accelerate('large-5k', largeConfig(5000))];
  if (WITH_50K) files.push(accelerate('large-50k', largeConfig(50_000)));
  files.push({
    name: 'megatron-sh',
    file: join(dir, 'train_llama70b.sh'),
    text: megatronScript(300),
    languageId: 'shellscript',
    peer: 'none',
    editPrefix: '    --tensor-model-parallel-size ',
    editValues: ['8', '16'],
    hoverPrefix: '    --tensor-model-parallel-size ',
    hoverKey: '--tensor-model-parallel-size',
    states: 'TP 8 ↔ 16',
    // TP 16 spans two 8-GPU nodes: Shardwise reports it (and the layout advice changes with it).
  });
  files.push({
    name: 'nemo-yaml',
    file: join(dir, 'nemo-gpt-8b.yaml'), // `nemo-*.yaml`: left out of the peer's Accelerate association
    text: nemoConfig(250),
    languageId: 'yaml',
    peer: 'no-schema',
    editPrefix: '  tensor_model_parallel_size: ',
    editValues: ['8', '3'],
    hoverPrefix: '  tensor_model_parallel_size: ',
    hoverKey: 'tensor_model_parallel_size',
    states: 'TP 8 ↔ 3',
    sameCountOk: 'peer', // the peer has no NeMo schema: it reports the same in both states
  });
  for (const f of files) {
    writeFileSync(f.file, f.text);
    f.uri = pathToFileURL(f.file).href;
    const lines = f.text.split('\n');
    f.lines = f.text.endsWith('\n') ? lines.length - 1 : lines.length;
    const at = (prefix) => {
      const found = lines.flatMap((l, i) => (l.startsWith(prefix) ? [i] : []));
      if (found.length !== 1) throw new Error(`input ${f.name}: ${found.length} lines start with ${JSON.stringify(prefix)}, expected 1`);
      return found[0];
    };
    f.editLine = at(f.editPrefix);
    f.editChar = f.editPrefix.length;
    const written = lines[f.editLine].slice(f.editChar);
    if (!written.startsWith(f.editValues[0]) || /^[\w.]/.test(written.slice(f.editValues[0].length))) throw new Error(`input ${f.name}: the edited line does not hold ${f.editValues[0]}`);
    f.hoverLine = at(f.hoverPrefix);
    f.hoverChar = lines[f.hoverLine].search(/\S/) + 3;
  }
  return files;
}

/** The one-line incremental edit to state 0 (`editValues[0]`, as written) or 1 (`editValues[1]`). */
function editFor(f, state) {
  const line = f.editLine;
  const old = f.editValues[state ^ 1];
  return { range: { start: { line, character: f.editChar }, end: { line, character: f.editChar + old.length } }, text: f.editValues[state] };
}

// ---------------------------------------------------------------------------------------------
// A minimal LSP client over stdio (framed JSON-RPC)

const CLIENT_CAPABILITIES = {
  workspace: {
    applyEdit: true,
    workspaceEdit: { documentChanges: true },
    didChangeConfiguration: { dynamicRegistration: true },
    didChangeWatchedFiles: { dynamicRegistration: true },
    configuration: true,
    workspaceFolders: true,
  },
  textDocument: {
    synchronization: { dynamicRegistration: true, willSave: true, willSaveWaitUntil: true, didSave: true },
    publishDiagnostics: { relatedInformation: true, versionSupport: true, tagSupport: { valueSet: [1, 2] }, codeDescriptionSupport: true, dataSupport: true },
    completion: { completionItem: { snippetSupport: true, documentationFormat: ['markdown', 'plaintext'], insertReplaceSupport: true }, contextSupport: true },
    hover: { contentFormat: ['markdown', 'plaintext'] },
    codeAction: { isPreferredSupport: true, codeActionLiteralSupport: { codeActionKind: { valueSet: ['', 'quickfix', 'refactor', 'source', 'source.fixAll'] } } },
  },
  window: { workDoneProgress: true, showMessage: {}, showDocument: { support: true } },
  general: { positionEncodings: ['utf-16'] },
};

class LspServer {
  constructor(spec, workspace) {
    this.spec = spec;
    this.workspace = workspace;
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = new Set();
    this.chunks = [];
    this.buffered = 0;
    this.stderr = '';
    this.exited = false;
    this.configAnswered = 0;
    this.publishesOnClose = undefined;
  }

  /** Spawns and initializes; returns ms from spawn to the initialize result. */
  async start() {
    const t0 = performance.now();
    const child = spawn(process.execPath, [...this.spec.args, '--stdio'], { cwd: this.workspace, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    live.add(child);
    this.exitPromise = new Promise((res) => {
      child.once('exit', (code, signal) => {
        this.exited = true;
        this.exitInfo = `exited with ${code ?? signal}`;
        live.delete(child);
        for (const [, p] of this.pending) p.reject(new Error(`${this.spec.name} ${this.exitInfo}${this.stderrTail()}`));
        this.pending.clear();
        for (const l of [...this.listeners]) l.fail?.(new Error(`${this.spec.name} ${this.exitInfo}${this.stderrTail()}`));
        res();
      });
    });
    child.on('error', () => undefined);
    child.stdin.on('error', () => undefined);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (s) => (this.stderr = (this.stderr + s).slice(-8000)));
    child.stdout.on('data', (b) => this.onData(b));
    const folder = pathToFileURL(this.workspace).href;
    const result = await this.request('initialize', {
      processId: process.pid,
      clientInfo: { name: 'shardwise-bench', version: '1' },
      rootUri: folder,
      workspaceFolders: [{ uri: folder, name: 'bench' }],
      capabilities: CLIENT_CAPABILITIES,
      initializationOptions: this.spec.initializationOptions,
      trace: 'off',
    });
    const ms = performance.now() - t0;
    this.capabilities = result?.capabilities;
    this.notify('initialized', {});
    return ms;
  }

  /** Sends the settings and waits until the server has pulled them (if it pulls). */
  async configure() {
    const before = this.configAnswered;
    this.notify('workspace/didChangeConfiguration', { settings: this.spec.settingsAll() });
    const until = performance.now() + 10_000;
    while (this.configAnswered === before && performance.now() < until && !this.exited) await sleep(20);
    await sleep(150); // let the server apply them (schema association) before the first document
  }

  stderrTail() {
    const t = this.stderr.trim();
    return t ? `\n--- ${this.spec.name} stderr (tail) ---\n${t.slice(-2000)}` : '';
  }

  onData(buf) {
    this.chunks.push(buf);
    this.buffered += buf.length;
    for (;;) {
      let data = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
      this.chunks = [data];
      const headerEnd = data.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const header = data.subarray(0, headerEnd).toString('ascii');
      const m = /Content-Length:\s*(\d+)/i.exec(header);
      if (!m) throw new Error(`${this.spec.name}: bad header ${JSON.stringify(header)}`);
      const len = Number(m[1]);
      const start = headerEnd + 4;
      if (data.length < start + len) return;
      const at = performance.now();
      const msg = JSON.parse(data.subarray(start, start + len).toString('utf8'));
      data = data.subarray(start + len);
      this.chunks = data.length ? [data] : [];
      this.buffered = data.length;
      this.dispatch(msg, at);
      if (!data.length) return;
    }
  }

  dispatch(msg, at) {
    if (msg.id !== undefined && msg.method === undefined) {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      clearTimeout(p.timer);
      if (msg.error) p.reject(new Error(`${this.spec.name}: ${p.method} failed: ${msg.error.message}`));
      else p.resolve({ result: msg.result, at });
      return;
    }
    if (msg.id !== undefined) {
      // A request from the server.
      let result = null;
      if (msg.method === 'workspace/configuration') {
        result = (msg.params?.items ?? []).map((item) => this.spec.settingsFor(item.section));
        this.configAnswered++;
      } else if (msg.method === 'workspace/workspaceFolders') {
        result = [{ uri: pathToFileURL(this.workspace).href, name: 'bench' }];
      }
      this.write({ jsonrpc: '2.0', id: msg.id, result });
      return;
    }
    if (msg.method === 'textDocument/publishDiagnostics') {
      for (const l of [...this.listeners]) l.onPublish(msg.params, at);
    }
  }

  write(msg) {
    const body = Buffer.from(JSON.stringify(msg), 'utf8');
    this.child.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]));
  }

  /** Resolves `{ result, at, ms }`; `ms` from just before the write to the parsed response. */
  request(method, params, timeoutMs = WAIT_MS) {
    const id = this.nextId++;
    return new Promise((res, rej) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        rej(new Error(`${this.spec.name}: no answer to ${method} within ${timeoutMs} ms${this.stderrTail()}`));
      }, timeoutMs);
      const t0 = performance.now();
      this.pending.set(id, {
        method,
        timer,
        resolve: (r) => res(method === 'initialize' ? r.result : { ...r, ms: r.at - t0 }),
        reject: rej,
      });
      if (this.exited) {
        clearTimeout(timer);
        this.pending.delete(id);
        rej(new Error(`${this.spec.name} ${this.exitInfo}`));
        return;
      }
      this.write({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method, params) {
    this.write({ jsonrpc: '2.0', method, params });
  }

  /**
   * Writes a notification and resolves with ms until a publishDiagnostics for `uri` satisfies
   * `match` (registered before the write, so nothing is missed).
   */
  notifyAndWait(method, params, uri, match, what, timeoutMs = WAIT_MS) {
    return new Promise((res, rej) => {
      let t0 = 0;
      const listener = {
        onPublish: (p, at) => {
          if (p.uri !== uri) return;
          let ok;
          try {
            ok = match(p);
          } catch (e) {
            done();
            rej(e);
            return;
          }
          if (ok) {
            done();
            res({ ms: at - t0, params: p });
          }
        },
        fail: (e) => {
          done();
          rej(e);
        },
      };
      const timer = setTimeout(() => {
        done();
        rej(new Error(`${this.spec.name}: no diagnostics for ${what} within ${timeoutMs} ms${this.stderrTail()}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.listeners.delete(listener);
      };
      this.listeners.add(listener);
      t0 = performance.now();
      this.notify(method, params);
    });
  }

  /** VmRSS and VmHWM of the server process, MiB (Linux). */
  memory() {
    try {
      const s = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
      const kib = (k) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(s)?.[1] ?? NaN);
      return { rss: kib('VmRSS') / 1024, hwm: kib('VmHWM') / 1024 };
    } catch {
      return { rss: NaN, hwm: NaN };
    }
  }

  async stop() {
    if (!this.exited) {
      try {
        await this.request('shutdown', null, 10_000);
        this.notify('exit', null);
        await Promise.race([this.exitPromise, sleep(5_000)]);
      } catch {
        // unresponsive: killed below
      }
    }
    if (!this.exited) {
      this.child.kill('SIGKILL');
      await Promise.race([this.exitPromise, sleep(5_000)]);
    }
    for (const s of [this.child.stdin, this.child.stdout, this.child.stderr]) s?.destroy();
  }
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

// ---------------------------------------------------------------------------------------------
// Server specs

const SHARDWISE_SETTINGS = { maxFileSizeKB: 8192 };

function shardwiseSpec() {
  return {
    name: 'Shardwise',
    args: [SHARDWISE_MAIN],
    // The 50k-line input is over the default limits (1 MiB, 20,000 lines and items), where Shardwise
    // only says the file is not analysed; the limit is raised, as a user with such a file would, so
    // both servers parse and validate the whole of it.
    settingsFor: (section) => (section === 'shardwise' ? SHARDWISE_SETTINGS : null),
    settingsAll: () => ({ shardwise: SHARDWISE_SETTINGS }),
  };
}

function peerSpec(bin) {
  const yaml = {
    validate: true,
    hover: true,
    completion: true,
    format: { enable: false },
    // The NeMo input (nemo-*.yaml) is left out: the peer has no NeMo schema and runs on it without one.
    schemas: { [pathToFileURL(SCHEMA).href]: ['*.yaml', '!nemo-*.yaml'] },
    schemaStore: { enable: false, url: '' },
    kubernetesCRDStore: { enable: false },
    customTags: [],
    disableDefaultProperties: false,
    maxItemsComputed: 5000,
    keyOrdering: false,
    suggest: { parentSkeletonSelectedFirst: false },
  };
  const sections = {
    yaml,
    http: { proxy: '', proxyStrictSSL: true },
    '[yaml]': { 'editor.tabSize': 2, 'editor.insertSpaces': true, 'editor.formatOnType': false },
    editor: { tabSize: 2, insertSpaces: true, detectIndentation: false },
    files: { associations: {} },
  };
  return {
    name: `${PEER_NAME} ${PEER_VERSION}`,
    isPeer: true,
    args: [bin],
    settingsFor: (section) => (section in sections ? sections[section] : null),
    settingsAll: () => sections,
  };
}

// ---------------------------------------------------------------------------------------------
// Measurements

function percentile(values, p) {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
const stats = (values) => ({ n: values.length, median: percentile(values, 50), p95: percentile(values, 95), min: Math.min(...values), max: Math.max(...values) });

/** Opens `f` at `uri`, waits for its diagnostics; returns ms and the count. */
async function openAndWait(server, f, uri, expectCount, version = 1) {
  const { ms, params } = await server.notifyAndWait(
    'textDocument/didOpen',
    { textDocument: { uri, languageId: f.languageId, version, text: f.text } },
    uri,
    (p) => (p.version === undefined || p.version === null || p.version === version) && (expectCount === undefined || p.diagnostics.length === expectCount),
    `didOpen of ${f.name}`,
  );
  return { ms, count: params.diagnostics.length };
}

async function closeAndSettle(server, uri) {
  if (server.publishesOnClose === false) {
    server.notify('textDocument/didClose', { textDocument: { uri } });
    return;
  }
  try {
    await server.notifyAndWait('textDocument/didClose', { textDocument: { uri } }, uri, (p) => p.diagnostics.length === 0, 'didClose', server.publishesOnClose ? WAIT_MS : 3_000);
    server.publishesOnClose = true;
  } catch (e) {
    if (server.publishesOnClose === undefined && !server.exited) server.publishesOnClose = false;
    else throw e;
  }
}

/** True when both states of `f` may publish the same number of diagnostics for this server. */
function sameCountOk(f, server) {
  return f.sameCountOk === true || (f.sameCountOk === 'peer' && server.spec.name !== 'Shardwise');
}

/** Latency of didOpen, didChange and hover on one file, for one running server. */
async function measureFile(server, f) {
  const uri = f.uri;
  // Cold open, then learn the two states' diagnostic counts.
  const cold = await openAndWait(server, f, uri);
  const counts = [cold.count, undefined];
  let version = 1;
  let state = 0;
  const change = async (expect) => {
    state ^= 1;
    version += 1;
    const v = version;
    const e = editFor(f, state);
    const { ms, params } = await server.notifyAndWait(
      'textDocument/didChange',
      { textDocument: { uri, version: v }, contentChanges: [e] },
      uri,
      (p) => {
        if (p.version !== undefined && p.version !== null) {
          if (p.version < v) return false;
          if (expect !== undefined && p.diagnostics.length !== expect) throw new Error(`${server.spec.name}: version ${v} of ${f.name} published ${p.diagnostics.length} diagnostics, expected ${expect}`);
          return true;
        }
        return expect === undefined ? true : p.diagnostics.length === expect;
      },
      `didChange of ${f.name}`,
    );
    return { ms, count: params.diagnostics.length };
  };
  // Learn state 1's count (versioned servers tell us; unversioned: wait past the delay for a change).
  if (server.versioned) {
    counts[1] = (await change(undefined)).count;
  } else {
    // Wait until the count differs from state 0's: the peer publishes after its fixed delay. Where
    // both states may have the same count (sameCountOk), the first publish after the change is
    // its publish: nothing else is in flight for this URI.
    state ^= 1;
    version += 1;
    const { params } = await server.notifyAndWait(
      'textDocument/didChange',
      { textDocument: { uri, version }, contentChanges: [editFor(f, state)] },
      uri,
      (p) => sameCountOk(f, server) || p.diagnostics.length !== counts[0],
      `didChange of ${f.name}`,
    );
    counts[1] = params.diagnostics.length;
  }
  if (counts[0] === counts[1] && !sameCountOk(f, server)) throw new Error(`${server.spec.name}: the edit on ${f.name} does not change the number of diagnostics (${counts[0]}); cannot tell publishes apart`);
  const changeTimes = [];
  for (let i = 0; i < WARMUP + N; i++) {
    const r = await change(counts[state ^ 1]);
    if (i >= WARMUP) changeTimes.push(r.ms);
  }
  // Back to state 0 for hover and the open measurements.
  if (state !== 0) await change(counts[0]);

  const hoverPos = { line: f.hoverLine, character: f.hoverChar };
  const hoverTimes = [];
  let hoverOk = true;
  for (let i = 0; i < WARMUP + N; i++) {
    const r = await server.request('textDocument/hover', { textDocument: { uri }, position: hoverPos });
    if (!r.result) hoverOk = false;
    if (i >= WARMUP) hoverTimes.push(r.ms);
  }

  await closeAndSettle(server, uri);
  const openTimes = [];
  for (let i = 0; i < WARMUP + N; i++) {
    // A new version number on every reopen: a cache keyed on (URI, version) would otherwise
    // answer from the previous open and skip the parse that a real open needs.
    const r = await openAndWait(server, f, uri, counts[0], 1000 + i);
    if (i >= WARMUP) openTimes.push(r.ms);
    await closeAndSettle(server, uri);
  }
  return { cold: cold.ms, counts, change: stats(changeTimes), open: stats(openTimes), hover: { ...stats(hoverTimes), ok: hoverOk } };
}

async function startServer(spec, workspace) {
  const s = new LspServer(spec, workspace);
  const ms = await s.start();
  await s.configure();
  return { server: s, initMs: ms };
}

/** Detects whether a server publishes document versions, on the small file. */
async function probe(server, f) {
  const uri = f.uri.replace(/\.yaml$/, '-probe.yaml');
  const { params } = await server.notifyAndWait('textDocument/didOpen', { textDocument: { uri, languageId: f.languageId, version: 7, text: f.text } }, uri, () => true, 'probe');
  server.versioned = params.version === 7;
  await closeAndSettle(server, uri);
  return params.diagnostics;
}

async function measureMemory(spec, workspace, small, big) {
  const { server } = await startServer(spec, workspace);
  try {
    await probe(server, small);
    // Warm-up: a few open → change → close rounds on the small file.
    for (let i = 0; i < 3; i++) {
      const uri = pathToFileURL(join(workspace, `warm-${i}.yaml`)).href;
      await openAndWait(server, small, uri);
      await server.notifyAndWait('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [editFor(small, 1)] }, uri, (p) => p.version === 2 || p.version === undefined || p.version === null, 'warm-up change');
      await closeAndSettle(server, uri);
    }
    await sleep(500);
    const warm = server.memory();
    // RSS along the way too: a plateau is heap the process keeps, steady growth is retention.
    const trend = [];
    for (let i = 0; i < CYCLES; i++) {
      const uri = pathToFileURL(join(workspace, `cycle-${String(i).padStart(3, '0')}.yaml`)).href;
      await openAndWait(server, big, uri);
      await closeAndSettle(server, uri);
      if ((i + 1) % Math.max(1, Math.round(CYCLES / 5)) === 0 && i + 1 < CYCLES) trend.push([i + 1, Math.round(server.memory().rss)]);
    }
    await sleep(1000);
    const after = server.memory();
    trend.push([CYCLES, Math.round(after.rss)]);
    return { warm: warm.rss, after: after.rss, peak: after.hwm, trend };
  } finally {
    await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// Report

const fmtMs = (v) => (Number.isFinite(v) ? (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)) : '–');
const fmtMiB = (v) => (Number.isFinite(v) ? v.toFixed(0) : '–');
const ratio = (peer, ours) => (Number.isFinite(peer) && Number.isFinite(ours) && ours > 0 ? `${(peer / ours).toFixed(peer / ours >= 10 ? 0 : 1)}×` : '–');

function table(rows, names) {
  const [a, b] = names;
  const head = `| measure | input | ${a} median | ${a} p95 | ${b ?? 'peer'} median | ${b ?? 'peer'} p95 | ratio${b ? ' peer ÷ Shardwise' : ''} (median) |`;
  const sep = '|---|---|--:|--:|--:|--:|--:|';
  const body = rows.map((r) => `| ${r.measure} | ${r.input} | ${r.ours.median} | ${r.ours.p95} | ${r.peer?.median ?? '–'} | ${r.peer?.p95 ?? '–'} | ${r.ratio ?? '–'} |`);
  return [head, sep, ...body].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Main

/**
 * `analyze()` timed in a child process (test/bench/analyze-time.ts, through tsx) on every input,
 * alternating the didChange measure's two states: what the keystroke path costs at the least.
 */
function plainAnalysis(workspace, files) {
  const specFile = join(workspace, 'analysis-spec.json');
  writeFileSync(specFile, JSON.stringify({ n: N, warmup: WARMUP, files: files.map((f) => ({ name: f.name, file: f.file, languageId: f.languageId, editLine: f.editLine, editChar: f.editChar, editValues: f.editValues })) }));
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(BENCH, 'analyze-time.ts'), specFile], { cwd: ROOT, encoding: 'utf8', timeout: HARD_TIMEOUT_S * 1000 });
  if (r.status !== 0) {
    log(`bench: the plain analysis could not be timed: ${(r.stderr || r.error?.message || '').trim().split('\n').slice(-3).join(' ')}`);
    return {};
  }
  return JSON.parse(r.stdout);
}

/** Wall time of the planner's whole command (process start included), Shardwise only: no peer plans layouts. */
function planTimes() {
  const cli = join(ROOT, 'dist', 'cli', 'main.js');
  const args = [cli, 'plan', '--model', 'llama-3-70b', '--gpus', '64', '--hardware', 'h100-sxm', '--seq-length', '8192', '--global-batch', '128', '--output-format', 'json'];
  const ms = [];
  let layouts = 0;
  for (let i = 0; i < SPAWNS; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (r.status === 0) layouts = JSON.parse(r.stdout).counts.considered;
  }
  return { ms, layouts };
}

async function main() {
  if (!existsSync(SHARDWISE_MAIN)) {
    log('bench: dist/server/main.js is missing; building (node scripts/build.mjs) …');
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  }
  let peer;
  if (!opt['no-peer']) {
    try {
      peer = installPeer();
      log(`bench: peer ${PEER_NAME}@${PEER_VERSION} ${peer.cached ? 'from cache' : 'installed'}: ${peer.dir}`);
    } catch (e) {
      console.error(`\nbench: ${e.message}`);
      process.exitCode = 1;
      return;
    }
  }
  const workspace = mkdtempSync(join(tmpdir(), 'shardwise-bench-'));
  inputsDir = workspace;
  const results = { meta: {}, startup: {}, files: {}, memory: {} };
  try {
    const files = makeInputs(workspace);
    const specs = [shardwiseSpec(), ...(peer ? [peerSpec(peer.bin)] : [])];
    let commit = '';
    try {
      commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      // not a clone
    }
    results.meta = {
      date: new Date().toISOString(),
      node: process.version,
      cpus: `${cpus().length} × ${cpus()[0]?.model ?? '?'}`,
      memGiB: +(totalmem() / 2 ** 30).toFixed(1),
      loadavgStart: loadavg().map((x) => +x.toFixed(2)),
      commit,
      mode: QUICK ? 'quick' : 'full',
      n: N,
      warmup: WARMUP,
      spawns: SPAWNS,
      cycles: CYCLES,
      inputs: files.map((f) => ({ name: f.name, lines: f.lines, bytes: Buffer.byteLength(f.text), languageId: f.languageId, peer: f.peer, edit: f.states })),
    };
    log(`bench: ${results.meta.mode} run · node ${process.version} · ${results.meta.cpus} · inputs ${files.map((f) => `${f.name} (${f.lines} lines)`).join(', ')}`);

    // 1. spawn → initialize result, alternating servers.
    for (const spec of specs) results.startup[spec.name] = [];
    for (let i = 0; i < SPAWNS; i++) {
      for (const spec of specs) {
        const s = new LspServer(spec, workspace);
        try {
          results.startup[spec.name].push(await s.start());
        } finally {
          await s.stop();
        }
      }
    }
    for (const spec of specs) {
      results.startup[spec.name] = stats(results.startup[spec.name]);
      log(`  spawn → initialize · ${spec.name}: median ${fmtMs(results.startup[spec.name].median)} ms`);
    }

    // 2. latency per file, one server at a time.
    for (const spec of specs) {
      const { server } = await startServer(spec, workspace);
      try {
        const diags = await probe(server, files[0]);
        log(`  ${spec.name}: publishes versions: ${server.versioned ? 'yes' : 'no'}, empty diagnostics on close: ${server.publishesOnClose ? 'yes' : 'no'}; small file: ${diags.length} diagnostics (${[...new Set(diags.map((d) => d.code ?? d.message.slice(0, 30)))].join(', ')})`);
        if (diags.length < 3) throw new Error(`${spec.name} reports ${diags.length} diagnostics on the small file with 3 planted errors: is the schema picked up?`);
        for (const f of files) {
          if (spec.isPeer && f.peer === 'none') continue; // the peer reads no shell scripts
          const r = await measureFile(server, f);
          (results.files[f.name] ??= {})[spec.name] = r;
          log(`  ${spec.name} · ${f.name}: diagnostics ${r.counts[0]}↔${r.counts[1]} · didChange median ${fmtMs(r.change.median)} ms · didOpen ${fmtMs(r.open.median)} ms · hover ${fmtMs(r.hover.median)} ms`);
        }
      } finally {
        await server.stop();
      }
    }

    // 2b. the plain analysis in process (engine only: no protocol, no fixes), on the same two states.
    results.analysis = plainAnalysis(workspace, files);
    for (const f of files) if (results.analysis[f.name]) log(`  plain analysis · ${f.name}: median ${fmtMs(results.analysis[f.name].median)} ms`);

    // 3. memory: fresh servers, warm-up, then CYCLES distinct URIs with the 5k file.
    for (const spec of specs) {
      results.memory[spec.name] = await measureMemory(spec, workspace, files.find((f) => f.name === 'small'), files.find((f) => f.name === 'large-5k'));
      const m = results.memory[spec.name];
      log(`  ${spec.name}: RSS after warm-up ${fmtMiB(m.warm)} MiB · after ${CYCLES} open/close cycles ${fmtMiB(m.after)} MiB · peak ${fmtMiB(m.peak)} MiB · trend ${m.trend.map(([c, r]) => `${c}:${r}`).join(' ')}`);
    }
    results.meta.loadavgEnd = loadavg().map((x) => +x.toFixed(2));

    // Report.
    const [ours, theirs] = specs.map((s) => s.name);
    const rows = [];
    const lat = (measure, input, a, b, key) => rows.push({ measure, input, ours: { median: fmtMs(a?.median), p95: fmtMs(a?.p95) }, peer: b ? { median: fmtMs(b.median), p95: fmtMs(b.p95) } : undefined, ratio: b ? ratio(b.median, a.median) : undefined, key });
    lat('spawn → initialize result (ms)', '–', results.startup[ours], theirs && results.startup[theirs]);
    // The peer's results on a file: undefined without a peer; NA where it does not apply (shell).
    const NA = { median: 'n/a', p95: 'n/a' };
    const peerOn = (f) => (theirs ? (results.files[f.name][theirs] ?? NA) : undefined);
    const roleNote = { schema: '', 'no-schema': '; peer without a schema', none: '; Shardwise only: the peer reads no shell' };
    const shortNote = { schema: '', 'no-schema': ' (peer: no schema)', none: ' (Shardwise only)' };
    const latFile = (measure, input, f, pick) => {
      const p = peerOn(f);
      if (p === NA) rows.push({ measure, input, ours: { median: fmtMs(pick(results.files[f.name][ours])?.median), p95: fmtMs(pick(results.files[f.name][ours])?.p95) }, peer: NA });
      else lat(measure, input, pick(results.files[f.name][ours]), p && pick(p));
    };
    for (const f of files) latFile('didChange → diagnostics (ms)', `${f.name} (${f.lines} lines${roleNote[f.peer]})`, f, (x) => x.change);
    for (const f of files) {
      const a = results.analysis[f.name];
      const c = results.files[f.name][ours].change;
      if (a) rows.push({ measure: 'plain analysis, in process: engine only (ms)', input: `${f.name} (didChange / analysis: ×${(c.median / a.median).toFixed(2)})`, ours: { median: fmtMs(a.median), p95: fmtMs(a.p95) }, peer: theirs ? { median: 'n/a', p95: 'n/a' } : undefined });
    }
    for (const f of files) latFile('didOpen → diagnostics (ms)', `${f.name}${shortNote[f.peer]}`, f, (x) => x.open);
    for (const f of files) {
      const r = results.files[f.name];
      const p = peerOn(f);
      rows.push({
        measure: 'first didOpen → diagnostics, cold (ms)',
        input: `${f.name}${shortNote[f.peer]}`,
        ours: { median: fmtMs(r[ours].cold), p95: '' },
        peer: p === NA ? { median: 'n/a', p95: '' } : p ? { median: fmtMs(p.cold), p95: '' } : undefined,
        ratio: p && p !== NA ? ratio(p.cold, r[ours].cold) : undefined,
      });
    }
    for (const f of files) {
      const r = results.files[f.name];
      const p = peerOn(f);
      const note = (x) => (x.hover.ok ? '' : ' (null)');
      rows.push({
        measure: `hover on \`${f.hoverKey}\` (ms)`,
        input: `${f.name}${shortNote[f.peer]}`,
        ours: { median: fmtMs(r[ours].hover.median) + note(r[ours]), p95: fmtMs(r[ours].hover.p95) },
        peer: p === NA ? NA : p ? { median: fmtMs(p.hover.median) + note(p), p95: fmtMs(p.hover.p95) } : undefined,
        ratio: p && p !== NA ? ratio(p.hover.median, r[ours].hover.median) : undefined,
      });
    }
    const mem = (measure, key) =>
      rows.push({
        measure,
        input: key === 'warm' ? 'small' : `large-5k × ${CYCLES}`,
        ours: { median: fmtMiB(results.memory[ours][key]), p95: '' },
        peer: theirs ? { median: fmtMiB(results.memory[theirs][key]), p95: '' } : undefined,
        ratio: theirs ? ratio(results.memory[theirs][key], results.memory[ours][key]) : undefined,
      });
    mem('RSS after warm-up (MiB)', 'warm');
    mem(`RSS after ${CYCLES} open/close cycles, distinct URIs (MiB)`, 'after');
    mem('peak RSS, VmHWM (MiB)', 'peak');
    const plan = planTimes();
    rows.push({
      measure: '`shardwise plan`, Llama 3 70B on 64 H100 (ms, whole command)',
      input: `${plan.layouts} layouts and settings weighed`,
      ours: { median: fmtMs(percentile(plan.ms, 50)), p95: fmtMs(percentile(plan.ms, 95)) },
      peer: NA,
    });

    const md = [
      `### Shardwise vs ${theirs ?? '(no peer)'} — ${results.meta.mode} run, ${results.meta.date.slice(0, 10)}`,
      '',
      `node ${results.meta.node} · ${results.meta.cpus} · ${results.meta.memGiB} GiB · load ${results.meta.loadavgStart.join(' ')} → ${results.meta.loadavgEnd.join(' ')}${commit ? ` · commit ${commit}` : ''}`,
      `n = ${N} measured after ${WARMUP} warm-up per latency (nearest-rank median / p95); ${SPAWNS} spawns; inputs: ${results.meta.inputs.map((i) => `${i.name} ${i.lines} lines / ${(i.bytes / 1024).toFixed(0)} KiB`).join(', ')}`,
      `RSS over the ${CYCLES} cycles (cycle:MiB): ${specs.map((s) => `${s.name === ours ? 'Shardwise' : 'peer'} ${results.memory[s.name].trend.map(([c, r]) => `${c}:${r}`).join(' ')}`).join('; ')}`,
      `diagnostics per state: ${files.map((f) => `${f.name} (${f.states}): ${specs.map((s) => `${s.name === ours ? 'Shardwise' : 'peer'} ${results.files[f.name][s.name]?.counts.join('↔') ?? 'n/a'}`).join(', ')}`).join('; ')}`,
      `megatron-sh is a Megatron-LM launch script (shellscript): Shardwise only, the peer reads no shell. nemo-yaml is a NeMo 1.x config: the peer has no NeMo schema and runs on it without one (its YAML parse and validation pipeline, no schema checks); Shardwise checks it against the Megatron argument schema and the layout rules.`,
      '',
      table(rows, [ours, theirs]),
      '',
    ].join('\n');
    process.stdout.write(`\n${md}\n`);
    if (opt.json) writeFileSync(resolve(opt.json), JSON.stringify(results, null, 2) + '\n');
  } finally {
    if (opt['keep-inputs']) log(`bench: inputs kept in ${workspace}`);
    else removeInputs();
  }
}

main()
  .catch((e) => {
    console.error(`\nbench: failed: ${e?.stack ?? e}`);
    process.exitCode = 1;
  })
  .finally(() => {
    killAll();
    clearTimeout(hardTimer);
  });
