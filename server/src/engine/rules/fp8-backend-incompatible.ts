/**
 * fp8-backend-incompatible: an FP8 backend combined with a setup it does not support.
 */
import type { AccelerateModel } from '../formats/accelerate/model';
import { ramEfficientLoading, src } from '../formats/accelerate/helpers';
import { defineRule } from './rule';

/** The release whose Accelerator takes its FP8 backend from `fp8_config.backend` (ACCELERATE_FP8_BACKEND). */
const BACKEND_READ = '1.9.0';
/** The release whose launcher copies `fp8_config` onto its arguments (before, nothing reads the section). */
const KEY_READ = '1.4.0';

export default defineRule<AccelerateModel>({
  id: 'fp8-backend-incompatible',
  severity: 'error',
  formats: ['accelerate'],
  fixes: {
    'turn-off-ram-efficient-loading': { applicability: 'unsafe', changes: 'how the weights are loaded' },
  },
  docs: {
    summary: 'An FP8 backend with a setup it does not support: MS-AMP with FSDP or ZeRO-3, torchao with FSDP CPU-RAM-efficient loading, Transformer Engine with the E5M2 format.',
    why: 'Accelerate stops at startup for these: "`accelerate` + `MS-AMP` + `FSDP` is not supported", "MS-AMP is not supported for ZeRO Stage 3", and "torchao with FSDP2 and cpu_ram_efficient_loading is not supported". The last one bites silently configured files: FSDP\'s launcher turns efficient loading on when the key is absent. The two FSDP stops are reported from Accelerate 1.9.0, the first release whose Accelerator uses the backend the file names; 1.4 to 1.8 pick the backend from the installed packages, whatever the file says. MS-AMP with ZeRO-3 is reported from 1.4.0, where DeepSpeed\'s MS-AMP switch reads the key. Transformer Engine refuses `fp8_format: E5M2` when it builds its recipe ("Pure E5M2 training is not supported."); it is reported with `backend: TE` from 1.9.0, like the FSDP stops.',
    bad: 'distributed_type: FSDP\nnum_processes: 8\nmixed_precision: fp8\nfsdp_config:\n  fsdp_version: 2\nfp8_config:\n  backend: AO\n',
    good: 'distributed_type: FSDP\nnum_processes: 8\nmixed_precision: fp8\nfsdp_config:\n  fsdp_version: 2\n  fsdp_cpu_ram_efficient_loading: false\nfp8_config:\n  backend: AO\n',
    fix: 'Sets `fsdp_cpu_ram_efficient_loading: false` for torchao.',
    upstream: [
      { label: 'Accelerate v1.14.0, `utils/dataclasses.py`: MS-AMP with ZeRO-3', url: 'https://github.com/huggingface/accelerate/blob/v1.14.0/src/accelerate/utils/dataclasses.py#L1346' },
      { label: 'Accelerate v1.14.0, `accelerator.py`: torchao with FSDP2 and CPU-RAM-efficient loading', url: 'https://github.com/huggingface/accelerate/blob/v1.14.0/src/accelerate/accelerator.py#L524' },
    ],
  },
  check(ctx) {
    const m = ctx.model;
    if (m.mixedPrecision !== 'fp8') return;
    const backend = m.view.str(['fp8_config', 'backend']);
    if (!backend) return;
    const at = src(m, ['fp8_config', 'backend']);
    // The launcher exports the key as ACCELERATE_FP8_BACKEND from 1.4.0, but the Accelerator takes its
    // backend from it only from 1.9.0; 1.4 to 1.8 pick torchao, Transformer Engine or MS-AMP by what is
    // installed (accelerator.py), so which backend meets FSDP there is not settled by the file. DeepSpeed's
    // own MS-AMP switch reads the variable from 1.4.0 on.
    const chosen = ctx.atLeast(BACKEND_READ);
    if (backend === 'MSAMP' && m.distributedType === 'FSDP' && chosen) {
      ctx.report({ at, on: 'value', message: 'MS-AMP does not work with FSDP: accelerate stops ("`accelerate` + `MS-AMP` + `FSDP` is not supported"). Use DeepSpeed (stage 0–2) with MS-AMP, or Transformer Engine (`TE`) / torchao (`AO`) with FSDP.' });
    }
    if (backend === 'MSAMP' && m.distributedType === 'DEEPSPEED' && m.view.get(['deepspeed_config', 'zero_stage']) === 3 && ctx.atLeast(KEY_READ)) {
      ctx.report({ at, on: 'value', message: 'MS-AMP does not work with ZeRO stage 3: accelerate stops ("MS-AMP is not supported for ZeRO Stage 3"). Use stage 0, 1 or 2, or another FP8 backend.' });
    }
    // TERecipeKwargs reads the format from the launcher's ACCELERATE_FP8_FORMAT and hands it to Transformer
    // Engine's recipe, which asserts against pure E5M2 at every TE release (common/recipe).
    const format = m.view.str(['fp8_config', 'fp8_format']) ?? m.view.str(['fp8_config', 'format']);
    if (backend === 'TE' && chosen && typeof format === 'string' && format.toUpperCase() === 'E5M2') {
      const formatPath = m.view.has(['fp8_config', 'fp8_format']) ? ['fp8_config', 'fp8_format'] : ['fp8_config', 'format'];
      ctx.report({ at: src(m, formatPath), on: 'value', message: 'Transformer Engine does not train in pure E5M2: building its recipe stops ("Pure E5M2 training is not supported."). Use `HYBRID` (E4M3 forward, E5M2 gradients) or `E4M3`.' });
    }
    if (backend === 'AO' && m.distributedType === 'FSDP' && chosen && ramEfficientLoading(m)) {
      const explicit = m.view.has(['fsdp_config', 'fsdp_cpu_ram_efficient_loading']);
      const loadAt = src(m, ['fsdp_config', 'fsdp_cpu_ram_efficient_loading']);
      ctx.report({
        at: explicit ? loadAt : at,
        on: explicit ? 'value' : 'key',
        message: `torchao FP8 with FSDP cannot use CPU-RAM-efficient loading, which is ${explicit ? 'on here' : 'on by default for FSDP launches'}: accelerate stops ("torchao with FSDP2 and cpu_ram_efficient_loading is not supported"). Set \`fsdp_cpu_ram_efficient_loading: false\`.`,
        fixes: [{ kind: 'turn-off-ram-efficient-loading', title: 'Set `fsdp_cpu_ram_efficient_loading: false`', edits: [{ op: 'set', path: loadAt, value: false }], recommended: true }],
      });
    }
  },
});
