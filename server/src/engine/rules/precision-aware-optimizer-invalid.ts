/**
 * precision-aware-optimizer-invalid: the precision-aware optimizer (and the CPU offload that runs
 * through it) where Megatron refuses it.
 *
 * - Megatron Core's OptimizerConfig.__post_init__ asserts `optimizer == 'adam'` and
 *   `use_distributed_optimizer` when `use_precision_aware_optimizer` is on
 *   (megatron/core/optimizer/optimizer_config.py@core_v0.11.0:137-143, the same to core_v0.19.0:430-436
 *   and at Bridge's pin 2a75ac1:433-439). At d98e8a6 the Adam assertion stays (:433-436) and the
 *   distributed-optimizer one moved to get_megatron_optimizer, a ValueError unless the model is
 *   wrapped by Megatron-FSDP version 2 (megatron/core/optimizer/__init__.py@d98e8a6:1054-1060).
 *   Megatron-LM builds the config from its arguments when it sets up training; Megatron Bridge's
 *   ConfigContainer.validate runs the same __post_init__ (`optimizer.finalize()`) before it syncs
 *   `ddp.use_distributed_optimizer` into the optimizer config or applies Megatron-FSDP
 *   (training/config.py@067f987:1395, 1485, 1504), so there only `optimizer.use_distributed_optimizer`
 *   counts.
 * - Megatron-LM's validate_args asserts `--use-precision-aware-optimizer` beside
 *   `--optimizer-cpu-offload` (megatron/training/arguments.py@core_v0.12.0:945-949 to d98e8a6:1884-1888);
 *   Megatron Core does not, so Bridge runs it.
 */
import { argOff, argOn, argValue, MEGATRON_FORMATS, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { named, runChecks, type ArgCheck } from '../formats/megatron/checks';
import { untracked } from './certain';
import { defineRule } from './rule';

const precisionAware = (m: MegatronModel) => !m.args.notTraining && argOn(m, 'use_precision_aware_optimizer');

/** The optimizer as written when it is not Adam (absent, it is Adam: `--optimizer` defaults to adam). */
function otherOptimizer(m: MegatronModel): string | undefined {
  const o = argValue(m, 'optimizer');
  return typeof o === 'string' && o !== 'adam' ? o : undefined;
}

/**
 * The distributed optimizer is known to be off where the optimizer config reads it. With Megatron-FSDP,
 * Megatron-LM asserts it (arguments.py@core_v0.12.0:554-555), leaves it (0.14-0.17), turns it on itself
 * (arguments.py@core_v0.18.0:1107-1119) or skips the check for FSDP version 2 (d98e8a6), so both FSDP
 * switches must be known off there. A Bridge override counts only when it writes
 * the optimizer config's own field: the DDP one reaches it only after the check.
 */
function withoutDistributedOptimizer(m: MegatronModel): boolean {
  if (untracked(m.args).configFields && !m.args.yamlCfg) {
    const a = m.args.get('use_distributed_optimizer');
    return !!a && a.path[0] === 'optimizer' && argOff(m, 'use_distributed_optimizer');
  }
  return argOff(m, 'use_distributed_optimizer') && argOff(m, 'use_megatron_fsdp') && argOff(m, 'use_custom_fsdp');
}

const CHECKS: ArgCheck[] = [
  {
    when: (m) => (precisionAware(m) && otherOptimizer(m) ? 'use_precision_aware_optimizer' : undefined),
    since: '0.11.0',
    message: (m) => `${named(m, '--use-precision-aware-optimizer')} with ${named(m, '--optimizer', String(otherOptimizer(m)))}: the precision-aware optimizer is Transformer Engine's fused Adam (or the CPU-offload Adam), and Megatron Core stops when it builds the optimizer config ("--use-precision-aware-optimizer only supported with adam"). Use Adam, or remove ${named(m, '--use-precision-aware-optimizer')}.`,
  },
  {
    // One finding per file: with another optimizer the Adam assertion comes first (the check above);
    // which optimizer is written only picks the message, it does not decide that Megatron stops.
    when: (m) => (precisionAware(m) && !nonAdamWritten(m) && withoutDistributedOptimizer(m) ? 'use_precision_aware_optimizer' : undefined),
    since: '0.11.0',
    message: (m) => `${named(m, '--use-precision-aware-optimizer')} without the distributed optimizer: the precision-aware optimizer keeps its main parameters and optimizer states in the distributed optimizer's shards, and Megatron Core stops when it sets up the optimizer ("--use-precision-aware-optimizer only supported with distributed optimizer"). Turn on ${named(m, '--use-distributed-optimizer')}, or remove ${named(m, '--use-precision-aware-optimizer')}.`,
  },
  {
    when: (m) => (argOn(m, 'optimizer_cpu_offload') && argOff(m, 'use_precision_aware_optimizer') ? 'optimizer_cpu_offload' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.12.0',
    message: () => '`--optimizer-cpu-offload` without `--use-precision-aware-optimizer`: the CPU-offload optimizer runs through the precision-aware optimizer\'s code path, and Megatron-LM stops at startup ("The optimizer cpu offload must be used in conjunction with `--use-precision-aware-optimizer`"). Add `--use-precision-aware-optimizer` (it also needs `--use-distributed-optimizer`), or remove the offload.',
  },
  {
    // training/arguments.py@core_v0.14.0:1066-1069, @d98e8a6:1889-1892: after the check above, FP8
    // parameter gathering with the offload needs the delayed-scaling recipe.
    when: (m) => {
      const recipe = argValue(m, 'fp8_recipe');
      return argOn(m, 'optimizer_cpu_offload') && argOn(m, 'use_precision_aware_optimizer') && argOn(m, 'fp8_param_gather') && typeof recipe === 'string' && recipe !== 'delayed' ? 'fp8_recipe' : undefined;
    },
    formats: MLM_FLAG_FORMATS,
    since: '0.14.0',
    message: (m) => `\`--fp8-recipe ${String(argValue(m, 'fp8_recipe'))}\` with \`--optimizer-cpu-offload\` and \`--fp8-param-gather\`: Megatron-LM stops at startup ("When \`--fp8-param-gather\` is enabled, the optimizer cpu offload must be used in conjunction with \`--fp8-recipe delayed\`."). Use \`--fp8-recipe delayed\`, or drop \`--fp8-param-gather\`.`,
  },
  {
    // Megatron-LM's validate_args under `--bf16` (training/arguments.py@core_v0.11.0, the same at
    // d98e8a6:1209-1211): reduced-precision main gradients exclude fp32 accumulation and reduction.
    when: (m) => {
      const dtype = argValue(m, 'main_grads_dtype');
      return argOn(m, 'bf16') && argOn(m, 'accumulate_allreduce_grads_in_fp32') && typeof dtype === 'string' && dtype !== 'fp32' ? 'main_grads_dtype' : undefined;
    },
    formats: MLM_FLAG_FORMATS,
    since: '0.11.0',
    message: (m) => `\`--main-grads-dtype ${String(argValue(m, 'main_grads_dtype'))}\` with \`--accumulate-allreduce-grads-in-fp32\`: the flag keeps the gradient buffers in fp32, which contradicts reduced-precision main gradients, and Megatron-LM stops at startup ("--main-grads-dtype can only be fp32 when --accumulate-allreduce-grads-in-fp32 is set"). Drop one of them.`,
  },
  {
    // optimizer_config.py@core_v0.11.0:170-181, the same to d98e8a6:466-478: without the
    // precision-aware optimizer every main-parameter and optimizer-state dtype must stay fp32.
    // Megatron-LM builds the config from these arguments when it sets up training.
    when: (m) => {
      const d = !m.args.notTraining && argOff(m, 'use_precision_aware_optimizer') ? reducedState(m) : undefined;
      // Reduced main gradients beside fp32 accumulation stop earlier, at startup (the check above).
      return d === 'main_grads_dtype' && argOn(m, 'bf16') && argOn(m, 'accumulate_allreduce_grads_in_fp32') ? undefined : d;
    },
    formats: MLM_FLAG_FORMATS,
    since: '0.11.0',
    message: (m) => {
      const d = reducedState(m)!;
      const flag = `--${d.replace(/_/g, '-')}`;
      return `\`${flag} ${String(argValue(m, d))}\` without \`--use-precision-aware-optimizer\`: only the precision-aware optimizer keeps main parameters, gradients or optimizer states in reduced precision, and Megatron Core stops when it builds the optimizer config ("${d} can only be fp32 when not using precision-aware optimizer"). Add \`--use-precision-aware-optimizer\` (with \`--use-distributed-optimizer\` and Adam), or drop \`${flag}\`.`;
    },
  },
];

/** The first main-parameter or optimizer-state dtype written as other than fp32 (the order OptimizerConfig checks them in). */
function reducedState(m: MegatronModel): string | undefined {
  return REDUCED_STATE.find((d) => {
    const v = argValue(m, d);
    return typeof v === 'string' && v !== 'fp32';
  });
}
const REDUCED_STATE = ['main_grads_dtype', 'main_params_dtype', 'exp_avg_dtype', 'exp_avg_sq_dtype'];

/** Another optimizer written (read untracked: it only keeps the two precision-aware findings apart). */
function nonAdamWritten(m: MegatronModel): boolean {
  const o = untracked(m.args).get('optimizer');
  return !!o && !o.unknown && typeof o.value === 'string' && o.value !== 'adam';
}

export default defineRule<MegatronModel>({
  id: 'precision-aware-optimizer-invalid',
  severity: 'error',
  formats: MEGATRON_FORMATS,
  docs: {
    summary: 'The precision-aware optimizer without the distributed optimizer or with an optimizer other than Adam, `--optimizer-cpu-offload` without it (or, with FP8 parameter gathering, without the delayed FP8 recipe), reduced-precision main gradients beside `--accumulate-allreduce-grads-in-fp32`, and reduced-precision main parameters, gradients or optimizer states without it.',
    why: 'From Megatron Core 0.11, `--use-precision-aware-optimizer` works only with Adam and the distributed optimizer: Megatron Core\'s optimizer config refuses anything else when training is set up. A Megatron-LM run with Megatron-FSDP is not judged: depending on the release, Megatron-LM asks for the distributed optimizer there, turns it on itself, or lets FSDP shard the optimizer. Megatron Bridge builds the same config and stops the same way, before it copies `ddp.use_distributed_optimizer` into the optimizer config, so a Bridge override is judged on `optimizer.use_distributed_optimizer` and only on what it writes itself. From 0.12, Megatron-LM\'s argument checks also refuse `--optimizer-cpu-offload` without `--use-precision-aware-optimizer`, since the CPU-offload optimizer runs through its code path, and from 0.14 the offload with `--fp8-param-gather` and an `--fp8-recipe` other than `delayed`; Megatron Bridge makes no such check. From 0.11, under `--bf16`, they refuse a `--main-grads-dtype` other than `fp32` beside `--accumulate-allreduce-grads-in-fp32`; and without `--use-precision-aware-optimizer`, Megatron Core\'s optimizer config refuses any `--main-grads-dtype`, `--main-params-dtype`, `--exp-avg-dtype` or `--exp-avg-sq-dtype` other than `fp32` when a Megatron-LM run sets up training.',
    bad: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --num-layers: 32\n  --bf16: true\n  --use-precision-aware-optimizer: true\n',
    good: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --num-layers: 32\n  --bf16: true\n  --use-distributed-optimizer: true\n  --use-precision-aware-optimizer: true\n',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --optimizer-cpu-offload \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --use-distributed-optimizer --use-precision-aware-optimizer --optimizer-cpu-offload \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.19.0, `OptimizerConfig.__post_init__`: the precision-aware optimizer only with Adam and the distributed optimizer', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.19.0/megatron/core/optimizer/optimizer_config.py#L430-L436' },
      { label: 'Megatron-LM core_v0.19.0, `validate_args`: `--optimizer-cpu-offload` needs `--use-precision-aware-optimizer`', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.19.0/megatron/training/arguments.py#L1802-L1807' },
    ],
  },
  check(ctx) {
    runChecks(ctx, CHECKS);
  },
});
