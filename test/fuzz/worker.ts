/**
 * A fuzz worker thread: generates inputs (or takes them whole), runs the oracle and posts the
 * result. The pool's watchdog terminates it when an input runs too long; the stage it was in is
 * read from shared memory, so a true infinite loop is still reported with where it was.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { analyze } from '../../server/src/engine';
import { generate } from './generate';
import { check, STAGES, type OracleOptions } from './oracle';
import type { CheckResult, FuzzInput } from './types';
import type { Task, WorkerData } from './pool';

const data = workerData as WorkerData;
// [0]: the stage running now; [1 + i]: time spent so far in stage i, for the watchdog's report.
const stage = new Float64Array(data.stage);
const index = (s: string): number => STAGES.indexOf(s as (typeof STAGES)[number]);
const options: Partial<OracleOptions> = {
  ...data.oracle,
  onStage: (s) => void (stage[0] = index(s)),
  onStageDone: (s, ms) => void (stage[1 + index(s)] += ms),
};

// Warm up: the first analysis of each format loads its schema and validator; no input should pay for it.
for (const [path, text] of [
  ['a.yaml', 'distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_version: 2\n'],
  ['ds.json', '{"train_batch_size": 8, "zero_optimization": {"stage": 3}}'],
  ['t.sh', 'torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 32 --tensor-model-parallel-size 2\n'],
  ['tests/functional_tests/test_cases/gpt/x_1N8G/model_config.yaml', 'MODEL_ARGS:\n  --num-layers: 32\n'],
  ['override.yaml', 'model:\n  tensor_model_parallel_size: 2\ntrain:\n  global_batch_size: 8\n'],
  ['nemo.yaml', 'trainer:\n  devices: 8\n  num_nodes: 1\nmodel:\n  tensor_model_parallel_size: 2\n'],
]) {
  try {
    analyze({ path, text });
  } catch {
    // The oracle reports it on a real input.
  }
}

function run(input: FuzzInput): CheckResult {
  let result = check(input, options);
  // A slow input is timed once more: a hang is what reproduces, not a pause of the machine.
  if (result.failures.some((f) => f.kind === 'hang')) {
    stage.fill(0);
    parentPort!.postMessage({ type: 'attempt' });
    const again = check(input, options);
    if (!again.failures.some((f) => f.kind === 'hang')) result = again;
  }
  return result;
}

parentPort!.on('message', (task: Task) => {
  stage.fill(0);
  let input: FuzzInput;
  try {
    input = task.kind === 'gen' ? generate(task.category, task.index, task.seed, task.scale) : task.input;
  } catch (err) {
    parentPort!.postMessage({ type: 'result', result: { id: task.kind === 'gen' ? `${task.category}-${task.index}` : task.input.id, category: task.kind === 'gen' ? task.category : task.input.category, variant: 'generator', failures: [{ kind: 'crash', signature: `crash:generator:${(err as Error).message}`, detail: `the generator threw ${(err as Error).stack}` }], ms: 0, stages: {} } });
    return;
  }
  parentPort!.postMessage({ type: 'begin', id: input.id, variant: input.variant, size: input.text.length });
  parentPort!.postMessage({ type: 'result', result: run(input) });
});
parentPort!.postMessage({ type: 'ready' });
