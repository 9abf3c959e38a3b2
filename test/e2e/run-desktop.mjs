#!/usr/bin/env node
// The same extension-host suite (dist/test/e2e/suite/index.js) under desktop VS Code, through
// @vscode/test-electron. It downloads VS Code on first use, so it needs a machine that can reach
// VS Code's download host (not this project's CI machines: there, use test/e2e/run.mjs); on Linux
// without a display run it under xvfb-run.
//
//   npm run test:desktop                      (VSCODE_VERSION=stable|insiders|1.91.0 to pick one)

import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTests } from '@vscode/test-electron';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const extensionTestsPath = join(repoRoot, 'dist/test/e2e/suite/index.js');
const examples = join(repoRoot, 'examples');
const MARK = '[shardwise-e2e]';

async function main() {
  for (const [file, hint] of [
    [join(repoRoot, 'dist/client/extension.js'), 'npm run build'],
    [extensionTestsPath, 'npm run build'],
    [examples, 'the examples/ folder'],
  ]) {
    if (!existsSync(file)) {
      console.error(`e2e-desktop: ${file} is missing (${hint})`);
      console.log('e2e-desktop: 0 passed, 1 failed');
      process.exit(1);
    }
  }
  // The tests edit files (a quick fix is applied and saved): give them a copy.
  const tmp = mkdtempSync(join(tmpdir(), 'shardwise-e2e-desktop-'));
  const workspace = join(tmp, 'examples');
  cpSync(examples, workspace, { recursive: true });
  // Count the suite's result lines as they pass through (the VS Code child's stdout is forwarded
  // to ours); MARK is the suite's prefix (test/e2e/suite/index.ts).
  let passed = 0;
  let failed = 0;
  let pending = '';
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk, ...rest) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const i = line.indexOf(MARK);
      if (i < 0) continue;
      const tail = line.slice(i + MARK.length).trim();
      if (tail.startsWith('pass: ')) passed++;
      else if (tail.startsWith('fail: ')) failed++;
    }
    return write(chunk, ...rest);
  };
  let error;
  try {
    await runTests({
      version: process.env.VSCODE_VERSION || 'stable',
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath,
      launchArgs: [workspace, '--disable-extensions'],
    });
  } catch (err) {
    error = err;
  } finally {
    process.stdout.write = write;
    rmSync(tmp, { recursive: true, force: true });
  }
  if (error) {
    console.error(`e2e-desktop: ${error?.message ?? error}`);
    if (failed === 0) failed = 1; // the run failed before any test could report
  } else if (passed === 0) {
    console.error('e2e-desktop: VS Code exited 0 but no test reported a pass');
    failed = 1;
  }
  console.log(`e2e-desktop: ${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}

main();
