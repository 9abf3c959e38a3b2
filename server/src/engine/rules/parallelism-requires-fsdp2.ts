/**
 * parallelism-requires-fsdp2: `parallelism_config` with a distributed type that cannot use it.
 */
import { MULTI_DEVICE } from '../formats/accelerate/format';
import type { AccelerateModel } from '../formats/accelerate/model';
import { parallelismPassedOn, parallelSizes, pcKey, src, total } from '../formats/accelerate/helpers';
import { isVersion, versionAtLeast } from '../version';
import { defineRule } from './rule';

export default defineRule<AccelerateModel>({
  id: 'parallelism-requires-fsdp2',
  severity: 'error',
  formats: ['accelerate'],
  fixes: {
    'set-fsdp-version-2': { applicability: 'unsafe', changes: 'the FSDP version' },
  },
  docs: {
    summary: '`parallelism_config` with FSDP1 or a distributed type that does not support it; context parallelism without FSDP2.',
    why: 'The N-D device mesh of `parallelism_config` works only with FSDP2, the `MULTI_*` types and DeepSpeed. Under FSDP1 (the default `fsdp_version`!) or `MEGATRON_LM` accelerate stops ("ParallelismConfig is only compatible DistributedType.FSDP (version 2) ..."). Context parallelism (`parallelism_config_cp_size > 1`) shards the model through FSDP2 and needs it under the `MULTI_*` types (under `DEEPSPEED` accelerate has no such check). The single-process, CPU and TPU launches (and the DeepSpeed launch before Accelerate 1.12.0) do not pass the section on, so nothing stops there and nothing is reported by this rule.',
    bad: 'distributed_type: FSDP\nnum_processes: 8\nparallelism_config:\n  parallelism_config_dp_shard_size: 4\n  parallelism_config_tp_size: 2\n',
    good: 'distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_version: 2\nparallelism_config:\n  parallelism_config_dp_shard_size: 4\n  parallelism_config_tp_size: 2\n',
    fix: 'Sets `fsdp_version: 2`.',
    upstream: [
      { label: 'Accelerate v1.14.0, `parallelism_config.py`: which distributed types take a `ParallelismConfig`', url: 'https://github.com/huggingface/accelerate/blob/v1.14.0/src/accelerate/parallelism_config.py#L385' },
    ],
  },
  check(ctx) {
    const m = ctx.model;
    const sizes = parallelSizes(m);
    const dt = m.distributedType;
    if (!sizes || !dt || m.sagemaker || total(sizes) <= 1) return;
    // A launch that does not pass the section on (accelerate utils/launch.py: the simple and TPU launches,
    // DeepSpeed's before 1.12.0) builds no ParallelismConfig, so nothing stops: irrelevant-section says so.
    if (!parallelismPassedOn(ctx)) return;
    const at = src(m, ['parallelism_config']);
    const versionFix = { kind: 'set-fsdp-version-2', title: 'Set `fsdp_version: 2`', edits: [{ op: 'set' as const, path: src(m, ['fsdp_config', 'fsdp_version']), value: 2 }], recommended: true };
    if (dt === 'FSDP' && m.fsdpVersion !== 2) {
      ctx.report({
        at,
        // With context parallelism AcceleratorState stops first, on its own check (state.py@v1.10.0:991-997).
        message: `\`parallelism_config\` needs FSDP2, but this FSDP config runs FSDP1 (\`fsdp_version\` ${m.view.has(['fsdp_config', 'fsdp_version']) ? `is ${m.fsdpVersion}` : 'defaults to 1'}): accelerate stops (${sizes.cp > 1 ? '"Using `cp_size>1` requires FSDP2, but the provided `fsdp_plugin` is using FSDP1."' : '"ParallelismConfig is only compatible DistributedType.FSDP (version 2)"'}). Set \`fsdp_version: 2\`.`,
        fixes: [versionFix],
      });
      return;
    }
    const eligible = dt === 'FSDP' || dt === 'DEEPSPEED' || MULTI_DEVICE.includes(dt);
    const release = ctx.schemaVersion;
    const deepspeedToo = !release || !isVersion(release) || versionAtLeast(release, '1.12.0');
    if (!eligible) {
      ctx.report({
        at,
        // DEEPSPEED joins the list in 1.12.0 (parallelism_config.py@v1.11.0:309, @v1.12.0:365); the
        // release only changes the quote, so it is read untracked.
        message: deepspeedToo
          ? `\`parallelism_config\` (a device mesh of ${total(sizes)} ranks) does not work with \`distributed_type: ${dt}\`: accelerate stops ("ParallelismConfig is only compatible DistributedType.FSDP (version 2) or DistributedType.Multi{Device} or DistributedType.DEEPSPEED"). Use \`FSDP\` with \`fsdp_version: 2\`, a \`MULTI_*\` type or \`DEEPSPEED\`.`
          : `\`parallelism_config\` (a device mesh of ${total(sizes)} ranks) does not work with \`distributed_type: ${dt}\`: accelerate stops ("ParallelismConfig is only compatible DistributedType.FSDP (version 2) or DistributedType.Multi{Device}"). Use \`FSDP\` with \`fsdp_version: 2\` or a \`MULTI_*\` type.`,
      });
      return;
    }
    // The CP stop belongs to AcceleratorState's branch of the MULTI_* types; the DEEPSPEED branch has none.
    if (sizes.cp > 1 && MULTI_DEVICE.includes(dt)) {
      ctx.report({
        at: src(m, ['parallelism_config', pcKey('cp')]),
        message: `Context parallelism (\`parallelism_config_cp_size: ${sizes.cp}\`) shards the model with FSDP2, and \`distributed_type: ${dt}\` has no FSDP plugin: accelerate stops ("cp_size > 1 specified in the parallelism_config, but no fsdp_plugin was provided"). Use \`distributed_type: FSDP\` with \`fsdp_version: 2\`.`,
      });
    }
  },
});
