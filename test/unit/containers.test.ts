import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CONTAINERS, containerReleases } from '../../server/src/engine/containers';
import { TOOLS } from '../../server/src/engine/settings';

const DIGEST = `sha256:${'0123456789abcdef'.repeat(4)}`;

test('every row cites a source: a URL, or a file at a tag or commit of a repository', () => {
  for (const row of CONTAINERS) {
    assert.ok(row.source.trim().length > 0, `${row.tag}: no source`);
    const url = /https:\/\/\S+/.test(row.source);
    const file = /\b(tag|commit) [\w.]+/.test(row.source) && /\bfile [\w./-]+/.test(row.source) && /\bline \d+/.test(row.source);
    assert.ok(url || file, `${row.tag}: the source names neither a URL nor a file at a tag or commit: ${row.source}`);
  }
});

test('every row names at least one release, and every release looks like one (digits and dots)', () => {
  for (const row of CONTAINERS) {
    const entries = Object.entries(row.releases);
    assert.ok(entries.length > 0, `${row.tag}: no release`);
    for (const [tool, version] of entries) {
      assert.ok((TOOLS as readonly string[]).includes(tool), `${row.tag}: ${tool} is not a tool`);
      assert.match(version!, /^\d+\.\d+\.\d+$/, `${row.tag}: ${tool} ${version}`);
    }
  }
});

test('one row per image and tag, sorted', () => {
  const keys = CONTAINERS.map((r) => `${r.image}:${r.tag}`);
  assert.equal(new Set(keys).size, keys.length);
  assert.deepEqual(keys, [...keys].sort());
  for (const r of CONTAINERS) assert.match(r.tag, /^\d{2}\.\d{2}(\.\d{2})?$/);
});

test('the spellings of a Dockerfile FROM, Pyxis --container-image and enroot import resolve to the row', () => {
  for (const ref of [
    'nvcr.io/nvidia/nemo:24.07',
    'nvcr.io#nvidia/nemo:24.07',
    'docker://nvcr.io#nvidia/nemo:24.07',
    'docker://nvcr.io/nvidia/nemo:24.07',
    'docker://$oauthtoken@nvcr.io#nvidia/nemo:24.07',
    'nvidia/nemo:24.07',
    `nvcr.io/nvidia/nemo:24.07@${DIGEST}`,
    `nvidia/nemo:24.07@${DIGEST}`,
    '  nvcr.io/nvidia/nemo:24.07\n',
  ]) {
    const found = containerReleases(ref);
    assert.ok(found, ref);
    assert.equal(found.row.tag, '24.07', ref);
    assert.equal(found.row.releases['megatron-core'], '0.8.0', ref);
  }
  assert.equal(containerReleases('nvcr.io/nvidia/nemo:24.09')?.row.releases['megatron-core'], '0.9.0');
  assert.equal(containerReleases('nvcr.io#nvidia/nemo:25.09')?.row.releases['megatron-core'], '0.14.0');
});

test('unknown images and tags, variables, moving tags and malformed references do not resolve', () => {
  for (const ref of [
    'nvcr.io/nvidia/nemo:${TAG}',
    'nvcr.io/nvidia/nemo:$TAG',
    'nvcr.io/nvidia/nemo:${TAG:-24.07}',
    '${IMAGE:-nvcr.io/nvidia/nemo:24.07}',
    'nvcr.io/nvidia/nemo:latest',
    'nvcr.io/nvidia/nemo:dev',
    'nvcr.io/nvidia/nemo',
    `nvcr.io/nvidia/nemo@${DIGEST}`,
    'nvcr.io/nvidia/nemo:24.07.01',
    'nvcr.io/nvidia/nemo:24.12',
    'nvcr.io/nvidia/nemo:25.11',
    'nvcr.io/nvidia/nemo:24.07.framework',
    'nvcr.io/nvidia/pytorch:24.07-py3',
    'nvcr.io/nvidia/nemo-rl:v0.5.0',
    'registry.example.com/nvidia/nemo:24.07',
    'nvcr.io/other/nemo:24.07',
    'nvcr.io/nvidia/nemo:24.07@sha256:abc',
    '',
  ]) {
    assert.equal(containerReleases(ref), undefined, ref);
  }
});
