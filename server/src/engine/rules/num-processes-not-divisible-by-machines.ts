/**
 * num-processes-not-divisible-by-machines: `num_processes` (the total) is not a multiple of
 * `num_machines`.
 */
import type { AccelerateModel } from '../formats/accelerate/model';
import { splitsOverMachines, src } from '../formats/accelerate/helpers';
import { launchIgnoresKey } from './helpers';
import { defineRule, type FixSpec } from './rule';

export default defineRule<AccelerateModel>({
  id: 'num-processes-not-divisible-by-machines',
  severity: 'warning',
  formats: ['accelerate'],
  fixes: {
    'set-num-processes': { applicability: 'unsafe', changes: 'the number of GPUs' },
  },
  verifyFixes: true,
  docs: {
    summary: '`num_processes` is not a multiple of `num_machines`.',
    why: '`num_processes` is the total over all machines; the launcher starts `num_processes // num_machines` on each, silently dropping the remainder. Fewer processes than machines (a per-node count written as the total) starts none at all. Only launches that split the processes over the machines are checked: torchrun (the `MULTI_*` device types, FSDP, Megatron-LM) and DeepSpeed. `mpirun` (`MULTI_CPU` with `mpirun_config.mpirun_hostfile`) is handed the total (`-n`) besides `num_processes // num_machines` per node, and what it makes of an uneven pair is up to the MPI implementation, so nothing is said there; `NO`, `XLA`/`TPU` and `MULTI_CPU` without a hostfile start the script once per invocation and never divide.',
    bad: 'distributed_type: MULTI_GPU\nnum_machines: 2\nnum_processes: 15\nmain_process_ip: 10.0.0.1\nmain_process_port: 29500\n',
    good: 'distributed_type: MULTI_GPU\nnum_machines: 2\nnum_processes: 16\nmain_process_ip: 10.0.0.1\nmain_process_port: 29500\n',
    fix: 'Sets `num_processes` to the nearest multiple of `num_machines`.',
  },
  check(ctx) {
    const m = ctx.model;
    const n = m.numProcesses;
    const k = m.numMachines;
    if (m.sagemaker || n === undefined || !Number.isInteger(n) || !Number.isInteger(k) || k <= 1 || n % k === 0) return;
    // Before 0.3.0 the launcher does not take `num_machines` from the file (`x-launch-ignores`): one machine runs.
    if (launchIgnoresKey(ctx, 'num_machines')) return;
    // Only torchrun and DeepSpeed's runner divide by the machine count; the
    // simple launcher (NO, MULTI_CPU without a hostfile) and the TPU one never do.
    // mpirun (MULTI_CPU with a hostfile) is handed the total (`-n`) and the per-node count (`-ppn` /
    // `--npernode`, utils/launch.py@v1.14.0 prepare_simple_launcher_cmd_env): what an uneven pair does is
    // the MPI implementation's, so nothing is said there.
    if (!splitsOverMachines(m, (v) => ctx.atLeast(v), true)) return;
    // DeepSpeed's own runner (any multinode launcher but `standard`) gets `--num_gpus n // k` and, for
    // 0, takes every slot of the hostfile; its inclusion/exclusion filters choose the slots instead.
    const ds = m.distributedType === 'DEEPSPEED';
    const runner = ds && String(m.view.str(['deepspeed_config', 'deepspeed_multinode_launcher']) ?? 'pdsh').toLowerCase() !== 'standard';
    if (ds && (m.view.has(['deepspeed_config', 'deepspeed_inclusion_filter']) || m.view.has(['deepspeed_config', 'deepspeed_exclusion_filter']))) return;
    if (runner && n < k) return;
    const at = src(m, ['num_processes']);
    const up = Math.ceil(n / k) * k;
    const down = Math.floor(n / k) * k;
    const fixes: FixSpec[] = [{ kind: 'set-num-processes', title: `Set \`num_processes: ${up}\` (${up / k} per machine)`, edits: [{ op: 'set', path: at, value: up }], recommended: down === 0 }];
    if (down > 0) fixes.push({ kind: 'set-num-processes', title: `Set \`num_processes: ${down}\` (${down / k} per machine)`, edits: [{ op: 'set', path: at, value: down }] });
    if (n < k) {
      ctx.report({
        at,
        on: 'value',
        severity: 'error',
        related: [{ at: src(m, ['num_machines']), on: 'entry', message: `num_machines is ${k} here` }],
        message: `\`num_processes: ${n}\` is less than \`num_machines: ${k}\`: it is the total over all machines, so each machine gets ${n} // ${k} = 0 processes and nothing runs. Write the total, e.g. ${up} for ${up / k} per machine.`,
        fixes,
      });
      return;
    }
    ctx.report({
      at,
      on: 'value',
      related: [{ at: src(m, ['num_machines']), on: 'entry', message: `num_machines is ${k} here` }],
      message: `\`num_processes: ${n}\` is not a multiple of \`num_machines: ${k}\`: each machine starts ${n} // ${k} = ${Math.floor(n / k)} processes, so ${n - down} of the ${n} ${n - down === 1 ? "never starts" : "never start"} and the world size is ${down}. Use a multiple of ${k}.`,
      fixes,
    });
  },
});
