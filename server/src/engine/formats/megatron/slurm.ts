/**
 * Slurm batch scripts as Megatron launch scripts: the job step that `srun` starts inside the
 * `#SBATCH` allocation, the world size it gives, and where the launcher and the allocation disagree.
 *
 * Slurm's rules, as sbatch(1) and srun(1) state them:
 * - the batch script runs once, on the first node of the allocation; only `srun` starts tasks on the
 *   other nodes;
 * - inside an allocation `srun` uses all of its nodes unless `-N` says fewer, and takes the task
 *   counts of the allocation (`SLURM_NTASKS`, `SLURM_NTASKS_PER_NODE`) unless its own options say
 *   otherwise; with neither, it starts one task per node;
 * - a step cannot use more nodes than the job has: srun refuses to create it.
 */
import type { Launcher, LauncherArg, LauncherKind, ShellDoc } from '../../syntax/shell';
import { gpuCount, gresGpus, type Allocation } from '../../syntax/sbatch';
import type { Span } from '../../types';
import type { EngineSettings } from '../../settings';
import { hardwareById } from '../../plan/hardware';
import type { HardwareHint } from '../../plan/context';

/** A count, with where it comes from (for messages) and where it is written (for findings). */
export interface Counted {
  value: number;
  from: string;
  span?: Span;
}

export interface SlurmStep {
  alloc: Allocation;
  /** The `srun` that starts the step, if the training command goes through one. */
  srun?: Launcher;
  /** The torchrun-like launcher started by the step (or by the batch script itself). */
  agent?: Launcher;
  nodes?: Counted;
  /** Tasks per node when every node gets the same number (`--ntasks-per-node`, or srun's one per node). */
  perNode?: Counted;
  /** Tasks in the step. */
  tasks?: Counted;
  /** Why the step's size is not known, when it is not. */
  unknown?: string;
  /** GPUs per node of the step: srun's own `--gpus-per-node` / `--gres`, else the allocation's; undefined when not known. */
  gpusPerNode?: Counted;
}

const AGENTS: LauncherKind[] = ['torchrun', 'torch.distributed.run', 'torch.distributed.launch'];

function chainOf(l: Launcher | undefined): Launcher[] {
  const out: Launcher[] = [];
  for (let x = l; x && out.length < 8; x = x.inner) out.push(x);
  return out;
}

/** A launcher option as a positive integer: the value, why it is unknown, or undefined when absent. */
export function launcherCount(l: Launcher | undefined, names: string[]): { value?: number; unknown?: string; arg: LauncherArg; name: string } | undefined {
  for (const name of names) {
    const a = l?.args.get(name);
    if (!a) continue;
    const v = typeof a.value === 'number' ? a.value : typeof a.value === 'string' && /^\d+$/.test(a.value) ? Number(a.value) : undefined;
    return { value: v !== undefined && v > 0 ? v : undefined, unknown: v === undefined || v <= 0 ? a.unknown ?? `\`${name} ${a.value ?? ''}\` is not a count the script sets` : undefined, arg: a, name };
  }
  return undefined;
}

/** The step the batch script's training command runs, or undefined when the script is no batch script Shardwise can read. */
export function slurmStep(s: ShellDoc): SlurmStep | undefined {
  const alloc = s.sbatch;
  if (!alloc || alloc.heterogeneous || !s.launcher) return undefined;
  const chain = chainOf(s.launcher);
  const srun = chain.find((l) => l.kind === 'srun');
  const agent = chain.find((l) => AGENTS.includes(l.kind));
  const step: SlurmStep = { alloc, srun, agent };
  const g = alloc.gpusPerNode;
  const allocGpus: Counted | undefined = g ? { value: g.value, from: g.option.includes(' ') ? `#SBATCH ${g.option}` : `#SBATCH ${s.text.slice(g.whole.start, g.whole.end).replace(/\s+/, '=')}`, span: g.span } : undefined;
  step.gpusPerNode = allocGpus;
  if (!srun) return step;
  // srun's own GPU request narrows the step's (as it does with `-N` for nodes).
  for (const [name, parse] of [['--gpus-per-node', gpuCount], ['--gres', gresGpus]] as const) {
    const a = srun.args.get(name);
    if (!a) continue;
    const v = a.unknown || a.value === undefined ? undefined : parse(String(a.value));
    step.gpusPerNode = typeof v === 'number' ? { value: v, from: `srun ${name}=${a.value}`, span: a.span } : undefined;
    break;
  }
  const allocNodes: Counted | undefined = alloc.nodes ? { value: alloc.nodes.value, from: `#SBATCH ${alloc.nodes.option}=${alloc.nodes.value}`, span: alloc.nodes.span } : undefined;
  const n = launcherCount(srun, ['-N', '--nodes']);
  if (n?.value !== undefined) step.nodes = { value: n.value, from: `srun ${n.name} ${n.value}`, span: n.arg.span };
  else if (n) step.unknown = `the step's node count comes from outside the script (${n.unknown})`;
  else if (allocNodes) step.nodes = allocNodes;
  else step.unknown = alloc.unknown.get('nodes') ?? 'the `#SBATCH` lines do not say how many nodes the job gets (`--nodes`)';
  const ppn = launcherCount(srun, ['--ntasks-per-node']);
  const total = launcherCount(srun, ['-n', '--ntasks']);
  const ownTasks = !!(ppn || total);
  const otherNodes = !!n && !!allocNodes && n.value !== allocNodes.value;
  if (ppn?.value !== undefined) step.perNode = { value: ppn.value, from: `srun --ntasks-per-node ${ppn.value}`, span: ppn.arg.span };
  else if (ppn) step.unknown ??= `the tasks per node come from outside the script (${ppn.unknown})`;
  else if (total?.value !== undefined) step.tasks = { value: total.value, from: `srun ${total.name} ${total.value}`, span: total.arg.span };
  else if (total) step.unknown ??= `the step's task count comes from outside the script (${total.unknown})`;
  else if (!ownTasks && otherNodes && (alloc.ntasks || alloc.ntasksPerNode)) step.unknown ??= `srun ${n!.name} ${n!.value} differs from the allocation's ${allocNodes!.value} nodes, and the allocation's task counts then do not say how srun spreads its tasks`;
  else if (alloc.ntasksPerNode) step.perNode = { value: alloc.ntasksPerNode.value, from: `#SBATCH ${alloc.ntasksPerNode.option}=${alloc.ntasksPerNode.value}`, span: alloc.ntasksPerNode.span };
  else if (alloc.ntasks) step.tasks = { value: alloc.ntasks.value, from: `#SBATCH ${alloc.ntasks.option}=${alloc.ntasks.value}`, span: alloc.ntasks.span };
  else if (alloc.unknown.has('ntasks') || alloc.unknown.has('ntasks-per-node')) step.unknown ??= alloc.unknown.get('ntasks-per-node') ?? alloc.unknown.get('ntasks');
  else if (srun.args.has('-c') || srun.args.has('--cpus-per-task') || alloc.options.some((o) => o.name === 'cpus-per-task' || o.name === 'ntasks-per-gpu' || o.name === 'ntasks-per-socket')) {
    // srun's "one task per node" default changes with the CPUs per task.
    step.unknown ??= 'neither srun nor the `#SBATCH` lines say how many tasks to start (`--ntasks-per-node`), and with `--cpus-per-task` srun\'s one-task-per-node default does not hold';
  } else step.perNode = { value: 1, from: 'srun starts one task per node unless told otherwise' };
  if (step.perNode && step.nodes && !step.tasks) step.tasks = { value: step.perNode.value * step.nodes.value, from: `${step.perNode.value} per node × ${step.nodes.value} nodes` };
  if (step.unknown) {
    step.tasks = undefined;
    step.perNode = undefined;
  }
  return step;
}

/** `srun -N 4` / `#SBATCH --nodes=4`, for messages. */
export function nodesPhrase(c: Counted): string {
  return `${c.value} node${c.value === 1 ? '' : 's'} (${c.from})`;
}

/**
 * The hardware profile the user's `slurm:` mapping in .shardwise.yaml gives the job's node feature
 * (`--constraint`) or partition: a feature first (it names the nodes), then the partition. A name
 * the mapping does not hold gives nothing; a list of alternatives only when they all map to one profile.
 */
export function slurmHardware(a: Allocation, settings: EngineSettings): HardwareHint | undefined {
  if (a.heterogeneous) return undefined;
  // A cluster whose names the user mapped is read through that mapping only.
  return mappedHardware(a, settings) ?? typedHardware(a) ?? (settings.slurm ? undefined : namedHardware(a));
}

/**
 * GPU model names as sites write them in node features and partition names (`v100-32g`, `gpu_a100`,
 * `h100&ib`): a word that is one of these names a GPU, whatever else the name holds.
 */
const GPU_WORD = /^(?:[kpvat]\d{2,3}|a\d{4}|h\d{2,3}|b\d{3}|gh\d{3}|gb\d{3}|l4|l40s?|mi\d{2,3}x?|rtx\w*|titan\w*|quadro\w*|tesla|volta|turing|ampere|hopper|blackwell)$/i;

/**
 * The GPUs a job names where no mapping or typed request says which profile they are: a node
 * feature or partition whose name holds a GPU model. A profile's own name there is likely (a site's
 * naming, so assumed); a GPU no profile describes makes the hardware unknown: the default profile
 * would contradict what the job asks for.
 */
function namedHardware(a: Allocation): HardwareHint | undefined {
  for (const written of [a.constraint, a.partition]) {
    if (!written) continue;
    const words = written.value.split(/[^A-Za-z0-9]+/).filter((w) => GPU_WORD.test(w));
    if (!words.length) continue;
    const where = `\`#SBATCH ${written.option}=${written.value}\``;
    const ids = new Set(words.map((w) => hardwareById(w)?.id));
    if (ids.size === 1 && !ids.has(undefined)) return { id: [...ids][0]!, note: `the job's ${where} names it (a site's own name for its nodes)`, assumed: true };
    return { id: '', note: `the job asks for ${words.map((w) => `\`${w}\``).join(' or ')} GPUs (${where})`, unknown: true };
  }
  return undefined;
}

/**
 * The GPU type the job asks for (`--gres=gpu:h100:8`, `--gpus-per-node=h200:8`, `--gpus=b200:16`),
 * when it names one profile (a site's own type names, `a100_3g.20gb`, name none).
 */
function typedHardware(a: Allocation): HardwareHint | undefined {
  const found: HardwareHint[] = [];
  for (const o of a.options) {
    if (!o.value || !['gres', 'gpus', 'gpus-per-node', 'gpus-per-task'].includes(o.name)) continue;
    for (const item of o.value.split(',')) {
      const parts = item.trim().replace(/\(.*\)$/, '').split(':');
      const type = o.name === 'gres' ? (parts[0] === 'gpu' && parts.length === 3 ? parts[1] : undefined) : parts.length === 2 ? parts[0] : undefined;
      const profile = type ? hardwareById(type) : undefined;
      if (profile) found.push({ id: profile.id, note: `from \`#SBATCH ${o.written}=${o.value}\`` });
      // A type no profile describes (`v100`, a site's `a100_3g.20gb`): the GPUs are named, not known.
      else if (type) found.push({ id: '', note: `the job asks for \`${type}\` GPUs (\`#SBATCH ${o.written}=${o.value}\`)`, unknown: true });
    }
  }
  return found.length && found.every((f) => f.id === found[0].id) ? found[0] : undefined;
}

function mappedHardware(a: Allocation, settings: EngineSettings): { id: string; note: string } | undefined {
  if (!settings.slurm) return undefined;
  const pick = (written: { value: string; option: string } | undefined, map: Record<string, string> | undefined, key: string): { id: string; note: string } | undefined => {
    if (!written || !map) return undefined;
    const whole = map[written.value];
    const note = (name: string) => `from \`#SBATCH ${written.option}=${written.value}\` through \`slurm.${key}.${name}\` in .shardwise.yaml`;
    if (whole) return { id: whole, note: note(written.value) };
    // `a100&ib` (all of them): the one feature that names hardware; `a|b`, `[a|b]`, `p1,p2` (any of them): only when all agree.
    const all = key === 'constraints' && /&/.test(written.value) && !/[|,[\]]/.test(written.value);
    const names = written.value.replace(/[[\]()]/g, '').split(all ? '&' : /[|,]/).map((x) => x.replace(/\*\d+$/, '').trim()).filter(Boolean);
    const ids = names.map((n) => map[n]);
    if (all) {
      const hits = names.filter((n) => map[n]);
      return new Set(hits.map((n) => map[n])).size === 1 ? { id: map[hits[0]], note: note(hits[0]) } : undefined;
    }
    return ids.length > 1 && ids.every((id) => id && id === ids[0]) ? { id: ids[0]!, note: note(names[0]) } : undefined;
  };
  return pick(a.constraint, settings.slurm.constraints, 'constraints') ?? pick(a.partition, settings.slurm.partitions, 'partitions');
}
