/**
 * multi-node-missing-main-process: several machines but no address or port of the main process.
 */
import type { AccelerateModel } from '../formats/accelerate/model';
import { launchedBy, src } from '../formats/accelerate/helpers';
import { launchIgnoresKey } from './helpers';
import { defineRule, type RuleContext } from './rule';

/** Types that go through the simple launcher, which asserts both address and port. */
const SIMPLE = ['NO', 'MULTI_CPU'];
/** The release whose multi-machine launchers fill in port 29500 (PR #3501); before, they pass `None`. */
const PORT_DEFAULT = '1.7.0';
/**
 * DeepSpeed multi-node launches: before 0.11.0 one path passes `--master_addr` and `--master_port` as
 * written (commands/launch.py@v0.10.0:313-326, so `None` when unset); 0.11.0 brings the hostfile
 * launchers, which pass no port until 0.16.0 (@v0.15.0:683-709; `--master_port` @v0.16.0:682), so
 * DeepSpeed's runner takes its own 29500 there.
 */
const DS_HOSTFILE_LAUNCHERS = '0.11.0';
const DS_PORT_PASSED = '0.16.0';
/** The release whose CPU launcher asserts the address and port with its own message. */
const CPU_ASSERT = '1.8.0';

export default defineRule<AccelerateModel>({
  id: 'multi-node-missing-main-process',
  severity: 'error',
  formats: ['accelerate'],
  fixes: {
    // From 1.7.0 the launchers' default is 29500, and a port the command line passes wins over the
    // file's: the edit changes nothing that runs whatever the command passes; before, the file cannot run.
    'add-default-port': { applicability: 'safe', changes: "writes the launchers' default port, 29500", unconditional: true },
  },
  docs: {
    summary: 'A multi-machine config without `main_process_ip` (or `main_process_port`).',
    why: 'Every machine must reach the rank-0 process to rendezvous. Without `main_process_ip` the multi-GPU and FSDP launchers, and DeepSpeed with `deepspeed_multinode_launcher: standard`, build the endpoint `None:29500` and hang or fail to connect (the other DeepSpeed launchers, `pdsh` by default, start from `deepspeed_hostfile` and need no address, except `nossh`: given no address, DeepSpeed\'s runner asks the first host for one over ssh, which machines without ssh cannot answer, a warning); the CPU launcher stops too (from 1.8.0 it asserts "When using multiple machines, you need to specify the main process IP."; before, it puts `MASTER_ADDR=None` into the environment it starts the script with, so starting the process fails). From 1.7.0 the port defaults to 29500 except for the CPU launcher, which requires it; older releases fill in no port for a multi-machine launch and hand torchrun or the DeepSpeed runner the port `None`, which they refuse (except DeepSpeed\'s hostfile launchers in 0.11.0-0.15.x, which pass no port at all, so the runner\'s own 29500 runs). Before 0.11.0 every DeepSpeed multi-node launch passes the address as written, so a missing `main_process_ip` stops it too. `accelerate launch --main_process_ip … --main_process_port …` fills both, and a config for several machines is often a template the command completes (each machine passes its own `--machine_rank`): the command line is not in the file, so a missing address, or a port the launcher does not fill in, is a warning that says so, unless the scripts of the repository that launch the config are known: none then when one passes the flag, an error when they all leave it out.',
    bad: 'distributed_type: MULTI_GPU\nnum_machines: 2\nnum_processes: 16\nmachine_rank: 0\n',
    good: 'distributed_type: MULTI_GPU\nnum_machines: 2\nnum_processes: 16\nmachine_rank: 0\nmain_process_ip: 10.0.0.1\nmain_process_port: 29500\n',
    fix: 'Adds `main_process_port: 29500` when the port is what is missing (the address has to come from you).',
    upstream: [
      { label: 'Accelerate v1.14.0, `utils/launch.py`: several machines need the main process IP', url: 'https://github.com/huggingface/accelerate/blob/v1.14.0/src/accelerate/utils/launch.py#L155' },
    ],
  },
  check(ctx) {
    const m = ctx.model;
    if (m.sagemaker || m.numMachines <= 1 || m.distributedType === 'XLA') return;
    // Before 0.3.0 the launcher does not take `num_machines` from the file (`x-launch-ignores`): one machine runs.
    if (launchIgnoresKey(ctx, 'num_machines')) return;
    // Before 0.12.0 the simple launcher (`NO`, `MULTI_CPU`) exports neither the address nor the port: the
    // processes take MASTER_ADDR/MASTER_PORT from the environment (state.py@v0.11.0:172-178; the file's
    // values are first exported at commands/launch.py@v0.12.0:330-335), so the file's are not used at all.
    if (SIMPLE.includes(m.distributedType ?? '') && !ctx.atLeast('0.12.0')) return;
    // DeepSpeed's own multi-node launchers (pdsh, the default; openmpi, mvapich, slurm, nossh) start the
    // job from a hostfile and pass --master_addr only when it is set (accelerate utils/launch.py,
    // prepare_deepspeed_cmd_env); only `standard` (torchrun on each node) needs the address.
    // Before 1.7.0 no launcher fills in the port: every one passes `None` (accelerate utils/launch.py).
    const deepspeed = m.distributedType === 'DEEPSPEED';
    const oldDeepspeed = deepspeed && !ctx.atLeast(DS_HOSTFILE_LAUNCHERS);
    const launcher = m.view.str(['deepspeed_config', 'deepspeed_multinode_launcher']) ?? 'pdsh';
    const hostfileLaunch = deepspeed && !oldDeepspeed && launcher !== 'standard';
    // `nossh` is for machines without ssh between them, but given no address DeepSpeed's runner finds
    // one by running `ssh <first host> hostname -I` (launcher/runner.py@v0.16.0:476-491).
    if (hostfileLaunch && launcher === 'nossh' && !m.view.has(['main_process_ip'])) nosshAddress(ctx);
    if (hostfileLaunch && ctx.atLeast(PORT_DEFAULT)) return;
    // The hostfile launchers of 0.11.0-0.15.x pass no port: the runner's 29500 runs.
    const runnerPort = hostfileLaunch && !ctx.atLeast(DS_PORT_PASSED);
    const at = src(m, ['num_machines']);
    if (!hostfileLaunch && !m.view.has(['main_process_ip'])) {
      ctx.separately(() => {
        const cl = m.commandLine('main_process_ip');
        if (cl.passed) return;
        ctx.report({
          at,
          message: `${m.numMachines} machines but no \`main_process_ip\`${launchedBy(cl.via, 'main_process_ip')}: ${oldDeepspeed ? `the targeted ${ctx.versionLabel ?? 'release'} passes it to DeepSpeed's runner as \`--master_addr\` as written, and \`None\` stops the launch before anything starts` : 'the other machines cannot find rank 0 (the launcher connects to `None`), so the job hangs at rendezvous or fails'}. Add \`main_process_ip\` with the address of the machine that runs \`machine_rank: 0\`, or pass \`--main_process_ip\` to \`accelerate launch\`.`,
        });
      });
    }
    if (!m.view.has(['main_process_port'])) {
      const simple = SIMPLE.includes(m.distributedType ?? '');
      const fatal = simple || (!ctx.atLeast(PORT_DEFAULT) && !runnerPort);
      // A port the launch command passes is the one that runs (a note about the default would be wrong).
      const cl = m.commandLine('main_process_port');
      if (cl.passed) return;
      const release = ctx.versionLabel ? `the targeted ${ctx.versionLabel}` : 'the targeted release';
      const why = !simple
        ? `${release} fills in no port for several machines (29500 only from ${PORT_DEFAULT}) and hands \`None\` to ${hostfileLaunch || oldDeepspeed ? "DeepSpeed's runner" : 'torchrun'} as the port, which it refuses`
        : ctx.atLeast(CPU_ASSERT)
          ? `the ${m.distributedType} launcher requires it ("you need to specify the main process port")`
          : `the ${m.distributedType} launcher exports \`MASTER_PORT=None\` and the processes cannot rendezvous`;
      ctx.report({
        at,
        severity: fatal ? 'error' : 'information',
        message: fatal
          ? `${m.numMachines} machines but no \`main_process_port\`${launchedBy(cl.via, 'main_process_port')}: ${why}. Add \`main_process_port\`, e.g. 29500, or pass \`--main_process_port\` to \`accelerate launch\`.`
          : `${m.numMachines} machines and no \`main_process_port\`: ${runnerPort ? "the launcher passes no port, and DeepSpeed's runner uses 29500" : 'the launcher uses 29500'}. Set it explicitly if that port may be taken on the main machine.`,
        fixes: [{ kind: 'add-default-port', title: 'Add `main_process_port: 29500`', edits: [{ op: 'set', path: ['main_process_port'], value: 29500 }], recommended: fatal }],
      });
    }
  },
});

/** `nossh` without `main_process_ip`: the runner would reach the first host over ssh for its address. */
function nosshAddress(ctx: RuleContext<AccelerateModel>): void {
  const m = ctx.model;
  ctx.separately(() => {
    const cl = m.commandLine('main_process_ip');
    if (cl.passed) return;
    ctx.report({
      at: src(m, ['num_machines']),
      severity: 'warning',
      message: `${m.numMachines} machines with \`deepspeed_multinode_launcher: nossh\` but no \`main_process_ip\`${launchedBy(cl.via, 'main_process_ip')}: Accelerate then passes DeepSpeed's runner no master address, and the runner finds one by running \`ssh <first host> hostname -I\`, which fails on machines without ssh, the setup \`nossh\` is for ("Unable to detect suitable master address"). Add \`main_process_ip\` with the address of the machine that runs \`machine_rank: 0\`, or pass \`--main_process_ip\` to \`accelerate launch\`.`,
    });
  });
}
