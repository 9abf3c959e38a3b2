/**
 * Launch scripts whose training command passes TrainingArguments as flags to a Python script
 * (`torchrun … train.py --per_device_train_batch_size 4 --deepspeed ds.json`, after torchrun,
 * deepspeed, `accelerate launch`, `python -m torch.distributed.run` or python itself): the script's
 * `HfArgumentParser` turns them into the Trainer's TrainingArguments.
 */
import { parserDataclasses, type ParserDataclasses } from './dataclasses';
import { importedTexts, reachedImports } from './imports';
import { readsApart } from '../program';
import type { Field, Provenance } from '../../plan/plan';
import type { EngineSettings } from '../../settings';
import type { Launcher, ShellDoc } from '../../syntax/shell';
import type { SourceDoc } from '../../syntax/sourcedoc';
import type { Node } from '../../syntax/tree';
import { fewOfMany, mapKeys, weigh, type Evidence, type EvidenceRules } from '../evidence';
import { parserFlags } from '../megatron/checkout';
import { openReason, scriptWorld } from '../megatron/script';
import { UPSTREAM_ENTRY } from '../megatron/source';
import type { TrainerValue } from './model';
import { deepspeedPath, TRAINER_FIELDS, unsetArg } from './recipe';
import { FIELDS } from './releases';

function shell(doc: SourceDoc): ShellDoc | undefined {
  return doc.syntax === 'shell' ? (doc as ShellDoc) : undefined;
}

/** A flag as the TrainingArguments field it sets (`--per-device-train-batch-size` → `per_device_train_batch_size`). */
export function fieldOf(flag: string): string | undefined {
  if (!flag.startsWith('--')) return undefined;
  return flag.slice(2).replace(/=.*$/, '').replace(/-/g, '_');
}

/**
 * A flag the Trainer's argument parser (HfArgumentParser over TrainingArguments) defines, which it
 * stores (the last of two wins). Other flags of the command (a job launcher's own `--env`, which
 * may append) are not known to be read that way.
 */
export function trainerArgument(flag: string): boolean {
  const f = fieldOf(flag) ?? '';
  return TRAINER_FIELDS.has(f) || FIELDS[f] !== undefined || f === 'deepspeed';
}

const RULES: EvidenceRules = {
  what: 'a Transformers Trainer launch script',
  owner: 'Transformers Trainer',
  where: 'flags of the training command',
  noun: 'argument',
  distinctive: () => false,
  telling: (k) => TRAINER_FIELDS.has(fieldOf(k) ?? ''),
  known: trainerArgument,
  several: 2,
  balance: { open: 'the training script defines arguments of its own' },
};

/**
 * A launch script by weight of evidence: a Python entry script given two TrainingArguments flags
 * a recipe writes (`--per_device_train_batch_size`, `--learning_rate`, `--output_dir`…), and not
 * Megatron-LM's own entry point.
 */
export function scriptEvidence(doc: SourceDoc): Evidence {
  const s = shell(doc);
  const keys = s?.entrypoint ? mapKeys(s.root) : [];
  const entry = s?.entrypoint?.path.split('/').pop();
  const contradictions = entry && UPSTREAM_ENTRY.test(entry) ? [`\`${entry}\` is Megatron-LM's own entry point`] : [];
  // The program, when it can be read, says whose flags these are: its own argparse parser and
  // no parser of the Trainer's (no HfArgumentParser or TrlParser) makes them its own, however
  // many TrainingArguments names they share.
  // `llamafactory-cli train --key value…`: LLaMA-Factory's own HfArgumentParser reads the flags.
  if (s?.recipeCli()) return weigh({ keys, signs: ['`llamafactory-cli train` hands its flags to LLaMA-Factory\'s HfArgumentParser'], contradictions }, RULES);
  const program = entry && keys.length ? s?.entryText() : undefined;
  // A program that shows HfArgumentParser is judged by the dataclasses it gives it; one that does not, by its own argparse.
  const reading = program && (ARGV_PARSER.test(program.text) ? dataclassReading(s!, entry!, program.text) : parserReading(s!, entry!, program.text));
  if (reading?.not) contradictions.push(reading.not);
  // A program that can be read is a Trainer's only where it hands the command line to the Trainer's
  // parser, itself or in the modules it imports: one that shows another reader, or none at all, reads
  // the flags itself, whatever names they share with TrainingArguments.
  const unread = program && !reading?.not ? withoutTrainerParser(s!, entry!, program.text) : undefined;
  if (unread) contradictions.push(unread);
  // A program that cannot be read: its flags must be mostly the Trainer's (formats/evidence.ts).
  const few = entry && !program ? fewOfMany(keys, trainerArgument, 'the Transformers Trainer', entry) : undefined;
  if (few) contradictions.push(few);
  return weigh({ keys, contradictions }, { ...RULES, balance: { open: ownArguments(s, entry, program?.text) } });
}

/**
 * Why the flags the Trainer does not know are not weighed against the launch, as true as the program
 * shows: its parser is given dataclasses of its own beside TrainingArguments, or a TrainingArguments
 * subclass (which may add fields), or only TrainingArguments; the program is not read; or its parser
 * is not read well enough to say.
 */
function ownArguments(s: ShellDoc | undefined, entry: string | undefined, text: string | undefined): string {
  const name = entry ? `\`${entry}\`` : 'the training script';
  if (!s || text === undefined) return `${name} is not read here and may define arguments of its own`;
  const d = programDataclasses(s, text);
  if (d?.kind !== 'trainer') return `${name} may define arguments of its own`;
  if (!d.alone) return `${name} defines arguments of its own beside TrainingArguments`;
  return d.cls.split('.').pop() === 'TrainingArguments' ? `${name} reads TrainingArguments alone` : `${name} reads \`${d.cls}\`, which may add arguments to TrainingArguments`;
}

/** Python's TrainingArguments reading of a boolean flag (`string_to_bool`; a bare flag is true). */
function boolOf(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === 0) return v === 1;
  if (typeof v === 'string') {
    if (/^(yes|true|t|y|1)$/i.test(v)) return true;
    if (/^(no|false|f|n|0)$/i.test(v)) return false;
  }
  return undefined;
}

/**
 * Whether the entry script reads its flags with the Trainer's parser: it says so (HfArgumentParser,
 * TrlParser, a TrainingArguments class), it defines the flags itself with argparse (then these are
 * not the Trainer's), or nobody can tell (not read, or its parser is in a module it imports).
 */
export function entryReading(s: ShellDoc): { not?: string; assumed?: string } {
  if (s.recipeCli()) {
    const stage = flagEntry(s, 'stage')?.value;
    return stage?.kind === 'scalar' && stage.value === 'ppo' ? { not: '`--stage ppo` trains with a PPO trainer whose own loop does not run the Trainer\'s DeepSpeed check' } : {};
  }
  const name = s.entrypoint?.path.split('/').pop() ?? 'the training script';
  const text = s.entryText()?.text.slice(0, 2_000_000);
  if (/(^|[_-])ppo([_.-]|$)/i.test(name)) return { not: `\`${name}\` trains with PPO, whose trainers run their own loop, not the Trainer's DeepSpeed check` };
  if (text === undefined) return { assumed: `\`${name}\` (not read here) is taken to read these flags with the Transformers HfArgumentParser` };
  const shown = parserReading(s, name, text);
  if (shown) return shown;
  // Its parser further down its own package (src/train.py → tuner → hparams/parser.py): the dataclasses it is given are not followed there.
  if (reachedImports(s).texts.some(showsTrainerParser)) return { assumed: `\`${name}\` is taken to read these flags into TrainingArguments (a module its package imports hands the command line to HfArgumentParser; the dataclasses it is given are not read here)` };
  return { assumed: `\`${name}\` is taken to read these flags with the Transformers HfArgumentParser (it does not show its parser, nor do the modules of the workspace it imports; it may import one)` };
}

/**
 * Whose parser the program's text shows: its own argparse (`not`), the Trainer's (`{}`), or neither
 * (undefined); a program that shows neither is read through the local modules it imports. The
 * Trainer's parser is HfArgumentParser over a TrainingArguments: one over the program's own
 * dataclasses only makes the flags its own (`not`), one over dataclasses not read here is assumed.
 */
function parserReading(s: ShellDoc, name: string, text: string): { not?: string; assumed?: string } | undefined {
  const shown = (t: string, where?: string): { not?: string } | undefined => ownParser(name, t, where) ?? (TRAINER_PARSER.test(t) ? {} : undefined);
  const imported = importedTexts(s).join('\n');
  const found = shown(text) ?? (imported ? shown(imported, 'the modules it imports') : undefined);
  return found && !found.not ? (dataclassReading(s, name, text) ?? found) : found;
}

/**
 * The reading the dataclasses given to the program's HfArgumentParser (or TrlParser) make, in its text
 * or in the local modules it imports: the Trainer's (`{}`) when one is a TrainingArguments, the
 * program's own (`not`) when all are its own dataclasses, assumed when some cannot be told;
 * undefined when no such parser shows.
 */
function dataclassReading(s: ShellDoc, name: string, text: string): { not?: string; assumed?: string } | undefined {
  const d = programDataclasses(s, text);
  if (!d || d.kind === 'trainer') return d && {};
  if (d.kind === 'own') {
    const classes = d.classes.slice(0, 3).map((c) => `\`${c}\``).join(', ');
    return { not: `\`${name}\` hands its flags to HfArgumentParser over its own dataclasses (${classes}), none of them a TrainingArguments, so TrainingArguments do not read them` };
  }
  return { assumed: `\`${name}\` is taken to read these flags into TrainingArguments (${d.why})` };
}

/**
 * The dataclasses given to the HfArgumentParser of the program `text` (and of the local modules it
 * imports): asked by the detection twice and by the model, worked out once per script.
 */
function programDataclasses(s: ShellDoc, text: string): ParserDataclasses | undefined {
  const hit = dataclassesOnce.get(s);
  if (hit && hit.text === text) return hit.found;
  const found = parserDataclasses([text, ...importedTexts(s)]);
  dataclassesOnce.set(s, { text, found });
  return found;
}
const dataclassesOnce = new WeakMap<ShellDoc, { text: string; found: ParserDataclasses | undefined }>();

const TRAINER_PARSER = /\b(HfArgumentParser|TrlParser|\w*TrainingArguments|SFTConfig|DPOConfig|GRPOConfig|ORPOConfig|KTOConfig|RewardConfig)\b/;

/**
 * What turns the command line into TrainingArguments: Transformers' HfArgumentParser (and TRL's
 * TrlParser built on it). A TrainingArguments (or TRL config) only named or built with keywords in
 * code reads nothing from the command line.
 */
const ARGV_PARSER = /\b(HfArgumentParser|TrlParser|parse_args_into_dataclasses)\b/;

/**
 * Why a program's own argparse, not TrainingArguments, reads the flags, when its text (or, `where`,
 * that of the modules it imports) shows it does.
 */
function ownParser(name: string, text: string, where?: string): { not: string } | undefined {
  const own = parserFlags(text).map(fieldOf);
  const by = where ? ` (in ${where})` : '';
  if (own.includes('deepspeed') || own.includes('per_device_train_batch_size')) return { not: `\`${name}\` defines its flags with argparse itself${by}, not with TrainingArguments` };
  if (ARGV_PARSER.test(text)) return undefined;
  // Its own argparse parser and no parser of the Trainer's: the flags are its own (diffusers-style
  // scripts), also where it builds a TrainingArguments from them in code (`TrainingArguments(bf16=args.bf16, …)`).
  if (/\bArgumentParser\s*\(/.test(text)) return { not: `\`${name}\` reads its flags with argparse${by}, not with HfArgumentParser (a TrainingArguments it builds in code takes what the program hands it)` };
  return undefined;
}

/**
 * A parser that may hand the command line to TrainingArguments: HfArgumentParser, TrlParser, or a
 * subclass of either with a name of its own (alignment-handbook's `H4ArgumentParser`).
 */
const TRAINER_ARGV = /\b(HfArgumentParser|TrlParser|parse_args_into_dataclasses|\w+ArgumentParser)\b/;

/**
 * Why a program that can be read does not hand its command line to the Trainer's parser, when it
 * shows that: neither it nor the local modules it reaches show one (see reachedImports), and it reads
 * the command line with a parser of another kind, or reads `sys.argv` itself, or reaches every module
 * it imports; undefined when a module it imports is not here (its parser may be there).
 */
function withoutTrainerParser(s: ShellDoc, name: string, text: string): string | undefined {
  if (TRAINER_ARGV.test(text)) return undefined;
  const apart = readsApart(s, text, showsTrainerParser);
  if (!apart) return undefined;
  const none = 'nor do the modules of the workspace it imports show one';
  if ('reader' in apart) return `\`${name}\` reads its command line with ${apart.reader}, not with HfArgumentParser or TrlParser (${none}), so its flags are not TrainingArguments`;
  if ('argv' in apart) return `\`${name}\` reads \`sys.argv\` itself, not with HfArgumentParser or TrlParser (${none}), so its flags are not TrainingArguments`;
  return `neither \`${name}\` nor the modules of the workspace it imports hand the command line to HfArgumentParser or TrlParser, so its flags are not TrainingArguments`;
}

/** A module's text shows a parser that may hand the command line to TrainingArguments (`TRAINER_ARGV`). */
function showsTrainerParser(text: string): boolean {
  return TRAINER_ARGV.test(text.slice(0, 2_000_000));
}

/** The entry of a flag in the training command (either spelling), if it is given. */
function flagEntry(s: ShellDoc, field: string): { key: string; value: Node } | undefined {
  let found: { key: string; value: Node } | undefined;
  for (const e of s.root?.entries ?? []) if (fieldOf(e.key) === field) found = { key: e.key, value: e.value };
  return found;
}

/** A TrainingArguments field as the training command gives it (see TrainerValue). */
export function scriptArg(s: ShellDoc, name: string, reading: { not?: string; assumed?: string }, reader = 'the training script'): TrainerValue {
  const field = FIELDS[name];
  const e = flagEntry(s, name);
  const spelled = e?.key ?? `--${name}`;
  const unknown = (note: string): TrainerValue => ({ value: undefined, from: { kind: 'unknown', note }, spelled });
  if (!field) return unknown(`\`${name}\` is not read here`);
  if (reading.not) return unknown(reading.not);
  if (e) {
    const n = e.value;
    if (n.kind !== 'scalar') return unknown(`\`${spelled}\` is not a single value`);
    if (n.unknown) return unknown(n.unknown);
    const v = field.kind === 'bool' ? boolOf(n.value) : field.kind === 'str' ? (typeof n.value === 'string' ? n.value : undefined) : typeof n.value === 'number' ? n.value : undefined;
    if (v === undefined) return unknown(`\`${spelled}\` is not a value Shardwise reads`);
    const note = n.assumed ?? reading.assumed;
    const from: Provenance = note ? { kind: 'assumed', note, path: [e.key] } : { kind: 'written', path: [e.key] };
    return { value: v, from, at: [e.key], spelled };
  }
  const open = openReason(s);
  if (open) return unknown(open);
  return unsetArg(field, spelled, `the command does not pass \`--${name}\``, reader, reading.assumed);
}

/** The number of processes the launcher starts, when the command says (torchrun, deepspeed, srun, mpirun, accelerate). */
export function commandWorld(s: ShellDoc, settings: EngineSettings): Field<number> | undefined {
  const launched = launchers(s).some((l) => l.kind !== 'python');
  // Plain `python train.py` starts one process, unless something outside the script starts several.
  if (!launched) return settingWorld(settings);
  const world = scriptWorld(s, settings).world;
  // Without `--num_nodes` the DeepSpeed launcher runs on every node of its hostfile (`--hostfile`, else /job/hostfile when it exists).
  const last = launchers(s).filter((l) => l.kind !== 'python').pop();
  if (world && last?.kind === 'deepspeed' && !settings.worldSize && !last.args.has('--num_nodes') && !last.args.has('--num-nodes')) {
    return { value: world.value, from: { kind: 'assumed', note: 'the DeepSpeed launcher runs on one node (without `--num_nodes` it uses every node of its hostfile: `--hostfile`, else /job/hostfile when it exists)' } };
  }
  return world;
}

function launchers(s: ShellDoc): Launcher[] {
  const out: Launcher[] = [];
  for (let l = s.launcher; l; l = l.inner) out.push(l);
  return out;
}

/** The world size a setting gives (`world_size` in .shardwise.yaml, `# shardwise: world_size=8`). */
export function settingWorld(settings: EngineSettings): Field<number> | undefined {
  return settings.worldSize ? { value: settings.worldSize, from: { kind: 'setting', note: '`world_size` setting' } } : undefined;
}

/** The `--deepspeed` flag's path, when it is a known path (not a JSON text, not a bare switch). */
export function scriptDeepspeed(s: ShellDoc): { ref: string; at: string[] } | undefined {
  const e = flagEntry(s, 'deepspeed');
  return e && deepspeedPath(e.value, [e.key]);
}

/** Where an FSDP setting is passed (`--fsdp full_shard`), when one is. */
export function scriptFsdp(s: ShellDoc): string[] | undefined {
  const e = flagEntry(s, 'fsdp');
  const v = e?.value;
  if (!e || v?.kind !== 'scalar' || v.unknown) return undefined;
  return typeof v.value === 'string' && v.value.trim() !== '' && v.value.trim() !== 'False' ? [e.key] : undefined;
}
