import assert from 'node:assert/strict';
import { test } from 'node:test';
import { closest, isFlagSlip } from '../../server/src/engine/suggest';

test('did-you-mean names a spelling once, even when the candidate list holds it twice', () => {
  // NeMo's model keys and Megatron's arguments both have `deterministic_mode`.
  const keys = ['deterministic_mode', 'seq_length', 'deterministic_mode', 'determinism'];
  assert.deepEqual(closest('deteministic_mode', keys), ['deterministic_mode']);
  assert.deepEqual(closest('DETERMINISTIC_MODE', keys), ['deterministic_mode']);
});

test('did-you-mean keeps the limit after removing repeats', () => {
  const keys = ['abcd_x', 'abcd_x', 'abcd_y', 'abcd_z', 'abcd_w'];
  assert.deepEqual(closest('abcd_q', keys, 3), ['abcd_w', 'abcd_x', 'abcd_y']);
});

test('did-you-mean reaches a third of the word, at least one edit: two edits of a short word are another word', () => {
  const keys = ['amp', 'fp16', 'bf16', 'train_batch_size', 'stage3_param_persistence_threshold'];
  assert.deepEqual(closest('msamp', keys), []);
  assert.deepEqual(closest('fp61', keys), ['fp16']);
  assert.deepEqual(closest('ampp', keys), ['amp']);
  assert.deepEqual(closest('stage3_param_persitence_threshold', keys), ['stage3_param_persistence_threshold']);
  // Six letters: two edits.
  assert.deepEqual(closest('fp16xx', keys), ['fp16']);
});

test('a flag is a slip of another when a word is mistyped, dropped, added or swapped, or the separators differ; not when a short word is two letters off', () => {
  for (const [flag, real] of [
    ['--log-intervall', '--log-interval'],
    ['--sequence-paralell', '--sequence-parallel'],
    ['--tensor-parallel-size', '--tensor-model-parallel-size'],
    ['--seq_length', '--seq-length'],
    ['--seqlength', '--seq-length'],
    ['--size-micro-batch', '--micro-size-batch'],
  ])
    assert.ok(isFlagSlip(flag, real), `${flag} is a slip of ${real}`);
  // llm-jp's fork flags: `mpi` is two letters from `mup`, a word of three.
  for (const [flag, other] of [
    ['--use-mpi', '--use-mup'],
    ['--use-z-loss', '--moe-z-loss-coeff'],
    ['--use-palm-style-loss', '--use-mup'],
  ])
    assert.ok(!isFlagSlip(flag, other), `${flag} is no slip of ${other}`);
});
