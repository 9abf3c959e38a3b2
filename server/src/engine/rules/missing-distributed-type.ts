/**
 * missing-distributed-type: an Accelerate config without `distributed_type`.
 */
import type { AccelerateModel } from '../formats/accelerate/model';
import { code } from './helpers';
import { defineRule } from './rule';

export default defineRule<AccelerateModel>({
  id: 'missing-distributed-type',
  severity: 'error',
  formats: ['accelerate'],
  fixes: {
    'add-distributed-type': { applicability: 'unsafe', changes: 'the distributed backend, guessed from the other keys' },
  },
  docs: {
    summary: 'The config has no `distributed_type`.',
    why: 'The type is mandatory at every release: from accelerate 0.34 loading stops with "A `distributed_type` must be specified in the config file.", and before it the field has no default, so loading the config fails on the missing argument. It also decides which sections the launcher reads at all.',
    bad: 'num_processes: 8\nmixed_precision: bf16\n',
    good: 'distributed_type: MULTI_GPU\nnum_processes: 8\nmixed_precision: bf16\n',
    fix: 'Adds `distributed_type`, guessed from the sections present (FSDP, DeepSpeed, Megatron-LM) or the process count.',
  },
  check(ctx) {
    const m = ctx.model;
    // Only an absent key stops the load. A key written with no value (null) is present: it loads at
    // every release, and the launcher, matching it with no type, starts a single process as for `NO`.
    if (m.view.has(['distributed_type']) || ctx.doc.node(['distributed_type'])) return;
    const guess = m.sagemaker ? 'DATA_PARALLEL' : m.hasSection('fsdp_config') ? 'FSDP' : m.hasSection('deepspeed_config') ? 'DEEPSPEED' : m.hasSection('megatron_lm_config') ? 'MEGATRON_LM' : (m.numProcesses ?? 1) > 1 ? 'MULTI_GPU' : 'NO';
    ctx.report({
      at: [],
      message: `This Accelerate config has no \`distributed_type\`: accelerate refuses to load it (from 0.34: "A \`distributed_type\` must be specified"; before, a missing-argument error). Add one; from the rest of the file it looks like ${code(guess)}.`,
      fixes: [{ kind: 'add-distributed-type', title: `Add \`distributed_type: ${guess}\``, edits: [{ op: 'set', path: ['distributed_type'], value: guess }], recommended: true }],
    });
  },
});
