/**
 * What DeepCompile refuses at ZeRO stage 3 among its own offload passes and ZeRO's offload
 * (deepspeed/compile/init_z3.py, run by `engine.compile()` when `compile.deepcompile` is on and the
 * stage is 3: runtime/engine.py `get_deepcompile_backend`). Part of zero-config-invalid.
 */
import type { DeepSpeedModel } from '../../formats/deepspeed/model';
import type { DsCheck } from '../helpers';

const Z = 'zero_optimization';
const C = 'compile';
const device = (m: DeepSpeedModel, section: string) => String(m.get([Z, section, 'device']) ?? '').toLowerCase();
const z3 = (m: DeepSpeedModel) => m.bool([C, 'deepcompile']) === true && m.stage === 3;
/** `engine.zero_use_cpu_optimizer()`: the optimizer offloaded to the CPU or NVMe. */
const zeroOffloadsOptimizer = (m: DeepSpeedModel) => ['cpu', 'nvme'].includes(device(m, 'offload_optimizer'));
/** `offload_parameters` written, or set by the engine when ZeRO offloads both parameters and optimizer to the CPU. */
const offloadsParameters = (m: DeepSpeedModel) => m.bool([C, 'offload_parameters']) === true || (device(m, 'offload_param') === 'cpu' && device(m, 'offload_optimizer') === 'cpu');

export function deepCompileChecks(): DsCheck[] {
  return [
    {
      // compile/init_z3.py@v0.19.4:93-98 (the first check of init_z3).
      when: (m) => (z3(m) && m.bool([C, 'offload_opt_states']) === true && zeroOffloadsOptimizer(m) ? [C, 'offload_opt_states'] : undefined),
      since: '0.19.4',
      message: (m) => `DeepCompile's \`offload_opt_states\` with ZeRO's optimizer offload to ${device(m, 'offload_optimizer')}: both manage the optimizer state, and DeepSpeed stops when it compiles the ZeRO-3 model ("compile.offload_opt_states cannot be combined with ZeRO's zero_optimization.offload_optimizer set to cpu or nvme"). Keep one of them.`,
    },
    {
      // compile/init_z3.py@v0.19.6 (after 0.19.5): checked right after the first.
      when: (m) => (z3(m) && m.bool([C, 'offload_activation']) === true && (offloadsParameters(m) || m.bool([C, 'offload_opt_states']) === true) ? [C, 'offload_activation'] : undefined),
      since: '0.19.6',
      message: (m) => `DeepCompile's \`offload_activation\` with ${m.bool([C, 'offload_opt_states']) === true ? '`offload_opt_states`' : m.bool([C, 'offload_parameters']) === true ? '`offload_parameters`' : '`offload_parameters` (which the engine turns on when ZeRO offloads both parameters and optimizer to the CPU)'}: DeepSpeed stops when it compiles the ZeRO-3 model ("compile.offload_activation cannot be combined with offload_parameters or offload_opt_states"). Choose one offloading target.`,
    },
    {
      // compile/init_z3.py@v0.19.4:139-143 and @v0.19.5:139-143, when `engine.compile()` is given no schedule
      // (reported only where the first check, on the same key, does not already stop it).
      when: (m) => (z3(m) && m.bool([C, 'offload_parameters']) === true && m.bool([C, 'offload_opt_states']) === true && !zeroOffloadsOptimizer(m) ? [C, 'offload_opt_states'] : undefined),
      since: '0.19.4',
      message: () => 'DeepCompile\'s `offload_parameters` and `offload_opt_states` together: DeepSpeed stops when it compiles the ZeRO-3 model ("offload_parameters and offload_opt_states cannot be enabled together"). Choose one offloading target.',
    },
  ];
}
