/**
 * Megatron Core config fields that hold a function or object set in code (`x-value: "null"` in the
 * schema: the pipeline schedules' callbacks, the timers): what a run does with another value a
 * `--yaml-cfg`, Bridge or NeMo file writes there. No reader of those files turns text into a
 * function (yaml_arguments.py copies the field as written; Bridge and NeMo set it on the config), so
 * it stops where Megatron calls it, unless the training loop replaces it before.
 */
import { argAbsent, argGiven, argOff, argOn, argOnByDefault, parallelSize, type MegatronModel } from './model';
import { untracked } from '../../rules/certain';

export interface CallbackUse {
  /** `error`: the run calls it; `information`: the training loop replaces it first; `warning`: not settled here. */
  severity: 'error' | 'warning' | 'information';
  /** What happens, as a clause. */
  why: string;
}

const CALLED = 'and calling text stops the run with a TypeError (\'str\' object is not callable)';

/**
 * What the run does with a value other than null in the callback field `dest`, in a file of
 * `format`; `atLeast` answers whether the targeted Megatron Core release is at least a version.
 */
export function callbackUse(m: MegatronModel, dest: string, format: string, atLeast: (version: string) => boolean): CallbackUse {
  const bridge = format === 'megatron-bridge';
  const yamlCfg = format === 'megatron-yaml' && m.args.yamlCfg === true;
  const loop = bridge ? "Megatron Bridge's training setup" : "Megatron-LM's training loop";
  const unsettled: CallbackUse = { severity: 'warning', why: `Megatron calls or uses what this field holds where it needs it, ${CALLED}, unless code of the run sets the field first` };
  if (!bridge && !yamlCfg) return unsettled;
  switch (dest) {
    case 'no_sync_func':
      // Every schedule enters it as a context (`with no_sync_func():`, core/pipeline_parallel/schedules.py);
      // with --overlap-grad-reduce the setup asserts it is None first (training.py@core_v0.8.0:712-714,
      // Megatron-Bridge training/setup.py `_update_model_config_funcs`).
      return { severity: 'error', why: `every pipeline schedule enters it as a context for each microbatch, ${CALLED}; with \`--overlap-grad-reduce\` ${loop} stops earlier ("config.no_sync_func must be None")` };
    case 'grad_sync_func': {
      // Called by the pipelined schedules only (1F1B and interleaved, schedules.py); replaced where
      // the DDP wrapper overlaps and aligns the gradient reduction (training.py@core_v0.19.0 `train`,
      // Bridge setup.py `_update_model_config_funcs`). The case is chosen on the values as written
      // (untracked) and, where it settles the finding, read again tracked: a size from the
      // environment then weighs on it, while a switch a Bridge override leaves to the recipe only
      // leaves the warning that names it.
      const gradSync = (v: MegatronModel): CallbackUse | undefined => {
        const pp = parallelSize(v, 'pipeline_model_parallel_size');
        if (pp === 1) return { severity: 'information', why: 'only the pipeline-parallel schedules call it, and this file runs without pipeline parallelism, so the value is unused' };
        if (argOn(v, 'overlap_grad_reduce') && argOnByDefault(v, 'align_grad_reduce')) return { severity: 'information', why: `${loop} replaces it with the DDP wrapper's own function, since \`--overlap-grad-reduce\` is on and \`--align-grad-reduce\` is not off, so the value is unused` };
        if (pp !== undefined && pp > 1 && argOff(v, 'overlap_grad_reduce')) return { severity: 'error', why: `the pipeline-parallel schedules call it on each model chunk's parameters when its gradients are ready, ${CALLED}` };
        return undefined;
      };
      // Read again tracked, the values are the same, so the same case applies.
      if (gradSync(untracked(m))) return gradSync(m)!;
      return { severity: 'warning', why: `the pipeline-parallel schedules call it, ${CALLED}, unless ${loop} replaces it (with \`--overlap-grad-reduce\` and \`--align-grad-reduce\` on)` };
    }
    case 'timers':
    case 'grad_scale_func':
      // training.py@core_v0.8.0:992-993 (HEAD `train`); Bridge setup.py sets cfg.model.timers and, with an optimizer, grad_scale_func.
      return { severity: 'information', why: `${loop} replaces it before the first step, so the value is unused` };
    case 'finalize_model_grads_func':
      // Replaced unconditionally before core_v0.19.0 (training.py@core_v0.8.0:1010); from 0.19.0
      // Megatron-LM keeps a value already set ("Preserve a builder-installed finalize hook") and the
      // schedules call it after each backward pass. Bridge replaces it whenever it builds an optimizer.
      if (bridge || !atLeast('0.19.0')) return { severity: 'information', why: `${loop} replaces it before the first step, so the value is unused` };
      return { severity: 'error', why: `from Megatron Core 0.19.0 the training loop keeps a value already set, and every schedule calls it after the backward pass of each step, ${CALLED}` };
    case 'experimental_attention_variant_loss_scale_func':
      // From 0.19.0 forward_step_calc_loss looks the hook up after every forward step, on every
      // pipeline stage, and calls it whenever it is set (core/pipeline_parallel/schedules.py@core_v0.19.0:274-278,
      // 375-392; the same at d98e8a6); neither Megatron-LM nor Megatron Bridge sets the field.
      return { severity: 'error', why: `every pipeline schedule calls it after each forward step to hand it the loss scale, ${CALLED}` };
    case 'moe_grad_scale_func':
    case 'mtp_grad_scale_func':
      // From 0.19.0 forward_step_calc_loss calls the MoE hook after every forward step of a model with
      // experts (num_moe_experts set) and the MTP one of a model with MTP layers (mtp_num_layers set)
      // (schedules.py@core_v0.19.0:258-271, 350-373; the same at d98e8a6); nothing in Megatron-LM or
      // Megatron Bridge sets either field.
      return lossScaleHook(m, dest === 'moe_grad_scale_func' ? 'num_moe_experts' : 'mtp_num_layers');
    default:
      return unsettled;
  }
}

/** A loss-scale hook the schedules call after every forward step while `gate` is set (a model with experts, with MTP layers). */
function lossScaleHook(m: MegatronModel, gate: string): CallbackUse {
  const what = gate === 'num_moe_experts' ? 'a model with experts (`num_moe_experts` set)' : 'a model with multi-token prediction layers (`mtp_num_layers` set)';
  // As for grad_sync_func: the case is chosen on the file as written (untracked) and read again
  // tracked where it settles the finding; a gate a Bridge override leaves to the recipe leaves the
  // warning that names it.
  const settled = (v: MegatronModel): CallbackUse | undefined =>
    argGiven(v, gate)
      ? { severity: 'error', why: `every pipeline schedule calls it after each forward step of ${what} to scale that loss, ${CALLED}` }
      : argAbsent(v, gate)
        ? { severity: 'information', why: `the pipeline schedules call it only for ${what}, which this file is not, so the value is unused` }
        : undefined;
  if (settled(untracked(m))) return settled(m)!;
  return { severity: 'warning', why: `the pipeline schedules call it after each forward step of ${what}, ${CALLED}` };
}
