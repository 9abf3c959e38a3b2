/**
 * The formats a config may link to or be linked from, with the model each is read into: a linked
 * file's model is typed by the format it is read as. Types only.
 */
import type { AccelerateModel } from './accelerate/model';
import type { DeepSpeedModel } from './deepspeed/model';
import type { TrainerModel } from './trainer/model';

export interface LinkableModels {
  accelerate: AccelerateModel;
  deepspeed: DeepSpeedModel;
  trainer: TrainerModel;
}

export type LinkableFormat = keyof LinkableModels;
