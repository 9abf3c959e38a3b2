/**
 * The time budget a host gives an analysis (FileInput.overBudget): the engine asks before each rule
 * and stops, saying so in a finding, once the budget is spent. The clock is the host's.
 */

/** The budget of an analysis on the language server's request thread. */
export const EDITOR_BUDGET_MS = 10_000;
/** The budget of a heavy document's analysis in its worker thread, and of one file of the CLI. */
export const BACKGROUND_BUDGET_MS = 120_000;

/**
 * A budget of `ms` per analysis, in the engine's terms (FileInput.budget): each analysis starts its
 * own clock, and its check gives a reason to stop once the budget is spent.
 */
export function timeBudget(ms: number, what: string, now: () => number = Date.now): () => () => string | undefined {
  return () => {
    const start = now();
    return () => {
      const spent = now() - start;
      return spent > ms ? `it ran for ${(spent / 1000).toFixed(1)} s, past the ${ms / 1000} s budget of ${what}` : undefined;
    };
  };
}
