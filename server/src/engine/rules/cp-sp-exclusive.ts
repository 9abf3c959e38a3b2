/**
 * cp-sp-exclusive: context parallelism and sequence parallelism both enabled.
 */
import type { AccelerateModel } from '../formats/accelerate/model';
import { parallelismPassedOn, parallelSizes, pcKey, src } from '../formats/accelerate/helpers';
import { defineRule } from './rule';

/** The first Accelerate release that refuses CP and SP together. */
const REJECTED_SINCE = '1.13.0';

export default defineRule<AccelerateModel>({
  id: 'cp-sp-exclusive',
  severity: 'error',
  formats: ['accelerate'],
  docs: {
    summary: '`parallelism_config_cp_size` and `parallelism_config_sp_size` both above 1.',
    why: 'Context parallelism (FSDP2 ring attention) and DeepSpeed\'s ALST/Ulysses sequence parallelism split the sequence in two incompatible ways; since accelerate 1.13 the combination is rejected ("Context Parallelism (CP) and Sequence Parallelism (SP) are mutually exclusive"). Pick one.',
    bad: 'distributed_type: DEEPSPEED\nnum_processes: 4\nparallelism_config:\n  parallelism_config_cp_size: 2\n  parallelism_config_sp_size: 2\n',
    good: 'distributed_type: DEEPSPEED\nnum_processes: 4\nparallelism_config:\n  parallelism_config_dp_shard_size: 2\n  parallelism_config_sp_size: 2\n',
    upstream: [
      { label: 'Accelerate v1.14.0, `parallelism_config.py`: CP and SP are mutually exclusive', url: 'https://github.com/huggingface/accelerate/blob/v1.14.0/src/accelerate/parallelism_config.py#L331' },
    ],
  },
  check(ctx) {
    const m = ctx.model;
    const sizes = parallelSizes(m);
    if (!sizes || sizes.cp <= 1 || sizes.sp <= 1) return;
    // src/accelerate/parallelism_config.py@v1.13.0 line ~328 adds the check; 1.12 takes both sizes without it.
    if (!ctx.atLeast(REJECTED_SINCE)) return;
    // The refusal is ParallelismConfig's, built only where the launch passes the section on.
    if (!parallelismPassedOn(ctx, REJECTED_SINCE)) return;
    ctx.report({
      at: src(m, ['parallelism_config', pcKey('sp')]),
      related: [{ at: src(m, ['parallelism_config', pcKey('cp')]), message: `context parallelism is set here (cp ${sizes.cp})` }],
      message: `Context parallelism (cp ${sizes.cp}) and sequence parallelism (sp ${sizes.sp}) cannot be combined: accelerate stops ("mutually exclusive"). Keep \`cp_size\` with FSDP2, or \`sp_size\` with DeepSpeed, and set the other to 1.`,
    });
  },
});
