// Installs the project's npm dependencies when they are missing or older than the lockfile, so
// `npm start` and `npm test` work on a fresh clone. Uses only Node's standard library.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function ensureDependencies(root) {
  const marker = join(root, 'node_modules', '.package-lock.json');
  const lock = join(root, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log('bootstrap: installing npm dependencies (npm ci)');
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('bootstrap: npm ci failed');
    process.exit(r.status ?? 1);
  }
}
