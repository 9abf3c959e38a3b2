/**
 * machine-rank-out-of-range: `machine_rank` is not below `num_machines`.
 */
import type { AccelerateModel } from '../formats/accelerate/model';
import { splitsOverMachines, src } from '../formats/accelerate/helpers';
import { launchIgnores } from '../schema/vocabulary';
import { launchIgnoresKey } from './helpers';
import { defineRule } from './rule';

export default defineRule<AccelerateModel>({
  id: 'machine-rank-out-of-range',
  severity: 'error',
  formats: ['accelerate'],
  docs: {
    summary: '`machine_rank` is not between 0 and `num_machines - 1`.',
    why: 'On a launch over several machines the rank goes straight to torchrun as `--node_rank` (under DeepSpeed with the `standard` or `nossh` launcher, to the runner); a rank at or above the machine count never matches a slot in the rendezvous, so the job waits forever (with the `nossh` launcher, from Accelerate 1.6.0, the DeepSpeed runner checks it against its hostfile\'s hosts and stops at once). That holds for torchrun\'s static rendezvous, which is what `accelerate launch` runs from 0.20.0 whatever the file says; before 0.20.0 (from 0.13.0, which adds the key) the file\'s `rdzv_backend` reaches torchrun, and with `c10d` or `etcd` the rendezvous assigns the ranks and ignores this one, so it is not reported there. Before 0.3.0 the launcher does not take `machine_rank` from the file at all. With one machine, or a DeepSpeed launcher that starts every node from one (pdsh, the default; openmpi; mvapich; slurm), Accelerate never passes it on, and it is not reported; nor before Accelerate 0.11.0 under DeepSpeed, which handed it to the DeepSpeed runner, where it counts only with `--no_ssh`. Nor is it for `NO`, `MULTI_CPU` or `XLA`/`TPU`: their launchers never read `machine_rank`.',
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
    // Before 0.3.0 the launcher takes only the process count, fp16 and the training function from the file:
    // `--machine_rank` and `--num_machines` keep their command-line defaults (0 and 1), so the file's rank is
    // never used (src/accelerate/commands/launch.py@v0.2.0, launch_command; `x-launch-ignores` of the key).
    if (launchIgnoresKey(ctx, 'machine_rank')) return;
    // The simple launcher (NO, MULTI_CPU, with or without mpirun) and the TPU one never read it.
    if (!splitsOverMachines(m, (v) => ctx.atLeast(v), true)) return;
    if (m.distributedType === 'DEEPSPEED') {
      // Before 0.11.0 the launcher hands the rank to DeepSpeed's own runner (`deepspeed --node_rank`), which
      // reads it only with `--no_ssh` (DeepSpeed 0.14.5+), never passed here: the rank has no effect.
      // (The launcher choice this finding needs is read from 0.11.0: with no release named, that settles it.)
      if (ctx.schemaVersion !== undefined && !ctx.atLeast('0.11.0')) return;
      const launcher = m.view.get(['deepspeed_config', 'deepspeed_multinode_launcher']) ?? 'pdsh';
      if (launcher !== 'standard' && launcher !== 'nossh') return;
      // `nossh` is a launcher from 1.6.0 (src/accelerate/utils/launch.py@v1.6.0); before, nothing passes the rank for it.
      if (launcher === 'nossh' && !ctx.atLeast('1.6.0')) return;
    }
    // torchrun places a node by `--node_rank` only under the static rendezvous; with c10d, etcd or another
    // backend the rendezvous hands out the ranks and the rank given is not used (torch/distributed/run.py,
    // config_from_args). The file's `rdzv_backend` reaches torchrun from 0.13.0, where the key appears (the
    // launcher copies it onto an argument left unset, and `_filter_args` passes it on), until 0.20.0, whose
    // `--rdzv_backend` option defaults to `static` and so is never left unset: from then on the launch is static
    // whatever the file says (`x-launch-ignores` of `rdzv_backend`). The DeepSpeed runner (`nossh`) has no rendezvous backend to choose.
    const rdzv = m.view.get(['rdzv_backend']);
    const torchrun = !(m.distributedType === 'DEEPSPEED' && m.view.get(['deepspeed_config', 'deepspeed_multinode_launcher']) === 'nossh');
    if (torchrun && typeof rdzv === 'string' && rdzv !== 'static' && !launchIgnores(ctx.nav?.at(['rdzv_backend'], ctx.doc.value([]), ctx.schemaVersion), (v) => ctx.atLeast(v))) return;
    ctx.report({
      at: src(m, ['machine_rank']),
      on: 'value',
      related: [{ at: src(m, ['num_machines']), on: 'entry', message: `num_machines is ${m.numMachines} here` }],
      message: torchrun
        ? `\`machine_rank: ${m.machineRank}\` is out of range for \`num_machines: ${m.numMachines}\`: ranks run from 0 to ${m.numMachines - 1}, so this machine never joins the rendezvous and the job hangs. Number the machines 0 to ${m.numMachines - 1}.`
        : `\`machine_rank: ${m.machineRank}\` is out of range for \`num_machines: ${m.numMachines}\`: with the \`nossh\` launcher Accelerate passes it to the DeepSpeed runner as \`--node_rank\`, which checks it against the hosts of its hostfile and stops at once ("--node_rank is not set correctly") when the hostfile lists these ${m.numMachines} machines. Number the machines 0 to ${m.numMachines - 1}.`,
    });
  },
});
