#!/usr/bin/env node
// Recomputes the version facts of the schemas from the upstream git history.
//
//   node scripts/schema-history.mjs [--megatron <Megatron-LM git dir>] [--deepspeed <DeepSpeed git dir>] [--bridge <Megatron-Bridge git dir>] [--accelerate <accelerate git dir>] [--write] [--verbose]
//
// Each upstream has its module under scripts/history/, whose header says what it reads and what it
// computes: accelerate.mjs, megatron.mjs (with megatron-parser.mjs and, with --bridge, bridge.mjs),
// deepspeed.mjs; git.mjs, python.mjs and json.mjs read the mirrors, the Python sources and the
// schemas; write.mjs prints the changes and writes schemas/*.schema.json and schemas/history/*.json.
//
// Without --write nothing is changed: the script prints what it would change.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { accelerate } from './history/accelerate.mjs';
import { deepspeed } from './history/deepspeed.mjs';
import { megatron } from './history/megatron.mjs';
import { printChanges, writeSchema, writeSnapshot } from './history/write.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const write = argv.includes('--write');
const verbose = argv.includes('--verbose');
const megatronDir = opt('--megatron');
const deepspeedDir = opt('--deepspeed');
const bridgeDir = opt('--bridge');
const accelerateDir = opt('--accelerate');
if (!megatronDir && !deepspeedDir && !accelerateDir) {
  console.error('usage: node scripts/schema-history.mjs [--megatron <gitdir> [--bridge <gitdir>]] [--deepspeed <gitdir>] [--accelerate <gitdir>] [--write] [--verbose]');
  process.exit(2);
}

const schema = (name) => join(root, 'schemas', name);
const results = [];
const run = (name, compute) => {
  const r = compute(schema(name));
  printChanges(name, r.changes, { write, verbose });
  results.push(r);
};
if (accelerateDir) run('accelerate.schema.json', (path) => accelerate(accelerateDir, path));
if (megatronDir) run('megatron.schema.json', (path) => megatron(megatronDir, path, { bridgeDir, verbose }));
if (deepspeedDir) run('deepspeed.schema.json', (path) => deepspeed(deepspeedDir, path));
if (write) {
  for (const r of results) writeSchema(r);
  // The snapshots after every schema, Accelerate's, DeepSpeed's, then Megatron-LM's.
  const order = ['Accelerate', 'DeepSpeed', 'Megatron Core'];
  for (const r of [...results].sort((a, b) => order.indexOf(a.tool) - order.indexOf(b.tool))) for (const s of r.snapshots()) writeSnapshot(join(root, 'schemas/history'), s);
}
