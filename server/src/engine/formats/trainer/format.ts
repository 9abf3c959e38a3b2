/**
 * Fine-tuning recipes and launch commands the Transformers Trainer reads (formats/trainer/recipe.ts,
 * formats/trainer/script.ts), with the DeepSpeed JSON they name: the Trainer fills that JSON's
 * `"auto"` values from its TrainingArguments and stops on explicit ones that disagree.
 */
import { modelFromHfConfig } from '../../plan/models';
import type { Field } from '../../plan/plan';
import type { RecipeCommand, ShellDoc } from '../../syntax/shell';
import type { SourceDoc } from '../../syntax/sourcedoc';
import type { Path } from '../../types';
import { mapKeys, type Evidence } from '../evidence';
import type { FormatSupport, ModelInput } from '../format';
import type { LaunchPrecision, TrainerModel } from './model';
import { accelerateLauncher, launchPrecision, pluginJson, type AccelerateConfigRef } from './precision';
import { deepspeedPath, ownLoop, PROGRAM_NAMES, recipeArg, recipeEvidence, recipeProgram } from './recipe';
import { commandWorld, entryReading, fieldOf, scriptArg, scriptDeepspeed, scriptEvidence, scriptFsdp, settingWorld } from './script';
import { launched } from './launched';
import { llamafactoryWorld } from './launch';
import { trainerPlan } from './plan';
import { FIELDS } from './releases';

function detect(doc: SourceDoc): Evidence {
  return doc.syntax === 'shell' ? scriptEvidence(doc) : recipeEvidence(doc);
}

/** Where the recipe asks for DeepSpeed: a non-empty path or JSON text, or a mapping. */
function recipeDeepspeedSet(doc: SourceDoc): Path | undefined {
  const n = doc.node(['deepspeed']);
  if (n?.kind === 'map' && n.entries.length > 0) return ['deepspeed'];
  return n?.kind === 'scalar' && typeof n.value === 'string' && n.value.trim() !== '' && !n.unknown ? ['deepspeed'] : undefined;
}

/**
 * Where the recipe sets FSDP: `fsdp` as a non-empty option string (the Trainer's) or list (axolotl's),
 * or `true`, which TrainingArguments reads as full sharding (training_args.py@v4.57.6:1915-1920).
 */
function recipeFsdp(doc: SourceDoc): Path | undefined {
  const n = doc.node(['fsdp']);
  if (n?.kind === 'scalar' && ((typeof n.value === 'string' && n.value.trim() !== '') || n.value === true)) return ['fsdp'];
  if (n?.kind === 'seq' && n.items.length > 0) return ['fsdp'];
  return undefined;
}

/**
 * `accelerate launch --config_file acc.yaml train.py …` with no `--deepspeed`: the DeepSpeed JSON
 * the Accelerate config names (`deepspeed_config_file`), which the Trainer takes from Accelerate's
 * plugin and checks the same way (trainer.py@v4.57.6:5537-5575, `propagate_args_to_deepspeed`), the
 * config's `num_processes` when the command does not give `--num_processes`, and the mixed precision
 * the launch hands the Trainer.
 */
function viaAccelerate(s: ShellDoc, link: ModelInput['link'], name: string): { deepspeed?: NonNullable<TrainerModel['deepspeed']>; world?: Field<number>; precision?: LaunchPrecision } | undefined {
  const l = accelerateLauncher(s);
  if (!l) return undefined;
  const launch = s.accelerateConfig();
  const config = launch && link(launch.ref, 'accelerate');
  const acc = config?.analysis?.model;
  const ref: AccelerateConfigRef | undefined = launch && acc && config?.path && config.analysis ? { ref: launch.ref, path: config.path, doc: config.analysis.doc, model: acc } : undefined;
  // A `--config_file` that is named but not read leaves the precision unknown unless the command passes it.
  const precision = launchPrecision(launch && !ref ? { ...l, open: l.open ?? `${launch.ref} is not read` } : l, ref, name);
  if (!launch || !ref || !acc) return { precision };
  // `--num_processes` on the command overrides the config's, known or not (scriptWorld reads it).
  const overridden = l.args.has('--num_processes') || l.args.has('--num-processes');
  const world = !overridden && acc.numProcesses !== undefined && Number.isInteger(acc.numProcesses) && acc.numProcesses > 0 ? { value: acc.numProcesses, from: { kind: 'derived' as const, formula: `world = \`num_processes: ${acc.numProcesses}\` of ${launch.ref}` } } : undefined;
  const deepspeed = pluginJson(l, ref, link, launch.span, launch.ref);
  return { deepspeed, world, precision };
}

/**
 * The shape in the config.json of the folder the recipe loads the model from, when the repository
 * holds it (from_pretrained reads a local folder before it asks the Hub).
 */
function localModel(doc: SourceDoc, read: ModelInput['read']): TrainerModel['modelConfig'] {
  if (!read) return undefined;
  for (const key of ['model_name_or_path', 'base_model', '--model_name_or_path', '--model-name-or-path']) {
    const n = doc.node([key]);
    if (n?.kind !== 'scalar' || typeof n.value !== 'string' || n.unknown || n.assumed || /[$`*?]/.test(n.value) || !n.value.trim()) continue;
    const ref = `${n.value.trim().replace(/\/+$/, '')}/config.json`;
    const file = read(ref);
    if (file.text === undefined) return undefined;
    let json: unknown;
    try {
      json = JSON.parse(file.text);
    } catch {
      return undefined;
    }
    const hf = modelFromHfConfig(json);
    if ('problem' in hf) return undefined;
    const type = (json as Record<string, unknown>).model_type;
    return { ref, shape: hf.shape, family: typeof type === 'string' ? type : undefined, notes: hf.notes };
  }
  return undefined;
}

/** The recipe leaves `deepspeed` unset (absent or null): the Trainer then uses Accelerate's plugin, if the launch has one. */
function noDeepspeed(doc: SourceDoc): boolean {
  const n = doc.node(['deepspeed']);
  return n === undefined || (n.kind === 'scalar' && n.value === null && !n.unknown);
}

/** The JSON Accelerate's plugin names for a recipe, anchored on the recipe's first key (the link is written in the Accelerate config). */
function viaPlugin(doc: SourceDoc, by: ReturnType<typeof launched>): TrainerModel['deepspeed'] {
  const first = doc.root?.kind === 'map' ? doc.root.entries[0]?.key : undefined;
  return first === undefined ? undefined : by.deepspeed?.([first]);
}

function model(input: ModelInput): TrainerModel {
  const { doc, link } = input;
  const name = input.path?.split(/[\\/]/).pop() ?? 'this file';
  const follow = (d: { ref: string; at: Path } | undefined): TrainerModel['deepspeed'] => {
    if (!d) return undefined;
    // From a launch script, a relative path is looked for from the folder a `cd` before the command leads to.
    const linked = link((doc.syntax === 'shell' ? (doc as ShellDoc).launchRef(d.ref) : undefined) ?? d.ref, 'deepspeed');
    return { ref: d.ref, at: d.at, linked, model: linked?.analysis?.model };
  };
  if (doc.syntax === 'shell') {
    const s = doc as ShellDoc;
    const reading = entryReading(s);
    const direct = scriptDeepspeed(s);
    const accelerate = viaAccelerate(s, link, name);
    const entry = s.entrypoint?.path.split('/').pop() ?? 'the training script';
    const cli = s.recipeCli();
    if (cli) return cliModel(input, s, cli, reading);
    return {
      doc,
      name,
      program: `the TrainingArguments of \`${entry}\``,
      arg: (field) => scriptArg(s, field, reading),
      writes: (field) => (s.root?.entries ?? []).some((e) => fieldOf(e.key) === field),
      trainerReads: reading.not
        ? { value: false, from: { kind: 'derived', formula: reading.not } }
        : reading.assumed
          ? { value: true, from: { kind: 'assumed', note: reading.assumed } }
          : { value: true, from: { kind: 'derived', formula: `\`${entry}\` reads its flags with the Trainer's parser` } },
      deepspeed: reading.not ? undefined : direct ? follow(direct) : accelerate?.deepspeed,
      deepspeedSet: reading.not ? undefined : (direct?.at ?? accelerate?.deepspeed?.at),
      world: commandWorld(s, input.settings) ?? accelerate?.world,
      fsdp: reading.not ? undefined : scriptFsdp(s),
      modelConfig: localModel(doc, input.read),
      precision: reading.not ? undefined : accelerate?.precision,
    };
  }
  const { program } = recipeProgram(mapKeys(doc.root));
  const by = launched(input, input.settings);
  return {
    doc,
    name,
    recipeOf: program,
    program: PROGRAM_NAMES[program],
    ownLoop: ownLoop(doc),
    // A PPO recipe's own loop leaves every value unknown, whatever the command line sets.
    arg: (field) => (ownLoop(doc) ? recipeArg(doc, program, field) : by.arg(recipeArg(doc, program, field), FIELDS[field])),
    writes: (field) => doc.node([field]) !== undefined || by.overridden(field) !== undefined,
    trainerReads: { value: true, from: { kind: 'derived', formula: `${PROGRAM_NAMES[program]} hands the recipe to the Trainer's TrainingArguments` } },
    // A launch that sets `deepspeed` on its command line runs another JSON than the one named here;
    // with none named, the Trainer takes the one Accelerate's plugin names.
    deepspeed: by.overridden('deepspeed') ? undefined : noDeepspeed(doc) ? viaPlugin(doc, by) : follow(deepspeedPath(doc.node(['deepspeed']), ['deepspeed'])),
    deepspeedSet: recipeDeepspeedSet(doc),
    world: settingWorld(input.settings) ?? by.world,
    accelerate: by.accelerate,
    fsdp: recipeFsdp(doc),
    modelConfig: localModel(doc, input.read),
    precision: by.precision,
  };
}

/**
 * `llamafactory-cli train --stage sft … --deepspeed ds.json`: the flags are a LLaMA-Factory recipe,
 * read by its HfArgumentParser (src/llamafactory/hparams/parser.py@ff6d4d1:125-126, 156) and checked
 * as a recipe file is; the processes are the ones `llamafactory-cli` starts.
 */
function cliModel(input: ModelInput, s: ShellDoc, cli: RecipeCommand, reading: ReturnType<typeof entryReading>): TrainerModel {
  const direct = reading.not ? undefined : scriptDeepspeed(s);
  const linked = direct && input.link(direct.ref, 'deepspeed');
  const name = input.path?.split(/[\\/]/).pop() ?? 'this file';
  return {
    doc: s,
    name,
    recipeOf: 'llama-factory',
    program: PROGRAM_NAMES['llama-factory'],
    ...(reading.not ? { ownLoop: reading.not } : {}),
    arg: (field) => scriptArg(s, field, reading, PROGRAM_NAMES['llama-factory']),
    writes: (field) => (s.root?.entries ?? []).some((e) => fieldOf(e.key) === field),
    trainerReads: reading.not ? { value: false, from: { kind: 'derived', formula: reading.not } } : { value: true, from: { kind: 'derived', formula: '`llamafactory-cli train` hands its flags to the Trainer\'s TrainingArguments' } },
    deepspeed: direct && { ref: direct.ref, at: direct.at, linked, model: linked?.analysis?.model },
    deepspeedSet: direct?.at,
    world: settingWorld(input.settings) ?? llamafactoryWorld(cli).world,
    fsdp: reading.not ? undefined : scriptFsdp(s),
    modelConfig: localModel(s, input.read),
  };
}

export const trainerFormat: FormatSupport<TrainerModel> = {
  id: 'trainer',
  title: 'Transformers Trainer recipe',
  toolName: 'the Transformers Trainer',
  syntaxes: ['yaml', 'json', 'shell'],
  tool: 'transformers',
  detect,
  model,
  links(m: TrainerModel) {
    const f = m.deepspeed;
    const at = f?.at;
    return f && Array.isArray(at) ? [{ ref: f.ref, at, target: f.linked?.text !== undefined ? f.linked.path : undefined }] : [];
  },
  plan: trainerPlan,
};
