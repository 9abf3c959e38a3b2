/**
 * What the package tests install from: the working tree as a fresh clone of it would hold it
 * (tracked and untracked files, not what .gitignore ignores: no node_modules, no dist), so that an
 * uncommitted change is what is tested. And the environment nested npm and pre-commit runs get.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const root = join(__dirname, '..', '..');

export function copyWorkingTree(dest: string): void {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--deduplicate'], { cwd: root, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files failed in ${root}: ${listed.stderr}`);
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    // A tracked file deleted in the working tree is not part of it.
    if (!existsSync(join(root, file))) continue;
    mkdirSync(dirname(join(dest, file)), { recursive: true });
    copyFileSync(join(root, file), join(dest, file));
  }
}

/**
 * The environment without the outer `npm test`'s npm settings (scripts/npm-env.mjs), taking
 * packages from npm's cache first: the install that `npm ci` did before the tests already holds them.
 */
export async function cleanEnv(extra: NodeJS.ProcessEnv = {}): Promise<NodeJS.ProcessEnv> {
  const { npmFreeEnv } = (await import(join(root, 'scripts', 'npm-env.mjs'))) as { npmFreeEnv: () => NodeJS.ProcessEnv };
  return { ...npmFreeEnv(), npm_config_prefer_offline: 'true', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', ...extra };
}

/** A skip reason when `command` is missing, except under CI=true, where every tool must be there. */
export function missing(command: string, why: string): string | false {
  if (process.env.CI === 'true') return false;
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).status === 0;
  return found ? false : `${command} is not installed (${why}); CI=true makes this a failure`;
}
