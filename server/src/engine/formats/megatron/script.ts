/**
 * Megatron-LM launch scripts (bash): the flags passed to `pretrain_*.py` through torchrun, srun,
 * `python -m torch.distributed.run` or deepspeed — written directly, through bash arrays, variables
 * and continuation lines. The world size comes from the launcher's own options (or the variables
 * they use); a value the script takes from the environment stays unknown.
 */
import type { SchemaNav } from '../../schema/navigate';
import type { EngineSettings } from '../../settings';
import type { Launcher, LauncherKind, ShellDoc } from '../../syntax/shell';
import type { SourceDoc } from '../../syntax/sourcedoc';
import type { MapNode } from '../../syntax/tree';
import type { Path } from '../../types';
import { assumed, derived, type Field } from '../../plan/plan';
import { fewOfMany, mapKeys, trainerArgumentsContradict, weigh, type Evidence, type EvidenceRules } from '../evidence';
import type { FormatSupport, ModelInput } from '../format';
import { megatronPlan, skipsTraining } from './args';
import type { EnvValue } from './args';
import { argsFromView, flagSites, withRepository } from './common';
import { argsInstance } from './instance';
import { megatronWritePath, type MegatronModel } from './model';
import type { UnknownFlags } from './common';
import type { UnknownArg } from './instance';
import { flagList } from './runtime';
import { checkoutFork, flagLiterals, parserFlags, readsLeniently, repositoryHas } from './checkout';
import { slurmHardware, slurmStep } from './slurm';
import { megatronSource, UPSTREAM_ENTRY } from './source';
import { allocationText } from '../../syntax/sbatch';
import type { LinkedFile } from '../link';
import { MEGATRON_SCHEMA, allFlags, entrypointFlags, megatronIndexes, entrypointFlagsSince, entrypointOnlyFlags, FIRST_CORE_RELEASE, flagEra, flagKeys, flagTarget, primaryFlag, MEGATRON_VALIDATE } from './schema';
import { compareVersions } from '../../version';
import { imagePins, scriptImages } from '../../pins';
import { importRoot, pythonImports } from '../../syntax/python';
import { flagsMessageAt } from './release-names';
import { readsApart } from '../program';
import { isFlagSlip } from '../../suggest';
import { importedTexts } from '../../syntax/shell/imports';

/** Entry points that generate, evaluate, serve or export a trained model rather than train one. */
const INFERENCE_ENTRY = /((generat|infer|serve|server|export|convert|eval|quantiz|text_generation)\w*|(hf|mg|mcore|megatron|nemo|dcp|ckpt|torch)_?(to|2)_?(hf|mg|mcore|megatron|nemo|dcp|ckpt|torch)\w*)\.py$/i;
/** Whether a Python text imports Megatron (Megatron-LM, Megatron Core, a fork's `megatron_*` package), in any form Python writes an import. */
export function importsMegatron(text: string): boolean {
  return pythonImports(text).some((i) => /megatron/i.test(i.module));
}
/** Whether the program a launch script runs imports Megatron, itself or through the local modules it imports. */
export function programImportsMegatron(s: ShellDoc, text: string): boolean {
  return importsMegatron(text) || importedTexts(s).some(importsMegatron);
}
/** Training frameworks other than Megatron whose programs take Megatron-like flags, by the package Python imports. */
const OTHER_FRAMEWORKS = new Set(['bmtrain', 'model_center', 'sat', 'SwissArmyTransformer', 'colossalai', 'fairseq', 'oneflow', 'libai', 'paddle', 'mindspore']);
/** The first training framework other than Megatron that a Python text imports. */
function otherFramework(text: string): string | undefined {
  for (const i of pythonImports(text)) {
    const root = importRoot(i);
    if (root && OTHER_FRAMEWORKS.has(root)) return root;
  }
  return undefined;
}
/** Megatron-LM's data preparation tools (tools/, tools/retro/): their own argparse, no training run. */
const DATA_TOOL = /^(preprocess_data\w*|merge_datasets|build_(db|index)\w*|text_generation_cli)\.py$/;
/**
 * Checkpoint tools (Megatron-LM's `tools/merge_mp_partitions.py`, `tools/checkpoint_util.py`): they
 * may take Megatron's flags, but they load and rewrite a checkpoint in one process with parallel sizes
 * of their own, and start no run, so nothing of a run's layout or startup applies.
 */
const CHECKPOINT_TOOL = /^(merge_mp_partitions|checkpoint_util|checkpoint_inspector|inspect_\w*checkpoint\w*)\.py$/;
/** Megatron-LM renamed `pretrain_gpt2.py` to `pretrain_gpt.py` in January 2021, long before its first Core release. */
const OLD_ENTRY = /^pretrain_gpt2\.py$/;
/**
 * Flags only the Megatron-DeepSpeed forks define (their megatron/arguments.py; none of them was ever
 * in Megatron-LM's): DeepSpeed's own switches, and the token-based schedule and pipeline switch.
 */
const FORK_FLAGS = ['--deepspeed', '--deepspeed_config', '--deepspeed-config', '--zero-stage', '--deepspeed-activation-checkpointing', '--deepspeed_mpi', '--no-pipeline-parallel', '--train-tokens', '--lr-decay-tokens', '--lr-warmup-tokens', '--log-optimizer-states-to-tensorboard'];

/** The flags `deepspeed.add_config_arguments(parser)` adds to a fork's parser (deepspeed/__init__.py). */
const DEEPSPEED_ARGS = ['--deepspeed', '--deepspeed_config', '--deepscale', '--deepscale_config'];

function shell(doc: SourceDoc): ShellDoc | undefined {
  return doc.syntax === 'shell' ? (doc as ShellDoc) : undefined;
}

function where(doc: SourceDoc, judged: UnknownFlags): string {
  const entry = shell(doc)?.entrypoint?.path.split('/').pop();
  if (entry && judged.effect === 'error') return `among the arguments \`${entry}\` accepts`;
  return "among Megatron-LM's own arguments";
}

let currentFlags: Set<string> | undefined;

/**
 * The fork whose parser reads the script's flags: from the flags only Megatron-DeepSpeed defines, or
 * from the parser of the checkout the script lives in.
 */
function forkOf(doc: SourceDoc, settings: EngineSettings): string | undefined {
  const root = shell(doc)?.root;
  const checkout = checkoutFork(settings.megatronCheckout);
  if (checkout) return checkout;
  const entry = shell(doc)?.entrypoint?.path.split('/').pop();
  if (entry && OLD_ENTRY.test(entry)) return 'a Megatron-LM from before 2021 (its `pretrain_gpt2.py` was renamed `pretrain_gpt.py` in January 2021, before the first Megatron Core release)';
  if (root?.kind === 'map' && root.entries.some((e) => FORK_FLAGS.includes(e.key))) return 'Megatron-DeepSpeed';
  // A pin elsewhere in the repository (not above the script) does not say which Megatron this script runs.
  const pin = settings.pins?.['megatron-core'];
  const named = settings.targetVersions?.['megatron-core'] || (pin && !pin.elsewhere) || settings.megatronCheckout || settings.megatronUnseen;
  return root?.kind === 'map' && !named ? preCore(root.entries.map((e) => e.key)) : undefined;
}

/** The newest release that added one of the flags (the first Megatron Core one or later): older ones stop on it. */
function releaseNeeded(flags: readonly string[]): string | undefined {
  let floor: string | undefined;
  for (const f of flags) {
    const from = flagEra(f).from;
    if (from && (!floor || compareVersions(from, floor) > 0)) floor = from;
  }
  return floor;
}

/**
 * A script whose flags only a Megatron-LM from before Megatron Core runs (flags the first Core
 * release removed or stops on, and none it or a later release added), when nothing names the release:
 * the file itself says which Megatron-LM it was written for, and its flags are that one's.
 */
function preCore(flags: readonly string[]): string | undefined {
  if (releaseNeeded(flags)) return undefined;
  const eras = flags.map((f) => ({ f, ...flagEra(f) }));
  const old = eras.filter((e) => e.before && compareVersions(e.before, FIRST_CORE_RELEASE) <= 0).map((e) => `\`${e.f.replace(/=.*$/, '')}\``);
  if (!old.length) return undefined;
  return `a Megatron-LM from before Megatron Core ${FIRST_CORE_RELEASE} (it passes ${old.slice(0, 3).join(', ')}${old.length > 3 ? ' and more' : ''}, which ${FIRST_CORE_RELEASE} no longer takes, and no flag ${FIRST_CORE_RELEASE} or a later release added)`;
}

/**
 * Flags of Megatron-LM's releases before Megatron Core 0.4.0 (v1.0 to 23.06) that no release the schema
 * covers has: `add_argument` spellings of megatron/arguments.py at v1.0, v2.0, v2.5, v2.6, 23.04 and
 * 23.06 (`--data-impl` at 23.06:megatron/arguments.py:1082, `--faiss-use-gpu` at v2.0:599) less those
 * of the schema. They are upstream's, so passing one shows no other parser.
 */
const PRE_CORE_FLAGS = ['--data-impl', '--embedding-weights-in-fp32', '--faiss-use-gpu', '--fp32-allreduce', '--fp8-e4m3', '--fp8-hybrid', '--img-dim', '--min-scale', '--mmap-warmup', '--no-scaled-masked-softmax-fusion', '--override-lr-scheduler', '--report-topk-accuracies', '--scaled-upper-triang-masked-softmax-fusion', '--use-checkpoint-lr-scheduler', '--use-contiguous-buffers-in-ddp'];

/** Flags some Megatron-LM release defines: the shared parser's at any release, those its own entry scripts add, and the older releases'. */
let upstreamFlags: string[] | undefined;
function everyUpstreamFlag(): string[] {
  return (upstreamFlags ??= [...new Set([...megatronIndexes().flags.keys(), ...Object.values(entrypointFlags()).flat(), ...PRE_CORE_FLAGS])]);
}

const notUpstreamCache = new WeakMap<SourceDoc, { settings: EngineSettings; flags: { flag: string; path: Path }[] }>();

/**
 * The flags of the training command that no Megatron-LM release defines, that no parser Shardwise
 * read defines (the checkout's, the entry program's, the repository's), and that are no slip of a
 * flag one of them has (`isFlagSlip`): flags written on purpose for a parser that is not upstream's,
 * so a fork or an entry script that extends the parser reads the launch (llm-jp's `--use-mpi`,
 * `--use-z-loss`). Empty where a known fork reads the flags already, or where the program reading
 * them drops what it does not know (`parse_known_args`).
 */
export function notUpstreamFlags(doc: SourceDoc, settings: EngineSettings): { flag: string; path: Path }[] {
  const hit = notUpstreamCache.get(doc);
  if (hit && hit.settings === settings) return hit.flags;
  const flags = findNotUpstream(doc, settings);
  notUpstreamCache.set(doc, { settings, flags });
  return flags;
}

function findNotUpstream(doc: SourceDoc, settings: EngineSettings): { flag: string; path: Path }[] {
  const s = shell(doc);
  const root = s?.root;
  if (root?.kind !== 'map' || forkOf(doc, settings)) return [];
  // Only flags that go to Megatron-LM's own entry scripts show another parser: the flags of an entry
  // script whose parser is not known (`train.py`, judged as warnings) are likely its own additions.
  const name = s!.entrypoint?.path.split('/').pop();
  // A copy the entry program patches runs every flag through that patch, whatever the entry's name.
  const upstreamEntry = settings.megatronUnseen ? !!settings.megatronUnseen.patched || (!!name && UPSTREAM_ENTRY.test(name)) : unknownFlags(doc, settings).effect === 'error';
  if (!upstreamEntry) return [];
  const program = s!.entryText()?.text;
  if (program && readsLeniently(program)) return [];
  const known = everyUpstreamFlag();
  const read = new Set([...known, ...DEEPSPEED_ARGS, ...(settings.megatronCheckout?.flags ?? []), ...(program ? [...parserFlags(program), ...flagLiterals(program)] : [])]);
  const out: { flag: string; path: Path }[] = [];
  let slipOf: string[] | undefined;
  for (const e of root.entries) {
    const flag = e.key.replace(/=.*$/, '');
    if (e.merged || !/^--[A-Za-z][\w.-]*$/.test(flag) || read.has(flag) || repositoryHas(settings.repositoryFlags, flag)) continue;
    // A slip of a flag that some parser has is that parser's refusal (unknown-key), not another parser.
    slipOf ??= [...read, ...(settings.repositoryFlags?.flags ?? [])];
    if (slipOf.some((k) => isFlagSlip(flag, k))) continue;
    if (!out.some((o) => o.flag === flag)) out.push({ flag, path: [e.key] });
  }
  return out;
}

/**
 * The unknown flags with those no release defines, passed on purpose (`notUpstreamFlags`), said once:
 * together they show a fork or an extended parser, which one message says, not one refusal per flag.
 */
function notUpstreamOnce(unknown: UnknownArg[], foreign: readonly { flag: string }[]): UnknownArg[] {
  const names = new Set(foreign.map((f) => f.flag));
  const these = unknown.filter((u) => names.has(u.key.replace(/=.*$/, '')));
  if (!these.length) return unknown;
  const flags = these.map((u) => u.key.replace(/=.*$/, ''));
  const one = flags.length === 1;
  const stops = `Upstream Megatron-LM would stop at startup on ${one ? 'it' : 'them'} (argparse: "unrecognized arguments")`;
  const consequence = `${flagList(flags)} ${one ? 'is not an upstream flag' : 'are not upstream flags'}: no Megatron-LM release defines ${one ? 'it' : 'them'}, no parser Shardwise read does, and ${one ? 'it is not' : 'none is'} a slip of one, so this launch runs a fork or an extended parser (an entry script that adds flags). ${stops}; findings that rest on upstream's own checks are therefore at most warnings here, and say so. If the launch runs upstream Megatron-LM, remove ${one ? 'it' : 'them'}.`;
  return [...unknown.filter((u) => !these.includes(u)), { ...these[0], candidates: [], consequence, group: these.map((u) => u.path) }];
}

/** Entry scripts Megatron-LM ships from a release on, beside its `pretrain_*.py` (root of the checkout). */
const OWN_ENTRY_FROM: Record<string, string> = { 'train_rl.py': '0.15.0' };

/** `pretrain_mamba.py`, the older name of `pretrain_hybrid.py`, adds the same flags (the ModelOpt ones from 0.15.0). */
const ENTRY_RENAMED: Record<string, string> = { 'pretrain_mamba.py': 'pretrain_hybrid.py' };

/**
 * The schema flags Megatron-LM's own entry script `name` never adds: those whose `x-entrypoints`
 * (the scripts whose parsers add them, e.g. the inference examples' `--output-path`) leave it out.
 */
function notAddedBy(name: string): Map<string, { scripts: string[]; until?: string }> {
  const own = ENTRY_RENAMED[name] ?? name;
  const out = new Map<string, { scripts: string[]; until?: string }>();
  for (const [dest, { scripts, since }] of entrypointOnlyFlags()) {
    if (!scripts.includes(own) && !scripts.includes(name)) out.set(dest, { scripts });
    // A script that adds the flag only from a later release: unknown to the releases before it.
    else if (since[own] ?? since[name]) out.set(dest, { scripts, until: since[own] ?? since[name] });
  }
  return out;
}

/** How the script's unknown flags are judged, from its entry point and checkout (see `UnknownFlags`). */
function unknownFlags(doc: SourceDoc, settings: EngineSettings): UnknownFlags {
  const checkout = settings.megatronCheckout;
  const fork = forkOf(doc, settings);
  // A fork's own parser is known: a flag it does not define either may still come from DeepSpeed or the entry script.
  if (fork && checkout && checkoutFork(checkout)) {
    return { effect: 'warning', extra: new Set([...checkout.flags, ...DEEPSPEED_ARGS]), consequence: `The checkout's \`${checkout.parser}\` does not define it, so unless DeepSpeed or the entry script adds it, the run stops at startup (argparse: "unrecognized arguments").` };
  }
  if (fork) return { effect: 'none' };
  // A Megatron-LM that is not read: which flags its release (or patched copy) has is not known, so
  // no flag is judged (fork-flags-not-checked says so once).
  if (settings.megatronUnseen) return { effect: 'none' };
  const entry = shell(doc)?.entrypoint?.path;
  const name = entry?.split('/').pop();
  const own = checkout ? checkout.flags : [];
  if (name && UPSTREAM_ENTRY.test(name)) return { effect: 'error', extra: own.length ? new Set(own) : undefined, notAdded: notAddedBy(name) };
  // Megatron-LM's own `train_rl.py` (from 0.15.0), run from its checkout: not a file of this
  // repository (a script of that name here is the repository's own, read as any other).
  const from = name ? OWN_ENTRY_FROM[name] : undefined;
  if (from && !shell(doc)?.entryText()) return { effect: 'error', extra: own.length ? new Set(own) : undefined, notAdded: notAddedBy(name!), from };
  // Another entry script, in a repository whose Python reads its arguments leniently
  // (`parse_known_args`): a flag nothing defines here may be dropped, or read by code not here.
  if (settings.repositoryFlags?.lenient) return { effect: 'none' };
  const table = entrypointFlags();
  const known = entry ? Object.keys(table).find((k) => entry === k || entry.endsWith(`/${k}`)) : undefined;
  if (known) {
    const dated = new Map(Object.entries(entrypointFlagsSince()[known] ?? {}).filter(([f]) => !own.includes(f)));
    return { effect: 'error', extra: new Set([...table[known].filter((f) => !dated.has(f)), ...own]), extraSince: dated };
  }
  const script = name ? `\`${name}\`` : 'the entry script';
  // With the repository searched, the script's own parser (and its framework's) was read too.
  const consequence = settings.repositoryFlags
    ? `Unless ${script} adds it in a way Shardwise does not read (a parser outside this repository, flags built at run time), Megatron-LM stops at startup ("unrecognized arguments").`
    : `Megatron-LM stops at startup unless ${script} defines it (Shardwise knows Megatron-LM's own arguments, not that script's).`;
  return { effect: 'warning', extra: own.length ? new Set(own) : undefined, consequence };
}

/**
 * The entry script of the launch line when it is not Megatron-LM's own `pretrain_*.py`, with the flags
 * it adds when Megatron-LM ships it (`x-entrypoint-flags`; `examples/multimodal/train.py`).
 */
function entryOf(s: ShellDoc | undefined): { script: string; flags?: string[]; ownFrom?: string } | undefined {
  const entry = s?.entrypoint?.path;
  const name = entry?.split('/').pop();
  if (!entry || !name || UPSTREAM_ENTRY.test(name)) return undefined;
  // Megatron-LM's own `train_rl.py` (not a file of this repository): Megatron-LM's flags from its release.
  if (OWN_ENTRY_FROM[name] && !s?.entryText()) return { script: entry, ownFrom: OWN_ENTRY_FROM[name] };
  const table = entrypointFlags();
  const known = Object.keys(table).find((k) => entry === k || entry.endsWith(`/${k}`));
  return known ? { script: known, flags: table[known] } : { script: entry };
}

/**
 * The flags the entry script defines itself (`tasks/main.py`, `tools/run_text_generation.py`), when
 * the host can read it: they are accepted like Megatron's own. Flags it takes from other modules
 * stay unknown, so a flag neither defines is still only a warning for such a script.
 */
function withEntryFlags(judged: UnknownFlags, doc: SourceDoc): UnknownFlags {
  const s = shell(doc);
  const name = s?.entrypoint?.path.split('/').pop();
  if (!s || !name || judged.effect === 'none' || UPSTREAM_ENTRY.test(name)) return judged;
  const program = s.entryProgram();
  // Looked for and not there (a stale script, or one run from elsewhere): the parser that reads the
  // flags is not known, so they are not judged. A script Megatron-LM knows keeps its own table.
  if (!program) return judged;
  if (!('text' in program)) return judged.effect === 'warning' ? { effect: 'none' } : judged;
  const text = program.text;
  if (text.length > 2_000_000) return judged;
  // A program that reads its arguments leniently (`parse_known_args`, `ignore_unknown_args=True`)
  // drops a flag it does not know, or hands it to code not read here: nothing is refused.
  if (readsLeniently(text)) return { effect: 'none' };
  const own = parserFlags(text);
  if (own.length === 0) return judged;
  return { ...judged, extra: new Set([...(judged.extra ?? []), ...own]) };
}

/** A launcher option as a positive integer, or why it is not known; `assumed` when it is a fallback. */
function launcherInt(l: Launcher | undefined, names: string[]): { value?: number; unknown?: string; assumed?: string } | undefined {
  for (const name of names) {
    const a = l?.args.get(name);
    if (!a) continue;
    const v = typeof a.value === 'number' ? a.value : typeof a.value === 'string' && /^\d+$/.test(a.value) ? Number(a.value) : undefined;
    return { value: v, unknown: v === undefined ? a.unknown ?? `\`${name}\` is not a number the script sets` : undefined, assumed: v !== undefined ? a.assumed : undefined };
  }
  return undefined;
}

/** The assumptions behind a launcher's numbers, as fields a derived value takes its certainty from. */
function assumptions(...xs: ({ assumed?: string } | undefined)[]): Field<unknown>[] {
  return xs.flatMap((x) => (x?.assumed ? [assumed(undefined, x.assumed)] : []));
}

/** `srun → torchrun` for a chain of launchers. */
function launcherChain(l: Launcher): string {
  const kinds: string[] = [];
  for (let x: Launcher | undefined = l; x && kinds.length < 8; x = x.inner) if (x.kind !== 'python' || kinds.length === 0) kinds.push(x.kind);
  return kinds.join(' → ');
}

const PER_NODE: Partial<Record<LauncherKind, string[]>> = {
  srun: ['--ntasks-per-node'],
  deepspeed: ['--num_gpus', '--num-gpus'],
  torchrun: ['--nproc_per_node', '--nproc-per-node'],
  'torch.distributed.run': ['--nproc_per_node', '--nproc-per-node'],
  'torch.distributed.launch': ['--nproc_per_node', '--nproc-per-node'],
};
const NODES: Partial<Record<LauncherKind, string[]>> = {
  srun: ['-N', '--nodes'],
  deepspeed: ['--num_nodes', '--num-nodes'],
  torchrun: ['--nnodes'],
  'torch.distributed.run': ['--nnodes'],
  'torch.distributed.launch': ['--nnodes'],
};

/**
 * World size and nodes from the launchers: the innermost one that starts processes decides how many
 * per node (`srun … torchrun --nproc_per_node 8` runs torchrun once per node, which starts 8), the
 * node count comes from it or from an enclosing `srun -N`; `mpirun -np` gives the total.
 */
export function scriptWorld(s: ShellDoc, settings: EngineSettings): { world?: Field<number>; nodes?: Field<number>; note?: string } {
  if (settings.worldSize) return { world: { value: settings.worldSize, from: { kind: 'setting', note: '`world_size` setting' } }, nodes: settings.nodes ? { value: settings.nodes, from: { kind: 'setting', note: '`nodes` setting' } } : undefined };
  const chain: Launcher[] = [];
  for (let l = s.launcher; l && chain.length < 8; l = l.inner) chain.push(l);
  const spawners = chain.filter((l) => l.kind !== 'python');
  const spawner = spawners[spawners.length - 1];
  if (spawner?.kind === 'mpirun') {
    const np = launcherInt(spawner, ['-np', '-n', '--np']);
    if (np?.value !== undefined) return { world: derived(np.value, `world = ${np.value} processes (mpirun -np)`, assumptions(np)) };
    if (np?.unknown) return { note: `the process count comes from outside the script (${np.unknown})` };
  }
  // `accelerate launch --num_processes N` gives the total; without it, Accelerate's own config file does.
  if (spawner?.kind === 'accelerate') {
    const np = launcherInt(spawner, ['--num_processes', '--num-processes']);
    if (np?.value !== undefined && np.value > 0) return { world: derived(np.value, `world = ${np.value} processes (accelerate launch --num_processes)`, assumptions(np)) };
    return { note: np?.unknown ? `the process count comes from outside the script (${np.unknown})` : 'without `--num_processes`, accelerate launch takes the process count from its config file' };
  }
  // In a Slurm batch script, `srun` starts the step over the allocation's nodes.
  const step = slurmStep(s);
  if (step?.srun && spawner?.kind === 'srun') {
    if (!step.tasks) return { note: step.unknown ?? 'the number of tasks srun starts is not known' };
    const t = step.tasks.value;
    return {
      world: derived(t, `world = ${t} srun task${t === 1 ? '' : 's'} (${step.tasks.from}${step.nodes && !step.tasks.from.includes('nodes') ? ` over ${step.nodes.value} node${step.nodes.value === 1 ? '' : 's'} from ${step.nodes.from}` : ''})`),
      nodes: step.nodes ? { value: step.nodes.value, from: { kind: 'derived', formula: `nodes from ${step.nodes.from}` } } : undefined,
    };
  }
  const kind = spawner?.kind;
  const perNode = kind ? launcherInt(spawner, PER_NODE[kind] ?? []) : undefined;
  let nodes: { value?: number; unknown?: string; assumed?: string } | undefined;
  let nodesFrom: LauncherKind | undefined = kind;
  for (const l of [...spawners].reverse()) {
    nodes = launcherInt(l, NODES[l.kind] ?? []);
    if (nodes) {
      nodesFrom = l.kind;
      break;
    }
  }
  let nodesNote = `nodes from the ${nodesFrom} options`;
  if (!nodes && step?.srun && step.nodes) {
    nodes = { value: step.nodes.value };
    nodesFrom = 'srun';
    nodesNote = `nodes: srun runs one ${kind} per node of the step (${step.nodes.from})`;
  }
  if (perNode?.value !== undefined) {
    if (nodes && nodes.value === undefined) return { note: `the node count comes from outside the script (${nodes.unknown}), so the world size is unknown` };
    const n = nodes?.value ?? 1;
    const nodesField: Field<number> = nodes?.value !== undefined ? derived(n, nodesNote, assumptions(nodes)) : { value: 1, from: { kind: 'default', note: `${kind} runs on one node unless told otherwise` } };
    return { world: derived(perNode.value * n, `world = ${perNode.value} processes per node × ${n} node${n === 1 ? '' : 's'}, from the ${kind} options`, assumptions(perNode, nodes)), nodes: nodesField };
  }
  const ws = s.vars.get('WORLD_SIZE');
  if (ws?.value && /^\d+$/.test(ws.value)) return { world: derived(Number(ws.value), `world = WORLD_SIZE ${ws.value}`, assumptions(ws)) };
  // The usual variables of Megatron's example scripts, when the launcher's options do not say.
  const varInt = (names: string[]) => {
    for (const n of names) {
      const v = s.vars.get(n);
      if (v) return { name: n, value: v.value && /^\d+$/.test(v.value) ? Number(v.value) : undefined, unknown: v.unknown, assumed: v.assumed };
    }
    return undefined;
  };
  const gpus = !perNode ? varInt(['GPUS_PER_NODE', 'NPROC_PER_NODE', 'NUM_GPUS_PER_NODE']) : undefined;
  const nodeVar = gpus ? varInt(['NUM_NODES', 'NNODES', 'NODES']) : undefined;
  if (gpus?.value !== undefined && (!nodeVar || nodeVar.value !== undefined)) {
    const n = nodeVar?.value ?? 1;
    return {
      world: derived(gpus.value * n, `world = ${gpus.name} ${gpus.value} × ${nodeVar ? `${nodeVar.name} ${n}` : '1 node'}`, assumptions(gpus, nodeVar)),
      nodes: nodeVar ? derived(n, `${nodeVar.name} = ${n}`, assumptions(nodeVar)) : { value: 1, from: { kind: 'default', note: 'no node count in the script' } },
    };
  }
  if (nodeVar?.unknown) return { note: `the node count comes from outside the script (${nodeVar.unknown})` };
  if (perNode?.unknown) return { note: `the processes per node come from outside the script (${perNode.unknown})` };
  return {};
}

/**
 * Why the training command may pass more flags than the script shows, if it may: the first place
 * that may add some (a word whose text is not known, a `source` not read), and how many there are.
 */
export function openReason(s: ShellDoc): string | undefined {
  const first = s.open[0];
  if (!first) return undefined;
  const line = s.lines.position(first.span.start).line + 1;
  const more = s.open.length > 1 ? ` (and ${s.open.length - 1} more place${s.open.length > 2 ? 's' : ''})` : '';
  return `more flags may reach the training command than the script shows: line ${line}, ${first.reason}${more}`;
}

const RULES: EvidenceRules = {
  what: 'a Megatron-LM launch script',
  owner: 'Megatron-LM',
  where: 'flags of the training command',
  noun: 'flag',
  distinctive: () => false,
  // Many programs share a `--batch-size`: three flags Megatron-LM has today make the case.
  telling: (k) => (currentFlags ??= new Set(allFlags())).has(k.replace(/=.*$/, '')),
  known: (k) => !!flagTarget(k),
  several: 3,
  balance: { open: 'the entry script may define flags of its own' },
};

/**
 * A Megatron-LM launch script by weight of evidence (formats/evidence.ts), weighed by the flags of
 * its training command: Megatron-LM's own entry point (`pretrain_gpt.py`) with one of its flags, or
 * three flags Megatron-LM has today after any other entry point; Transformers Trainer arguments
 * (`--per_device_train_batch_size`) make it a Trainer command.
 */
export function scriptEvidence(doc: SourceDoc): Evidence {
  const s = shell(doc);
  const keys = mapKeys(s?.root);
  const entry = s?.entrypoint?.path.split('/').pop();
  const upstream = !!entry && UPSTREAM_ENTRY.test(entry) && keys.some((k) => flagTarget(k.key));
  const signs = upstream ? [`\`${entry}\` is Megatron-LM's own entry point`] : [];
  const contradictions = trainerArgumentsContradict(keys.map((k) => k.key).filter((k) => !flagTarget(k)));
  // Megatron-LM's data tools share flag names with training (`--tokenizer-type`, `--vocab-file`) but
  // parse them themselves and start no run.
  if (entry && DATA_TOOL.test(entry)) contradictions.push(`\`${entry}\` is one of Megatron-LM's data tools, which reads its own arguments and trains nothing`);
  else if (entry && CHECKPOINT_TOOL.test(entry)) contradictions.push(`\`${entry}\` is one of Megatron-LM's checkpoint tools, which rewrites a checkpoint in one process and trains nothing`);
  // The program itself, when it can be read, says whose flags these are: one built on another
  // training framework (BMTrain, SwissArmyTransformer…, whose flag names look like Megatron's) and
  // importing nothing of Megatron parses them with that framework's code. A program that imports
  // neither may still reach Megatron through its own package (a wrapper's `parse_args`): no verdict.
  // Its framework may be in a local module it imports (`from initialize import …`, which imports
  // SwissArmyTransformer): those are read as well, as the Trainer's detection does.
  const program = entry && !UPSTREAM_ENTRY.test(entry) ? s?.entryText() : undefined;
  const megatron = !program || programImportsMegatron(s!, program.text);
  const direct = megatron ? undefined : otherFramework(program.text);
  const other = megatron ? undefined : (direct ?? importedTexts(s!).map(otherFramework).find((x) => !!x));
  const apart = megatron || other ? undefined : apartFromMegatron(s!, entry!, program.text);
  if (other) contradictions.push(`\`${entry}\` runs on another training framework (it imports \`${other}\`${direct ? '' : ' through a local module'} and nothing of Megatron), which reads these flags itself`);
  else if (apart) contradictions.push(apart);
  // A program whose own argparse parser defines most of the flags the command passes parses them
  // itself, whether or not it imports Megatron for other reasons (a checkpoint converter that imports
  // a package that imports Megatron); a wrapper that defines a few and hands the rest on gives no verdict.
  else if (program && /\bArgumentParser\s*\(/.test(program.text)) {
    const own = new Set(parserFlags(program.text));
    const passed = keys.map((k) => k.key.replace(/=.*$/, '')).filter((k) => k.startsWith('-'));
    const defined = passed.filter((k) => own.has(k)).length;
    if (passed.length && defined * 2 >= passed.length) contradictions.push(`\`${entry}\` parses ${defined} of the ${passed.length} flags with its own argparse parser${megatron ? '' : ' and imports nothing of Megatron'}`);
  }
  // After an entry point that is not Megatron-LM's own and cannot be read (a `$TRAIN_SCRIPT`, a
  // program of the container), the flags must be mostly Megatron-LM's (a program that can be read
  // and imports Megatron says so itself: a fork's flags are its parser's).
  const few = !upstream && !program ? fewOfMany(keys, (k) => !!flagTarget(k), 'Megatron-LM', entry) : undefined;
  if (few) contradictions.push(few);
  return weigh({ keys, signs, contradictions }, RULES);
}

/**
 * Why a program that can be read and imports nothing of Megatron does not reach Megatron-LM's argument
 * parsing, when it shows that: none of the local modules it reaches imports Megatron either, and it
 * reads its command line with a parser of another kind, or reads `sys.argv` itself, or reaches every
 * module it imports; undefined when it may reach Megatron through code not read here.
 */
function apartFromMegatron(s: ShellDoc, name: string, text: string): string | undefined {
  const apart = readsApart(s, text, importsMegatron);
  if (!apart) return undefined;
  const none = 'and neither it nor the modules of the workspace it imports import Megatron';
  if ('reader' in apart) return `\`${name}\` reads its command line with ${apart.reader} ${none}`;
  if ('argv' in apart) return `\`${name}\` reads \`sys.argv\` itself ${none}`;
  return `\`${name}\` never reaches Megatron-LM's argument parsing: neither it nor the modules of the workspace it imports import Megatron`;
}

export const megatronArgsFormat: FormatSupport<MegatronModel> = {
  id: 'megatron-args',
  title: 'Megatron-LM launch script',
  toolName: 'Megatron-LM',
  syntaxes: ['shell'],
  tool: 'megatron-core',
  schema: { json: MEGATRON_SCHEMA, validate: MEGATRON_VALIDATE },
  detect: scriptEvidence,
  openKeys(doc: SourceDoc, settings: EngineSettings): string | undefined {
    const s = shell(doc);
    if (settings.megatronUnseen) return `the Megatron-LM at ${settings.megatronUnseen.where} is not read here, and it may define flags of its own`;
    const fork = forkOf(doc, settings);
    if (fork) return `a script for ${fork === 'Megatron-DeepSpeed' ? 'a Megatron-DeepSpeed fork' : fork}: it has flags of its own`;
    const entry = s?.entrypoint?.path;
    const name = entry?.split('/').pop();
    const own = !!name && (UPSTREAM_ENTRY.test(name) || (!!OWN_ENTRY_FROM[name] && !s?.entryText()));
    if (!entry || !own) return `${entry ? `\`${entry.split('/').pop()}\`` : 'the script the flags go to'} may add flags of its own`;
    return undefined;
  },
  fork: forkOf,
  messageAt: flagsMessageAt,
  releaseFloor(doc: SourceDoc) {
    const root = shell(doc)?.root;
    if (root?.kind !== 'map') return undefined;
    return releaseNeeded(root.entries.map((e) => e.key));
  },
  context(doc: SourceDoc, given: EngineSettings, read?: (ref: string) => LinkedFile) {
    const s = shell(doc);
    const entry = entryOf(s);
    const settings = entry ? { ...given, megatronEntry: entry } : given;
    const source = s ? megatronSource(s, read, given.repositoryFlags?.root) : undefined;
    // The container image the script runs in names the releases it ships, over the repository's pins;
    // a Megatron-LM at an absolute path the checkout does not hold (`/opt/megatron-lm`) is then the image's.
    const images = imagePins(scriptImages(doc.text), 'the container image');
    const inImage = images['megatron-core'] && source?.kind === 'unseen' && /^`\//.test(source.where) && !/given its path/.test(source.why);
    if (!source || inImage) return Object.keys(images).length ? { settings: { ...settings, pins: { ...settings.pins, ...images } } } : entry ? { settings } : undefined;
    if (source.kind === 'read') return { settings: { ...settings, megatronCheckout: source.checkout } };
    return { settings: { ...settings, megatronUnseen: { where: source.where, why: source.why, ...(source.release ? { release: source.release } : {}), ...(source.patched ? { patched: true } : {}) } } };
  },
  instance(doc: SourceDoc, nav: SchemaNav, settings: EngineSettings) {
    // The repository's parsers (settings.repositoryFlags) only ever accept more flags.
    const judged = withRepository(withEntryFlags(unknownFlags(doc, settings), doc), settings.repositoryFlags);
    const { sites, unknown } = flagSites(doc.root as MapNode | undefined, [], where(doc, judged), judged);
    return argsInstance(sites, notUpstreamOnce(unknown, notUpstreamFlags(doc, settings)), nav, true);
  },
  schemaPath(_doc: SourceDoc, path: Path): Path | undefined {
    if (path.length !== 1) return undefined;
    const t = flagTarget(String(path[0]));
    return t ? [t.dest] : undefined;
  },
  keysAt(_doc: SourceDoc, path: Path) {
    if (path.length !== 0) return undefined;
    return flagKeys();
  },
  model({ doc, view, settings, read }: ModelInput): MegatronModel {
    const s = shell(doc)!;
    const { world, nodes, note } = scriptWorld(s, settings);
    const env = new Map<string, EnvValue>();
    for (const [name, v] of s.vars) env.set(name, { value: v.value, path: [], span: v.valueSpan.end > v.valueSpan.start ? v.valueSpan : v.nameSpan, nameSpan: v.nameSpan, unknown: v.unknown, ...(v.assumed ? { assumed: v.assumed } : {}), exported: v.exported });
    const args = argsFromView(view, {
      runtime: `Megatron-LM${s.entrypoint ? ` (${s.entrypoint.path.split('/').pop()})` : ''}${s.launcher ? ` via ${launcherChain(s.launcher)}` : ''}`,
      pathFor: (dest) => {
        const flag = primaryFlag(dest);
        return flag ? [flag] : undefined;
      },
      world,
      nodes,
      env,
      notes: note ? [`World size unknown: ${note}. Set it with \`# shardwise: world_size=<n>\`.`] : undefined,
    });
    if (s.sbatch) {
      const text = allocationText(s.sbatch);
      const g = s.sbatch.heterogeneous ? undefined : s.sbatch.gpusPerNode;
      if (text) args.allocation = { text, gpusPerNode: g ? { value: g.value, from: { kind: 'derived', formula: `${g.value} GPUs per node from #SBATCH ${g.option}` } } : undefined };
      const hint = slurmHardware(s.sbatch, settings);
      if (hint) args.hardwareHint = hint;
    }
    // Ascend NPUs (the collective library's HCCL_* settings, ASCEND_* paths, NPUS_PER_NODE): no GPU
    // profile describes the devices, so the hardware is not known, not the default profile.
    const npu = [...s.vars.keys()].find((n) => /^(HCCL_|ASCEND_)|^NPUS?_PER_NODE$/.test(n));
    if (npu && !args.hardwareHint) args.hardwareHint = { id: 'ascend-npu', note: `the script sets \`${npu}\` for Ascend NPUs`, unknown: true };
    const entry = s.entrypoint?.path.split('/').pop();
    args.entry = entry ?? '';
    // A module (`-m examples.inference.gpt.gpt_static_inference`) is judged by the file it runs.
    const file = s.entrypoint?.module ? `${s.entrypoint.path.split('.').pop()}.py` : entry;
    if (entry && file && INFERENCE_ENTRY.test(file)) args.notTraining = `\`${entry}\` runs inference, an evaluation, an export or a checkpoint conversion, not training`;
    args.notTraining ??= skipsTraining(args);
    const open = openReason(s);
    if (open) args.open = open;
    // Arguments the repository's own program sets on the parsed namespace: left out of the script,
    // their value is that program's, not Megatron's default.
    const set = settings.repositoryFlags?.argsSet;
    if (set?.length) args.unknownDefaults = { ...Object.fromEntries(set.map((d) => [d, `the repository's own Python sets \`args.${d}\``])), ...args.unknownDefaults };
    const fork = settings.megatronUnseen ? undefined : forkOf(doc, settings);
    if (settings.megatronUnseen || fork) args.flagsUnknown = settings.megatronUnseen ? `the Megatron-LM at ${settings.megatronUnseen.where} is not read` : `${fork} reads the flags`;
    const notUpstream = notUpstreamFlags(doc, settings);
    if (notUpstream.length) args.notUpstream = notUpstream.map((f) => f.flag);
    if (settings.megatronUnseen?.patched) args.patched = settings.megatronUnseen.where;
    // Every flag no release defines, also those a parser of the repository defines (a patch's own).
    if (notUpstream.length || args.patched) args.ownFlags = [...new Set(mapKeys(s.root).map((k) => k.key.replace(/=.*$/, '')).filter((k) => /^--[A-Za-z]/.test(k) && !everyUpstreamFlag().includes(k) && !DEEPSPEED_ARGS.includes(k)))];
    return { args, deepspeedConfig: deepspeedConfigOf(doc, read) };
  },
  links(m: MegatronModel) {
    const f = m.deepspeedConfig;
    return f ? [f] : [];
  },
  writePath: megatronWritePath,
  plan(model, settings) {
    return megatronPlan(model.args, settings, { weightShards: true });
  },
};

/** The DeepSpeed JSON a Megatron-DeepSpeed command names (`--deepspeed_config ds.json`), where it resolved. */
function deepspeedConfigOf(doc: SourceDoc, read: ModelInput['read']): MegatronModel['deepspeedConfig'] {
  const root = doc.root?.kind === 'map' ? doc.root : undefined;
  const e = root?.entries.find((x) => /^--(deepspeed[_-]config|deepscale[_-]config)$/.test(x.key));
  if (!e || e.value.kind !== 'scalar' || typeof e.value.value !== 'string' || !/\.json$/i.test(e.value.value)) return undefined;
  const ref = e.value.value;
  // A relative path is looked for from the folder a `cd` before the command leads to.
  const file = read?.((doc.syntax === 'shell' ? (doc as ShellDoc).launchRef(ref) : undefined) ?? ref);
  return { ref, at: [e.key], target: file?.text !== undefined ? file.path : undefined };
}
