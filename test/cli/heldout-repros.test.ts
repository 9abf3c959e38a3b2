/**
 * The reproductions of false errors met on real repositories (../shared/heldout-repros, beside the
 * corpus; read in place, skipped like the corpus when it is not there): `shardwise check .` in that
 * folder, as its README says, gives no error at all. Each reproduction's class also has cases of its
 * own under test/rules/.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { corpusSkip, findCorpus } from '../corpus-path';
import { runCli, type JsonFinding } from './run-cli';

const DIR = join(dirname(findCorpus()), 'heldout-repros');

test('shardwise check . in the held-out reproductions: no error', { skip: corpusSkip() }, () => {
  assert.ok(existsSync(DIR), `no reproductions at ${DIR}`);
  const r = runCli(['check', '.', '--output-format', 'json', '--no-config'], { cwd: DIR });
  const found = JSON.parse(r.out) as JsonFinding[];
  const errors = found.filter((f) => f.severity === 'error').map((f) => `${f.file}:${f.range.start.line + 1} ${f.code} ${f.message}`);
  assert.deepEqual(errors, []);
  // The scripts were all read as launch scripts (nothing passes by not being looked at).
  const files = new Set(found.map((f) => f.file.replace(/^\.\//, '')));
  for (const script of ['k8s-world-size-fallback.sh', 'megatron-path-argument.sh', 'pinned-old-megatron.sh']) assert.ok(files.has(script), `${script} was not analysed`);
});
