/**
 * offload-nvme-without-path: NVMe offload with no `nvme_path`.
 */
import type { DeepSpeedModel } from '../formats/deepspeed/model';
import { strictSince } from '../schema/vocabulary';
import { defineRule } from './rule';

export default defineRule<DeepSpeedModel>({
  id: 'offload-nvme-without-path',
  severity: 'error',
  formats: ['deepspeed'],
  docs: {
    summary: '`offload_optimizer` or `offload_param` with `"device": "nvme"` and no `nvme_path`.',
    why: 'ZeRO-Infinity swaps to files under `nvme_path`; without it DeepSpeed fails once the swapper starts (`os.path.join(None, ...)`, or "\\"nvme_path\\" in DeepSpeed Config cannot be None if remote device is nvme" from `zero.Init`), after the model has been loaded. Point it at a local NVMe mount with room for the offloaded states. `"auto"` is filled only by a `DeepSpeedPlugin` built in code with an NVMe path: `accelerate launch` passes no NVMe path to the plugin (its `offload_*_nvme_path` config keys do not reach it), so there `"auto"` becomes the string `none`.',
    bad: '{\n  "train_micro_batch_size_per_gpu": 1,\n  "zero_optimization": {\n    "stage": 3,\n    "offload_param": { "device": "nvme" }\n  }\n}\n',
    good: '{\n  "train_micro_batch_size_per_gpu": 1,\n  "zero_optimization": {\n    "stage": 3,\n    "offload_param": { "device": "nvme", "nvme_path": "/local_nvme" }\n  }\n}\n',
    upstream: [
      { label: 'DeepSpeed v0.19.5, `zero/partition_parameters.py`: NVMe offload needs `nvme_path`', url: 'https://github.com/deepspeedai/DeepSpeed/blob/v0.19.5/deepspeed/runtime/zero/partition_parameters.py#L1199' },
    ],
  },
  check(ctx) {
    const m = ctx.model;
    for (const section of ['offload_optimizer', 'offload_param']) {
      const base = ['zero_optimization', section];
      if (String(m.get([...base, 'device']) ?? '').toLowerCase() !== 'nvme') continue;
      // NVMe offload only happens at stage 3 (optimizer offload below it is plain CPU offload).
      if (m.stage !== undefined && m.stage < 3) continue;
      const path = m.get([...base, 'nvme_path']);
      if (typeof path === 'string' && path.trim() !== '' && path !== 'auto') continue;
      if (path === 'auto' && m.referrers.length) continue;
      // Releases that read the section key by key (before its `x-strict-since`, 0.7.0) drop no "auto":
      // the text is the path, and DeepSpeed swaps into a folder of that name.
      const strict = strictSince(ctx.nav?.at(base, ctx.doc.value([]), ctx.schemaVersion));
      if (path === 'auto' && strict && !ctx.atLeast(strict)) continue;
      ctx.report({
        at: [...base, 'device'],
        on: 'value',
        message: `\`${section}\` goes to NVMe but has no \`nvme_path\`: DeepSpeed fails when it starts swapping (after the model is loaded). Add \`"nvme_path"\` pointing at a local NVMe mount with room for the offloaded ${section === 'offload_param' ? 'parameters' : 'optimizer states'}.`,
      });
    }
  },
});
