/**
 * Minimising a failing input: drop what surrounds the file (project, client settings, links,
 * referrers, settings), then delete chunks of lines (halving the chunk size down to one line),
 * then chunks of characters, keeping each deletion after which the same failure still reproduces.
 */
import type { CheckResult, FuzzInput } from './types';

export interface ShrinkOptions {
  /** Trials at most. */
  maxTrials?: number;
  /** Wall time at most, in ms. */
  maxMs?: number;
}

export async function shrink(input: FuzzInput, signature: string, run: (input: FuzzInput) => Promise<CheckResult>, options: ShrinkOptions = {}): Promise<{ input: FuzzInput; trials: number }> {
  const maxTrials = options.maxTrials ?? 400;
  const deadline = Date.now() + (options.maxMs ?? 60_000);
  let trials = 0;
  let best = input;
  const fails = async (candidate: FuzzInput): Promise<boolean> => {
    if (trials >= maxTrials || Date.now() > deadline) return false;
    trials++;
    const r = await run(candidate);
    return r.failures.some((f) => f.signature === signature);
  };
  const budget = (): boolean => trials < maxTrials && Date.now() <= deadline;

  for (const field of ['project', 'client', 'links', 'referrers', 'settings', 'cursors', 'growth', 'languageId'] as const) {
    if (best[field] === undefined || !budget()) continue;
    const candidate = { ...best, [field]: undefined };
    if (await fails(candidate)) best = candidate;
  }

  /** Deletes chunks of units (lines or characters) while the failure reproduces. */
  const pass = async (split: (text: string) => string[]): Promise<void> => {
    let units = split(best.text);
    for (let size = Math.max(1, units.length >> 1); size >= 1 && budget(); size >>= 1) {
      for (let at = 0; at < units.length && budget(); ) {
        const kept = [...units.slice(0, at), ...units.slice(at + size)];
        const candidate = { ...best, text: kept.join('') };
        if (kept.length < units.length && (await fails(candidate))) {
          best = candidate;
          units = kept;
        } else at += size;
      }
      if (size === 1) break;
    }
  };
  await pass((t) => t.split(/(?<=\n)/));
  if (best.text.length <= 4000) await pass((t) => t.split(''));
  // Cursors past the shrunk text are dropped by the oracle; keep the ones that still fit.
  if (best.cursors) best = { ...best, cursors: best.cursors.filter((c) => c <= best.text.length) };
  return { input: best, trials };
}
