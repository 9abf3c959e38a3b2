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
];

export default defineRule<DeepSpeedModel>({
  id: 'tensor-parallel-config-invalid',
  severity: 'error',
  formats: ['deepspeed'],
  docs: {
    summary: 'DeepSpeed AutoTP settings the training engine refuses: a nested `tp_size` that is neither 1 nor `autotp_size`.',
    why: 'With AutoTP on (`tensor_parallel.autotp_size` above 1) the training engine partitions the model over `autotp_size` ranks and sets the nested `tensor_parallel.tp.tp_size` to it. From DeepSpeed 0.18.6 it first checks that a written `tp_size` is 1 or that same degree, and stops with a ValueError when the job starts otherwise; earlier releases overwrote it silently. With AutoTP off the two are not compared.',
    bad: '{\n  "train_micro_batch_size_per_gpu": 1,\n  "tensor_parallel": {"autotp_size": 2, "tp": {"tp_size": 4}},\n  "zero_optimization": {"stage": 1}\n}\n',
    good: '{\n  "train_micro_batch_size_per_gpu": 1,\n  "tensor_parallel": {"autotp_size": 2},\n  "zero_optimization": {"stage": 1}\n}\n',
    upstream: [
      { label: 'DeepSpeed v0.18.6, `engine.py`: a nested tp_size other than 1 or autotp_size stops AutoTP', url: 'https://github.com/deepspeedai/DeepSpeed/blob/v0.18.6/deepspeed/runtime/engine.py#L575-L579' },
    ],
  },
  check(ctx) {
    runDsChecks(ctx, CHECKS);
  },
});
