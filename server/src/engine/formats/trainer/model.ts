/** The model of a fine-tuning recipe or launch command the Transformers Trainer reads. Types only. */
import type { ModelShape } from '../../plan/memory';
import type { Field, Provenance } from '../../plan/plan';
import type { SourceDoc } from '../../syntax/sourcedoc';
import type { Path, Span } from '../../types';
import type { AccelerateModel } from '../accelerate/model';
import type { DeepSpeedModel } from '../deepspeed/model';
import type { Linked } from '../link';

/** The program that reads a recipe, from its keys. */
export type Program = 'llama-factory' | 'axolotl' | 'trainer';

/** A TrainingArguments field as the Trainer gets it, how that is known, and where it is written. */
export interface TrainerValue {
  value: number | boolean | string | undefined;
  from: Provenance;
  /** Where it is written in the document (the key, or the flag), when it is. */
  at?: Path;
  /** How the recipe spells it (`micro_batch_size` in axolotl). */
  spelled: string;
  /** Who sets the value that runs, when it is not this file (`train.sh sets \`per_device_train_batch_size=2\` on the command line`). */
  by?: string;
  /** Where that value is written, in the file that sets it (`at` stays the key this file writes, which it replaces). */
  over?: { path: string; doc: SourceDoc; span: Span };
}

/**
 * The mixed precision an `accelerate launch` command hands the Trainer: `--mixed_precision` on the
 * command, else the Accelerate config's `mixed_precision`; where it is written (in this document, in
 * the launch script `in`, or in the config `other`), and what the launch runs.
 */
export interface LaunchPrecision {
  /** Lower-cased as Accelerate reads it: `no`, `fp16`, `bf16`, `fp8`. */
  value: string;
  at: Path | Span;
  /** The file it is written in (the launch script, the Accelerate config), when it is not this document. */
  other?: { path: string; doc: SourceDoc };
  /** Where it comes from, in words. */
  said: string;
  /** The launch runs DeepSpeed through Accelerate's plugin (undefined: not known). */
  deepspeed: boolean | undefined;
  /** The plugin names a DeepSpeed JSON (`deepspeed_config_file`, or the command's `--deepspeed_config_file`). */
  jsonFile: boolean;
  /** The value is the config file's (Accelerate refuses it next to a DeepSpeed JSON). */
  fromConfig: boolean;
}

export interface TrainerModel {
  doc: SourceDoc;
  /** What reads the file, for messages: "LLaMA-Factory", "axolotl", "the training script's TrainingArguments". */
  program: string;
  /** The program a recipe's keys say reads it (undefined for a launch command, whose entry script reads the flags). */
  recipeOf?: Program;
  /** The field's value as the Trainer gets it (see TrainerValue). */
  arg(name: string): TrainerValue;
  /**
   * That the Transformers TrainingArguments read these arguments, and how that is known: a recipe's
   * program says so; a launched script's parser may only be assumed (not read, or imported from
   * elsewhere). Rules read it before judging, so an assumption caps their findings.
   */
  trainerReads: Field<boolean>;
  /** Whether the recipe or command sets the field at all (any value, either flag spelling). */
  writes(name: string): boolean;
  /**
   * The DeepSpeed JSON the recipe names (`deepspeed:` / `--deepspeed`), or that the Accelerate config
   * of `accelerate launch --config_file` names (`via`), and the file as the host found it. `at` is where
   * the reference is written: a path in this document, or the span of the `--config_file` value.
   */
  deepspeed?: {
    ref: string;
    at: Path | Span;
    linked?: Linked<DeepSpeedModel>;
    model?: DeepSpeedModel;
    via?: string;
    /** Where the reference is written when another file names it (the Accelerate config's `deepspeed_config_file`). */
    named?: { at: Path; other: { path: string; doc: SourceDoc } };
  };
  /** Where DeepSpeed is asked for (`deepspeed:` / `--deepspeed` with a path, a mapping or a JSON text), when it is. */
  deepspeedSet?: Path | Span;
  /** The number of processes the launcher starts, when the command says. */
  world?: Field<number>;
  /** Where an FSDP setting is written (the Trainer's `fsdp` / axolotl's `fsdp` or `fsdp_config`), when one is. */
  fsdp?: Path;
  /** Why the trainer that reads the recipe runs its own loop (PPO), if it does: the Trainer's own checks at `Trainer.__init__` and training start may not run. */
  ownLoop?: string;
  /**
   * The Accelerate config the scripts that launch this recipe name (`accelerate launch --config_file
   * acc.yaml train.py recipe.yaml`): its DeepSpeed plugin is the integration the Trainer checks the
   * recipe against when no DeepSpeed JSON is named.
   */
  accelerate?: { ref: string; path: string; doc: SourceDoc; model: AccelerateModel; script: string; options: string[]; open?: string };
  /** The mixed precision the `accelerate launch` commands that run this hand the Trainer, when they all hand the same one. */
  precision?: LaunchPrecision;
  /** The file's name, for messages. */
  name: string;
  /** The model's shape from the config.json of the folder `model_name_or_path`/`base_model` names, when the repository holds it. */
  modelConfig?: { ref: string; shape: ModelShape; family?: string; notes: string[] };
}
