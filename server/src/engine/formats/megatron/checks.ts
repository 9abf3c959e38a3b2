/**
 * Shared shape of the Megatron argument checks: one table per family, each entry with upstream's
 * condition and a message that says what happens and what to do.
 */
import { MLM_FLAG_FORMATS, OLDER_NAMES, truthy, type MegatronModel } from './model';
import { configField, flagTarget, MEGATRON_SCHEMA, primaryFlag, yamlCfgUnread } from './schema';
import { formatDefault, type MegatronArgs } from './args';
import type { Plan } from '../../plan/plan';
import type { Path } from '../../types';
import type { FixSpec, RuleContext } from '../../rules/rule';
import { untracked, withUntracked } from '../../rules/certain';
import { argumentChecks } from './runtime';

export interface ArgCheck {
  /**
   * Returns the argument to report on (its dest, or for a Megatron Bridge field that is no Megatron
   * argument its dotted path, see `bridgeField`) when the check fails, or undefined. `ctx` is for
   * reading switches as the checks see them (`switchOn`/`switchOff`, derived.ts).
   */
  when(m: MegatronModel, p: Plan | undefined, ctx: RuleContext<MegatronModel>): string | undefined;
  message(m: MegatronModel, p: Plan | undefined): string;
  fix?(m: MegatronModel, p: Plan | undefined): FixSpec | undefined;
  /** Formats whose reader makes the check (Megatron-LM's argparse checks: the flag formats); all when absent. */
  formats?: readonly string[];
  /** When what upstream does is milder than stopping. */
  severity?: 'warning' | 'information';
  /** The check exists from this Megatron Core release on (older releases let the file run). */
  since?: string;
  /** The check exists only before this release. */
  before?: string;
  /**
   * The `--yaml-cfg` reader's own checks (validate_yaml) make it too. A check of Megatron-LM's
   * argument checks (`formats: MLM_FLAG_FORMATS`) is otherwise not
   * made for a `--yaml-cfg` file, which validate_args never sees.
   */
  yamlCfg?: boolean;
  /**
   * The entry scripts that make the check (the file names a launch script runs, such as
   * `/^pretrain_[a-z0-9_]+\.py$/`): other entries are not judged, and where the file does not say
   * which script reads it the finding is at most a warning that names that assumption.
   */
  entry?: RegExp;
  /** The sentence that names the entry script assumed where the file names none, in place of ENTRY_ASSUMED. */
  entryAssumed?: string;
}

/** Megatron-LM's own training entries (`pretrain_gpt.py`, `pretrain_mamba.py`…), for `ArgCheck.entry`. */
export const PRETRAIN_ENTRY = /^pretrain_[a-z0-9_]+\.py$/;

/** The sentence an entry-gated finding carries where the file does not name its entry script. */
export const ENTRY_ASSUMED = ' This assumes a Megatron-LM `pretrain_*.py` reads these arguments; the file does not name its entry script.';

export function runChecks(ctx: RuleContext<MegatronModel>, checks: readonly ArgCheck[]): void {
  const model = ctx.model;
  // Older names (OLDER_NAMES) the file writes where it does not write today's: looked up untracked,
  // nearly always none, and then the model is read as it is.
  const raw = untracked(model.args);
  const older = Object.entries(OLDER_NAMES).filter(([now, o]) => raw.get(now) === undefined && raw.get(o.dest) !== undefined);
  // Each check on its own: what one reads does not weigh on another's finding.
  // Megatron-LM's argument checks (`formats: MLM_FLAG_FORMATS`) are validate_args', and validate_yaml's
  // too where the check says so; a launch that passes `--yaml-cfg` meets only the latter, on that
  // file's values, so the flags beside it meet none (runtime.ts).
  const made = argumentChecks(ctx.format, model);
  for (const c of checks) {
    if (c.formats && !c.formats.includes(ctx.format)) continue;
    if (c.formats === MLM_FLAG_FORMATS && !(made === 'validate_args' || (made === 'validate_yaml' && c.yamlCfg))) continue;
    ctx.separately(() => {
      const used = new Set<string>();
      const m = older.length ? withOlderNames(ctx, model, new Map(older), used) : model;
      const dest = c.when(m, ctx.plan, ctx);
      if (!dest) return;
      // An entry-gated check: another entry script does not make it; an unnamed one is an assumption,
      // except for a `--yaml-cfg` file, whose model only the GPT builder of pretrain_gpt.py reads
      // (gpt_builders.py@core_v0.16.0; model_provider in pretrain_gpt.py before).
      const entryAssumed = c.entry !== undefined && !m.args.entry && !m.args.yamlCfg;
      if (c.entry && m.args.entry && !c.entry.test(m.args.entry)) return;
      // NeMo's own (non-Megatron-Core) model makes none of these checks; whether it is used is read here.
      if (m.mcore && !m.mcore.value) return;
      // Read only once the file matches: the release it is checked against decides whether the check exists.
      if ((c.since && !ctx.atLeast(c.since)) || (c.before && ctx.atLeast(c.before))) return;
      // A Megatron Bridge field that is no Megatron argument is named by its dotted path (`checkpoint.load_optim`).
      const at: Path = (dest.includes('.') ? m.bridgeFields?.get(dest)?.path : m.args.get(dest)?.path) ?? [];
      const fix = c.fix?.(m, ctx.plan);
      let message = inFormat(m, ctx.format, c.message(m, ctx.plan));
      // The flag as that release spells it.
      for (const d of used) message = message.split(OLDER_NAMES[d].newFlag).join(OLDER_NAMES[d].flag);
      if (entryAssumed) message += c.entryAssumed ?? ENTRY_ASSUMED;
      const severity = entryAssumed && c.severity === undefined ? 'warning' : c.severity;
      ctx.report({ at, message, severity, fixes: fix ? [fix] : [] });
    });
  }
}

/**
 * The model with an argument the file writes under its older name (OLDER_NAMES) read under today's
 * dest, where the release that reads the file still has the older name (which release that is then
 * weighs on the finding); `used` collects the dests so read.
 */
function withOlderNames(ctx: RuleContext<MegatronModel>, m: MegatronModel, older: Map<string, (typeof OLDER_NAMES)[string]>, used: Set<string>): MegatronModel {
  const olderDest = (dest: string): string | undefined => {
    const o = older.get(dest);
    if (!o || ctx.atLeast(o.until)) return undefined;
    used.add(dest);
    return o.dest;
  };
  const wrap = (args: MegatronArgs): MegatronArgs =>
    new Proxy(args, {
      get(t, key) {
        if (key !== 'get') return Reflect.get(t, key);
        return (dest: string) => {
          const o = olderDest(dest);
          return t.get(o ?? dest);
        };
      },
    });
  const rawArgs = untracked(m.args);
  const rawWrapped = wrap(rawArgs);
  const args = m.args === rawArgs ? rawWrapped : withUntracked(wrap(m.args), rawWrapped);
  return new Proxy(m, { get: (t, key) => (key === 'args' ? args : Reflect.get(t, key)) });
}

/**
 * A message written with Megatron-LM's flags, in the spelling of the file's format: `--recompute-method`
 * is `model.activations_checkpoint_method` in a NeMo config, `model.recompute_method` in a Bridge override,
 * `language_model.recompute_method` in a `--yaml-cfg` file.
 */
export function inFormat(m: MegatronModel, format: string, message: string): string {
  // A `--yaml-cfg` file writes arguments by name, in its sections (`language_model.recompute_method`).
  if ((MLM_FLAG_FORMATS as readonly string[]).includes(format) && !m.args.yamlCfg) return message;
  return message.replace(/`--([a-z0-9][a-z0-9-]*)((?: [^`]*)?)`/g, (whole, flag: string, rest: string) => {
    // `--yaml-cfg` names the reader itself, not an argument of the file.
    if (flag === 'yaml-cfg') return whole;
    return configSpelling(m.args, `--${flag}`, rest.trim() || undefined) ?? whole;
  });
}

/**
 * A flag as a config file writes it: the key of the argument the flag sets (its dest, which is not
 * always the flag's own name: `--fp4-format` sets `fp4`, `--no-rope-fusion` sets `apply_rope_fusion`
 * to false), where the format writes it, with the value the flag gives; undefined where the flag is
 * not Megatron-LM's or the format has no place for the argument.
 */
function configSpelling(args: MegatronArgs, flag: string, value: string | undefined): string | undefined {
  const target = flagTarget(flag);
  let dest = target?.dest ?? flag.replace(/^--/, '').replace(/-/g, '_');
  const prop = MEGATRON_SCHEMA.properties?.[dest];
  if (!prop) return undefined;
  // A `--yaml-cfg` file sets such an argument only through the config field it feeds
  // (`--decoder-first-pipeline-num-layers` is `num_layers_in_first_pipeline_stage` there), or not at all.
  if (args.yamlCfg && yamlCfgUnread(prop)) {
    const field = configField(prop);
    if (!field || !MEGATRON_SCHEMA.properties?.[field] || yamlCfgUnread(MEGATRON_SCHEMA.properties[field])) return undefined;
    dest = field;
  }
  const path = args.get(dest)?.path ?? args.pathFor(dest);
  if (!path) return undefined;
  // A negative spelling is the switch written false (a flag that takes no value).
  const shown = target?.negate && value === undefined ? 'false' : value;
  return `\`${path.join('.')}${shown !== undefined ? `: ${shown}` : ''}\``;
}

/**
 * An argument named in a message, in the spelling of the file's format (`--use-transformer-engine-op-fuser`,
 * `model.use_transformer_engine_op_fuser` in a Bridge override). Looked up untracked: where an argument
 * would be written is no input to the finding, and one a Bridge override leaves out is unknown, which
 * would drop the report that names it.
 */
export function named(m: MegatronModel, flag: string, value?: string): string {
  const a = untracked(m.args);
  return (a.configFields ? configSpelling(a, flag, value) : undefined) ?? `\`${flag}${value !== undefined ? ` ${value}` : ''}\``;
}

/**
 * Why the value of an argument checked only while a switch is on (`x-values-checked-when-enabled`,
 * whose `key` is the switch's dest) is unused here, or undefined where the switch is on (or not known
 * to be off). The switch is named in the file's spelling; a switch the format cannot write (no flag on
 * Megatron-LM's command line) is only said to be off.
 */
export function megatronGateOff(ctx: RuleContext<MegatronModel>, gate: { key?: string; why: string; equals?: unknown; above?: number }): string | undefined {
  const m = ctx.model;
  if (!m || !gate.key) return undefined;
  const a = m.args.get(gate.key);
  // Left out: the switch's default in the file's format (formatDefault), not known where it has none,
  // else Megatron-LM's command line's.
  const own = a === undefined ? formatDefault(m.args, gate.key) : undefined;
  if (own && 'unknown' in own) return undefined;
  const value = a !== undefined ? a.value : own ? own.value : MEGATRON_SCHEMA.properties?.[gate.key]?.default;
  const on = gate.equals !== undefined ? value === gate.equals : gate.above !== undefined ? typeof value === 'number' && value > gate.above : truthy(value);
  if (on || (a !== undefined && a.value === undefined)) return undefined;
  const why = inFormat(m, ctx.format, gate.why);
  const cli = (MLM_FLAG_FORMATS as readonly string[]).includes(ctx.format) && !m.args.yamlCfg;
  const label = cli ? (primaryFlag(gate.key) ? `\`${primaryFlag(gate.key)}\`` : undefined) : (() => {
    const path = a?.path ?? m.args.pathFor(gate.key!);
    return path ? `\`${path.join('.')}\`` : undefined;
  })();
  if (!label) return `${why}; it is off here, so the value is unused`;
  // A switch compared with a value (`--tokenizer-type SFTTokenizer`) is named with it.
  const state = gate.equals !== undefined ? `is not \`${String(gate.equals)}\` here` : 'is not on here';
  return `${why}; ${label} ${state}, so the value is unused, and it is refused once that changes`;
}

/** A fix that sets an argument where the format writes it. */
export function setArg(m: MegatronModel, kind: string, dest: string, value: unknown, title: string): FixSpec | undefined {
  const path = m.args.get(dest)?.path ?? m.args.pathFor(dest);
  return path ? { kind, title, edits: [{ op: 'set', path, value }], recommended: true } : undefined;
}

/**
 * A fix that turns a boolean argument off: a flag is removed (argparse flags are off when absent),
 * a Bridge or NeMo field is set to false (removing it would fall back to the recipe's value).
 */
export function unsetArg(m: MegatronModel, kind: string, dest: string, title: string): FixSpec | undefined {
  const path = m.args.get(dest)?.path;
  if (!path) return undefined;
  const last = path[path.length - 1];
  const flag = typeof last === 'string' && last.startsWith('-');
  return { kind, title, edits: [flag ? { op: 'remove', path } : { op: 'set', path, value: false }], recommended: true };
}

/**
 * An environment variable the script sets as written text, not through a variable (`${CDMC:-8}` is
 * the script's default, which the environment that runs it may override).
 */
export function envLiteral(text: string, v: { span?: { start: number; end: number } } | undefined): boolean {
  return !(v?.span && /\$/.test(text.slice(v.span.start, v.span.end)));
}

/**
 * Whether an environment variable's name appears in the file outside comments (a key of a runtime-env
 * JSON, `mpirun -x NAME`, `env NAME=…`): the processes may get the variable that way.
 */
export function envMentioned(text: string, name: string): boolean {
  return text.split('\n').some((line) => {
    const i = line.indexOf(name);
    return i >= 0 && !/^\s*#/.test(line) && !line.slice(0, i).includes(' #');
  });
}
