/**
 * sp-seq-length-required: fixed-length sequence parallelism without a usable sequence length.
 */
import type { AccelerateModel } from '../formats/accelerate/model';
import { parallelismPassedOn, parallelSizes, src } from '../formats/accelerate/helpers';
import { defineRule } from './rule';

/** The first Accelerate release with sequence parallelism (`parallelism_config_sp_size`). */
const SP_SINCE = '1.12.0';

export default defineRule<AccelerateModel>({
  id: 'sp-seq-length-required',
  severity: 'error',
  formats: ['accelerate'],
  docs: {
    summary: 'Under `DEEPSPEED`, `parallelism_config_sp_seq_length_is_variable: false` without `parallelism_config_sp_seq_length`, or a length the SP degree does not divide.',
    why: 'With a fixed sequence length, DeepSpeed\'s Ulysses sequence parallelism needs to know it and split it evenly across the `sp_size` ranks. `accelerate launch` exports a missing length as the text "None", which Accelerate reads back as no length; DeepSpeed then stops when Accelerate prepares the engine ("Either `seq_length_is_variable` needs to be `True` or `seq_length` needs to be set to an integer value"). Only the DeepSpeed launch reads the length: under `FSDP` or a `MULTI_*` type the sequence is not split at all (sp-requires-deepspeed warns about that) and nothing here is reported.',
    upstream: [
      { label: 'Accelerate v1.12.0, `accelerator.py`: the DeepSpeed preparation hands the SP length to DeepSpeed', url: 'https://github.com/huggingface/accelerate/blob/v1.12.0/src/accelerate/accelerator.py#L2340-L2366' },
      { label: 'DeepSpeed v0.18.2, `ulysses_sp.py`: a fixed length must be given', url: 'https://github.com/deepspeedai/DeepSpeed/blob/v0.18.2/deepspeed/runtime/sequence_parallel/ulysses_sp.py#L379-L382' },
    ],
    bad: 'distributed_type: DEEPSPEED\nnum_processes: 2\nparallelism_config:\n  parallelism_config_sp_size: 2\n  parallelism_config_sp_seq_length_is_variable: false\n',
    good: 'distributed_type: DEEPSPEED\nnum_processes: 2\nparallelism_config:\n  parallelism_config_sp_size: 2\n  parallelism_config_sp_seq_length_is_variable: false\n  parallelism_config_sp_seq_length: 8192\n',
  },
  check(ctx) {
    const m = ctx.model;
    const sizes = parallelSizes(m);
    if (!sizes || sizes.sp <= 1) return;
    // Only DeepSpeed's preparation reads the length (accelerator.py@v1.12.0:2340-2366, _prepare_deepspeed);
    // under FSDP or MULTI_* the SP handler takes the exported "None" back as None and nothing reads it.
    if (m.distributedType !== 'DEEPSPEED') return;
    // The DeepSpeed launch passes the section on from 1.12.0, the release SP arrived in.
    if (!parallelismPassedOn(ctx, SP_SINCE)) return;
    const variable = m.view.bool(['parallelism_config', 'parallelism_config_sp_seq_length_is_variable']) ?? true;
    const written = m.view.get(['parallelism_config', 'parallelism_config_sp_seq_length']);
    const length = m.view.num(['parallelism_config', 'parallelism_config_sp_seq_length']);
    // With a variable length Accelerate keeps none (utils/dataclasses.py@v1.12.0:2214-2221): nothing to check.
    if (variable) return;
    // A value that is not a number stops Accelerate's own int() first, which invalid-value says.
    if (written === undefined || written === null) {
      ctx.report({
        at: src(m, ['parallelism_config', 'parallelism_config_sp_seq_length_is_variable']),
        message: `Fixed-length sequence parallelism (sp ${sizes.sp}) needs \`parallelism_config_sp_seq_length\`: Accelerate reads the exported "None" back as no length, and DeepSpeed stops when Accelerate prepares the engine ("Either \`seq_length_is_variable\` needs to be \`True\` or \`seq_length\` needs to be set to an integer value"). Add the sequence length, or set \`parallelism_config_sp_seq_length_is_variable: true\`.`,
      });
    } else if (length !== undefined && Number.isInteger(length) && length % sizes.sp !== 0) {
      ctx.report({
        at: src(m, ['parallelism_config', 'parallelism_config_sp_seq_length']),
        on: 'value',
        severity: 'warning',
        message: `\`parallelism_config_sp_seq_length: ${length}\` is not divisible by \`sp_size: ${sizes.sp}\`: DeepSpeed's Ulysses splits the sequence evenly across the SP ranks and refuses a batch whose length the SP degree does not divide. Use a multiple of ${sizes.sp} (e.g. ${Math.ceil(length / sizes.sp) * sizes.sp}).`,
      });
    }
  },
});
