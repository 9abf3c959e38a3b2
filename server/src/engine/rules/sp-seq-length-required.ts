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
    summary: '`parallelism_config_sp_seq_length_is_variable: false` without `parallelism_config_sp_seq_length`, or a length the SP degree does not divide.',
    why: 'With a fixed sequence length, Ulysses sequence parallelism needs to know it and split it evenly across the `sp_size` ranks. The plugin demands the length ("`sp_seq_length` must be provided"), but through `accelerate launch` the missing value arrives as the text "None", which fails later and less clearly.',
    bad: 'distributed_type: DEEPSPEED\nnum_processes: 2\nparallelism_config:\n  parallelism_config_sp_size: 2\n  parallelism_config_sp_seq_length_is_variable: false\n',
    good: 'distributed_type: DEEPSPEED\nnum_processes: 2\nparallelism_config:\n  parallelism_config_sp_size: 2\n  parallelism_config_sp_seq_length_is_variable: false\n  parallelism_config_sp_seq_length: 8192\n',
  },
  check(ctx) {
    const m = ctx.model;
    const sizes = parallelSizes(m);
    if (!sizes || sizes.sp <= 1) return;
    // The SP settings are read by the ParallelismConfig the launch builds only where it passes the section on.
    if (!parallelismPassedOn(ctx, SP_SINCE)) return;
    const variable = m.view.bool(['parallelism_config', 'parallelism_config_sp_seq_length_is_variable']) ?? true;
    const length = m.view.num(['parallelism_config', 'parallelism_config_sp_seq_length']);
    if (!variable && length === undefined) {
      ctx.report({
        at: src(m, ['parallelism_config', 'parallelism_config_sp_seq_length_is_variable']),
        message: `Fixed-length sequence parallelism (sp ${sizes.sp}) needs \`parallelism_config_sp_seq_length\`; without it the launcher passes the text "None" and the run fails at startup. Add the sequence length, or set \`parallelism_config_sp_seq_length_is_variable: true\`.`,
      });
    } else if (length !== undefined && Number.isInteger(length) && length % sizes.sp !== 0) {
      ctx.report({
        at: src(m, ['parallelism_config', 'parallelism_config_sp_seq_length']),
        on: 'value',
        severity: 'warning',
        message: `\`parallelism_config_sp_seq_length: ${length}\` is not divisible by \`sp_size: ${sizes.sp}\`: Ulysses splits the sequence evenly across the SP ranks. Use a multiple of ${sizes.sp} (e.g. ${Math.ceil(length / sizes.sp) * sizes.sp}).`,
      });
    }
  },
});
