/**
 * The command-line phase of the hostile-input suite (test/fuzz/cli-oracle.ts): a config with safe
 * fixes passes it in every encoding a user saves, and each write the CLI must never make (through a
 * directory symlink, into a file that is not UTF-8, on a line no safe fix touches, dropping a BOM or
 * CRLF) is caught when it happens.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkCli, type Encoding } from '../fuzz/cli-oracle';
import type { FuzzInput } from '../fuzz/types';

const CONFIG = 'distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_versoin: 2\n  fsdp_version: 2\n';
const FILE = 'configs/accelerate.yaml';

function failures(enc: Encoding, afterFix?: (root: string) => void): string[] {
  const input: FuzzInput = { id: 'cli-0', category: 'cli', variant: 'cli:test', path: FILE, text: CONFIG };
  const out: string[] = [];
  checkCli(input, enc, (kind, signature) => out.push(`${kind}:${signature}`), (_name, f) => f(), afterFix);
  return out;
}

const edit = (root: string, f: (s: string) => string, path = join(root, 'repo', FILE)): void => writeFileSync(path, f(readFileSync(path, 'latin1')), 'latin1');

test('the CLI phase passes a config fixed in place, in every encoding a user saves', () => {
  for (const enc of ['utf8', 'bom', 'crlf', 'latin1'] as const) assert.deepEqual(failures(enc), [], enc);
});

test('the CLI phase catches each write the CLI must never make', () => {
  assert.deepEqual(failures('utf8', (root) => edit(root, (s) => `${s}# touched\n`, join(root, 'outside', 'accelerate.yaml'))), ['wrote-outside:cli:symlink']);
  assert.deepEqual(failures('latin1', (root) => edit(root, (s) => s.replace('\u00e9', '\u00e8'))), ['bytes-changed:cli:not-utf8']);
  assert.deepEqual(failures('utf8', (root) => edit(root, (s) => s.replace('num_processes: 8', 'num_processes: 4'))), ['bytes-changed:cli:outside-safe-fixes']);
  assert.deepEqual(failures('bom', (root) => edit(root, (s) => s.replace('\u00ef\u00bb\u00bf', ''))), ['bytes-changed:cli:bom-lost']);
  assert.deepEqual(failures('crlf', (root) => edit(root, (s) => s.replace('\r\n', '\n'))), ['bytes-changed:cli:crlf-lost']);
});
