/**
 * Scaled pathological inputs. Each bomb is made at its full size (the runner) or at a quarter of it
 * (`npm test`), and again at a quarter of that: the oracle checks that analysis time grows about
 * linearly from the small one to the big one, so a quadratic pass shows even at a bounded size.
 */
import type { Scale } from '../types';
import { vocabulary } from '../sources';

export interface BombSpec {
  name: string;
  path: string;
  /** The full size (aliases, lines, flags, bytes...). */
  size: number;
  /** Whether time should grow linearly with `size` (false: a fixed construction, like nested laughs). */
  scales?: boolean;
  make(n: number): string;
}

const HEAD = 'compute_environment: LOCAL_MACHINE\ndistributed_type: FSDP\nmixed_precision: bf16\nnum_machines: 1\nnum_processes: 8\n';
const ACC_DOC = 'compute_environment: LOCAL_MACHINE\ndistributed_type: MULTI_GPU\nmixed_precision: no\nnum_processes: 2\n';
const SHELL_HEAD = '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\n';
const LAUNCH = 'torchrun --nproc_per_node 8 --nnodes 1 pretrain_gpt.py \\\n';

function lines(n: number, f: (i: number) => string): string {
  const out: string[] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = f(i);
  return out.join('');
}

function flags(): string[] {
  return vocabulary().megatronFlags.filter((f) => f.startsWith('--'));
}

export const BOMBS: BombSpec[] = [
  { name: 'aliases-block', path: 'accelerate_config.yaml', size: 100_000, make: (n) => `${HEAD}base: &a v\nlist:\n${lines(n, () => '  - *a\n')}` },
  { name: 'aliases-flow', path: 'accelerate_config.yaml', size: 100_000, make: (n) => `${HEAD}base: &a v\nlist: [${lines(n, (i) => (i ? ', *a' : '*a'))}]\n` },
  { name: 'aliases-of-map', path: 'accelerate_config.yaml', size: 100_000, make: (n) => `${HEAD}fsdp_config: &a\n  fsdp_version: 2\n  fsdp_offload_params: yes\n${lines(n, (i) => `k${i}: *a\n`)}` },
  {
    name: 'alias-laughs',
    path: 'accelerate_config.yaml',
    size: 9,
    scales: false,
    make: (n) => {
      let s = `${HEAD}l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n`;
      for (let i = 1; i < n; i++) s += `l${i}: &l${i} [${Array(9).fill(`*l${i - 1}`).join(', ')}]\n`;
      return s;
    },
  },
  { name: 'merge-keys', path: 'accelerate_config.yaml', size: 50_000, make: (n) => `${HEAD}base: &base {fsdp_version: 2, fsdp_offload_params: yes}\nitems:\n${lines(n, (i) => `  - <<: *base\n    x${i}: 1\n`)}` },
  { name: 'disable-next-line', path: 'accelerate_config.yaml', size: 50_000, make: (n) => HEAD + lines(n, (i) => `# shardwise-disable-next-line ${i % 2 ? 'unknown-key' : 'yaml-boolean-trap'}\nkey_${i}: yes\n`) },
  { name: 'disable-line', path: 'accelerate_config.yaml', size: 50_000, make: (n) => HEAD + lines(n, (i) => `key_${i}: yes  # shardwise-disable-line unknown-key\n`) },
  { name: 'disable-file', path: 'accelerate_config.yaml', size: 50_000, make: (n) => lines(n, (i) => `# shardwise-disable rule-${i}, unknown-key\n`) + HEAD + 'typo_key: 1\n' },
  { name: 'directive-settings', path: 'accelerate_config.yaml', size: 50_000, make: (n) => lines(n, (i) => `# shardwise: hardware=h100-sxm gpus_per_node=${(i % 8) + 1} model=llama-3-70b seq_length=${i + 1}\n`) + HEAD },
  { name: 'stream', path: 'accelerate_config.yaml', size: 20_000, make: (n) => lines(n, () => `---\n${ACC_DOC}`) },
  { name: 'stream-fixable', path: 'accelerate_config.yaml', size: 20_000, make: (n) => lines(n, () => '---\ndistributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_versoin: 2\n  fsdp_offload_params: yes\n') },
  { name: 'stream-empty', path: 'accelerate_config.yaml', size: 100_000, make: (n) => HEAD + lines(n, () => '---\n') },
  { name: 'unknown-top', path: 'accelerate_config.yaml', size: 100_000, make: (n) => HEAD + lines(n, (i) => `unknown_key_${i}: ${i}\n`) },
  { name: 'unknown-nested', path: 'accelerate_config.yaml', size: 100_000, make: (n) => `${HEAD}fsdp_config:\n  fsdp_version: 2\n${lines(n, (i) => `  fsdp_unknown_${i}: ${i}\n`)}` },
  { name: 'traps-distinct', path: 'accelerate_config.yaml', size: 50_000, make: (n) => `${HEAD}fsdp_config:\n${lines(n, (i) => `  fsdp_offload_params_${i}: yes\n`)}` },
  { name: 'traps-duplicate', path: 'accelerate_config.yaml', size: 50_000, make: (n) => `${HEAD}fsdp_config:\n${lines(n, () => '  fsdp_offload_params: yes\n')}` },
  { name: 'traps-top', path: 'accelerate_config.yaml', size: 50_000, make: (n) => HEAD + lines(n, (i) => `${i % 2 ? 'mixed_precision' : 'use_cpu'}: ${i % 3 ? 'no' : 'yes'}\n`) },
  { name: 'duplicate-keys', path: 'accelerate_config.yaml', size: 100_000, make: (n) => HEAD + lines(n, (i) => `num_processes: ${i}\n`) },
  { name: 'anchors-distinct', path: 'accelerate_config.yaml', size: 100_000, make: (n) => HEAD + lines(n, (i) => `k${i}: &a${i} v${i}\n`) },
  { name: 'comments', path: 'accelerate_config.yaml', size: 200_000, make: (n) => HEAD + lines(n, (i) => `# comment ${i} mixed_precision: no\n`) },
  { name: 'block-scalar', path: 'accelerate_config.yaml', size: 100_000, make: (n) => `${HEAD}commands: |\n${lines(n, (i) => `  line ${i}: --num-layers ${i}\n`)}` },
  { name: 'flow-map', path: 'accelerate_config.yaml', size: 100_000, make: (n) => `${HEAD}fsdp_config: {${lines(n, (i) => `${i ? ', ' : ''}fsdp_k${i}: ${i % 2 ? 'yes' : 'no'}`)}}\n` },
  { name: 'deep-flow', path: 'accelerate_config.yaml', size: 100_000, make: (n) => `${HEAD}x: ${'['.repeat(n)}${']'.repeat(n)}\n` },
  { name: 'deep-flow-unclosed', path: 'accelerate_config.yaml', size: 100_000, make: (n) => `${HEAD}x: ${'{a: '.repeat(n)}\n` },
  { name: 'deep-seq', path: 'accelerate_config.yaml', size: 50_000, make: (n) => `${HEAD}x:\n  ${'- '.repeat(n)}v\n` },
  { name: 'deep-block', path: 'accelerate_config.yaml', size: 3_000, scales: false, make: (n) => lines(n, (i) => `${' '.repeat(i)}k${i}:\n`) },
  { name: 'long-line', path: 'accelerate_config.yaml', size: 5_000_000, make: (n) => `${HEAD}main_training_function: ${'a'.repeat(n)}\n` },
  { name: 'long-key', path: 'accelerate_config.yaml', size: 1_000_000, make: (n) => `${HEAD}${'fsdp_versoin'.repeat(Math.ceil(n / 12))}: 2\n` },
  { name: 'long-quoted', path: 'accelerate_config.yaml', size: 1_000_000, make: (n) => `${HEAD}main_training_function: "${lines(n / 10, () => '\\x41\\n\\u00e9 ')}"\n` },
  { name: 'near-limit', path: 'accelerate_config.yaml', size: 1_300_000, make: (n) => `${HEAD}commands:\n${lines(n, () => '  - x\n')}` },
  { name: 'json-keys', path: 'ds_config.json', size: 100_000, make: (n) => `{"train_batch_size": 8, "zero_optimization": {"stage": 3}, ${lines(n, (i) => `${i ? ', ' : ''}"unknown_${i}": ${i}`)}}\n` },
  { name: 'json-section-keys', path: 'ds_config.json', size: 100_000, make: (n) => `{"train_batch_size": 8, "zero_optimization": {"stage": 3${lines(n, (i) => `, "stage_${i}": true`)}}}\n` },
  { name: 'json-duplicates', path: 'ds_config.json', size: 100_000, make: (n) => `{"zero_optimization": {"stage": 3}${lines(n, (i) => `, "train_batch_size": ${i}`)}}\n` },
  { name: 'json-deep', path: 'ds_config.json', size: 100_000, make: (n) => `{"zero_optimization": ${'['.repeat(n)}${']'.repeat(n)}}\n` },
  { name: 'json-long-string', path: 'ds_config.json', size: 5_000_000, make: (n) => `{"train_batch_size": 8, "zero_optimization": {"stage": 3, "offload_param": {"device": "nvme", "nvme_path": "${'x'.repeat(n)}"}}}\n` },
  { name: 'json-one-line-array', path: 'ds_config.json', size: 1_000_000, make: (n) => `{"train_batch_size": 8, "zero_optimization": {"stage": 3}, "x": [${lines(n, (i) => (i ? ',' : '') + (i % 10))}]}` },
  { name: 'shell-flags', path: 'train.sh', size: 50_000, make: (n) => { const fs = flags(); return SHELL_HEAD + LAUNCH + lines(n, (i) => `  ${fs[i % fs.length]} ${i % 7} \\\n`) + '  --bf16\n'; } },
  { name: 'shell-same-flag', path: 'train.sh', size: 50_000, make: (n) => SHELL_HEAD + LAUNCH + lines(n, (i) => `  --num-layers ${i} \\\n`) + '  --hidden-size 4096\n' },
  { name: 'shell-unknown-flags', path: 'train.sh', size: 50_000, make: (n) => SHELL_HEAD + LAUNCH + lines(n, (i) => `  --unknown-flag-${i} ${i} \\\n`) + '  --num-layers 32\n' },
  { name: 'shell-array', path: 'train.sh', size: 50_000, make: (n) => `${SHELL_HEAD}MODEL_ARGS=(\n${lines(n, (i) => `  --num-layers ${i}\n`)})\ntorchrun --nproc_per_node 8 pretrain_gpt.py "\${MODEL_ARGS[@]}"\n` },
  { name: 'shell-array-appends', path: 'train.sh', size: 50_000, make: (n) => `${SHELL_HEAD}ARGS=()\n${lines(n, (i) => `ARGS+=(--seed ${i})\n`)}torchrun --nproc_per_node 8 pretrain_gpt.py "\${ARGS[@]}"\n` },
  { name: 'shell-var-chain', path: 'train.sh', size: 50_000, make: (n) => `${SHELL_HEAD}V0=8\n${lines(n, (i) => `V${i + 1}=$V${i}\n`)}torchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size $V${n} --num-layers 32\n` },
  { name: 'shell-var-doubling', path: 'train.sh', size: 40, scales: false, make: (n) => `${SHELL_HEAD}A0=x\n${lines(n, (i) => `A${i + 1}="$A${i}$A${i}"\n`)}torchrun --nproc_per_node 8 pretrain_gpt.py --data-path $A${n} --num-layers 32\n` },
  { name: 'shell-array-doubling', path: 'train.sh', size: 40, scales: false, make: (n) => `${SHELL_HEAD}A0=(--seed 1)\n${lines(n, (i) => `A${i + 1}=("\${A${i}[@]}" "\${A${i}[@]}")\n`)}torchrun --nproc_per_node 8 pretrain_gpt.py "\${A${n}[@]}" --num-layers 32\n` },
  { name: 'shell-arith', path: 'train.sh', size: 20_000, make: (n) => `${SHELL_HEAD}TP=$(( ${'('.repeat(n)}1${')'.repeat(n)} ))\ntorchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size $TP --num-layers 32\n` },
  { name: 'shell-heredoc', path: 'train.sh', size: 50_000, make: (n) => `${SHELL_HEAD}cat <<EOF > ds.json\n${lines(n, (i) => `--num-layers ${i} \\\n`)}EOF\n${LAUNCH}  --num-layers 32\n` },
  { name: 'shell-bash-c-nesting', path: 'train.sh', size: 12, scales: false, make: (n) => { let cmd = 'torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 32'; for (let i = 0; i < n; i++) cmd = `bash -c ${JSON.stringify(cmd)}`; return SHELL_HEAD + cmd + '\n'; } },
  { name: 'shell-continuations', path: 'train.sh', size: 100_000, make: (n) => SHELL_HEAD + LAUNCH + lines(n, () => '  \\\n') + '  --num-layers 32\n' },
  { name: 'shell-long-line', path: 'train.sh', size: 5_000_000, make: (n) => `${SHELL_HEAD}torchrun --nproc_per_node 8 pretrain_gpt.py --data-path ${'d'.repeat(n)} --num-layers 32\n` },
  { name: 'shell-many-commands', path: 'train.sh', size: 20_000, make: (n) => SHELL_HEAD + lines(n, (i) => `torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers ${i}\n`) },
  { name: 'shell-functions', path: 'train.sh', size: 20_000, make: (n) => SHELL_HEAD + lines(n, (i) => `f${i}() { f${i + 1} "$@"; }\n`) + `f${n}() { torchrun --nproc_per_node 8 pretrain_gpt.py "$@"; }\nf0 --num-layers 32\n` },
  { name: 'megatron-yaml-flags', path: 'tests/functional_tests/test_cases/gpt/bomb_1N8G/model_config.yaml', size: 50_000, make: (n) => { const fs = flags(); return `ENV_VARS:\n  CUDA_DEVICE_MAX_CONNECTIONS: 1\nMODEL_ARGS:\n${lines(n, (i) => `  ${fs[i % fs.length]}${i >= fs.length ? `-${i}` : ''}: ${i % 5}\n`)}`; } },
  { name: 'bridge-lines', path: 'conf/bomb_override.yaml', size: 50_000, make: (n) => { const ks = vocabulary().bridgeKeys; return lines(n, (i) => `${ks[i % ks.length]}${i >= ks.length ? `_${i}` : ''}: ${i % 4}\n`); } },
  { name: 'nemo-keys', path: 'conf/training/gpt3/bomb.yaml', size: 50_000, make: (n) => `trainer:\n  devices: 8\n  num_nodes: 1\nmodel:\n  tensor_model_parallel_size: 2\n${lines(n, (i) => `  nemo_key_${i}: ${i}\n`)}` },
];

export interface BombInput {
  spec: BombSpec;
  text: string;
  growth?: { text: string; factor: number };
}

export function makeBomb(spec: BombSpec, scale: Scale): BombInput {
  const scales = spec.scales !== false;
  const n = scales && scale === 'bounded' ? Math.max(1, Math.floor(spec.size / 4)) : spec.size;
  const text = spec.make(n);
  const factor = 4;
  return { spec, text, growth: scales ? { text: spec.make(Math.max(1, Math.floor(n / factor))), factor } : undefined };
}
