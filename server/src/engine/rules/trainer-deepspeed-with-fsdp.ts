/**
 * trainer-deepspeed-with-fsdp: a fine-tuning recipe that asks for both DeepSpeed and FSDP.
 */
import type { TrainerModel } from '../formats/trainer/model';
import { trainerChecks } from './helpers';
import { defineRule } from './rule';

export default defineRule<TrainerModel>({
  id: 'trainer-deepspeed-with-fsdp',
  severity: 'error',
  formats: ['trainer'],
  docs: {
    summary: 'A fine-tuning recipe or launch command that sets both `deepspeed` and `fsdp`.',
    why: 'The Transformers Trainer shards the model with one of them: `Trainer.__init__` stops with "Using --fsdp xxx together with --deepspeed is not possible, deactivate one of those flags" (transformers `trainer.py`, every release from 4.30 to 5.x), after the model has loaded; axolotl refuses the config earlier ("deepspeed and fsdp cannot be used together"). Keep one: ZeRO-3 through the DeepSpeed JSON, or FSDP through `fsdp` and `fsdp_config`.',
    bad: 'model_name_or_path: meta-llama/Llama-3.1-8B\noutput_dir: out\nper_device_train_batch_size: 2\nlearning_rate: 1.0e-5\nfsdp: full_shard auto_wrap\ndeepspeed: ds_z3.json\n',
    good: 'model_name_or_path: meta-llama/Llama-3.1-8B\noutput_dir: out\nper_device_train_batch_size: 2\nlearning_rate: 1.0e-5\nfsdp: full_shard auto_wrap\n',
  },
  check(ctx) {
    const m = ctx.model;
    if (!m.fsdp || !m.deepspeedSet || (m.ownLoop && m.recipeOf !== 'axolotl')) return;
    // The check is in Trainer.__init__ from 4.30 (the oldest read) to 5.x (trainer.py@v4.57.6:572-575).
    if (!trainerChecks(ctx)) return;
    ctx.report({
      at: m.fsdp,
      on: 'key',
      related: [{ at: m.deepspeedSet, on: 'key', message: 'DeepSpeed is asked for here' }],
      message: `${m.recipeOf === 'axolotl' ? 'axolotl refuses the config ("deepspeed and fsdp cannot be used together")' : 'The Transformers Trainer stops once the model has loaded ("Using --fsdp xxx together with --deepspeed is not possible, deactivate one of those flags")'}: DeepSpeed and FSDP both shard the model, and only one can. Keep one of \`fsdp\` and \`deepspeed\`.`,
    });
  },
});
