/**
 * slurm-allocation-mismatch: the launcher of a Slurm batch script asks for more or fewer nodes or
 * processes than the `#SBATCH` allocation gives.
 *
 * What happens upstream, and so how sure each finding is:
 * - `srun -N 8` in a 4-node job: srun cannot create a step larger than the job's allocation and
 *   exits with an error; nothing trains (error).
 * - torchrun `--nnodes 8` (or its minimum in `min:max`) with fewer torchrun agents than that (srun
 *   starts one per task; a batch script itself runs once, on the first node): the rendezvous waits
 *   for agents that never come and fails at its timeout, having trained nothing (error).
 * - more agents than `--nnodes` (its maximum): the extra agents cannot join the rendezvous (they
 *   wait as spares, or fail with duplicate node ranks under a static rendezvous); their GPUs do not
 *   train (warning).
 * - more processes per node than the node's allocated GPUs (`--ntasks-per-node 8` each launching
 *   torchrun `--nproc_per_node 8` = 64 processes on 8 GPUs): processes choose their GPU by local
 *   rank, so several share one, which NCCL refuses ("Duplicate GPU detected"), or they ask for a
 *   device the node does not expose ("invalid device ordinal") (error). srun's own `--gpus-per-node`
 *   or `--gres` narrows the step's GPUs.
 * - fewer processes per node than allocated GPUs: the rest are held by the job and stay idle (warning).
 *
 * A torchrun with `--nnodes` greater than 1 run directly by the batch script, with enough nodes, is a
 * warning: it hangs unless its other agents are started some way the script does not show.
 * Heterogeneous jobs, `--nodes=min-max`, and counts from outside the script are left alone.
 */
import { launcherCount, nodesPhrase, slurmStep, type SlurmStep } from '../formats/megatron/slurm';
import type { LauncherArg, ShellDoc } from '../syntax/shell';
import type { Severity, Span } from '../types';
import { defineRule } from './rule';

/** Words that run a command on this machine, unchanged in where it runs. */
const LOCAL_WRAPPERS = new Set(['env', 'exec', 'time', 'nohup', 'stdbuf', 'nice', 'ionice', 'numactl', 'taskset', 'nsys', 'profile', 'ncu', 'command', 'builtin']);

interface Problem {
  at: Span;
  severity: Severity;
  message: string;
}

/** `--nnodes 4` or `--nnodes 2:4`, as a minimum and maximum. */
function nnodesOf(a: LauncherArg): { min: number; max: number } | undefined {
  if (a.unknown) return undefined;
  if (typeof a.value === 'number') return Number.isInteger(a.value) && a.value > 0 ? { min: a.value, max: a.value } : undefined;
  const m = typeof a.value === 'string' ? /^(\d+)(?::(\d+))?$/.exec(a.value) : null;
  if (!m) return undefined;
  const min = Number(m[1]);
  const max = m[2] !== undefined ? Number(m[2]) : min;
  return min > 0 && max >= min ? { min, max } : undefined;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function slurmProblems(s: ShellDoc): Problem[] {
  const step = slurmStep(s);
  if (!step) return [];
  const out: Problem[] = [];
  const { alloc, srun, agent } = step;
  const nodesArg = launcherCount(srun, ['-N', '--nodes']);
  if (srun && alloc.nodes && nodesArg?.value !== undefined && nodesArg.value > alloc.nodes.value) {
    out.push({
      at: nodesArg.arg.span,
      severity: 'error',
      message: `\`srun ${nodesArg.name} ${nodesArg.value}\` asks for ${plural(nodesArg.value, 'node')}, but the job is allocated ${plural(alloc.nodes.value, 'node')} (\`#SBATCH ${alloc.nodes.option}=${alloc.nodes.value}\`): srun cannot create a step larger than its job's allocation, so it exits with an error and nothing trains. Ask srun for at most ${alloc.nodes.value} nodes, or the job for ${nodesArg.value}.`,
    });
    return out;
  }
  gpuProblems(step, out);
  // Two ranks on one GPU already stop the run; the agent count then says the same thing again.
  if (agent && !out.some((p) => p.severity === 'error')) agentProblems(step, s.launchContext, out);
  return out.sort((a, b) => a.at.start - b.at.start);
}

function agentProblems(step: SlurmStep, launch: { prefix: string[]; inLoop: boolean }, out: Problem[]): void {
  const { alloc, srun, agent } = step;
  const written = agent!.args.get('--nnodes');
  const nn = written && nnodesOf(written);
  if (!written || !nn) return;
  const shown = `--nnodes ${written.value}`;
  if (!srun) {
    if (nn.min <= 1) return;
    // Started on each host some way the script shows but Slurm does not (`ssh $host …` in a loop).
    if (launch.inLoop || !launch.prefix.every((w) => LOCAL_WRAPPERS.has(w) || w.startsWith('-') || w.includes('='))) return;
    const many = alloc.nodes && nn.min > alloc.nodes.value;
    out.push({
      at: written.span,
      severity: many ? 'error' : 'warning',
      message: `torchrun \`${shown}\` waits for ${plural(nn.min, 'node')} to join its rendezvous, but it is started by the batch script itself, which Slurm runs once, on the first node of the job${many ? `, and the job has only ${plural(alloc.nodes!.value, 'node')} (\`#SBATCH ${alloc.nodes!.option}=${alloc.nodes!.value}\`)` : ''}: the other agents never start, and the rendezvous fails at its timeout with nothing trained. Start torchrun on every node with \`srun --ntasks-per-node=1 torchrun …\`${many ? `, and make \`--nnodes\` match the allocation` : ''}.`,
    });
    return;
  }
  if (!step.tasks) return;
  const agents = step.tasks.value;
  const how = step.perNode ? `${plural(step.perNode.value, 'task')} per node (${step.perNode.from}) on ${step.nodes ? nodesPhrase(step.nodes) : 'the step\'s nodes'}` : `${plural(agents, 'task')} (${step.tasks.from})`;
  if (agents < nn.min) {
    out.push({
      at: written.span,
      severity: 'error',
      message: `torchrun \`${shown}\` waits for ${plural(nn.min, 'node')} to join its rendezvous, but srun starts only ${plural(agents, 'torchrun')} (${how}): the rendezvous never completes, and the job fails at its timeout with nothing trained. Make \`--nnodes\` match the allocation (\`$SLURM_NNODES\`), or allocate ${nn.min} nodes.`,
    });
  } else if (agents > nn.max) {
    out.push({
      at: written.span,
      severity: 'warning',
      message: `srun starts ${plural(agents, 'torchrun')} (${how}), but torchrun \`${shown}\` takes ${nn.max === 1 ? 'one agent' : `${nn.max} agents`} into its rendezvous: the other ${agents - nn.max} wait outside it or fail with a duplicate node rank, and their GPUs do not train. Start one torchrun per node (\`srun --ntasks-per-node=1\`) and set \`--nnodes\` to the number of nodes.`,
    });
  }
}

function gpuProblems(step: SlurmStep, out: Problem[]): void {
  const { srun, agent } = step;
  const gpus = step.gpusPerNode;
  if (!gpus) return;
  const nproc = agent ? launcherCount(agent, ['--nproc_per_node', '--nproc-per-node']) : undefined;
  if (agent && nproc?.value === undefined) return;
  let procs: number;
  let how: string;
  let at: Span;
  if (srun) {
    if (!step.perNode) return;
    const tasks = step.perNode.value;
    if (agent) {
      procs = tasks * nproc!.value!;
      how = tasks === 1 ? `one torchrun per node (${step.perNode.from}) starting ${plural(nproc!.value!, 'process', 'processes')}` : `${tasks} tasks per node (${step.perNode.from}), each a torchrun starting ${plural(nproc!.value!, 'process', 'processes')}: ${procs} processes per node`;
      at = tasks > 1 && step.perNode.span ? step.perNode.span : nproc!.arg.span;
    } else {
      procs = tasks;
      how = `${plural(tasks, 'task')} per node (${step.perNode.from}), each a training process`;
      at = step.perNode.span ?? srun.span;
    }
  } else if (agent) {
    procs = nproc!.value!;
    how = `torchrun starting ${plural(procs, 'process', 'processes')} on the first node`;
    at = nproc!.arg.span;
  } else return;
  const gpuText = `${plural(gpus.value, 'GPU')} per node (\`${gpus.from}\`)`;
  if (procs > gpus.value) {
    out.push({
      at,
      severity: 'error',
      message: `${cap(how)}, but the ${gpus.from.startsWith('srun') ? 'step has' : 'job has'} ${gpuText}: processes pick their GPU by local rank, so they either share one, which NCCL refuses ("Duplicate GPU detected"), or ask for a GPU the node does not give them (CUDA: "invalid device ordinal"). ${agent && srun && step.perNode!.value > 1 ? 'Start one torchrun per node (`--ntasks-per-node=1`): it starts the per-GPU processes itself.' : `Start ${gpus.value} processes per node.`}`,
    });
  } else if (procs < gpus.value) {
    const per = agent ? gpus.value / (srun ? step.perNode!.value : 1) : gpus.value;
    const advice = !Number.isInteger(per) ? 'Start as many processes per node as it has GPUs' : agent ? `Set \`--nproc_per_node\` to ${per}` : `Start ${per} tasks per node (\`--ntasks-per-node=${per}\`)`;
    out.push({
      at,
      severity: 'warning',
      message: `${cap(how)}, but the ${gpus.from.startsWith('srun') ? 'step has' : 'job holds'} ${gpuText}: ${gpus.value - procs} GPU${gpus.value - procs === 1 ? '' : 's'} of each node stay idle for the whole run. ${advice}, or ask for fewer GPUs.`,
    });
  }
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export default defineRule({
  id: 'slurm-allocation-mismatch',
  severity: 'error',
  formats: ['megatron-args'],
  forks: true,
  docs: {
    summary: 'The launcher in a Slurm batch script asks for more or fewer nodes or processes than the `#SBATCH` allocation gives.',
    why: 'Slurm runs a batch script once, on the first node of the job; only `srun` starts tasks on the others, one per node unless `--ntasks-per-node` says more. A step larger than the allocation is refused (`srun -N 8` in a 4-node job). torchrun waits until `--nnodes` agents have joined its rendezvous, so `--nnodes 8` with 4 agents fails at the rendezvous timeout having trained nothing. More processes per node than allocated GPUs put two ranks on one GPU, which NCCL refuses ("Duplicate GPU detected"); fewer leave GPUs the job holds idle (a warning). Heterogeneous jobs, node ranges (`--nodes=2-4`) and counts from outside the script are not judged.',
    bad: '#!/bin/bash\n#SBATCH --nodes=4\n#SBATCH --ntasks-per-node=1\n#SBATCH --gres=gpu:8\nsrun torchrun --nnodes 8 --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 8 --num-layers 32\n',
    good: '#!/bin/bash\n#SBATCH --nodes=4\n#SBATCH --ntasks-per-node=1\n#SBATCH --gres=gpu:8\nsrun torchrun --nnodes $SLURM_NNODES --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 8 --num-layers 32\n',
  },
  check(ctx) {
    if (ctx.doc.syntax !== 'shell') return;
    for (const p of slurmProblems(ctx.doc as ShellDoc)) ctx.report({ at: p.at, severity: p.severity, message: p.message });
  },
});
