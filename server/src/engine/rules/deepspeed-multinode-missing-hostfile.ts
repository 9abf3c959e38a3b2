/**
 * deepspeed-multinode-missing-hostfile: a multi-node DeepSpeed launch through pdsh/MPI without a hostfile.
 */
import type { AccelerateModel } from '../formats/accelerate/model';
import { launchedBy, src } from '../formats/accelerate/helpers';
import { defineRule } from './rule';

/** The release that reads `deepspeed_hostfile` and `deepspeed_multinode_launcher`. */
const KEYS_SINCE = '0.11.0';
/** The release whose launcher fills in `pdsh` when `deepspeed_multinode_launcher` is absent (before: `--launcher None`). */
const PDSH_DEFAULT = '0.14.0';

export default defineRule<AccelerateModel>({
  id: 'deepspeed-multinode-missing-hostfile',
  severity: 'warning',
  formats: ['accelerate'],
  fixes: {
    'standard-launcher': { applicability: 'unsafe', changes: 'the launcher' },
  },
  docs: {
    summary: 'Multi-node DeepSpeed with a launcher other than `standard` and no `deepspeed_hostfile`.',
    why: 'With `deepspeed_multinode_launcher` `pdsh` (the default from Accelerate 0.14.0; before, from 0.11.0, the launcher passes `--launcher None`, with the same outcome), `openmpi`, `mvapich`, `mpich`, `nossh` or `slurm`, accelerate hands the job to the `deepspeed` runner with `--hostfile` set to this key; without it the runner gets the text "None", finds no such file, warns ("Unable to find hostfile, will proceed with training with local resources only") and trains on the machine it was started on alone: the job runs, on one machine instead of all of them (with `nossh`, started on every machine with its own node rank, the runner\'s no-ssh check stops every machine but the first, which trains alone). `accelerate launch --deepspeed_hostfile` may give the file instead, so this is a warning. `standard` uses torchrun on every node instead and needs no hostfile. Accelerate before 0.11.0 reads neither key and starts the runner without a hostfile option, so the runner looks for its own default hostfile (`/job/hostfile`); nothing is reported there.',
    bad: 'distributed_type: DEEPSPEED\nnum_machines: 2\nnum_processes: 16\nmain_process_ip: 10.0.0.1\nmain_process_port: 29500\ndeepspeed_config:\n  zero_stage: 2\n',
    good: 'distributed_type: DEEPSPEED\nnum_machines: 2\nnum_processes: 16\nmain_process_ip: 10.0.0.1\nmain_process_port: 29500\ndeepspeed_config:\n  zero_stage: 2\n  deepspeed_multinode_launcher: standard\n',
    fix: 'Sets `deepspeed_multinode_launcher: standard` (torchrun on each node).',
  },
  check(ctx) {
    const m = ctx.model;
    if (m.distributedType !== 'DEEPSPEED' || m.numMachines <= 1) return;
    // Before 0.11.0 Accelerate has neither key and starts `deepspeed --num_nodes N` without a hostfile
    // option, so the runner reads its own default hostfile: what happens depends on the machine.
    if (!ctx.atLeast(KEYS_SINCE)) return;
    const launcher = m.view.str(['deepspeed_config', 'deepspeed_multinode_launcher']) ?? 'pdsh';
    if (launcher === 'standard' || m.view.has(['deepspeed_config', 'deepspeed_hostfile'])) return;
    const launcherAt = src(m, ['deepspeed_config', 'deepspeed_multinode_launcher']);
    const cl = m.commandLine('deepspeed_hostfile');
    if (cl.passed) return;
    // `nossh` starts the runner on every machine with its own `--node_rank` and `--no_ssh`: with no
    // hostfile its pool is the one local host, and the runner's no-ssh check stops every rank but 0,
    // which then trains alone (launcher/runner.py@v0.14.5:498-499, @v0.18.0:466-474, 538-553;
    // utils/launch.py@v1.14.0:447-475).
    const outcome =
      launcher === 'nossh'
        ? `the \`deepspeed\` runner, started on each machine with \`--no_ssh\` and its own \`--node_rank\`, finds no hostfile, so its pool is the local machine alone, and it stops on every machine but the first ("Launching training without ssh, but --node_rank is not set correctly"): the first machine trains alone, 1 of ${m.numMachines} machines.`
        : `the \`deepspeed\` runner is started with \`--hostfile None\`, finds no hostfile and trains on the machine it runs on alone ("will proceed with training with local resources only"), 1 of ${m.numMachines} machines.`;
    ctx.report({
      at: m.view.has(['deepspeed_config', 'deepspeed_multinode_launcher']) ? launcherAt : src(m, ['num_machines']),
      message: `${m.numMachines} machines with ${m.view.has(['deepspeed_config', 'deepspeed_multinode_launcher']) ? `the \`${launcher}\` DeepSpeed launcher` : ctx.atLeast(PDSH_DEFAULT) ? `the \`${launcher}\` DeepSpeed launcher (the default)` : 'no `deepspeed_multinode_launcher`'} and no \`deepspeed_hostfile\`${launchedBy(cl.via, 'deepspeed_hostfile')}: ${outcome} Add \`deepspeed_hostfile\` (lines of \`hostname slots=N\`), or use \`deepspeed_multinode_launcher: standard\` to run torchrun on each node.`,
      fixes: [{ kind: 'standard-launcher', title: 'Use `deepspeed_multinode_launcher: standard`', edits: [{ op: 'set', path: launcherAt, value: 'standard' }] }],
    });
  },
});
