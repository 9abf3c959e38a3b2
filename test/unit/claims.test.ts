/**
 * Claims Shardwise makes about what the tools do, each checked against the upstream release that
 * proves it (the comment above each assertion names the file and tag). Upstream: NVIDIA/Megatron-LM
 * (tags core_v0.x.y), deepspeedai/DeepSpeed (v0.x.y), huggingface/accelerate (v1.x.y),
 * NVIDIA-NeMo/Megatron-Bridge (v0.x.y). The inputs are written here, not in fixtures.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyze } from '../../server/src/engine';
import type { EngineSettings } from '../../server/src/engine/settings';

type Finding = ReturnType<typeof analyze>['findings'][number];
const CDMC = 'missing-cuda-device-max-connections';

function run(path: string, text: string, code: string, extra: { referrers?: { path: string; text: string }[]; settings?: EngineSettings } = {}): Finding[] {
  return analyze({ path, text, referrers: extra.referrers }, extra.settings).findings.filter((f) => f.code === code);
}
/** The one finding of a rule, by severity and message. */
function one(found: Finding[], severity: string, message?: RegExp): Finding {
  assert.equal(found.length, 1, `expected one finding, got ${found.map((f) => `${f.severity}: ${f.message}`).join(' | ') || 'none'}`);
  assert.equal(found[0].severity, severity, found[0].message);
  if (message) assert.match(found[0].message, message);
  return found[0];
}
const none = (found: Finding[]) => assert.deepEqual(found.map((f) => `${f.severity}: ${f.message}`), []);

// ---------------------------------------------------------------------------------------------
// 1a. Duplicate keys in a DeepSpeed JSON.

const DS_DUP = '{\n  "train_batch_size": 8,\n  "train_batch_size": 16,\n  "zero_optimization": { "stage": 2 }\n}\n';

test('claim 1a: DeepSpeed refuses a config file with a duplicate key (a warning naming that DeepSpeed is assumed to open it); where Accelerate or the Trainer loads it, the last one wins (a warning)', () => {
  // deepspeed/runtime/config.py at v0.19.5: DeepSpeedConfig reads a path with
  // hjson.load(..., object_pairs_hook=dict_raise_error_on_duplicate_keys); deepspeed/runtime/config_utils.py
  // at v0.19.5: that hook raises ValueError("Duplicate keys in DeepSpeed config: ...").
  // Nothing here names what loads it: that DeepSpeed opens it is an assumption, so a warning that names it.
  one(run('ds_config.json', DS_DUP, 'duplicate-key'), 'warning', /DeepSpeed refuses the file when it reads it itself.*this assumes it does/);
  // src/accelerate/utils/deepspeed.py at v1.14.0: HfDeepSpeedConfig opens the path with a plain json.load
  // and DeepSpeed then gets a dict, which DeepSpeedConfig takes as is (no duplicate check).
  const acc = 'distributed_type: DEEPSPEED\nnum_processes: 8\ndeepspeed_config:\n  deepspeed_config_file: ds_config.json\n';
  const underAccelerate = one(run('ds_config.json', DS_DUP, 'duplicate-key', { referrers: [{ path: 'accelerate.yaml', text: acc }] }), 'warning', /Accelerate.*json\.load.*keeps only the last one/);
  assert.doesNotMatch(underAccelerate.message, /refuses the file when/);
  // "auto" values are filled only by the integrations (the Transformers Trainer, Accelerate), which load the
  // file with json.load: DeepSpeed's own reader, given "auto", would not get far either.
  const withAuto = '{\n  "train_micro_batch_size_per_gpu": "auto",\n  "train_batch_size": 8,\n  "train_batch_size": 16\n}\n';
  one(run('ds_config.json', withAuto, 'duplicate-key'), 'warning', /Transformers Trainer or Accelerate loads it, with json\.load/);
  // deepspeed/pt/deepspeed_config.py at v0.1.0 reads the file with a plain json.load (last one wins);
  // v0.2.0 adds dict_raise_error_on_duplicate_keys (deepspeed/pt/deepspeed_config_utils.py at v0.2.0).
  one(run('ds_config.json', DS_DUP, 'duplicate-key', { settings: { targetVersions: { deepspeed: '0.1.0' } } }), 'warning', /json\.load keeps only the last one/);
  one(run('ds_config.json', DS_DUP, 'duplicate-key', { settings: { targetVersions: { deepspeed: '0.2.0' } } }), 'warning', /DeepSpeed refuses.*this assumes it does/);
});

// ---------------------------------------------------------------------------------------------
// 1b. Multi-node DeepSpeed through Accelerate: main_process_ip.

test('claim 1b: multi-node DeepSpeed needs main_process_ip with the `standard` launcher, and should have it with `nossh`', () => {
  const cfg = (launcher: string | undefined) =>
    `distributed_type: DEEPSPEED\nnum_machines: 2\nnum_processes: 16\nmachine_rank: 0\nmain_process_port: 29500\ndeepspeed_config:\n  zero_stage: 2\n  deepspeed_hostfile: /job/hostfile\n${launcher ? `  deepspeed_multinode_launcher: ${launcher}\n` : ''}`;
  // src/accelerate/utils/launch.py at v1.14.0, prepare_deepspeed_cmd_env: for every launcher but
  // DEEPSPEED_MULTINODE_LAUNCHERS[1] ("standard", src/accelerate/utils/constants.py) it builds a `deepspeed
  // --hostfile ...` command and adds `--master_addr` only `if main_process_ip`; the launcher defaults to
  // DEEPSPEED_MULTINODE_LAUNCHERS[0] ("pdsh").
  for (const launcher of [undefined, 'pdsh', 'openmpi', 'mvapich', 'mpich', 'slurm']) none(run('accelerate.yaml', cfg(launcher), 'multi-node-missing-main-process'));
  // nossh: without --master_addr DeepSpeed's runner asks the first host over ssh (launcher/runner.py@v0.16.0:476-491),
  // which a cluster without ssh between nodes cannot answer: a warning, since ssh may still be there.
  one(run('accelerate.yaml', cfg('nossh'), 'multi-node-missing-main-process'), 'warning', /ssh <first host> hostname -I/);
  // Same function: with "standard" each node runs torchrun with rdzv_endpoint f"{main_process_ip}:{main_process_port}",
  // i.e. "None:29500" when the address is missing.
  one(run('accelerate.yaml', cfg('standard'), 'multi-node-missing-main-process'), 'warning', /no `main_process_ip`/);
  none(run('accelerate.yaml', cfg('standard').replace('main_process_port', 'main_process_ip: 10.0.0.1\nmain_process_port'), 'multi-node-missing-main-process'));
});

// ---------------------------------------------------------------------------------------------
// 1c. --recompute-num-layers above the layers of a pipeline stage.

test('claim 1c: --recompute-num-layers above the layers per stage is handled (a warning) where Megatron clamps it; with `uniform` before 0.17 it crashes', () => {
  const script = (version: string | undefined, method: string) => `#!/bin/bash
${version ? `# shardwise: megatron_core=${version}\n` : ''}export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \\
    --pipeline-model-parallel-size 2 --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \\
    --recompute-granularity full --recompute-method ${method} --recompute-num-layers 8 --bf16
`;
  // megatron/core/transformer/transformer_config.py at core_v0.19.0 (__post_init__) only requires
  // recompute_num_layers to be set under full granularity; megatron/core/recompute.py at core_v0.19.0 clamps
  // a uniform chunk with min(layer_idx + recompute_num_layers, num_layers_per_pipeline_rank), and `block`
  // checkpoints layers while layer_idx < recompute_num_layers (every layer of the stage).
  one(run('train.sh', script(undefined, 'uniform'), 'recompute-config-invalid'), 'warning', /more than the 4 layers each pipeline stage holds: Megatron accepts it/);
  one(run('train.sh', script(undefined, 'block'), 'recompute-config-invalid'), 'warning', /Megatron accepts it/);
  // megatron/core/transformer/transformer_block.py at core_v0.17.0: the same min() clamp (added by
  // "Extract intermediate embeddings of transformer block (#3060)").
  one(run('train.sh', script('0.17.0', 'uniform'), 'recompute-config-invalid'), 'warning', /Megatron accepts it/);
  // megatron/core/transformer/transformer_block.py at core_v0.16.0: _checkpointed_forward calls
  // custom(layer_idx, layer_idx + recompute_num_layers), whose loop reads self.layers[index] past the
  // stage's last layer: IndexError at the first training step.
  one(run('train.sh', script('0.16.0', 'uniform'), 'recompute-config-invalid'), 'error', /fails with an IndexError/);
  // The block branch at core_v0.16.0 only compares layer_idx < recompute_num_layers: no overrun.
  one(run('train.sh', script('0.16.0', 'block'), 'recompute-config-invalid'), 'warning', /Megatron accepts it/);
});

// ---------------------------------------------------------------------------------------------
// 1d. Sequence parallelism with expert parallelism.

test('claim 1d: --sequence-parallel with --expert-model-parallel-size > 1 is never an error', () => {
  const script = (version: string | undefined) => `#!/bin/bash
# shardwise: hardware=h100-sxm${version ? ` megatron_core=${version}` : ''}
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \\
    --tensor-model-parallel-size 2 --sequence-parallel \\
    --expert-model-parallel-size 4 --num-experts 8 --disable-bias-linear \\
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --bf16
`;
  // Without --disable-bias-linear the experts would have biases with expert TP 2 (the TP size), which
  // Megatron Core refuses from core_v0.15.0 ("Bias in Moe is only supported when ETP==1",
  // transformer_config.py@core_v0.15.0:1301-1304): another refusal than the one this claim is about.
  // What upstream checks is the opposite combination, EP > 1 and TP > 1 *without* SP:
  // megatron/core/model_parallel_config.py __post_init__ raises ValueError("When using expert parallelism and
  // tensor parallelism, sequence parallelism must be used") at core_v0.4.0 … core_v0.14.0, and only
  // warnings.warn()s it from core_v0.15.0 (also at core_v0.19.0). With SP on, neither fires; nothing in
  // megatron/training/arguments.py (core_v0.8.0, core_v0.14.0, core_v0.19.0) refuses SP with EP.
  for (const version of [undefined, '0.8.0', '0.14.0', '0.15.0']) {
    const errors = analyze({ path: 'train.sh', text: script(version) }).findings.filter((f) => f.severity === 'error');
    assert.deepEqual(errors.map((f) => `${f.code}: ${f.message}`), [], `megatron_core=${version ?? 'newest'}`);
  }
});

// ---------------------------------------------------------------------------------------------
// 1e. TP communication overlap without sequence parallelism.

test('claim 1e: --tp-comm-overlap without SP stops Megatron-LM (an error in launch scripts and MODEL_ARGS), and Megatron Bridge turns it off (a warning)', () => {
  const quote = /Megatron-LM stops \("Tensor parallel communication\/GEMM overlap can happen only when sequence parallelism is enabled"\)/;
  // megatron/training/arguments.py at core_v0.19.0, validate_args: `if args.tp_comm_overlap: assert
  // args.sequence_parallel == True, 'Tensor parallel communication/GEMM overlap can happen only when sequence
  // parallelism is enabled'` (the same assert at core_v0.4.0 in megatron/arguments.py).
  const sh = '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --tensor-model-parallel-size 2 --tp-comm-overlap --bf16\n';
  one(run('train.sh', sh, 'tp-comm-overlap-requires-sequence-parallel'), 'error', quote);
  const yaml = '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --tensor-model-parallel-size: 2\n  --tp-comm-overlap: true\n';
  one(run('model_config.yaml', yaml, 'tp-comm-overlap-requires-sequence-parallel'), 'error', quote);
  // src/megatron/bridge/training/comm_overlap.py at v0.6.0: with tp_comm_overlap asked for and
  // sequence_parallel False it logs "Disabling tensor parallel communication overlap due to
  // sequence_parallel=False." and sets tp_comm_overlap to False: the run goes on.
  const bridge = 'model:\n  tensor_model_parallel_size: 2\n  sequence_parallel: false\ncomm_overlap:\n  tp_comm_overlap: true\n';
  one(run('overrides.yaml', bridge, 'tp-comm-overlap-requires-sequence-parallel'), 'warning', /turned off \(by Megatron Bridge, which logs it, when the run has a `comm_overlap` config/);
  // At TP 1: megatron/training/arguments.py at core_v0.10.0 turns SP off at TP 1 before the assert, so it fires
  // even with --sequence-parallel; at core_v0.9.0 the assert comes first and SP as written passes it.
  const tp1 = (v: string) => `#!/bin/bash\n# shardwise: megatron_core=${v}\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 1 --sequence-parallel --tp-comm-overlap --bf16\n`;
  one(run('train.sh', tp1('0.10.0'), 'tp-comm-overlap-requires-sequence-parallel'), 'error', /with TP 1 .*Megatron-LM stops/);
  one(run('train.sh', tp1('0.9.0'), 'tp-comm-overlap-requires-sequence-parallel'), 'warning', /with TP 1 has no TP communication to overlap; remove the flag/);
});

// ---------------------------------------------------------------------------------------------
// 2. CUDA_DEVICE_MAX_CONNECTIONS.
//
// A MODEL_ARGS file's ENV_VARS is the environment the run gets (tests/functional_tests/shell_test_utils/
// _run_training.sh at core_v0.19.0 exports each entry), so a variable it lacks is known to be unset; a launch
// script may be started from an environment that already exports it, and a Bridge override is merged onto a
// recipe whose env_vars may set it: there the variable is only "not set here".

const mlmYaml = (directive: string, env: string, args: string) => `# shardwise: format=megatron-yaml world_size=8 ${directive}\nENV_VARS:\n  NCCL_DEBUG: WARN\n${env}MODEL_ARGS:\n${args}`;
const mlmScript = (directive: string, env: string, flags: string) => `#!/bin/bash\n# shardwise: ${directive}\n${env}torchrun --nproc_per_node 8 pretrain_gpt.py \\\n${flags}    --bf16\n`;

test('CUDA_DEVICE_MAX_CONNECTIONS, Megatron-LM 0.4–0.11: required whenever the async all-reduce or SP is on, TP 1 included, on any GPU', () => {
  // megatron/arguments.py at core_v0.5.0, validate_args: SP is turned off at TP 1, SP turns
  // async_tensor_model_parallel_allreduce off, then `if os.environ.get('CUDA_DEVICE_MAX_CONNECTIONS') != "1"`
  // raises RuntimeError for sequence_parallel ("Using sequence parallelism requires ...") or for
  // async_tensor_model_parallel_allreduce ("Using async gradient all reduce requires ..."), a store_false flag
  // (--no-async-tensor-model-parallel-allreduce) and so on by default. No TP, hardware or FSDP condition.
  one(run('model_config.yaml', mlmYaml('megatron_core=0.5.0', '', '  --tensor-model-parallel-size: 1\n'), CDMC), 'error', /Megatron-LM 0\.5\.0 stops at startup \("Using async gradient all reduce requires/);
  none(run('model_config.yaml', mlmYaml('megatron_core=0.5.0', '', '  --tensor-model-parallel-size: 1\n  --no-async-tensor-model-parallel-allreduce: true\n'), CDMC));
  one(run('model_config.yaml', mlmYaml('megatron_core=0.5.0', '', '  --tensor-model-parallel-size: 2\n  --sequence-parallel: true\n  --no-async-tensor-model-parallel-allreduce: true\n'), CDMC), 'error', /"Using sequence parallelism requires/);
  // megatron/arguments.py at core_v0.4.0: the same two RuntimeErrors.
  one(run('model_config.yaml', mlmYaml('megatron_core=0.4.0', '', '  --tensor-model-parallel-size: 1\n'), CDMC), 'error');
  // megatron/training/arguments.py at core_v0.11.0: the same check, still without an architecture test, so
  // Blackwell is no exception; --use-torch-fsdp2 only adds a warning there.
  one(run('model_config.yaml', mlmYaml('hardware=b200 megatron_core=0.11.0', '', '  --tensor-model-parallel-size: 2\n'), CDMC), 'error', /Megatron-LM 0\.11\.0 stops/);
  one(run('model_config.yaml', mlmYaml('megatron_core=0.11.0', '  CUDA_DEVICE_MAX_CONNECTIONS: 8\n', '  --use-torch-fsdp2: true\n'), CDMC), 'error', /"Using async gradient all reduce requires/);
  none(run('model_config.yaml', mlmYaml('megatron_core=0.11.0', '  CUDA_DEVICE_MAX_CONNECTIONS: 1\n', '  --use-torch-fsdp2: true\n'), CDMC));
  // A launch script may inherit the variable from whoever runs it: said, not an error.
  one(run('train.sh', mlmScript('megatron_core=0.5.0', '', '    --tensor-model-parallel-size 1 \\\n'), CDMC), 'warning', /in this script \(the environment that runs it may still export it\): Megatron-LM 0\.5\.0 stops at startup/);
});

test('CUDA_DEVICE_MAX_CONNECTIONS, Megatron-LM 0.12: TP > 1 on any GPU (Blackwell included), CP > 1 only before Blackwell', () => {
  // megatron/training/arguments.py at core_v0.12.0 (and core_v0.12.3): `if args.tensor_model_parallel_size > 1
  // or args.context_parallel_size > 1 and get_device_arch_version() < 10:` (no parentheses: `and` binds first),
  // then, unless --use-torch-fsdp2/--use-custom-fsdp (a warning), assert CUDA_DEVICE_MAX_CONNECTIONS == "1".
  one(run('model_config.yaml', mlmYaml('hardware=b200 megatron_core=0.12.0', '', '  --tensor-model-parallel-size: 8\n'), CDMC), 'error', /0\.12 the check applies to TP > 1 on Blackwell too/);
  none(run('model_config.yaml', mlmYaml('hardware=b200 megatron_core=0.12.0', '', '  --context-parallel-size: 2\n'), CDMC));
  one(run('model_config.yaml', mlmYaml('hardware=h100-sxm megatron_core=0.12.0', '', '  --context-parallel-size: 2\n'), CDMC), 'error', /"Using tensor model parallelism or context parallelism require setting/);
  // The async all-reduce check is gone at core_v0.12.0 (the flag is only parsed): TP 1 needs nothing.
  none(run('model_config.yaml', mlmYaml('megatron_core=0.12.0', '', '  --tensor-model-parallel-size: 1\n'), CDMC));
});

test('CUDA_DEVICE_MAX_CONNECTIONS, current Megatron-LM: TP/CP > 1 before Blackwell stops it; nothing at TP 1, on Blackwell, with FSDP or (0.14+) EP overlap', () => {
  // megatron/training/arguments.py at core_v0.19.0 (and HEAD d98e8a6): `if (args.tensor_model_parallel_size > 1
  // or args.context_parallel_size > 1) and get_device_arch_version() < 10:` → warn_rank_0 for
  // --use-torch-fsdp2/--use-megatron-fsdp, warn_rank_0 for --overlap-moe-expert-parallel-comm, otherwise
  // assert os.environ.get('CUDA_DEVICE_MAX_CONNECTIONS') == "1". The parentheses are there from core_v0.13.0.
  const found = one(run('model_config.yaml', mlmYaml('hardware=h100-sxm', '', '  --tensor-model-parallel-size: 8\n  --sequence-parallel: true\n'), CDMC), 'error', /^TP 8 without `CUDA_DEVICE_MAX_CONNECTIONS=1`: current Megatron-LM releases stop at startup on h100-sxm/);
  assert.match(found.message, /"Using tensor model parallelism or context parallelism require setting the environment variable CUDA_DEVICE_MAX_CONNECTIONS to 1"/);
  one(run('model_config.yaml', mlmYaml('hardware=a100-80gb megatron_core=0.13.0', '', '  --context-parallel-size: 2\n'), CDMC), 'error');
  one(run('model_config.yaml', mlmYaml('hardware=h100-sxm', '  CUDA_DEVICE_MAX_CONNECTIONS: 8\n', '  --tensor-model-parallel-size: 2\n'), CDMC), 'error', /with `CUDA_DEVICE_MAX_CONNECTIONS=8`.*Set it to 1/);
  // get_device_arch_version() is the device's major compute capability (10 for Blackwell): nothing there.
  none(run('model_config.yaml', mlmYaml('hardware=b200', '', '  --tensor-model-parallel-size: 8\n'), CDMC));
  none(run('model_config.yaml', mlmYaml('hardware=gb200-nvl72', '', '  --context-parallel-size: 2\n'), CDMC));
  // A CI test directory names its hardware (tests/functional_tests/test_cases/..._dgx_gb200/ at core_v0.19.0).
  none(run('tests/functional_tests/test_cases/gpt/gpt3_tp2_dgx_gb200/model_config.yaml', mlmYaml('', '', '  --tensor-model-parallel-size: 2\n'), CDMC));
  one(run('tests/functional_tests/test_cases/gpt/gpt3_tp2_dgx_a100_1N8G/model_config.yaml', mlmYaml('', '', '  --tensor-model-parallel-size: 2\n'), CDMC), 'error', /on a100-80gb/);
  // With no hardware named the architecture is assumed: the startup failure is said, as a warning.
  one(run('model_config.yaml', mlmYaml('', '', '  --tensor-model-parallel-size: 2\n'), CDMC), 'warning', /stop at startup on any GPU before Blackwell/);
  // TP 1 and CP 1: no condition applies (SP is turned off at TP 1 before).
  none(run('model_config.yaml', mlmYaml('hardware=h100-sxm', '', '  --tensor-model-parallel-size: 1\n  --sequence-parallel: true\n'), CDMC));
  // FSDP or EP all-to-all overlap: only warn_rank_0, whatever the variable (core_v0.14.0 adds the EP branch).
  none(run('model_config.yaml', mlmYaml('hardware=h100-sxm', '', '  --tensor-model-parallel-size: 2\n  --use-megatron-fsdp: true\n'), CDMC));
  none(run('model_config.yaml', mlmYaml('hardware=h100-sxm', '  CUDA_DEVICE_MAX_CONNECTIONS: 32\n', '  --tensor-model-parallel-size: 2\n  --overlap-moe-expert-parallel-comm: true\n'), CDMC));
});

test('CUDA_DEVICE_MAX_CONNECTIONS in a launch script: a value other than 1 is an error, a missing or unexported one a warning, an unknown one nothing', () => {
  const flags = '    --tensor-model-parallel-size 2 --sequence-parallel \\\n';
  // Same check as above (megatron/training/arguments.py at core_v0.19.0). The script's own value reaches the
  // processes: exported, or assigned over an inherited (hence exported) variable.
  one(run('train.sh', mlmScript('hardware=h100-sxm', 'export CUDA_DEVICE_MAX_CONNECTIONS=8\n', flags), CDMC), 'error', /with `CUDA_DEVICE_MAX_CONNECTIONS=8`/);
  one(run('train.sh', mlmScript('hardware=h100-sxm', 'CUDA_DEVICE_MAX_CONNECTIONS=8\n', flags), CDMC), 'error');
  // Not set here: the environment that runs the script may export it.
  one(run('train.sh', mlmScript('hardware=h100-sxm', '', flags), CDMC), 'warning', /without `CUDA_DEVICE_MAX_CONNECTIONS=1` in this script/);
  // Set but not exported: the processes get it only if the caller's environment already exports it.
  one(run('train.sh', mlmScript('hardware=h100-sxm', 'CUDA_DEVICE_MAX_CONNECTIONS=1\n', flags), CDMC), 'warning', /is set but not exported/);
  none(run('train.sh', mlmScript('hardware=h100-sxm', 'export CUDA_DEVICE_MAX_CONNECTIONS=1\n', flags), CDMC));
  none(run('train.sh', '#!/bin/bash\n# shardwise: hardware=h100-sxm\nCUDA_DEVICE_MAX_CONNECTIONS=1 torchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 2 --bf16\n', CDMC));
  // A value the script takes from its environment: unknown (nothing), or a default the caller may override.
  none(run('train.sh', mlmScript('hardware=h100-sxm', 'export CUDA_DEVICE_MAX_CONNECTIONS=$CDMC\n', flags), CDMC));
  one(run('train.sh', mlmScript('hardware=h100-sxm', 'export CUDA_DEVICE_MAX_CONNECTIONS=${CDMC:-8}\n', flags), CDMC), 'warning', /a default the environment may override/);
});

test('CUDA_DEVICE_MAX_CONNECTIONS=1 with FSDP: an error from Megatron-LM 0.12 and for Bridge Megatron-FSDP; not before 0.12, nor for Bridge Torch FSDP2', () => {
  // megatron/training/arguments.py at core_v0.12.0: under --use-torch-fsdp2 and --use-custom-fsdp, assert
  // os.environ.get('CUDA_DEVICE_MAX_CONNECTIONS') != "1" ('FSDP always requires ... value large than one');
  // at core_v0.19.0 the same for --use-torch-fsdp2 and --use-megatron-fsdp ('FSDP requires
  // CUDA_DEVICE_MAX_CONNECTIONS > 1 or unset.'). Absent at core_v0.11.0.
  const fsdpYaml = (directive: string, flag: string) => mlmYaml(directive, '  CUDA_DEVICE_MAX_CONNECTIONS: 1\n', `  ${flag}: true\n`);
  one(run('model_config.yaml', fsdpYaml('megatron_core=0.19.0', '--use-megatron-fsdp'), CDMC), 'error', /FSDP needs several CUDA work queues/);
  one(run('model_config.yaml', fsdpYaml('megatron_core=0.19.0', '--use-torch-fsdp2'), CDMC), 'error', /FSDP needs several CUDA work queues/);
  // With no release named the check holds only from 0.12 on: a warning that says what it assumes.
  one(run('model_config.yaml', fsdpYaml('', '--use-torch-fsdp2'), CDMC), 'warning', /FSDP needs several CUDA work queues.*This assumes the newest Megatron Core release runs this file/);
  one(run('model_config.yaml', fsdpYaml('megatron_core=0.12.0', '--use-custom-fsdp'), CDMC), 'error');
  none(run('model_config.yaml', fsdpYaml('megatron_core=0.11.0', '--use-torch-fsdp2'), CDMC));
  // src/megatron/bridge/training/config.py at v0.5.0:1136-1137 (_validate_and_apply_megatron_fsdp_configs,
  // Megatron Core 0.18) and v0.6.0: assert os.getenv("CUDA_DEVICE_MAX_CONNECTIONS") != "1", "FSDP requires
  // CUDA_DEVICE_MAX_CONNECTIONS > 1 or unset."; absent at v0.4.2 (Megatron Core 0.17).
  // Bridge has no such check for dist.use_torch_fsdp2.
  const bridge = (section: string, directive = '') => `${directive ? `# shardwise: ${directive}\n` : ''}model:\n  tensor_model_parallel_size: 1\n${section}\nenv_vars:\n  CUDA_DEVICE_MAX_CONNECTIONS: 1\n`;
  const v1 = 'ddp:\n  use_megatron_fsdp: true\n  megatron_fsdp_version: 1';
  one(run('overrides.yaml', bridge(v1, 'megatron_core=0.19.0'), CDMC), 'error', /Megatron Bridge stops at startup/);
  none(run('overrides.yaml', bridge(v1, 'megatron_core=0.17.0'), CDMC));
  // With no release named the check holds only from Bridge 0.5 on: a warning that says what it assumes.
  one(run('overrides.yaml', bridge(v1), CDMC), 'warning', /Megatron Bridge stops at startup.*This assumes the newest Megatron Core release runs this file/);
  // The experimental Megatron-FSDP 2 skips the check, and the recipe may choose it: not known, so nothing.
  none(run('overrides.yaml', bridge('ddp:\n  use_megatron_fsdp: true'), CDMC));
  none(run('overrides.yaml', bridge('dist:\n  use_torch_fsdp2: true'), CDMC));
});

test('CUDA_DEVICE_MAX_CONNECTIONS in Megatron Bridge: never a startup error for TP; a value other than 1 a warning, one not set in the override a note', () => {
  // Bridge does not run Megatron-LM's validate_args: src/megatron/bridge/training/config.py at v0.6.0 checks the
  // variable only for Megatron-FSDP. Megatron Core only warns (megatron/core/tensor_parallel/layers.py at
  // core_v0.19.0, linear_with_grad_accumulation_and_async_allreduce: "When using sequence parallelism it is
  // recommended to set the environment variable CUDA_DEVICE_MAX_CONNECTIONS to 1 for maximum speedup").
  // FSDP and EP all-to-all overlap want several queues: the recipe may turn them on, so the override
  // says they are off.
  const bridge = (env: string) => `model:\n  tensor_model_parallel_size: 2\n  sequence_parallel: true\n  overlap_moe_expert_parallel_comm: false\nddp:\n  use_megatron_fsdp: false\ndist:\n  use_torch_fsdp2: false\nenv_vars:\n${env}`;
  one(run('overrides.yaml', bridge('  CUDA_DEVICE_MAX_CONNECTIONS: 8\n'), CDMC), 'warning', /Megatron Core only warns/);
  // Left to the recipe, FSDP and the overlap (and so whether a single queue is wanted) are not known: nothing.
  none(run('overrides.yaml', 'model:\n  tensor_model_parallel_size: 2\n  sequence_parallel: true\nenv_vars:\n  CUDA_DEVICE_MAX_CONNECTIONS: 8\n', CDMC));
  // ConfigContainer.env_vars are defaults (src/megatron/bridge/training/config.py at HEAD 067f987,
  // apply_environment_variables: os.environ.setdefault), and the recipe's own env_vars are merged under the
  // override: a variable missing here may still be set.
  one(run('overrides.yaml', bridge('  NCCL_DEBUG: WARN\n'), CDMC), 'information', /the recipe or the launcher may still set it/);
  none(run('overrides.yaml', bridge('  CUDA_DEVICE_MAX_CONNECTIONS: 1\n'), CDMC));
});

test('CUDA_DEVICE_MAX_CONNECTIONS: nothing where the file has no environment (MODEL_ARGS without ENV_VARS, a --yaml-cfg file, an override without env_vars)', () => {
  none(run('model_config.yaml', '# shardwise: format=megatron-yaml world_size=8 hardware=h100-sxm\nMODEL_ARGS:\n  --tensor-model-parallel-size: 8\n', CDMC));
  // megatron/training/yaml_arguments.py at core_v0.19.0 checks os.environ too, but a --yaml-cfg file has no
  // environment to read it from.
  none(run('gpt_config.yaml', '# shardwise: format=megatron-yaml hardware=h100-sxm\nlanguage_model:\n  num_layers: 4\nmodel_parallel:\n  tensor_model_parallel_size: 8\n', CDMC));
  none(run('overrides.yaml', 'model:\n  tensor_model_parallel_size: 8\n  sequence_parallel: true\ntrain:\n  micro_batch_size: 1\n', CDMC));
});

// ---------------------------------------------------------------------------------------------
// Defaults that changed between releases: the hover names each release's default.
// transformer_impl: `local` at megatron/arguments.py@core_v0.5.0, `transformer_engine` @core_v0.6.0;
// muon_tp_mode: `blockwise` at megatron/training/arguments.py@core_v0.16.0 … @core_v0.19.0;
// cuda_graph_use_single_mempool: False at transformer_config.py@core_v0.17.1, True @core_v0.18.0.

test('a default that changed between releases is shown with its history on hover', async () => {
  const { hover } = await import('../../server/src/engine');
  const text = '#!/bin/bash\ntorchrun pretrain_gpt.py --transformer-impl local --muon-tp-mode blockwise --num-layers 2 --hidden-size 64 --num-attention-heads 4\n';
  const a = analyze({ path: 'train.sh', text });
  const at = (flag: string) => hover(a, text.indexOf(flag) + 3)!.markdown;
  assert.match(at('--transformer-impl'), /Default: `transformer_engine` \(`"local"` in 0\.4\.0 and 0\.5\.0/);
  assert.match(at('--muon-tp-mode'), /`"blockwise"` in every release from 0\.16\.0 to 0\.19\.0/);
});
