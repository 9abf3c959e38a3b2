/**
 * A deprecated switch replaced by one of the opposite sense (`--disable-msc` by `--enable-msc`,
 * `--disable-chunked-prefill` by `--enable-chunked-prefill`): renaming the flag would turn on what the
 * file turns off. The schema maps such a value to its equivalent (`replacementValue`, `null` when
 * leaving the flag out is the equivalent), and deprecated-key never offers the rename.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze } from '../../server/src/engine';

const PROPS: Record<string, Record<string, any>> = JSON.parse(readFileSync(join(__dirname, '../../schemas/megatron.schema.json'), 'utf8')).properties;
/** A destination whose true value turns something off (`disable_msc`, `no_persist_layer_norm`). */
const negative = (dest: string) => /^(no|disable)_/.test(dest);

test('every deprecated store_true switch whose replacement has the opposite sense says what its value maps to', () => {
  const missing: string[] = [];
  let seen = 0;
  for (const [dest, p] of Object.entries(PROPS)) {
    const dep = p['x-deprecated'];
    const target = dep?.replacement ? PROPS[dep.replacement] : undefined;
    if (!target || p['x-action'] !== 'store_true' || negative(dest) === negative(dep.replacement)) continue;
    seen++;
    if (!dep.replacementValue || !('true' in dep.replacementValue)) missing.push(dest);
  }
  assert.ok(seen >= 2, 'the schema has such switches (--disable-msc, --disable-chunked-prefill)');
  assert.deepEqual(missing, []);
});

test('deprecated-key offers no rename onto a switch of the opposite sense, and its message does not advise one', () => {
  const text = '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --micro-batch-size 1 --global-batch-size 8 --disable-msc --disable-chunked-prefill\n';
  const found = analyze({ path: 'train.sh', text }, { targetVersions: { 'megatron-core': '0.18.0' } }).findings.filter((f) => f.code === 'deprecated-key');
  assert.equal(found.length, 2);
  for (const f of found) {
    assert.doesNotMatch(f.message, /Use `--enable-/);
    for (const fix of f.fixes()) assert.doesNotMatch(fix.title, /enable/i);
  }
});
