/**
 * DeepSpeed facts the schema states in its own words, checked against what upstream does (the
 * comment above each assertion names the file and tag; deepspeedai/DeepSpeed).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const SCHEMA = JSON.parse(readFileSync(join(__dirname, '../../schemas/deepspeed.schema.json'), 'utf8'));
const prop = (...path: string[]) => path.reduce((s, k) => s.properties[k], SCHEMA);

test('every key DeepSpeed converts with its dtype table takes every name of the table, int8 included', () => {
  // deepspeed/runtime/config.py@v0.19.5:101-105 (DtypeEnum; the same names in inference/config.py@v0.7.6,
  // which the engine imported before 0.9.0): each spelling of each member passes the conversion.
  const table = ['fp16', 'torch.float16', 'float16', 'half', 'fp32', 'torch.float32', 'float32', 'float', 'int8', 'torch.int8', 'bf16', 'torch.bfloat16', 'bfloat16'];
  for (const path of [['torch_autocast', 'dtype'], ['data_types', 'grad_accum_dtype'], ['data_types', 'param_dtype'], ['data_types', 'buffer_dtype']]) {
    const p = prop(...path);
    assert.deepEqual([...p.enum].sort(), [...table].sort(), path.join('.'));
    assert.equal(p.markdownEnumDescriptions.length, p.enum.length, path.join('.'));
  }
});

test('find_unused_parameters and ignore_unused_parameters have the same sense; only the default flipped', () => {
  // runtime/zero/stage2.py@v0.3.16:900 asserts find_unused_parameters on an unused parameter, and
  // @v0.4.0:985 asserts ignore_unused_parameters the same way: true tolerates in both; the default went
  // from False (zero/constants.py@v0.3.16:123) to True (@v0.4.0:121).
  const old = prop('zero_optimization', 'find_unused_parameters');
  for (const text of [old.description, old.markdownDescription]) {
    assert.doesNotMatch(text, /opposite/);
    assert.match(text, /same sense/);
  }
  assert.equal(old.default, false);
  assert.equal(prop('zero_optimization', 'ignore_unused_parameters').default, true);
});
