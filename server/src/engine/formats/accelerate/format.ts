/**
 * Hugging Face Accelerate config files (`accelerate launch --config_file`), YAML or JSON.
 */
import schemaJson from '../../../../../schemas/accelerate.schema.json';
import { validate } from '../../schema/generated/accelerate';
import type { JsonSchema } from '../../schema/types';
import type { InstanceView } from '../../schema/view';
import type { SourceDoc } from '../../syntax/sourcedoc';
import type { FormatSupport, ModelInput } from '../format';
import type { AccelerateModel } from './model';
import { acceleratePlan } from './plan';

export const ACCELERATE_SCHEMA = schemaJson as unknown as JsonSchema;

/** Keys only an Accelerate config has at its top level. */
const STRONG = ['distributed_type', 'compute_environment', 'fsdp_config', 'megatron_lm_config', 'parallelism_config', 'fp8_config', 'dynamo_config', 'mpirun_config', 'main_training_function', 'num_machines', 'ec2_instance_type'];
/** Keys of a DeepSpeed config: a document with these is not an Accelerate config. */
const DEEPSPEED = ['zero_optimization', 'train_micro_batch_size_per_gpu', 'train_batch_size', 'optimizer', 'scheduler', 'gradient_accumulation_steps', 'fp16', 'bf16'];

/** The distributed types that run one process per device through torchrun. */
export const MULTI_DEVICE = ['MULTI_GPU', 'MULTI_NPU', 'MULTI_MLU', 'MULTI_SDAA', 'MULTI_MUSA', 'MULTI_XPU', 'MULTI_HPU', 'MULTI_NEURON'];

function deepspeedFileOf(view: InstanceView, link: ModelInput['link']): AccelerateModel['deepspeedFile'] {
  const ref = view.str(['deepspeed_config', 'deepspeed_config_file']);
  if (view.str(['distributed_type']) !== 'DEEPSPEED' || !ref || !ref.trim()) return undefined;
  const at = view.source(['deepspeed_config', 'deepspeed_config_file']) ?? ['deepspeed_config', 'deepspeed_config_file'];
  const linked = link(ref.trim(), 'deepspeed');
  return { ref: ref.trim(), at, linked, model: linked?.analysis?.model };
}

export const accelerateFormat: FormatSupport<AccelerateModel> = {
  id: 'accelerate',
  title: 'Accelerate config',
  toolName: 'accelerate',
  syntaxes: ['yaml', 'json'],
  tool: 'accelerate',
  schema: { json: ACCELERATE_SCHEMA, validate },
  detect(doc: SourceDoc): number {
    const root = doc.root;
    if (!root || root.kind !== 'map') return 0;
    const keys = new Set(root.entries.map((e) => e.key));
    if (DEEPSPEED.some((k) => keys.has(k) && k !== 'fp16') && !keys.has('distributed_type')) return 0;
    if (!STRONG.some((k) => keys.has(k)) && !(keys.has('num_processes') && keys.has('mixed_precision'))) return 0;
    const known = new Set(Object.keys({ ...ACCELERATE_SCHEMA.definitions?.cluster?.properties, ...ACCELERATE_SCHEMA.definitions?.sagemaker?.properties }));
    let score = 0;
    for (const k of keys) if (known.has(k)) score++;
    return score;
  },
  model({ view, link }: ModelInput): AccelerateModel {
    const sagemaker = view.get(['compute_environment']) === 'AMAZON_SAGEMAKER';
    const types = ACCELERATE_SCHEMA.definitions?.[sagemaker ? 'sagemaker' : 'cluster']?.properties?.distributed_type?.enum ?? [];
    const dt = view.str(['distributed_type']);
    const fsdpVersion = Number(view.get(['fsdp_config', 'fsdp_version']) ?? 1);
    return {
      view,
      sagemaker,
      distributedType: dt !== undefined && types.includes(dt) ? dt : undefined,
      fsdpVersion: Number.isFinite(fsdpVersion) ? fsdpVersion : 1,
      numProcesses: view.num(['num_processes']),
      numMachines: view.num(['num_machines']) ?? 1,
      machineRank: view.num(['machine_rank']) ?? 0,
      mixedPrecision: view.str(['mixed_precision']),
      hasSection: (section) => view.keys([section]).length > 0,
      deepspeedFile: deepspeedFileOf(view, link),
    };
  },
  links(m: AccelerateModel) {
    const f = m.deepspeedFile;
    return f ? [{ ref: f.ref, at: f.at, target: f.linked?.text !== undefined ? f.linked.path : undefined }] : [];
  },
  plan: acceleratePlan,
};
