import type { FormatId } from '../settings';
import { accelerateFormat } from './accelerate/format';
import { deepspeedFormat } from './deepspeed/format';
import { megatronBridgeFormat } from './megatron/bridge';
import { nemoFormat } from './megatron/nemo';
import { megatronArgsFormat } from './megatron/script';
import { megatronYamlFormat } from './megatron/yaml';
import { trainerFormat } from './trainer/format';
import type { FormatSupport } from './format';
import type { LinkableFormat, LinkableModels } from './models';

/** Every format the engine can detect; those with a schema are analysed. */
export const FORMATS: readonly FormatSupport<any>[] = [accelerateFormat, deepspeedFormat, megatronYamlFormat, megatronBridgeFormat, nemoFormat, megatronArgsFormat, trainerFormat];

export function formatById(id: FormatId): FormatSupport<any> | undefined {
  return FORMATS.find((f) => f.id === id);
}

/** The formats a config may link to or be linked from, each typed by the model it reads. */
export const LINKABLE: { [F in LinkableFormat]: FormatSupport<LinkableModels[F]> } = { accelerate: accelerateFormat, deepspeed: deepspeedFormat, trainer: trainerFormat };
