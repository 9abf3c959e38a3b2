/**
 * tensor-parallel-config-invalid: DeepSpeed's AutoTP settings (the training engine's
 * `tensor_parallel` section) that the engine refuses when it partitions the model.
 *
 * deepspeed/runtime/engine.py@v0.18.6:575-579 (_apply_autotp_partitioning, run only with
 * `autotp_size` above 1, engine.py@v0.18.6:279): a `tensor_parallel.tp.tp_size` (alias of
 * `tensor_parallel.tensor_parallel.tp_size`, runtime/tensor_parallel/config.py@v0.18.6:53) other
 * than 1 or `autotp_size` raises a ValueError. Before 0.18.6 the engine overwrote it without a check.
 *
 * With AutoTP on, the same method builds the `partition_config` (runtime/tensor_parallel/config.py@v0.18.6
 * get_partition_config_object → AutoTPConfig.from_dict), and each layer spec with a `shape` checks it
 * when it is made (module_inject/autotp_config.py@v0.18.6:135-162, the same at v0.19.5:145-172).
 */
import type { DeepSpeedModel } from '../formats/deepspeed/model';
import type { Path } from '../types';
import { runDsChecks, type DsCheck } from './helpers';
import { defineRule } from './rule';

/** A key of the nested section (`tp_size`, `tp_grain_size`) as a number, under either spelling of that section. */
function nested(m: DeepSpeedModel, key: string): { at: Path; value: number } | undefined {
  for (const inner of ['tp', 'tensor_parallel']) {
    const at: Path = ['tensor_parallel', inner, key];
    const value = m.num(at);
    if (value !== undefined) return { at, value };
  }
  return undefined;
}

/**
 * Why DeepSpeed refuses a layer spec's `shape` (TPLayerSpec._validate_shape_format, the first failing
 * test), or undefined where it accepts it or the spec is not read as written here.
 */
export function shapeRefusal(spec: unknown): string | undefined {
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) return undefined;
  const { shape, partition_dim: dimRaw, partition_type: typeRaw } = spec as Record<string, unknown>;
  if (!Array.isArray(shape)) return undefined;
  // partition_dim when written (None otherwise), else 0 for a column split and 1 for any other.
  let dim: number;
  if (dimRaw === undefined || dimRaw === null) {
    // An absent type is a column split; an explicit null reaches the spec as None, which is not COLUMN,
    // so its default dimension is 1 (AutoTPConfig.from_dict, `spec_dict.get("partition_type", "column")`).
    const type = typeRaw === undefined ? 'column' : typeRaw === null ? 'none' : typeof typeRaw === 'string' ? typeRaw.toLowerCase() : undefined;
    if (type !== 'column' && type !== 'row' && type !== 'skip' && type !== 'none') return undefined;
    dim = type === 'column' ? 0 : 1;
  } else if (typeof dimRaw === 'number' && Number.isInteger(dimRaw)) dim = dimRaw;
  else return undefined;
  if (dim < 0 || dim >= shape.length) return `its partition dimension ${dim}${dimRaw === undefined || dimRaw === null ? ' (the default for its partition type)' : ''} is outside a shape of ${shape.length} dimension${shape.length === 1 ? '' : 's'} ("AutoTP partition_dim … is out of range")`;
  for (let i = 0; i < shape.length; i++) {
    const d = shape[i];
    if (Array.isArray(d)) {
      if (i !== dim) return `it nests sizes at position ${i}, not at its partition dimension ${dim} ("nested tuple only allowed at partition_dim")`;
      if (d.length === 0) return 'its nested list of sizes is empty ("nested tuple cannot be empty")';
      for (const v of d) {
        if (Array.isArray(v)) return 'it nests sizes two levels deep ("supports only 1-level nesting")';
        if (typeof v !== 'number' || !Number.isInteger(v)) return undefined;
        if (v <= 0) return `its nested size ${v} is not positive ("nested sub-parameter sizes must be positive integers")`;
      }
    } else if (typeof d === 'number' && Number.isInteger(d)) {
      if (d === 0 || d < -1) return `its dimension ${d} is neither positive nor -1 ("AutoTP shape dimensions must be positive integers or -1")`;
    } else return undefined;
  }
  return undefined;
}

/** The layer specs whose `shape` DeepSpeed refuses, with why. */
function refusedShapes(m: DeepSpeedModel): { at: Path; why: string }[] {
  const specs = m.get(['tensor_parallel', 'partition_config', 'layer_specs']);
  if (!Array.isArray(specs)) return [];
  const out: { at: Path; why: string }[] = [];
  specs.forEach((spec, i) => {
    const why = shapeRefusal(spec);
    if (why) out.push({ at: ['tensor_parallel', 'partition_config', 'layer_specs', i, 'shape'], why });
  });
  return out;
}

/** The AutoTP degree when AutoTP is on (`autotp_size` above 1, engine.py@v0.18.6:279). */
function autotpOn(m: DeepSpeedModel): number | undefined {
  const auto = m.num(['tensor_parallel', 'autotp_size']);
  return auto !== undefined && auto > 1 ? auto : undefined;
}

const CHECKS: DsCheck[] = [
  {
    when: (m) => {
      const auto = autotpOn(m);
      const tp = nested(m, 'tp_size');
      return auto !== undefined && tp && tp.value !== 1 && tp.value !== auto ? tp.at : undefined;
    },
    since: '0.18.6',
    message: (m) => `\`tp_size\` ${nested(m, 'tp_size')?.value} beside \`autotp_size\` ${m.num(['tensor_parallel', 'autotp_size'])}: AutoTP partitions the model over \`autotp_size\` ranks, and DeepSpeed stops when it does ("tensor_parallel.tp.tp_size … does not match tensor_parallel.autotp_size"). Remove \`tp_size\` (the engine sets it to \`autotp_size\`), or write the same degree in both.`,
  },
  {
    // From 0.18.6 the engine hands the file's section to the heuristic parser when neither preset_model nor
    // partition_config gives a layout (runtime/engine.py@v0.18.6:585-614), which sets the grain size
    // (module_inject/replace_module.py@v0.18.6:325) and divides by it for the layers it does not split by
    // attention heads (module_inject/tp_shard.py@v0.18.6:63-64). Which layers those are depends on the model
    // (and, in later releases, on a Hugging Face tp_plan the engine may use instead), so a warning.
    when: (m) => {
      const grain = nested(m, 'tp_grain_size');
      const layout = m.get(['tensor_parallel', 'preset_model']) !== undefined || m.get(['tensor_parallel', 'partition_config']) !== undefined;
      return autotpOn(m) !== undefined && !layout && grain && grain.value === 0 ? grain.at : undefined;
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
    summary: 'DeepSpeed AutoTP settings the training engine refuses: a nested `tp_size` that is neither 1 nor `autotp_size`, a layer spec `shape` its check refuses, and a `tp_grain_size` of 0, which its heuristic parser divides by (a warning: it depends on the model).',
    why: 'With AutoTP on (`tensor_parallel.autotp_size` above 1) the training engine partitions the model over `autotp_size` ranks and sets the nested `tensor_parallel.tp.tp_size` to it. From DeepSpeed 0.18.6 it first checks that a written `tp_size` is 1 or that same degree, and stops with a ValueError when the job starts otherwise; earlier releases overwrote it silently. With AutoTP off the two are not compared. From 0.18.6 the engine also builds every layer spec of `partition_config` then, and checks each `shape`: a dimension of 0 or below -1, a nested list of sizes anywhere but at the partition dimension (`partition_dim`, else 0 for a column split and 1 for a row or skip one), an empty nested list or a size in it below 1, two levels of nesting, and a partition dimension outside the shape all stop it with a ValueError, whatever the model. From 0.18.6 the engine also hands the nested `tp_grain_size` to its heuristic parser when no `preset_model` or `partition_config` gives the layout; the parser splits MLP, `lm_head` and MoE layers (and every layer of a model that names no key/value head count) in grains of that size, so 0 divides by zero. That depends on the model\'s layers, so it is a warning; 0.16.4 to 0.18.5 train with a default section that never sees the key.',
    bad: '{\n  "train_micro_batch_size_per_gpu": 1,\n  "tensor_parallel": {"autotp_size": 2, "tp": {"tp_size": 4}},\n  "zero_optimization": {"stage": 1}\n}\n',
    good: '{\n  "train_micro_batch_size_per_gpu": 1,\n  "tensor_parallel": {"autotp_size": 2},\n  "zero_optimization": {"stage": 1}\n}\n',
    upstream: [
      { label: 'DeepSpeed v0.18.6, `engine.py`: a nested tp_size other than 1 or autotp_size stops AutoTP', url: 'https://github.com/deepspeedai/DeepSpeed/blob/v0.18.6/deepspeed/runtime/engine.py#L575-L579' },
      { label: 'DeepSpeed v0.19.5, `autotp_config.py`: a layer spec checks its shape when it is made', url: 'https://github.com/deepspeedai/DeepSpeed/blob/v0.19.5/deepspeed/module_inject/autotp_config.py#L145-L172' },
      { label: 'DeepSpeed v0.18.6, `tp_shard.py`: the heuristic parser divides a layer\'s size by tp_grain_size', url: 'https://github.com/deepspeedai/DeepSpeed/blob/v0.18.6/deepspeed/module_inject/tp_shard.py#L63-L64' },
    ],
  },
  check(ctx) {
    runDsChecks(ctx, CHECKS);
    // Each refused layer spec on its own. The specs are built whatever the model, as soon as AutoTP is on.
    if (!ctx.atLeast('0.18.6')) return;
    const m = ctx.model;
    for (const { at, why } of refusedShapes(m)) {
      ctx.separately(() => {
        const auto = autotpOn(m);
        if (auto === undefined) return;
        ctx.report({
          at: m.where(at),
          message: `This layer spec's \`shape\` is refused: ${why}. With AutoTP on (\`autotp_size\` ${auto}) DeepSpeed builds every layer spec of \`partition_config\` when the engine starts and stops with a ValueError on this one. Write each dimension as a positive size or -1 (inferred), with at most one nested list of positive sizes, at the partition dimension (\`partition_dim\`, else 0 for a column split and 1 for a row one).`,
        });
      });
    }
  },
});
