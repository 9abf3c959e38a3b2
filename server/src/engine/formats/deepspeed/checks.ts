/**
 * Shared shape of the DeepSpeed combination checks: each with DeepSpeed's own condition, the path to
 * report on, and a message that says what happens and what to do.
 */
import type { Plan } from '../../plan/plan';
import type { FixSpec, RuleContext } from '../../rules/rule';
import type { Path } from '../../types';
import type { DeepSpeedModel } from './model';

export interface DsCheck {
  /** The path to report on when the check fails, or undefined. */
  when(m: DeepSpeedModel, p: Plan | undefined): Path | undefined;
  message(m: DeepSpeedModel, p: Plan | undefined): string;
  fix?(m: DeepSpeedModel): FixSpec | undefined;
  severity?: 'error' | 'warning';
}

export function runDsChecks(ctx: RuleContext<DeepSpeedModel>, checks: readonly DsCheck[]): void {
  for (const c of checks) {
    const at = c.when(ctx.model, ctx.plan);
    if (!at) continue;
    const fix = c.fix?.(ctx.model);
    ctx.report({ at: ctx.model.where(at), message: c.message(ctx.model, ctx.plan), severity: c.severity, fixes: fix ? [fix] : [] });
  }
}

/** DeepSpeed's own optimizers (matched case-insensitively); anything else is a torch.optim class. */
export const DS_OPTIMIZERS = ['adam', 'adamw', 'adagrad', 'lamb', 'onebitadam', 'zerooneadam', 'onebitlamb', 'muadam', 'muadamw', 'musgd', 'lion', 'muon'];

export function optimizerType(m: DeepSpeedModel): string | undefined {
  const t = m.get(['optimizer', 'type']);
  return typeof t === 'string' ? t : undefined;
}
