/**
 * tensor-parallel-config-invalid: DeepSpeed's AutoTP settings (the training engine's
 * `tensor_parallel` section) that the engine refuses when it partitions the model.
 *
 * deepspeed/runtime/engine.py@v0.18.6:575-579 (_apply_autotp_partitioning, run only with
 * `autotp_size` above 1, engine.py@v0.18.6:279): a `tensor_parallel.tp.tp_size` (alias of
 * `tensor_parallel.tensor_parallel.tp_size`, runtime/tensor_parallel/config.py@v0.18.6:53) other
 * than 1 or `autotp_size` raises a ValueError. Before 0.18.6 the engine overwrote it without a check.
 */
import type { DeepSpeedModel } from '../formats/deepspeed/model';
import type { Path } from '../types';
import { runDsChecks, type DsCheck } from './helpers';
import { defineRule } from './rule';

/** The nested TP degree, under either spelling of the nested section. */
function nestedTp(m: DeepSpeedModel): { at: Path; value: number } | undefined {
  for (const inner of ['tp', 'tensor_parallel']) {
    const at: Path = ['tensor_parallel', inner, 'tp_size'];
    const value = m.num(at);
    if (value !== undefined) return { at, value };
  }
  return undefined;
}

/** The nested grain size, under either spelling of the nested section. */
function nestedGrain(m: DeepSpeedModel): { at: Path; value: number } | undefined {
  for (const inner of ['tp', 'tensor_parallel']) {
    const at: Path = ['tensor_parallel', inner, 'tp_grain_size'];
    const value = m.num(at);
    if (value !== undefined) return { at, value };
  }
  return undefined;
}

const CHECKS: DsCheck[] = [
  {
    when: (m) => {
      const auto = m.num(['tensor_parallel', 'autotp_size']);
      const nested = nestedTp(m);
      return auto !== undefined && auto > 1 && nested && nested.value !== 1 && nested.value !== auto ? nested.at : undefined;
    },
    since: '0.18.6',
    message: (m) => `\`tp_size\` ${nestedTp(m)?.value} beside \`autotp_size\` ${m.num(['tensor_parallel', 'autotp_size'])}: AutoTP partitions the model over \`autotp_size\` ranks, and DeepSpeed stops when it does ("tensor_parallel.tp.tp_size … does not match tensor_parallel.autotp_size"). Remove \`tp_size\` (the engine sets it to \`autotp_size\`), or write the same degree in both.`,
  },
  {
    // From 0.18.6 the engine hands the file's section to the heuristic parser when neither preset_model nor
    // partition_config gives a layout (runtime/engine.py@v0.18.6:585-614), which sets the grain size
    // (module_inject/replace_module.py@v0.18.6:325) and divides by it for the layers it does not split by
    // attention heads (module_inject/tp_shard.py@v0.18.6:63-64). Which layers those are depends on the model
    // (and, in later releases, on a Hugging Face tp_plan the engine may use instead), so a warning.
    when: (m) => {
      const auto = m.num(['tensor_parallel', 'autotp_size']);
      const grain = nestedGrain(m);
      const layout = m.get(['tensor_parallel', 'preset_model']) !== undefined || m.get(['tensor_parallel', 'partition_config']) !== undefined;
      return auto !== undefined && auto > 1 && !layout && grain && grain.value === 0 ? grain.at : undefined;
    },
    since: '0.18.6',
    severity: 'warning',
    message: (m) => `\`tp_grain_size\` 0 with AutoTP on (\`autotp_size\` ${m.num(['tensor_parallel', 'autotp_size'])}) and no \`preset_model\` or \`partition_config\`: DeepSpeed's heuristic parser splits the layers it does not divide by attention heads (MLP, \`lm_head\`, MoE projections, or every layer when the model names no key/value head count) in grains of this size, so it divides by zero (ZeroDivisionError) and stops when it partitions such a model. Whether the model has such layers, and whether the engine uses its Hugging Face \`tp_plan\` instead, is assumed, not read. Use a positive size (1, the default, splits as evenly as possible), or remove the key.`,
  },
];

export default defineRule<DeepSpeedModel>({
  id: 'tensor-parallel-config-invalid',
  severity: 'error',
  formats: ['deepspeed'],
  docs: {
    summary: 'DeepSpeed AutoTP settings the training engine refuses: a nested `tp_size` that is neither 1 nor `autotp_size`, and a `tp_grain_size` of 0, which its heuristic parser divides by (a warning: it depends on the model).',
    why: 'With AutoTP on (`tensor_parallel.autotp_size` above 1) the training engine partitions the model over `autotp_size` ranks and sets the nested `tensor_parallel.tp.tp_size` to it. From DeepSpeed 0.18.6 it first checks that a written `tp_size` is 1 or that same degree, and stops with a ValueError when the job starts otherwise; earlier releases overwrote it silently. With AutoTP off the two are not compared. From 0.18.6 the engine also hands the nested `tp_grain_size` to its heuristic parser when no `preset_model` or `partition_config` gives the layout; the parser splits MLP, `lm_head` and MoE layers (and every layer of a model that names no key/value head count) in grains of that size, so 0 divides by zero. That depends on the model\'s layers, so it is a warning; 0.16.4 to 0.18.5 train with a default section that never sees the key.',
    bad: '{\n  "train_micro_batch_size_per_gpu": 1,\n  "tensor_parallel": {"autotp_size": 2, "tp": {"tp_size": 4}},\n  "zero_optimization": {"stage": 1}\n}\n',
    good: '{\n  "train_micro_batch_size_per_gpu": 1,\n  "tensor_parallel": {"autotp_size": 2},\n  "zero_optimization": {"stage": 1}\n}\n',
    upstream: [
      { label: 'DeepSpeed v0.18.6, `engine.py`: a nested tp_size other than 1 or autotp_size stops AutoTP', url: 'https://github.com/deepspeedai/DeepSpeed/blob/v0.18.6/deepspeed/runtime/engine.py#L575-L579' },
      { label: 'DeepSpeed v0.18.6, `tp_shard.py`: the heuristic parser divides a layer\'s size by tp_grain_size', url: 'https://github.com/deepspeedai/DeepSpeed/blob/v0.18.6/deepspeed/module_inject/tp_shard.py#L63-L64' },
    ],
  },
  check(ctx) {
    runDsChecks(ctx, CHECKS);
  },
});
