/**
 * sp-requires-deepspeed: ALST/Ulysses sequence parallelism outside DeepSpeed.
 */
import type { AccelerateModel } from '../formats/accelerate/model';
import { parallelSizes, pcKey, src } from '../formats/accelerate/helpers';
import { defineRule } from './rule';

export default defineRule<AccelerateModel>({
  id: 'sp-requires-deepspeed',
  severity: 'warning',
  formats: ['accelerate'],
  docs: {
    summary: '`parallelism_config_sp_size > 1` with a distributed type other than `DEEPSPEED`.',
    why: 'Accelerate\'s sequence parallelism is DeepSpeed\'s ALST/Ulysses (`sp_backend: deepspeed`, the only backend); the documentation requires `distributed_type: DEEPSPEED`. Elsewhere the SP ranks are not wired into attention and the sequence is not split, so the memory saving you planned for does not happen.',
    bad: 'distributed_type: MULTI_GPU\nnum_processes: 2\nparallelism_config:\n  parallelism_config_sp_size: 2\n',
    good: 'distributed_type: DEEPSPEED\nnum_processes: 2\nparallelism_config:\n  parallelism_config_sp_size: 2\n',
  },
  check(ctx) {
    const m = ctx.model;
    const sizes = parallelSizes(m);
    if (!sizes || sizes.sp <= 1 || !m.distributedType || m.distributedType === 'DEEPSPEED') return;
    ctx.report({
      at: src(m, ['parallelism_config', pcKey('sp')]),
      related: [{ at: src(m, ['distributed_type']), on: 'entry', message: `\`distributed_type: ${m.distributedType}\` is chosen here` }],
      message: `Sequence parallelism (\`sp_size: ${sizes.sp}\`) is DeepSpeed's ALST/Ulysses and needs \`distributed_type: DEEPSPEED\`; under \`${m.distributedType}\` the sequence is not split across these ranks. Switch to DeepSpeed, or use context parallelism (\`cp_size\`) with FSDP2.`,
    });
  },
});
