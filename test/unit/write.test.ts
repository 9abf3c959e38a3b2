/** Writing a fixed file: the original survives every failure, and a success keeps what it should. */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { replaceFile, WriteRefused } from '../../server/src/host/write';

const dir = mkdtempSync(join(tmpdir(), 'shardwise-write-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a file that changed since it was read is left as it is', () => {
  const file = join(dir, 'changed.yaml');
  writeFileSync(file, 'num_processes: 16\n');
  assert.throws(() => replaceFile(file, "mixed_precision: 'no'\n", 'num_processes: 8\n'), (e: unknown) => e instanceof WriteRefused && /changed since it was read/.test(e.message));
  assert.equal(readFileSync(file, 'utf8'), 'num_processes: 16\n');
});

test('a read-only file is left as it is, even for root', () => {
  const file = join(dir, 'ro.yaml');
  writeFileSync(file, 'a: 1\n');
  chmodSync(file, 0o444);
  assert.throws(() => replaceFile(file, 'a: 2\n', 'a: 1\n'), (e: unknown) => e instanceof WriteRefused && /read-only/.test(e.message));
  assert.equal(readFileSync(file, 'utf8'), 'a: 1\n');
});

test('a path that is not a readable file is refused, and nothing is left behind', () => {
  const folder = join(dir, 'folder.yaml');
  mkdirSync(folder);
  assert.throws(() => replaceFile(folder, 'a: 2\n', 'a: 1\n'), WriteRefused);
  assert.throws(() => replaceFile(join(dir, 'missing.yaml'), 'a: 2\n', 'a: 1\n'), WriteRefused);
  assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.tmp')), []);
});

test('a success replaces the content, keeps the mode, and through a symbolic link replaces the file it points at', () => {
  const target = join(dir, 'real.yaml');
  const link = join(dir, 'link.yaml');
  writeFileSync(target, 'a: 1\n');
  chmodSync(target, 0o640);
  symlinkSync(target, link);
  replaceFile(link, 'a: 2\n', 'a: 1\n');
  assert.equal(readlinkSync(link), target, 'the link is still a link');
  assert.equal(readFileSync(target, 'utf8'), 'a: 2\n');
  assert.equal(statSync(target).mode & 0o777, 0o640);
  assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.tmp')), []);
});
