/**
 * Fine-tuning recipes and launch commands the Transformers Trainer reads (formats/trainer/recipe.ts,
 * formats/trainer/script.ts), with the DeepSpeed JSON they name: the Trainer fills that JSON's
 * `"auto"` values from its TrainingArguments and stops on explicit ones that disagree.
 */
import { modelFromHfConfig } from '../../plan/models';
import type { Field } from '../../plan/plan';
import type { ShellDoc } from '../../syntax/shell';
import type { SourceDoc } from '../../syntax/sourcedoc';
import type { Path } from '../../types';
import { mapKeys, type Evidence } from '../evidence';
import type { FormatSupport, ModelInput } from '../format';
import type { TrainerModel } from './model';
import { deepspeedPath, ownLoop, PROGRAM_NAMES, recipeArg, recipeEvidence, recipeProgram } from './recipe';
import { commandWorld, entryReading, fieldOf, scriptArg, scriptDeepspeed, scriptEvidence, scriptFsdp, settingWorld } from './script';
import { launched } from './launched';
import { trainerPlan } from './plan';

function detect(doc: SourceDoc): Evidence {
  return doc.syntax === 'shell' ? scriptEvidence(doc) : recipeEvidence(doc);
}

/** Where the recipe asks for DeepSpeed: a non-empty path or JSON text, or a mapping. */
function recipeDeepspeedSet(doc: SourceDoc): Path | undefined {
  const n = doc.node(['deepspeed']);
  if (n?.kind === 'map' && n.entries.length > 0) return ['deepspeed'];
  return n?.kind === 'scalar' && typeof n.value === 'string' && n.value.trim() !== '' && !n.unknown ? ['deepspeed'] : undefined;
}

/** Where the recipe sets FSDP: `fsdp` as a non-empty option string (the Trainer's) or list (axolotl's). */
function recipeFsdp(doc: SourceDoc): Path | undefined {
  const n = doc.node(['fsdp']);
  if (n?.kind === 'scalar' && typeof n.value === 'string' && n.value.trim() !== '') return ['fsdp'];
  if (n?.kind === 'seq' && n.items.length > 0) return ['fsdp'];
  return undefined;
}

/**
 * `accelerate launch --config_file acc.yaml train.py …` with no `--deepspeed`: the DeepSpeed JSON
 * the Accelerate config names (`deepspeed_config_file`), which the Trainer takes from Accelerate's
 * plugin and checks the same way (trainer.py@v4.57.6:5537-5575, `propagate_args_to_deepspeed`), and
 * the config's `num_processes` when the command does not give `--num_processes`.
 */
function viaAccelerate(s: ShellDoc, link: ModelInput['link']): { deepspeed: NonNullable<TrainerModel['deepspeed']>; world?: Field<number> } | undefined {
  const launch = s.accelerateConfig();
  if (!launch) return undefined;
  const { ref: name, span, launcher: l } = launch;
  const config = link(name, 'accelerate');
  const acc = config?.analysis?.model;
  const file = acc?.deepspeedFile;
  if (!acc || !file || acc.distributedType !== 'DEEPSPEED') return undefined;
  const linked = link(file.ref, 'deepspeed');
  // `--num_processes` on the command overrides the config's, known or not (scriptWorld reads it).
  const overridden = l.args.has('--num_processes') || l.args.has('--num-processes');
  const world = !overridden && acc.numProcesses !== undefined && Number.isInteger(acc.numProcesses) && acc.numProcesses > 0 ? { value: acc.numProcesses, from: { kind: 'derived' as const, formula: `world = \`num_processes: ${acc.numProcesses}\` of ${name}` } } : undefined;
  return { deepspeed: { ref: file.ref, at: span, linked, model: linked?.analysis?.model, via: name }, world };
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

function model(input: ModelInput): TrainerModel {
  const { doc, link } = input;
  const name = input.path?.split(/[\\/]/).pop() ?? 'this file';
  const follow = (d: { ref: string; at: Path } | undefined): TrainerModel['deepspeed'] => {
    if (!d) return undefined;
    const linked = link(d.ref, 'deepspeed');
    return { ref: d.ref, at: d.at, linked, model: linked?.analysis?.model };
  };
  if (doc.syntax === 'shell') {
    const s = doc as ShellDoc;
    const reading = entryReading(s);
    const direct = scriptDeepspeed(s);
    const accelerate = direct ? undefined : viaAccelerate(s, link);
    const entry = s.entrypoint?.path.split('/').pop() ?? 'the training script';
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
      deepspeed: reading.not ? undefined : (follow(direct) ?? accelerate?.deepspeed),
      deepspeedSet: reading.not ? undefined : (direct?.at ?? accelerate?.deepspeed.at),
      world: commandWorld(s, input.settings) ?? accelerate?.world,
      fsdp: reading.not ? undefined : scriptFsdp(s),
      modelConfig: localModel(doc, input.read),
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
    arg: (field) => by.arg(recipeArg(doc, program, field)),
    writes: (field) => doc.node([field]) !== undefined,
    trainerReads: { value: true, from: { kind: 'derived', formula: `${PROGRAM_NAMES[program]} hands the recipe to the Trainer's TrainingArguments` } },
    // A launch that sets `deepspeed` on its command line runs another JSON than the one named here.
    deepspeed: by.overridden('deepspeed') ? undefined : follow(deepspeedPath(doc.node(['deepspeed']), ['deepspeed'])),
    deepspeedSet: recipeDeepspeedSet(doc),
    world: settingWorld(input.settings) ?? by.world,
    accelerate: by.accelerate,
    fsdp: recipeFsdp(doc),
    modelConfig: localModel(doc, input.read),
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
