#!/usr/bin/env node
// The one test command. `npm test` runs every layer in order; `npm test -- <layer>...` runs some.
//   unit  engine tests (annotated fixtures, fixes, syntax, features, properties), corpus, CLI, and
//         the bounded hostile-input suite (test/fuzz/bounded.test.ts), and the packages as users
//         install them (test/package: npm, pre-commit, the GitHub Action, the Python wheel, and
//         the release workflow's dry run, which runs under CI=true or SHARDWISE_RELEASE_DRY_RUN=1)
//   lsp   the built language server over stdio, and docs/editors.md's Neovim setup in a headless Neovim
//   e2e   the packaged .vsix in a real VS Code (code-server + Chromium)
// Every layer runs even when an earlier one failed, so one run shows everything; the exit code is
// non-zero if any failed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDependencies, ensureOsPackages } from './bootstrap.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
ensureDependencies(root);
// Chromium, pre-commit, Python's build and venv, Neovim, and what code-server compiles against
// (.ci/e2e-deps.sh); without them, the tests that need one are skipped with a notice (under CI=true they fail).
if (!ensureOsPackages(root, 'test')) console.log('test: OS packages are missing (above): the tests that need them are skipped, or fail under CI=true');
const requested = process.argv.slice(2);
const layers = requested.length ? requested : ['unit', 'lsp', 'e2e'];
for (const l of layers) {
  if (!['unit', 'lsp', 'e2e'].includes(l)) {
    console.error(`test: unknown layer ${l} (unit, lsp, e2e)`);
    process.exit(2);
  }
}

const results = [];
function step(name, cmd, args, env = {}) {
  const started = Date.now();
  console.log(`\n=== ${name}: ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = r.status === 0;
  results.push({ name, ok, seconds: ((Date.now() - started) / 1000).toFixed(1) });
  return ok;
}

function testFiles(...dirs) {
  return dirs.flatMap((d) => {
    const dir = join(root, d);
    return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.test.ts')).sort().map((f) => join(d, f)) : [];
  });
}

const node = process.execPath;
// The corpus of upstream configs lives beside the clone (../shared/corpus); without it the corpus
// tests are skipped, except under CI=true, where its absence fails them.
const corpus = process.env.SHARDWISE_CORPUS || join(root, '..', 'shared', 'corpus');
if (layers.includes('unit') && !existsSync(join(corpus, 'accelerate'))) {
  console.log(process.env.CI === 'true' ? `test: no corpus at ${corpus}: under CI=true the corpus tests fail` : `test: no corpus at ${corpus}: the corpus tests are skipped (set SHARDWISE_CORPUS to use one elsewhere)`);
}
const built = step('build', node, ['scripts/build.mjs']);
step('typecheck', node, ['node_modules/typescript/bin/tsc', '-p', '.']);
if (layers.includes('unit')) {
  step('unit, corpus and CLI tests', node, ['--import', 'tsx', '--test', ...testFiles('test/unit', 'test/corpus', 'test/cli')]);
  // On its own: its worker pool takes every core.
  step('hostile-input suite (bounded)', node, ['--import', 'tsx', '--test', 'test/fuzz/bounded.test.ts']);
  // Last, one file at a time: `npm pack` and the wheel build rewrite dist/ (production bundles).
  // The wheel test is skipped (failed under CI=true) without a Python that can build and make a venv.
  step('packages (npm, pre-commit, GitHub Action, Python wheel, release dry run)', node, ['--import', 'tsx', '--test', '--test-concurrency=1', ...testFiles('test/package')]);
}
if (layers.includes('lsp') && built) {
  step('language server tests', node, ['--import', 'tsx', '--test', ...testFiles('test/lsp')]);
  // Skipped without nvim, except under CI=true (.ci/e2e-deps.sh installs it).
  step('Neovim (headless, docs/editors.md config)', node, ['--import', 'tsx', '--test', 'test/editors/neovim.test.ts']);
}
if (layers.includes('e2e')) {
  if (step('package', 'npm', ['run', '--silent', 'package'])) step('real editor tests', node, ['test/e2e/run.mjs']);
}

console.log('\n=== summary');
for (const r of results) console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${r.seconds} s)`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
