/** Small helpers shared by rules: naming paths in messages, classifying schema issues. */
import { code } from '../schema/navigate';
import { pointer, type SchemaIssue } from '../schema/check';
import type { Deprecation, JsonSchema, ValueForm } from '../schema/types';
import { resolvePlain } from '../syntax/scalars';
import type { Node, ScalarNode } from '../syntax/tree';
import type { Path } from '../types';
import type { Plan } from '../plan/plan';
import type { DeepSpeedModel } from '../formats/deepspeed/model';
import type { FixSpec, RuleContext } from './rule';
import { autoDroppedSince, deprecatedValues, launchIgnores, launchIgnoresAlways, pydanticSection, since, normalized, strictSince, strictUntil, unknownKeyEffect, unknownKeyWhenEnabled, valueCheckedSince, valueForms, yamlFalse } from '../schema/vocabulary';
import type { TrainerModel } from '../formats/trainer/model';
import { TRANSFORMERS_OLDEST } from '../formats/trainer/releases';
import { bridgeSince, yamlCfgSince } from '../formats/megatron/schema';
import { argumentChecks } from '../formats/megatron/runtime';

export { code };

/** `key` for a top-level path, `section.key` for a nested one, `key[2]` for an item, `--flag` for a flag. */
export function pathLabel(path: Path): string {
  // A command-line flag (a script's argument, a MODEL_ARGS key) is named from the flag on.
  let from = 0;
  path.forEach((seg, i) => {
    if (typeof seg === 'string' && seg.startsWith('-')) from = i;
  });
  let out = '';
  for (const seg of path.slice(from)) out += typeof seg === 'number' ? `[${seg}]` : out ? `.${seg}` : seg;
  return '`' + out + '`';
}

export function lastKey(path: Path): string {
  for (let i = path.length - 1; i >= 0; i--) if (typeof path[i] === 'string') return path[i] as string;
  return '';
}

/** How a YAML 1.1 reading of a plain scalar betrays what was meant, if it does. */
export type Trap =
  /** `as`: the text that means what the value was read as, when it is not the text as written (`no` for `NO`). */
  | { kind: 'quote'; text: string; read: unknown; as?: string }
  | { kind: 'number'; text: string; number: number }
  | { kind: 'tuple'; text: string; items: unknown[] };

export function yamlTrap(ctx: RuleContext, issue: Extract<SchemaIssue, { kind: 'invalid-value' }>): Trap | undefined {
  if (ctx.doc.syntax !== 'yaml' || !ctx.nav) return undefined;
  const node = ctx.doc.node(issue.path);
  if (!node || node.kind !== 'scalar' || node.style !== 'plain' || node.tag || node.aliased) return undefined;
  const text = node.raw.trim();
  const schema = issue.schema;
  if (typeof node.value !== 'string' && ctx.nav.matches(schema, normalized(schema, text))) return { kind: 'quote', text, read: node.value };
  // `no` or `off` read as False where the tool says what it does with False (`x-yaml-false`): a trap
  // whatever the spelling; quoting means the value of that spelling in the schema's own case.
  if (node.value === false && yamlFalse(schema, (v) => ctx.atLeast(v))) {
    const as = (schema?.enum ?? []).find((v): v is string => typeof v === 'string' && v.toLowerCase() === text.toLowerCase());
    return as !== undefined ? { kind: 'quote', text, read: false, as } : { kind: 'quote', text, read: false };
  }
  if (typeof node.value === 'string') {
    if (/^[-+]?(\d[\d_]*)?\.?\d*[eE][-+]?\d+$/.test(text)) {
      const n = Number(text.replace(/_/g, ''));
      if (Number.isFinite(n) && ctx.nav.matches(schema, n)) return { kind: 'number', text, number: n };
    }
    const tuple = /^\((.*)\)$/.exec(text);
    if (tuple) {
      const items = tuple[1].split(',').map((s) => s.trim()).filter((s) => s !== '').map((s) => resolvePlain(s));
      if (ctx.nav.matches(schema, items)) return { kind: 'tuple', text, items };
    }
  }
  return undefined;
}

/**
 * The way the release the file is checked against reads a value whose form changed between releases
 * (`x-value-forms`), when it did: the release is read through the context, so a finding that rests
 * on it is as sure as the release.
 */
export function releaseForm(ctx: RuleContext, schema: JsonSchema | undefined): ValueForm | undefined {
  const forms = valueForms(schema);
  return forms?.find((f) => (!f.since || ctx.atLeast(f.since)) && (!f.until || !ctx.atLeast(f.until)));
}

/**
 * Whether the targeted release refuses an unknown key in `section`: the section is marked `error`
 * (or `effect` says so), the release is at or after its `x-strict-since`, and it reads the section at
 * all (a section a release does not read, DeepSpeed's `compile` in 0.14.4–0.16.5, refuses nothing).
 */
/**
 * Whether DeepSpeed drops an `"auto"` value of the section before it validates it: its own model base
 * does (runtime/config_utils.py DeepSpeedConfigModel) for a section it reads with such a model, from
 * the release that does (`x-auto-dropped-since`, else `x-strict-since`).
 */
export function dropsAuto(ctx: RuleContext, section: JsonSchema | undefined): boolean {
  const drops = autoDroppedSince(section) ?? strictSince(section);
  return ctx.format === 'deepspeed' && pydanticSection(section) && (!drops || ctx.atLeast(drops));
}

export function refusesUnknownKeys(ctx: RuleContext, section: JsonSchema | undefined, effect?: string, at?: Path, value?: unknown): boolean {
  // A tool that passes over keys its config lacks (Megatron Bridge, NeMo) refuses none.
  if (ctx.keysSkipped || ctx.keysIgnored) return false;
  const since = strictSince(section);
  // An unknown key set to "auto" is dropped with the rest, not refused.
  if (value === 'auto' && dropsAuto(ctx, section)) return false;
  // A section whose keys are handed on only while it is on (`x-unknown-key-when-enabled`): off, nothing reads them.
  if (unknownKeyWhenEnabled(section) && (!at || ctx.doc.value([...at, 'enabled']) !== true)) return false;
  // Refused only by the releases before `x-strict-until` (Accelerate's launcher merges the section on a
  // local machine only: a SageMaker config's is not looked up).
  const until = strictUntil(section);
  if (until && !ctx.atLeast(until) && ctx.doc.value(['compute_environment']) !== 'AMAZON_SAGEMAKER') return true;
  return (effect ?? unknownKeyEffect(section)) === 'error' && (!since || ctx.atLeast(since)) && releaseForm(ctx, section)?.form !== 'unused';
}

/** Whether that release accepts (or never reads) a value the schema refuses: an unused key, a tuple string where it is split. */
export function releaseAccepts(ctx: RuleContext, schema: JsonSchema | undefined, node: Node | undefined): boolean {
  const form = releaseForm(ctx, schema);
  if (!form) return false;
  if (form.form === 'unused' || form.form === 'unchecked') return true;
  if (form.form === 'narrower') return node?.kind === 'scalar' && !!form.accepts && !!ctx.nav?.matches(form.accepts, node.value);
  return form.form === 'tuple-string' && node?.kind === 'scalar' && typeof node.value === 'string' && /^\(.*\)$/.test(node.value.trim());
}

/**
 * Whether the release reads the value at `schemaPath` without checking it: a section holding it is
 * one that release reads key by key (its `x-strict-since` is later, as DeepSpeed's `fp16` before
 * 0.17.1), so a value of the wrong type is taken as written, not refused when the file is read.
 */
export function readUnchecked(ctx: RuleContext, schemaPath: Path | undefined): boolean {
  const nav = ctx.nav;
  if (!nav || !schemaPath) return false;
  const root = ctx.flat ? ctx.flat.value : ctx.doc.value([]);
  // A key whose own reader checks it (DeepSpeed's offload `device` from 0.5.7) is checked whatever its section.
  const checked = valueCheckedSince(nav.at(schemaPath, root, ctx.schemaVersion));
  if (checked && ctx.atLeast(checked)) return false;
  for (let i = schemaPath.length - 1; i >= 1; i--) {
    const since = strictSince(nav.at(schemaPath.slice(0, i), root, ctx.schemaVersion));
    if (since && !ctx.atLeast(since)) return true;
  }
  return false;
}

/** The deprecation that explains an invalid value (an old spelling of an allowed one), if any. */
export function deprecatedValue(schema: JsonSchema | undefined, value: unknown, written: unknown): { value: string; dep: Deprecation } | undefined {
  const table = deprecatedValues(schema);
  if (!table) return undefined;
  for (const v of [written, value]) {
    const key = typeof v === 'string' ? v : JSON.stringify(v);
    if (key !== undefined && Object.prototype.hasOwnProperty.call(table, key)) return { value: key, dep: table[key] };
  }
  return undefined;
}

export function scalarText(node: ScalarNode): string {
  return node.raw || String(node.value);
}

/** Visits every written key whose schema is known, the keys of a list's items included: (source path, schema, node, section; in a format with its own instance, the value the instance holds for the key). */
export function walkSchema(ctx: RuleContext, visit: (path: Path, schema: JsonSchema, node: Node, section: JsonSchema, flatValue?: unknown) => void): void {
  const nav = ctx.nav;
  if (!nav || !ctx.doc.root) return;
  if (ctx.flat) {
    // A format with its own instance: each written property, at the document path it came from.
    const root = nav.root;
    const value = ctx.flat.value;
    if (!value || typeof value !== 'object' || Array.isArray(value)) return;
    for (const key of Object.keys(value)) {
      const schema = nav.resolve(nav.child(root, key, ctx.schemaVersion), undefined);
      const path = ctx.flat.source.get(pointer([key]));
      const node = path ? ctx.doc.node(path) : undefined;
      // Each key on its own: what is read for one does not weigh on another's finding.
      if (schema && path && node) ctx.separately(() => visit(path, schema, node, root, (value as Record<string, unknown>)[key]));
    }
    return;
  }
  const rootValue = ctx.doc.value([]);
  const go = (node: Node, schema: JsonSchema | undefined, path: Path, depth: number): void => {
    if (!schema || depth > 16) return;
    // The keys of a list's items (DeepSpeed's `layer_specs[]`) are keys like any other: each item is
    // walked against the items' schema, resolved against that item's own value.
    if (node.kind === 'seq') {
      if (schema.items) node.items.forEach((item, i) => go(item, nav.resolve(schema.items, ctx.doc.value([...path, i])), [...path, i], depth + 1));
      return;
    }
    if (node.kind !== 'map') return;
    for (const e of node.entries) {
      if (e.merged) continue;
      const childRaw = nav.child(schema, nav.canonicalKey(schema, e.key, ctx.schemaVersion), ctx.schemaVersion);
      // Resolved against the section's own value, so if/then branches (keys of one ZeRO stage) apply.
      const child = nav.resolve(childRaw, ctx.doc.value([...path, e.key]));
      if (!child || !schema.properties) continue;
      ctx.separately(() => visit([...path, e.key], child, e.value, schema));
      go(e.value, child, [...path, e.key], depth + 1);
    }
  };
  go(ctx.doc.root, nav.resolve(nav.root, rootValue), [], 0);
}

/**
 * A DeepSpeed combination check: DeepSpeed's own condition, the path to report on, and a message that
 * says what happens and what to do. The rules that hold a table of them run it with `runDsChecks`.
 */
export interface DsCheck {
  /** The path to report on when the check fails, or undefined. */
  when(m: DeepSpeedModel, p: Plan | undefined): Path | undefined;
  message(m: DeepSpeedModel, p: Plan | undefined): string;
  fix?(m: DeepSpeedModel): FixSpec | undefined;
  severity?: 'error' | 'warning';
  /** The check exists from this DeepSpeed release on (older releases let the file run). */
  since?: string;
  /** The check exists only before this release (it accepts the file from then on). */
  before?: string;
  /**
   * The keys whose values the finding rests on: the check is made only at releases that have every one
   * (their `x-since`). A release that does not know a key ignores or refuses it, which
   * version-unsupported-key says; a check of what the key does says nothing there.
   */
  keys?(m: DeepSpeedModel): Path[];
}

export function runDsChecks(ctx: RuleContext<DeepSpeedModel>, checks: readonly DsCheck[]): void {
  // Each check on its own: what one reads does not weigh on another's finding.
  for (const c of checks) {
    ctx.separately(() => {
      const at = c.when(ctx.model, ctx.plan);
      if (!at) return;
      // Read only once the file matches: the release it is checked against decides whether the check exists.
      if ((c.since && !ctx.atLeast(c.since)) || (c.before && ctx.atLeast(c.before))) return;
      if (c.keys && !c.keys(ctx.model).every((k) => keyAtRelease(ctx, k))) return;
      const fix = c.fix?.(ctx.model);
      ctx.report({ at: ctx.model.where(at), message: c.message(ctx.model, ctx.plan), severity: c.severity, fixes: fix ? [fix] : [] });
    });
  }
}

/**
 * Whether the Transformers Trainer's own checks apply to a recipe or launch command: the Trainer
 * reads its arguments (a launched script's parser may only be assumed, which caps the findings) and
 * the release is one the facts were read at (4.30 to 5.x; older ones are not judged).
 */
export function trainerChecks(ctx: RuleContext<TrainerModel>): boolean {
  return ctx.model.trainerReads.value && ctx.atLeast(TRANSFORMERS_OLDEST);
}

/**
 * An argument's value in the model of a format that Megatron's argument names describe (a launch
 * script, a Megatron YAML, a NeMo config, a Bridge override), for a rule that runs on every format;
 * undefined for any other model.
 */
export function megatronArg(model: unknown, dest: string): unknown {
  return (model as { args?: { get?(dest: string): { value?: unknown } | undefined } } | undefined)?.args?.get?.(dest)?.value;
}

/**
 * Whether `accelerate launch` at the named release does not take the top-level `key` from the file
 * (`x-launch-ignores`), so the command line's value runs. A key ignored at every release (`true`) is
 * ignored whatever the release; otherwise, with no release named: false, and nothing read.
 */
export function launchIgnoresKey(ctx: RuleContext, key: string): boolean {
  const schema = ctx.nav?.at([key], ctx.doc.value([]), ctx.schemaVersion);
  if (launchIgnoresAlways(schema)) return true;
  if (ctx.schemaVersion === undefined) return false;
  return launchIgnores(schema, (v) => ctx.atLeast(v));
}

/** A switch written bare (a launch line's `--flag`): a scalar holding `true` with no text of its own. */
export function bareSwitch(node: Node | undefined): boolean {
  return node?.kind === 'scalar' && !node.raw && (node.value === true || node.value === null || node.value === '');
}

/**
 * Whether the targeted release has the key at `path` (its schema's `x-since`): a rule about what a
 * key does says nothing where the release does not know the key (version-unsupported-key says that
 * the release ignores it or refuses it). True where the schema names no release, and where no release
 * is known (the file's own key is the evidence of one that has it).
 */
export function keyAtRelease(ctx: RuleContext, path: Path): boolean {
  const schema = ctx.nav?.at(path, ctx.doc.value([]), ctx.schemaVersion);
  const from = ctx.format === 'megatron-bridge' && path.length === 2 && !String(path[0]).startsWith('-') ? bridgeSince(schema, path.join('.')) : argumentChecks(ctx.format, ctx.model) === 'validate_yaml' ? yamlCfgSince(schema) : since(schema);
  // A file that writes the key was written for a release that has it: only a release that is known
  // (named, or read from the context) says otherwise, and then it is read.
  if (!from || ctx.schemaVersion === undefined) return true;
  return ctx.atLeast(from);
}
