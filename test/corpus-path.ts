/**
 * Where the shared corpus of upstream configs is: $SHARDWISE_CORPUS, else a `shared/corpus`
 * folder beside the repository or above it. Tests read it in place; nothing is copied.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export function findCorpus(): string {
  if (process.env.SHARDWISE_CORPUS) return process.env.SHARDWISE_CORPUS;
  let dir = resolve(__dirname, '..');
  for (let i = 0; i < 6; i++) {
    for (const candidate of [join(dir, 'shared', 'corpus'), join(dir, '..', 'shared', 'corpus')]) if (existsSync(join(candidate, 'accelerate'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return join(resolve(__dirname, '..'), '..', 'shared', 'corpus');
}

/**
 * Why the corpus tests are skipped: the corpus is not there (a clone without ../shared). Under
 * CI=true a missing corpus is a failure, never a skip: false then, and the tests run and fail.
 */
export function corpusSkip(): string | false {
  if (process.env.CI === 'true' || existsSync(join(findCorpus(), 'accelerate'))) return false;
  return `no corpus at ${findCorpus()} (a clone without ../shared; set SHARDWISE_CORPUS to use one elsewhere)`;
}
