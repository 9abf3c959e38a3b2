/**
 * machine-rank-out-of-range: `machine_rank` is not below `num_machines`.
 */
import type { AccelerateModel } from '../formats/accelerate/model';
import { splitsOverMachines, src } from '../formats/accelerate/helpers';
import { defineRule } from './rule';

export default defineRule<AccelerateModel>({
  id: 'machine-rank-out-of-range',
  severity: 'error',
  formats: ['accelerate'],
  docs: {
    summary: '`machine_rank` is not between 0 and `num_machines - 1`.',
    why: 'On a launch over several machines the rank goes straight to torchrun as `--node_rank` (under DeepSpeed with the `standard` or `nossh` launcher, to the runner); a rank at or above the machine count never matches a slot in the rendezvous, so the job waits forever. With one machine, or a DeepSpeed launcher that starts every node from one (pdsh, the default; openmpi; mvapich; slurm), Accelerate never passes it on, and it is not reported; nor before Accelerate 0.11.0 under DeepSpeed, which handed it to the DeepSpeed runner, where it counts only with `--no_ssh`. Nor is it for `NO`, `MULTI_CPU` or `XLA`/`TPU`: their launchers never read `machine_rank`.',
    bad: 'distributed_type: MULTI_GPU\nnum_machines: 2\nmachine_rank: 2\nnum_processes: 16\nmain_process_ip: 10.0.0.1\nmain_process_port: 29500\n',
    good: 'distributed_type: MULTI_GPU\nnum_machines: 2\nmachine_rank: 1\nnum_processes: 16\nmain_process_ip: 10.0.0.1\nmain_process_port: 29500\n',
  },
  check(ctx) {
    const m = ctx.model;
    if (m.sagemaker || !m.view.has(['machine_rank']) || !Number.isInteger(m.machineRank) || !Number.isInteger(m.numMachines)) return;
    if (m.machineRank >= 0 && m.machineRank < m.numMachines) return;
    // The launcher passes the rank on only to a launch over several machines (utils/launch.py: torchrun's
    // `--node_rank` when num_machines > 1), and under DeepSpeed only with the `standard` (torchrun) or
    // `nossh` launcher: pdsh, openmpi, mvapich and slurm start every node from one, and never read it.
    if (m.numMachines <= 1) return;
    // The simple launcher (NO, MULTI_CPU, with or without mpirun) and the TPU one never read it.
    if (!splitsOverMachines(m, (v) => ctx.atLeast(v), true)) return;
    if (m.distributedType === 'DEEPSPEED') {
      // Before 0.11.0 the launcher hands the rank to DeepSpeed's own runner (`deepspeed --node_rank`), which
      // reads it only with `--no_ssh` (DeepSpeed 0.14.5+), never passed here: the rank has no effect.
      // (The launcher choice this finding needs is read from 0.11.0: with no release named, that settles it.)
      if (ctx.schemaVersion !== undefined && !ctx.atLeast('0.11.0')) return;
      const launcher = m.view.get(['deepspeed_config', 'deepspeed_multinode_launcher']) ?? 'pdsh';
      if (launcher !== 'standard' && launcher !== 'nossh') return;
    }
    ctx.report({
      at: src(m, ['machine_rank']),
      on: 'value',
      related: [{ at: src(m, ['num_machines']), on: 'entry', message: `num_machines is ${m.numMachines} here` }],
      message: `\`machine_rank: ${m.machineRank}\` is out of range for \`num_machines: ${m.numMachines}\`: ranks run from 0 to ${m.numMachines - 1}, so this machine never joins the rendezvous and the job hangs. Number the machines 0 to ${m.numMachines - 1}.`,
    });
  },
});
