// Installs the project's npm dependencies when they are missing or older than the lockfile, and
// the OS packages of .ci/e2e-deps.sh when one is missing, so `npm start` and `npm test` work on a
// fresh clone. Uses only Node's standard library.
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

/**
 * The OS packages of `.ci/e2e-deps.sh` (`start`: what `npm start` needs; else all `npm test`
 * needs), installed when missing as that script can (root, or sudo without a password). True when
 * they are there; false, after the script said what to install, when they are not. On a system
 * without dpkg nothing is checked: the packages' names are Debian's.
 */
export function ensureOsPackages(root, which) {
  if (process.platform !== 'linux' || spawnSync('sh', ['-c', 'command -v dpkg-query'], { stdio: 'ignore' }).status !== 0) return true;
  const r = spawnSync('bash', [join(root, '.ci', 'e2e-deps.sh'), ...(which === 'start' ? ['start'] : [])], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  // Quiet when nothing was missing.
  if (r.stdout && !r.stdout.startsWith('e2e-deps: already installed')) process.stdout.write(r.stdout);
  return r.status === 0;
}
