/**
 * missing-overlap-comm: ZeRO with data parallelism whose gradient reduction waits for the backward pass.
 */
import type { DeepSpeedModel } from '../formats/deepspeed/model';
import { defineRule } from './rule';

export default defineRule<DeepSpeedModel>({
  id: 'missing-overlap-comm',
  severity: 'information',
  formats: ['deepspeed'],
  fixes: {
    'turn-on': { applicability: 'unsafe', changes: 'a communication-overlap switch' },
  },
  docs: {
    summary: 'ZeRO stage 1–3 without `overlap_comm`: gradient reduction waits for the backward pass.',
    why: 'With `overlap_comm` DeepSpeed reduces gradient buckets while the backward pass still runs; without it every step waits for the whole reduction. It is on by default only at stage 3; DeepSpeed 0.4.4 to 0.12.x turn it off at stage 1 whatever the file says, so there is nothing to advise there. From 0.19.4, with `managed_gradient_accumulation: false`, DeepSpeed refuses it below stage 2, so it is not advised there either. The cost is memory: about 4.5× `reduce_bucket_size` + `allgather_bucket_size` elements of buffers (5e8 buckets ≈ 9 GB in 16-bit), so lower the bucket sizes (e.g. 2e8) if memory is tight.',
    bad: '{\n  "train_micro_batch_size_per_gpu": 4,\n  "zero_optimization": { "stage": 2 }\n}\n',
    good: '{\n  "train_micro_batch_size_per_gpu": 4,\n  "zero_optimization": { "stage": 2, "overlap_comm": true }\n}\n',
    fix: 'Sets `overlap_comm: true`.',
  },
  check(ctx) {
    const m = ctx.model;
    const p = ctx.plan;
    const stage = m.stage;
    if (stage === undefined || stage < 1 || !p || p.overlap.gradReduce?.value !== false) return;
    // One rank has nothing to reduce.
    if (p.dp !== undefined && p.dp.value <= 1) return;
    // Pipeline engines force it off; AMP has its own path.
    if (m.has(['pipeline']) || m.bool(['amp', 'enabled'])) return;
    // engine.py: stage 1 runs the old stage-1 optimizer, which has no overlap_comm, before 0.4.0 and,
    // with `legacy_stage1`, before 0.5.9 (from 0.5.9 that flag stops the engine).
    if (stage === 1 && (!ctx.atLeast('0.4.0') || m.bool(['zero_optimization', 'legacy_stage1']) === true)) return;
    // 0.4.4 to 0.12.x turn overlap_comm off at stage 1 whatever the file says (engine.py@v0.10.0:1432-1434,
    // "meaningless in stage 1"); 0.13.0 lets stage 1 overlap.
    if (stage === 1 && ctx.atLeast('0.4.4') && !ctx.atLeast('0.13.0')) return;
    // With `managed_gradient_accumulation: false` (0.19.4) DeepSpeed refuses overlap_comm below stage 2
    // (engine.py@v0.19.4:1650,1657-1658): the advice would make the file stop.
    if (stage === 1 && m.bool(['managed_gradient_accumulation']) === false && ctx.atLeast('0.19.4')) return;
    const written = m.has(['zero_optimization', 'overlap_comm']);
    const at = written ? m.where(['zero_optimization', 'overlap_comm']) : ['zero_optimization', 'stage'];
    ctx.report({
      at,
      on: written ? 'value' : 'key',
      message: `ZeRO stage ${stage} ${written ? 'with `overlap_comm: false`' : 'without `overlap_comm` (on by default only at stage 3)'}: every step waits for the whole gradient reduction after the backward pass. Set \`"overlap_comm": true\` to reduce buckets during the backward pass; it costs about 4.5× the bucket sizes in buffer memory, so lower \`reduce_bucket_size\`/\`allgather_bucket_size\` if memory is tight.`,
      fixes: [{ kind: 'turn-on', title: 'Set overlap_comm: true', edits: [{ op: 'set', path: ['zero_optimization', 'overlap_comm'], value: true }], recommended: true }],
    });
  },
});
