/**
 * The formats a config may link to or be linked from, with the model each is read into: a linked
 * file's model is typed by the format it is read as. Types only.
 */
import type { AccelerateModel } from './accelerate/model';
import type { DeepSpeedModel } from './deepspeed/model';

export interface LinkableModels {
  accelerate: AccelerateModel;
  deepspeed: DeepSpeedModel;
}

export type LinkableFormat = keyof LinkableModels;
