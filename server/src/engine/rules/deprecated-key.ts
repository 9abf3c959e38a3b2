/**
 * deprecated-key: a renamed or removed key or value.
 */
import type { Deprecation, JsonSchema } from '../schema/types';
import type { PathEdit } from '../syntax/sourcedoc';
import type { Path, Severity } from '../types';
import { checkoutHas, repositoryHas } from '../formats/megatron/checkout';
import { nemoOwnKeyNames } from '../formats/megatron/schema';
import type { DeepSpeedModel } from '../formats/deepspeed/model';

import { code, deprecatedValue, dropsAuto, lastKey, pathLabel, refusesUnknownKeys, walkSchema } from './helpers';
import { SETTING } from './release';
import type { Tool } from '../settings';
import { defineRule, type FixSpec, type Report, type RuleContext } from './rule';
import { MLM_FLAG_FORMATS } from '../formats/megatron/model';
import { aliasOf as aliasOfSchema, bridgeDeprecation, defaultAt, deprecation, removal, since } from '../schema/vocabulary';

const SEVERITY: Record<Deprecation['effect'], Severity> = { error: 'error', ignored: 'warning', 'no-effect': 'warning', migrated: 'information', warned: 'information' };
const EFFECT: Record<Deprecation['effect'], string> = {
  error: 'the tool now refuses to load a file that has it',
  ignored: 'it is now ignored without a word',
  'no-effect': 'it has no effect',
  warned: 'it still works, but the launcher warns at run time that it is deprecated',
  migrated: 'it still works (converted when the file is loaded), but under its old name',
};

export default defineRule({
  id: 'deprecated-key',
  severity: 'warning',
  tags: ['deprecated'],
  formats: 'all',
  fixes: {
    rename: { applicability: 'safe', changes: 'writes the new name of the key, with the same value' },
    replace: { applicability: 'safe', changes: 'writes the replacement key with the value that means the same' },
    'replace-value': { applicability: 'safe', changes: 'writes the new spelling of the value' },
    'remove-ignored': { applicability: 'safe', changes: 'removes a key nothing reads any more' },
    'remove-refused': { applicability: 'safe', changes: 'removes a deprecated key written beside its replacement, which the tool refuses (the file cannot run as written)' },
    remove: { applicability: 'unsafe', changes: 'the configuration: a setting the tool still reads or refuses is dropped' },
    migrate: { applicability: 'unsafe', changes: 'the configuration: the new name, which a fork or an entry script that still takes the old one may not know' },
    activate: { applicability: 'unsafe', changes: 'the run: the setting the ignored key names, ignored here or on a path the file does not decide, takes effect under its new name' },
    'replace-differs': { applicability: 'unsafe', changes: 'the run: the targeted release converts the old key into something other than the replacement, as DeepSpeed 0.7.0 turns `cpu_offload_param: true` into device `none`' },
  },
  docs: {
    summary: 'A key or value that was renamed or removed.',
    why: 'Tools rename settings between releases. Some old names are still converted on load (information), some are now silently ignored (warning: the setting no longer does what the file says), some make the file fail to load (error). A key can pass through these phases release by release (Accelerate converts `fsdp_backward_prefetch_policy` with a warning from 0.26.0 and ignores it from 1.0.0): the finding follows the targeted release. The message gives the release that first deprecated the key and the replacement. In a Megatron Bridge override, `train.eval_iters`, `train.eval_interval` and `train.skip_train` are deprecated copies of the `validation` fields from Bridge 0.4 (Megatron Core 0.17): Bridge warns and copies the `train` value over the `validation` one, so a different `validation` value in the same file is replaced (a warning). A deprecated Megatron argument in a Bridge override is judged by what Bridge does with it, where that is not Megatron-LM\'s conversion: `scheduler.no_weight_decay_cond_type`, which only Megatron-LM\'s argument checks turn into weight decay on the qk LayerNorm, is read by nothing in the Bridge releases on Megatron Core 0.19 and later, so the weight decay it asks for does not happen (a warning that names `optimizer.apply_wd_to_qk_layernorm`), and `model.mtp_hybrid_override_pattern` is still appended by Bridge to `model.hybrid_layer_pattern`. A key some releases read only beside another setting is ignored elsewhere: DeepSpeed takes the top-level `allgather_size` only with the boolean `zero_optimization: true`, so beside the object form it is a warning, and moving it into `zero_optimization.allgather_bucket_size` is offered as a change to the run, not as a safe fix.',
    bad: 'distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_backward_prefetch_policy: BACKWARD_PRE\n',
    good: 'distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_backward_prefetch: BACKWARD_PRE\n',
    fix: 'Renames the key (or moves its value) to the replacement, converting the value when the meaning changed; removes it when there is no replacement.',
  },
  check(ctx) {
    // A fork keeps flags upstream removed and has its own history: upstream's deprecations do not apply.
    if (ctx.fork) return;
    // NeMo reads some old Megatron names itself, with its own meaning: Megatron's history is not theirs.
    const own = ctx.format === 'nemo' ? nemoOwnKeyNames() : undefined;
    // Each key's report is held: what it rests on (the release it was judged at) goes with it to the section's finding.
    const sections = new Map<string, { dep: Deprecation; reports: Report[] }>();
    // The sections reported as retired at this release (walked before their keys).
    const retiredAbove: Path[] = [];
    // A `--yaml-cfg` file runs neither argparse nor validate_args, which refuse, convert and warn
    // about the deprecated arguments: its top-level keys are only set on the run's arguments
    // (training/arguments.py@core_v0.19.0:102-107,136-139; validate_yaml instead). Its
    // `language_model` and `model_parallel` keys are config fields, whose own deprecations apply.
    const yamlCfg = ctx.plan?.yamlCfg === true;
    walkSchema(ctx, (path, schema, node, parentSchema, flatValue) => {
      if (own?.has(String(lastKey(path)))) return;
      const retiredHere = deprecation(schema, (v) => ctx.atLeast(v));
      if (node.kind === 'map' && retiredHere && retiredHere.effect !== 'warned' && (!retiredHere.since || ctx.atLeast(retiredHere.since))) retiredAbove.push(path);
      // A bare flag (`--x` with no value) is written; an empty YAML value is not.
      if (!ctx.flat && node.kind === 'scalar' && node.value === null) return;
      const removed = removal(schema);
      // The parser of the script's checkout still defines the flag (that checkout predates the
      // removal), or a parser of the file's repository does (a framework's own flag of that name).
      if (removed && (checkoutHas(ctx.settings.megatronCheckout, String(lastKey(path))) || repositoryHas(ctx.settings.repositoryFlags, String(lastKey(path))))) return;
      // A format with its own instance gives the value the flag stores: a bare `--x` true, a bare
      // `--no-x`/`--disable-x` (store_false) false.
      const value = ctx.flat ? flatValue : node.kind === 'scalar' ? node.value : undefined;
      // Ignored, but set to what runs when it is absent: nothing changes (a template's full list of fields).
      const dflt = defaultAt(schema, ctx.schemaVersion);
      const neutral = value !== undefined && dflt !== undefined && JSON.stringify(value) === JSON.stringify(dflt);
      if (removed && ctx.atLeast(removed.version)) {
        // A command-line flag argparse no longer has stops the run; a config field nobody reads is ignored.
        const flag = String(lastKey(path)).startsWith('-');
        // A section that refuses a key it does not have refuses one it no longer has (DeepSpeed's optimizer params: a TypeError).
        const refused = flag || (!ctx.flat && refusesUnknownKeys(ctx, parentSchema, undefined, path.slice(0, -1), value));
        const equivalent = equivalentOf(removed, schema, value);
        const message = removedMessage(pathLabel(path), equivalent, ctx, flag, refused, notYet(ctx, path, equivalent.replacement)) + (!refused && neutral ? NEUTRAL : '');
        ctx.report({ at: path, severity: refused ? 'error' : neutral ? 'information' : 'warning', message, fixes: [{ kind: refused || ctx.keysOpen ? 'remove' : 'remove-ignored', title: `Remove ${code(lastKey(path))}`, edits: [{ op: 'remove', path }] }] });
        return;
      }
      // A removed argument is read by nothing in a `--yaml-cfg` file either (the removal branch above
      // says it is ignored); what a deprecation does (refuse, convert, warn) happens only on the
      // command line.
      if (yamlCfg && path.length === 1) return;
      // A Bridge override meets what Bridge does with the key, which is not always Megatron-LM's migration.
      const base = deprecation(schema, (v) => ctx.atLeast(v));
      const declared = ctx.format === 'megatron-bridge' ? bridgeDeprecation(base) : base;
      // Deprecated after the release the file targets: nothing to say yet.
      if (!declared || (declared.since && !ctx.atLeast(declared.since))) return;
      // Read only beside another key's value (`readWith`): elsewhere nothing reads it, whatever the effect says.
      const dep = readHere(ctx, declared);
      // From a release the tool stops when the key and its replacement are both written.
      const beside = dep.refusedWithReplacementSince && dep.replacement && !ctx.flat && value !== 'auto' ? replacementWritten(ctx, path, dep.replacement) : undefined;
      if (beside && ctx.atLeast(dep.refusedWithReplacementSince!)) {
        const name = code(lastKey(beside));
        ctx.report({
          at: path,
          severity: 'error',
          message: `${pathLabel(path)} is written together with ${name}, the key that replaces it: ${ctx.versions} ${dep.refusedWithReplacementSince} and later refuse a deprecated key beside its replacement and stop while loading the file ("Cannot provide deprecated parameter … together"). Remove ${code(lastKey(path))}: ${name} says what runs.`,
          related: [{ at: beside, message: `${name}: the replacement, also written` }],
          fixes: [{ kind: 'remove-refused', title: `Remove ${code(lastKey(path))} (${name} is written)`, edits: [{ op: 'remove', path }], recommended: true }],
        });
        return;
      }
      // A warning at launch says nothing more once the section holding the key is itself retired.
      if (dep.effect === 'warned' && retiredAbove.some((p) => path.length > p.length && p.every((k, i) => path[i] === k))) return;
      // An "auto" DeepSpeed drops before it validates the section is never refused (auto-without-integration says what it does).
      if (dep.effect === 'error' && value === 'auto' && !ctx.flat && dropsAuto(ctx, parentSchema)) return;
      // Refused outright unless another argument says otherwise (Megatron-LM's validate_args).
      if (reportRefused(ctx, path, dep, value)) return;
      const ignored = dep.effect === 'ignored' || dep.effect === 'no-effect';
      // What the key asked for runs anyway unless a setting the file writes defeats it.
      const against = ignored && dep.mattersWith !== undefined ? ctx.separately(() => defeated(ctx, dep.mattersWith!)) : undefined;
      const anyway = ignored && dep.mattersWith !== undefined && against === undefined;
      const quiet = ignored && (neutral || anyway);
      const over = value !== undefined ? overridden(ctx, dep, value) : undefined;
      // A replacement younger than the targeted release is not one to use there.
      const later = notYet(ctx, path, dep.replacement);
      const named = later ? { ...dep, replacement: undefined } : dep;
      const report: Report = {
        at: path,
        // An effect on a path the file does not decide (DeepSpeed refuses `max_grad_norm` only when it
        // builds the optimizer itself) rests on what the file cannot tell: a note, unless an Accelerate
        // config or a Trainer recipe or launch that uses the file says DeepSpeed builds it (a warning:
        // the file alone still does not).
        severity: over ? 'warning' : quiet ? 'information' : dep.conditional && dep.effect === 'error' ? (builtByDeepSpeed(ctx) ? 'warning' : 'information') : SEVERITY[dep.effect],
        message:
          deprecationMessage(pathLabel(path), ctx.flat && named.replacement ? { ...named, replacement: writtenName(ctx, path, ctx.writePath([named.replacement]) ?? [named.replacement]) } : named, ctx.versions) +
          (later ? ` ${later}` : '') +
          (neutral && ignored ? NEUTRAL : anyway ? ' With the settings this file writes, what it asked for is what runs anyway, so nothing changes.' : against ? ` It matters here: with ${against}, which this file writes, what it asked for does not run.` : '') +
          (over ? ` The conversion wins over ${over.written}, which this file also sets: the run uses ${over.used}. Remove ${code(lastKey(path))} if ${over.written} is what you mean.` : ''),
        // An ignored key moved to the name the tool reads starts to count: unless it asks for what runs anyway, the run changes.
        // So does one refused only on a path the file does not decide (`max_grad_norm`, refused only where
        // DeepSpeed builds the optimizer itself): on the other path nothing reads it.
        fixes: keyFixes(ctx, path, named, value !== undefined ? value : ctx.doc.value(path), (ignored && !quiet) || (!!dep.conditional && dep.effect === 'error' && !builtByDeepSpeed(ctx)), ignored && neutral),
      };
      // Keys of one section that share one deprecation are one finding on the section (below).
      const section = !ctx.flat && path.length > 1 && !over && !quiet && !later ? JSON.stringify([path.slice(0, -1), dep.since, dep.effect, dep.message, report.severity]) : undefined;
      if (section === undefined) ctx.report(report);
      else (sections.get(section) ?? sections.set(section, { dep, reports: [] }).get(section)!).reports.push(ctx.hold(report));
    });
    for (const group of sections.values()) ctx.separately(() => reportSection(ctx, group));
    // A deprecated value the tool still lists among its choices (Megatron-LM's `--model-provider mamba`
    // from 0.18.0): valid, so no invalid-value issue carries it.
    walkSchema(ctx, (path, schema, node) => {
      if (node.kind !== 'scalar' || typeof node.value !== 'string' || !schema.enum?.includes(node.value)) return;
      const found = deprecatedValue(schema, node.value, node.value);
      if (found) reportValue(ctx, path, found.dep, node.value);
    });
    // Each issue on its own: what is read for one does not weigh on another's finding.
    ctx.each(ctx.issues, (issue) => {
      if (issue.kind !== 'invalid-value') return;
      const node = ctx.doc.node(issue.path);
      const written = node?.kind === 'scalar' ? node.value : issue.value;
      const found = deprecatedValue(issue.schema, issue.value, written);
      if (!found) return;
      reportValue(ctx, issue.path, found.dep, written);
    });
    if (ctx.format === 'megatron-bridge') ctx.separately(() => bridgeTrainValidation(ctx));
  },
});

/** The fields Megatron Bridge moved from TrainingConfig to ValidationConfig, kept as deprecated copies. */
const BRIDGE_VALIDATION_FIELDS = ['eval_iters', 'eval_interval', 'skip_train'];

/**
 * `train.eval_iters`, `train.eval_interval`, `train.skip_train` in a Bridge override: from Bridge 0.4
 * (Megatron Core 0.17) ConfigContainer.validate warns that each is deprecated and copies a value that
 * is not None over `validation.<field>` (training/config.py@v0.4.0, @067f987:1655-1663), so it wins
 * over the `validation` field, written or the recipe's.
 */
function bridgeTrainValidation(ctx: RuleContext): void {
  if (!ctx.atLeast('0.17.0')) return;
  for (const field of BRIDGE_VALIDATION_FIELDS) {
    for (const [train, validation] of [[['train', field], ['validation', field]], [[`train.${field}`], [`validation.${field}`]]] as Path[][]) {
      const value = ctx.doc.value(train);
      if (value === undefined || value === null) continue;
      const other = ctx.doc.value(validation) ?? ctx.doc.value(validation.length === 2 ? [validation.join('.')] : String(validation[0]).split('.'));
      const differs = other !== undefined && other !== null && other !== value;
      ctx.report({
        at: train,
        severity: differs ? 'warning' : 'information',
        message: `\`train.${field}\` is deprecated since Megatron Bridge 0.4 (Megatron Core 0.17): Bridge warns ("TrainingConfig.${field} is deprecated …") and copies it over \`validation.${field}\`${differs ? `, so \`validation.${field}: ${String(other)}\` in this file is replaced by ${String(value)}` : ''}. Write it as \`validation.${field}\`${differs ? ' with the value you mean' : ''}, and remove it from \`train\`.`,
      });
    }
  }
}


/** The finding of a section's deprecated keys: one key's own report, or one for them all. */
function reportSection(ctx: RuleContext, { dep, reports }: { dep: Deprecation; reports: Report[] }): void {
  if (reports.length === 1) {
    ctx.report(reports[0]);
    return;
  }
  const paths = reports.map((r) => r.at as Path);
  const parent = paths[0].slice(0, -1);
  const names = paths.map((p) => code(lastKey(p)));
  const list = names.length > 4 ? `${names.slice(0, 4).join(', ')} and ${names.length - 4} more` : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  // One fix that does what each key's own fix does, when they are all of one kind.
  const firsts = reports.map((r) => r.fixes?.[0]);
  const kind = firsts[0]?.kind;
  const same = kind !== undefined && firsts.every((f) => f?.kind === kind);
  ctx.report({
    at: parent,
    on: 'key',
    severity: reports[0].severity,
    message: deprecationMessage(`${list} in ${pathLabel(parent)}`, dep, ctx.versions).replace(' is deprecated', ' are deprecated').replace(/\bthis key is\b/g, 'these keys are'),
    related: paths.map((at) => ({ at, message: `${code(lastKey(at))}: deprecated` })),
    // The whole section at once, and each key on its own (never both by fix-all: only the first can be recommended).
    fixes: [...(same ? [{ kind, title: `${kind.startsWith('remove') ? 'Remove' : 'Update'} the ${reports.length} keys`, edits: firsts.flatMap((f) => f!.edits), recommended: firsts.every((f) => f!.recommended) }] : []), ...reports.flatMap((r) => (r.fixes ?? []).map((f) => (same ? { ...f, recommended: false } : f)))],
  }, ...reports);
}

/** Reports a key the tool refuses here (`refusedUnless`, see refusedHere), as an error; whether it did. */
function reportRefused(ctx: RuleContext, path: Path, dep: Deprecation, value: unknown): boolean {
  const refused = refusedHere(ctx, dep, value);
  if (!refused) return false;
  const message = `${dep.message ? `${dep.message.trim().replace(/\.?$/, '.')} ` : ''}${refused}`;
  ctx.report({ at: path, severity: 'error', message: deprecationMessage(pathLabel(path), { ...dep, replacement: undefined, message }, ctx.versions), fixes: keyFixes(ctx, path, dep, value !== undefined ? value : ctx.doc.value(path), false) });
  return true;
}

/**
 * Why the key stops the tool here (`refusedUnless`): Megatron-LM's own argument checks run (a flag
 * format), the key is set (true, for a switch), and the other argument, written or by default, does
 * not have the value that spares it.
 */
function refusedHere(ctx: RuleContext, dep: Deprecation, value: unknown): string | undefined {
  const unless = dep.refusedUnless;
  if (!unless || !ctx.flat || !(MLM_FLAG_FORMATS as readonly string[]).includes(ctx.format) || value === undefined || value === null) return undefined;
  const values = ctx.flat.value && typeof ctx.flat.value === 'object' ? (ctx.flat.value as Record<string, unknown>) : {};
  // A deprecated argument that the tool converts into the other one first (`--use-rotary-position-embeddings`
  // sets `position_embedding_type` to rope before the check) decides it too.
  const migrated = Object.entries(values).some(([k, v]) => {
    const d = deprecation(ctx.nav?.resolve(ctx.nav.child(ctx.nav.root, k, ctx.schemaVersion)));
    return d?.replacement === unless.key && JSON.stringify(d.replacementValue?.[JSON.stringify(v)]) === JSON.stringify(unless.equals);
  });
  const other = values[unless.key];
  const shown = other ?? defaultAt(ctx.nav?.resolve(ctx.nav.child(ctx.nav.root, unless.key, ctx.schemaVersion)), ctx.schemaVersion);
  if (migrated || shown === undefined || JSON.stringify(shown) === JSON.stringify(unless.equals)) return undefined;
  const written = ctx.writePath([unless.key]);
  return `Here ${code(written ? lastKey(written) : unless.key)} is ${code(shown)}${other === undefined ? ' (its default)' : ''}, not ${code(unless.equals)}, so ${ctx.versions} stops at start-up.`;
}

/** A deprecated value, from the release that deprecated it (before, it is how that release spells it). */
function reportValue(ctx: RuleContext, path: Path, dep: Deprecation, written: unknown): void {
  // Before its deprecation the value is how that release spells it: nothing to say.
  if (dep.since && !ctx.atLeast(dep.since)) return;
  const fixes: FixSpec[] = dep.replacement !== undefined && !dep.replacement.includes('.') ? [{ kind: ctx.keysOpen ? 'migrate' : 'replace-value', title: `Change to ${code(dep.replacement)}`, edits: [{ op: 'set', path, value: dep.replacement }], recommended: true }] : [];
  ctx.report({
    at: path,
    on: 'value',
    severity: SEVERITY[dep.effect],
    message: deprecationMessage(`${code(written)} for ${code(lastKey(path))}`, dep, ctx.versions),
    fixes,
  });
}

/**
 * Where the file writes the replacement of the deprecated key at `path` beside it, under its name or
 * another spelling of it (a key the schema marks as its alias, or the key it is an alias of); a
 * value of `"auto"` is dropped before the tool checks and does not count.
 */
function replacementWritten(ctx: RuleContext, path: Path, replacement: string): Path | undefined {
  const parent = path.slice(0, -1);
  const held = ctx.doc.value(parent);
  if (!held || typeof held !== 'object' || Array.isArray(held)) return undefined;
  const root = ctx.doc.value([]);
  const aliasOf = (key: string): string | undefined => aliasOfSchema(ctx.nav?.at([...parent, key], root, ctx.schemaVersion));
  const spellings = new Set([replacement, aliasOf(replacement)].filter((k): k is string => k !== undefined));
  for (const [key, v] of Object.entries(held as Record<string, unknown>)) {
    if (v === 'auto' || key === lastKey(path)) continue;
    if (spellings.has(key) || aliasOf(key) === replacement) return [...parent, key];
  }
  return undefined;
}

/**
 * A DeepSpeed JSON that an Accelerate config or a Transformers Trainer recipe or launch of the project
 * uses: both have DeepSpeed build the optimizer from its `optimizer` section.
 */
function builtByDeepSpeed(ctx: RuleContext): boolean {
  const m = ctx.model as DeepSpeedModel | undefined;
  return ctx.format === 'deepspeed' && !!(m?.referrers.length || m?.trainers.length);
}

/** The replacement a migrated key's conversion overwrites, when the file writes it with another value. */
function overridden(ctx: RuleContext, dep: Deprecation, value: unknown): { written: string; used: string } | undefined {
  if (dep.effect !== 'migrated' || !dep.overrides || !dep.replacement || !dep.replacementValue || !ctx.flat) return undefined;
  const used = dep.replacementValue[JSON.stringify(value)];
  const written = (ctx.flat.value as Record<string, unknown> | undefined)?.[dep.replacement];
  if (used === undefined || used === null || written === undefined || JSON.stringify(written) === JSON.stringify(used)) return undefined;
  const at = ctx.writePath([dep.replacement]);
  const name = at ? String(lastKey(at)) : dep.replacement;
  return { written: code(`${name} ${typeof written === 'string' ? written : JSON.stringify(written)}`), used: code(`${name} ${typeof used === 'string' ? used : JSON.stringify(used)}`) };
}

const NEUTRAL = ' It is set to its default, so nothing changes either way.';

/** The setting the file writes (not a default) with one of the values that make an ignored key matter, as written. */
function defeated(ctx: RuleContext, when: Record<string, unknown[]>): string | undefined {
  for (const [key, values] of Object.entries(when)) {
    const v = ctx.flat ? (ctx.flat.value as Record<string, unknown> | undefined)?.[key] : ctx.doc.value([key]);
    if (v === undefined || !values.some((x) => JSON.stringify(x) === JSON.stringify(v))) continue;
    const at = ctx.flat ? ctx.writePath([key]) : [key];
    return code(`${at ? String(lastKey(at)) : key}${ctx.flat ? ' ' : ': '}${typeof v === 'string' ? v : JSON.stringify(v)}`);
  }
  return undefined;
}

/**
 * How a message names the key at `target`, where a format with its own spelling writes it: its last
 * key, or in a Megatron Bridge override its whole dotted path when it is in another section than
 * the key at `path` (`optimizer.apply_wd_to_qk_layernorm` for `scheduler.no_weight_decay_cond_type`).
 */
function writtenName(ctx: RuleContext, path: Path, target: Path): string {
  const dotted = target.length === 1 ? String(target[0]).split('.') : target.map(String);
  const section = path.length === 1 ? String(path[0]).split('.')[0] : String(path[0]);
  return ctx.format === 'megatron-bridge' && dotted.length > 1 && dotted[0] !== section ? dotted.join('.') : String(lastKey(target));
}

/**
 * The deprecation as it applies to this file: a key the tool reads only beside another key's value
 * (`readWith`: DeepSpeed's top-level `allgather_size` only with the boolean `zero_optimization: true`,
 * runtime/zero/config.py@v0.3.0:25-28,34-42, @v0.19.5:60-64,71-75) is ignored where the file writes
 * none of those values, and the message says why.
 */
function readHere(ctx: RuleContext, dep: Deprecation): Deprecation {
  if (!dep.readWith) return dep;
  const why = ctx.separately(() => unreadBecause(ctx, dep.readWith!));
  if (why === undefined) return dep;
  const said = dep.message ? `${dep.message.trim().replace(/\.?$/, '.')} ` : '';
  return { ...dep, effect: 'ignored', message: `${said}Here ${why}, so nothing reads it.` };
}

/** Why none of the `readWith` settings holds (the first key, as written or absent), or undefined when one does. */
function unreadBecause(ctx: RuleContext, when: Record<string, unknown[]>): string | undefined {
  let why: string | undefined;
  for (const [key, values] of Object.entries(when)) {
    const v = ctx.flat ? (ctx.flat.value as Record<string, unknown> | undefined)?.[key] : ctx.doc.value([key]);
    if (v !== undefined && values.some((x) => JSON.stringify(x) === JSON.stringify(v))) return undefined;
    const at = ctx.flat ? ctx.writePath([key]) : [key];
    const name = code(at ? String(lastKey(at)) : key);
    const wanted = values.map((x) => code(JSON.stringify(x))).join(' or ');
    const shown = v === undefined || v === null ? `is not written (it would have to be ${wanted})` : `is ${v && typeof v === 'object' ? (Array.isArray(v) ? 'a list' : 'a mapping') : code(typeof v === 'string' ? v : JSON.stringify(v))}, not ${wanted}`;
    why ??= `${name} ${shown}`;
  }
  return why;
}

function deprecationMessage(subject: string, dep: Deprecation, tool: string): string {
  const first = dep.firstSince ?? dep.since;
  const since = first ? ` since ${tool} ${first}` : '';
  const why = dep.message ? dep.message.trim().replace(/\.?$/, '.') : `${EFFECT[dep.effect].replace(/^./, (c) => c.toUpperCase())}.`;
  const rep = dep.replacement?.replace(/^\//, '');
  const use = rep && !why.includes(rep) ? ` Use ${code(rep)} instead.` : '';
  return `${subject} is deprecated${since}. ${why}${use}`;
}

/**
 * Where the replacement a deprecation names arrives after the targeted release: the sentence that
 * says so (`--y` replaces it from 0.19.0), so that the message does not advise a key that release
 * does not know; undefined where the replacement exists there (or its release is not recorded).
 */
function notYet(ctx: RuleContext, path: Path, replacement: string | undefined): string | undefined {
  if (!replacement || !ctx.nav) return undefined;
  const target: Path = replacement.startsWith('/') ? replacement.slice(1).split('.') : replacement.includes('.') ? replacement.split('.') : ctx.flat ? [replacement] : [...path.slice(0, -1), replacement];
  const schema = ctx.flat ? ctx.nav.resolve(ctx.nav.child(ctx.nav.root, String(target[0]))) : ctx.nav.at(target, ctx.doc.value([]));
  const from = since(schema);
  if (!from || ctx.atLeast(from)) return undefined;
  const written = ctx.flat ? ctx.writePath(target) : undefined;
  return `${code(written ? lastKey(written) : replacement.replace(/^\//, ''))} replaces it from ${ctx.versions} ${from}, after the release checked against.`;
}

/** A replacement of the opposite sense (`--disable-x` → `--enable-x`) whose deprecation maps this value to nothing: leaving the key out is the equivalent. */
function equivalentOf(removed: { version: string; replacement?: string }, schema: JsonSchema | undefined, value: unknown): { version: string; replacement?: string } {
  return deprecation(schema)?.replacementValue?.[JSON.stringify(value)] === null ? { ...removed, replacement: undefined } : removed;
}

function removedMessage(subject: string, removed: { version: string; replacement?: string }, ctx: RuleContext, flag: boolean, refused: boolean, later?: string): string {
  const instead = removed.replacement ? ctx.writePath([removed.replacement]) : undefined;
  const use = later ? ` Remove it; ${later}` : removed.replacement ? ` Use ${code(instead ? lastKey(instead) : removed.replacement)} instead.` : ' Remove it.';
  const effect = flag ? `${ctx.tool} no longer accepts the flag and stops at startup ("unrecognized arguments")` : refused ? `${ctx.tool} no longer has it and refuses it like any key this section lacks` : 'nothing reads it any more, so it is ignored';
  const tool: Tool = ctx.format === 'accelerate' || ctx.format === 'deepspeed' ? ctx.format : ctx.format === 'trainer' ? 'transformers' : 'megatron-core';
  return `${subject} was removed in ${ctx.versions} ${removed.version}: ${effect}.${use} (For an older release, say which: \`# shardwise: ${SETTING[tool]}=<version>\`.)`;
}

function keyFixes(ctx: RuleContext, path: Path, dep: Deprecation, value: unknown, activates = false, neutral = false): FixSpec[] {
  const remove: PathEdit = { op: 'remove', path };
  const removeKind = (dep.effect === 'ignored' || dep.effect === 'no-effect') && !ctx.keysOpen ? 'remove-ignored' : 'remove';
  // A fork or an entry script may still take the old name, and may not know the new one.
  // An ignored key that asks for something other than what runs changes the run once it is read.
  // A release whose own conversion of the old key differs from the replacement: the fix changes the run.
  const differs = dep.replacementDiffers?.some((r) => ctx.atLeast(r.since) && !ctx.atLeast(r.until)) ?? false;
  const moved = (kind: 'rename' | 'replace'): string => (activates ? 'activate' : differs ? 'replace-differs' : ctx.keysOpen ? 'migrate' : kind);
  // Dropping a setting that has no equivalent here is offered, never recommended: the file says what
  // the user wanted (and an older release still reads it), which is theirs to carry over or let go.
  const removeOnly = (): FixSpec[] => [{ kind: removeKind, title: `Remove ${code(lastKey(path))}`, edits: [remove] }];
  if (!dep.replacement) return dep.effect === 'migrated' ? [] : removeOnly();
  // `a.b`: a path from the root; `/key`: a top-level key; `key`: a sibling.
  const schemaTarget: Path = dep.replacement.startsWith('/') ? dep.replacement.slice(1).split('.') : dep.replacement.includes('.') ? dep.replacement.split('.') : ctx.flat ? [dep.replacement] : [...path.slice(0, -1), dep.replacement];
  // Where the replacement is written: formats with their own spelling (flags) say so.
  const target = ctx.flat ? ctx.writePath(schemaTarget) : schemaTarget;
  if (!target) return dep.effect === 'migrated' ? [] : removeOnly();
  // A replacement spelled as a negative flag (`--no-x`) means the opposite: never rename onto it.
  if (ctx.flat && /^--?(no|disable)-/.test(String(lastKey(target)))) return dep.effect === 'migrated' ? [] : removeOnly();
  // A bare negated flag (`--no-x`) stores false; the replacement's bare flag would store true.
  const written = ctx.doc.node(path);
  if (ctx.flat && value === false && written?.kind === 'scalar' && written.value === null) return dep.effect === 'migrated' ? [] : removeOnly();
  const name = code(ctx.flat ? writtenName(ctx, path, target) : dep.replacement.replace(/^\//, ''));
  const mapped = dep.replacementValue ? dep.replacementValue[JSON.stringify(value)] : value;
  if (dep.replacementValue && !(JSON.stringify(value) in dep.replacementValue)) return [];
  if (ctx.doc.node(target)) return [{ kind: removeKind, title: `Remove ${code(lastKey(path))} (${name} is already set)`, edits: [remove], recommended: removeKind === 'remove-ignored' }];
  if (mapped === null) return removeOnly();
  const targetSchema = ctx.flat ? ctx.nav?.resolve(ctx.nav.child(ctx.nav.root, String(schemaTarget[0]), ctx.schemaVersion), undefined) : ctx.nav?.at(target, ctx.doc.value([]), ctx.schemaVersion);
  if (ctx.nav && targetSchema && !ctx.nav.matches(targetSchema, mapped)) return removeOnly();
  // An ignored key set to its own default counts as nothing only if the replacement's default is that value too.
  if (neutral && !activates && JSON.stringify(defaultAt(targetSchema, ctx.schemaVersion)) !== JSON.stringify(mapped)) activates = true;
  if (target.length === path.length && target.slice(0, -1).every((s, i) => s === path[i]) && mapped === value) return [{ kind: moved('rename'), title: `Rename to ${name}`, edits: [{ op: 'rename', path, key: String(lastKey(target)) }], recommended: true }];
  return [{ kind: moved('replace'), title: `Replace with ${code(`${ctx.flat ? writtenName(ctx, path, target) : dep.replacement.replace(/^\//, '')}: ${typeof mapped === 'string' ? mapped : JSON.stringify(mapped)}`)}`, edits: [remove, { op: 'set', path: target, value: mapped }], recommended: true }];
}
