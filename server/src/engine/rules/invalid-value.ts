/**
 * invalid-value: a value of the wrong type, outside its range, or not among the allowed names.
 */
import { deepspeedReader } from './duplicate-key';
import { closest, isTypo } from '../suggest';
import { deprecatedValues, nargsBefore, nullEffect, since, valueSince } from '../schema/vocabulary';
import { torchOptimRefusals } from '../formats/deepspeed/torch-optim';
import type { DeepSpeedModel } from '../formats/deepspeed/model';
import { bareSwitch, code, deprecatedValue, launchIgnoresKey, pathLabel, readUnchecked, releaseForm, releaseAccepts, scalarText, walkSchema, yamlTrap } from './helpers';
import { advisedBreaks, enumRemoved, identityRead, invalidRunsBefore, pydanticText, readTruthy, removal, typeAtRelease, typesBefore, unbounded, valueForms } from '../schema/vocabulary';
import { wrapKeyUnread } from '../formats/accelerate/helpers';
import { defineRule, type FixSpec } from './rule';
import { untracked } from './certain';
import { argparseOnlyReader, bridgeKeepsText, configRefusal, environmentVariable, invalidEffect, onlyNull, yamlCfgRefusal } from '../schema/vocabulary';
import type { AccelerateModel } from '../formats/accelerate/model';
import { popenLauncher, textProcessCountFails } from '../formats/accelerate/helpers';
import { samePath, type Path } from '../types';
import { MEGATRON_FORMATS, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { argumentChecks } from '../formats/megatron/runtime';
import { callbackUse } from '../formats/megatron/callbacks';
import { bridgeSince } from '../formats/megatron/schema';
import { inFormat, megatronGateOff } from '../formats/megatron/checks';
import type { Node, ScalarNode } from '../syntax/tree';
import type { RuleContext } from './rule';
import { fieldTypes, laxCoerce, PYDANTIC_2_SINCE, validatorRefuses } from '../formats/deepspeed/pydantic';
import { accelerateAutoQuote } from '../formats/deepspeed/model';
import { launchModeReader, noOwnCheck, pydanticSection, strictSince, validatorRefusal, valueCheckedSince, valuesCheckedWhenEnabled } from '../schema/vocabulary';
import type { SchemaIssue } from '../schema/check';
import type { JsonSchema, ValuesGate } from '../schema/types';

type Issue = Extract<SchemaIssue, { kind: 'invalid-value' }>;

/**
 * DeepSpeed: how the pydantic model of the value's section reads a value of another type, where a
 * model validates the section at the release (`x-pydantic`, from `x-strict-since`): `accepted`
 * (lax mode converts it to a value the key allows), the converted value when only its bounds fail,
 * `refused`, or `unsettled` (say nothing). Undefined: no pydantic model reads it there.
 */
function pydanticRead(ctx: RuleContext, issue: Issue): { kind: 'accepted' | 'refused' | 'unsettled' } | { kind: 'value'; value: unknown } | undefined {
  const nav = ctx.nav;
  const path = issue.schemaPath;
  if (ctx.format !== 'deepspeed' || !nav || !path || path.length < 2 || typeof path[path.length - 1] === 'number') return undefined;
  const section = nav.at(path.slice(0, -1), ctx.doc.value([]), ctx.schemaVersion);
  if (!pydanticSection(section)) return undefined;
  const since = strictSince(section);
  if (since && !ctx.atLeast(since)) return undefined;
  if (validatorRefuses(issue.schema, issue.value, (v) => ctx.atLeast(v))) return { kind: 'refused' };
  // A field typed `Union[str, …]` (`x-pydantic-text`) keeps text as text: `"5"` is not converted.
  if (pydanticText(issue.schema) && typeof issue.value === 'string') return { kind: 'refused' };
  const v2 = ctx.atLeast(PYDANTIC_2_SINCE);
  let unsettled = false;
  let bounded: unknown;
  for (const type of fieldTypes(issue.schema)) {
    const c = laxCoerce(type, issue.value, v2);
    if (c === undefined) unsettled = true;
    else if (c.ok && issue.schema && nav.matches(issue.schema, c.value)) return { kind: 'accepted' };
    else if (c.ok && issue.schema && nav.matches(unbounded(issue.schema), c.value)) bounded = c.value;
  }
  if (unsettled) return { kind: 'unsettled' };
  return bounded !== undefined ? { kind: 'value', value: bounded } : { kind: 'refused' };
}

/**
 * Why DeepSpeed runs a value the schema refuses instead of stopping on it, where the key's reader has
 * no check of its own (`noOwnCheck`) and the value is of the kind the key takes but not one of its
 * choices, or a word or number for a switch, which
 * Python's `if` reads by truth: undefined for a value of another kind, which fails where it is used.
 */
function uncheckedKind(ctx: RuleContext, issue: Issue): string | undefined {
  if (ctx.format !== 'deepspeed' || !noOwnCheck(issue.schema) || !issue.schema) return undefined;
  const types = ([] as unknown[]).concat(issue.schema.type ?? []);
  const v = issue.value;
  const kind = typeof v === 'string' ? 'string' : typeof v === 'boolean' ? 'boolean' : typeof v === 'number' ? (Number.isInteger(v) ? ['integer', 'number'] : ['number']) : undefined;
  const sameKind = kind !== undefined && ([] as string[]).concat(kind).some((k) => types.includes(k));
  // Only a name outside the choices: a numeric bound is in the schema only where DeepSpeed refuses the value.
  if (sameKind && (issue.schema.enum || issue.schema.const !== undefined)) return 'DeepSpeed reads this key without checking it, so it does not stop on the value: the code that uses it takes it as some other choice (or the default) or fails there';
  // A switch whose reader refuses text from a release on (`x-value-checked-since`: `flops_profiler.enabled`
  // and `wall_clock_breakdown` are combined with `|`, a TypeError for text): refused, not taken by its truth.
  const checkedSince = valueCheckedSince(issue.schema);
  if (typeof v === 'string' && checkedSince && ctx.atLeast(checkedSince)) return undefined;
  if (types.length === 1 && types[0] === 'boolean' && (typeof v === 'string' || typeof v === 'number')) return identityEffect(ctx, issue.schema, v) ?? `DeepSpeed reads this switch without checking it, and Python takes ${code(String(v))} by its truth (${v === '' || v === 0 ? 'false' : 'true'}), whatever the word says`;
  return undefined;
}

/**
 * What a word or number does for a switch DeepSpeed tests by identity (`x-read-identity`:
 * `pipeline.use_reentrant`, tested `is False`): it runs as the opposite of the one literal that
 * counts, whatever its truth; on the releases that also test its truth elsewhere, a value whose truth
 * is that literal runs half one way (`mixed`).
 */
function identityEffect(ctx: RuleContext, schema: JsonSchema | undefined, v: string | number): string | undefined {
  const identity = identityRead(schema);
  if (!identity) return undefined;
  const truth = typeof v === 'string' ? v.length > 0 : v !== 0;
  const mixed = identity.mixed && truth === identity.literal && (!identity.mixed.since || ctx.atLeast(identity.mixed.since)) && (!identity.mixed.before || !ctx.atLeast(identity.mixed.before)) ? `; ${identity.mixed.effect}` : '';
  return `DeepSpeed reads this switch without checking it and tests it with \`is ${identity.literal ? 'True' : 'False'}\`, not by its truth: only the literal \`${identity.literal}\` counts, so ${code(typeof v === 'string' ? JSON.stringify(v) : String(v))} runs as \`${!identity.literal}\`${mixed}`;
}

/** Where a gate's switch is written (`atAny`: any of these keys turns it on); `base` is where its `key` is looked up. */
function switchesOf(gate: ValuesGate, base: Path): Path[] {
  return gate.atAny ?? [gate.at ?? [...base, gate.key ?? 'enabled']];
}

/** Why a gate (`x-values-checked-when-enabled`) is off, or undefined when it is on; `base` is where its `key` is looked up. */
// The gate holds at the targeted release: `valuesCheckedWhenEnabled` has kept only those (`since`/`until`).
function gateOff(ctx: RuleContext, gate: ValuesGate, base: Path, own: boolean, checked = true): string | undefined {
  // Megatron: the switch is an argument (its dest), read as the file's format writes it.
  if ((MEGATRON_FORMATS as readonly string[]).includes(ctx.format)) return megatronGateOff(ctx as RuleContext<MegatronModel>, gate);
  // `atAny`: the switch is on when any of these keys is.
  const ons = switchesOf(gate, base);
  // A gate written as anything but what it is compared with (an "auto" a program fills) may be on.
  const isOn = (value: unknown) => gate.equals !== undefined
    ? value === gate.equals || (value !== undefined && typeof value !== typeof gate.equals)
    : gate.above === undefined ? value === true : value !== undefined && (typeof value !== 'number' || value > gate.above);
  if (ons.some((at) => isOn(ctx.doc.value(at)))) return undefined;
  const on = ons.map((at) => at.join('.'));
  const state = gate.equals !== undefined ? `is not \`${String(gate.equals)}\` here` : gate.above === undefined ? 'is not true here' : `is not above ${gate.above} here`;
  // A key with no check of its own is not refused once the switch is on either: it is then read as written.
  const then = checked ? `, and it is refused once ${own ? 'that changes' : 'the section is turned on'}` : ', and it is read as written (unchecked) once the section is turned on';
  const subject = ons.length > 1 ? `neither ${on.map((o) => `\`${o}\``).join(' nor ')}` : `\`${on[0]}\``;
  return `${gate.why}; ${subject} ${ons.length > 1 ? state.replace(/^is not /, 'is ') : state}, so the value is unused${then}`;
}

/** Why the key whose schema is `schema` is unread here: the first of its own gates that is off. */
export function keyGatedOff(ctx: RuleContext, schema: JsonSchema | undefined, path: Path): string | undefined {
  for (const gate of valuesCheckedWhenEnabled(schema, (v) => ctx.atLeast(v))) {
    const off = gateOff(ctx, gate, path, true);
    if (off) return off;
  }
  return undefined;
}

/**
 * Why a value the schema refuses is unused for now, where the key itself is read only while every
 * gate it lists is on, or a section above it has its values checked only while it is on
 * (`x-values-checked-when-enabled`, at the releases the gate names: its `enabled` true, or its
 * `key` — or the key at the absolute path `at` — above `above` or equal to `equals`), and the file
 * does not turn it on. The switch itself is judged as any value, and so is a key the section's
 * reader checks whatever the switch (`except`), or a value of it the reader's own check refuses
 * (outside `readAccepts`).
 */
function dormantValue(ctx: RuleContext, issue: Issue): string | undefined {
  const path = issue.schemaPath;
  if (!ctx.nav || !path || path.length < 1) return undefined;
  const own = keyGatedOff(ctx, ctx.nav.at(path, ctx.doc.value([]), ctx.schemaVersion), issue.path);
  if (own || path.length < 2) return own;
  const same = (a: Path, b: Path) => a.length === b.length && a.every((k, i) => String(k) === String(b[i]));
  for (let depth = path.length - 1; depth >= 1; depth--) {
    const gates = valuesCheckedWhenEnabled(ctx.nav.at(path.slice(0, depth), ctx.doc.value([]), ctx.schemaVersion), (v) => ctx.atLeast(v));
    if (!gates.length) continue;
    const base = issue.path.slice(0, depth);
    // The key of the section that holds the value (the list for an item of one).
    const key = String(issue.path[depth]);
    for (const gate of gates) {
      if (gate.except?.includes(key)) return undefined;
      const accepts = gate.readAccepts?.[key];
      if (accepts && !ctx.nav.matches(accepts, ctx.doc.value([...base, issue.path[depth]]))) return undefined;
      if (switchesOf(gate, base).some((at) => same(at, issue.path))) continue;
      const off = gateOff(ctx, gate, base, false, !noOwnCheck(issue.schema));
      if (off) return off;
    }
    return undefined;
  }
  return undefined;
}

/**
 * An `"auto"` on a key that does not take it, in a DeepSpeed JSON that Accelerate prepares: an
 * Accelerate config names it, or a Transformers Trainer does, which prepares DeepSpeed through
 * Accelerate (from the releases that do: an assumption, so a warning). Accelerate walks every
 * mapping of the file, sections switched off included, and stops on an "auto" it has no value for
 * (deepspeed_config_process → fill_match, utils/dataclasses.py@v1.12.0:1321-1370, called by
 * accelerator.py@v1.12.0:2300; the same from v0.10.0, which first reads a DeepSpeed config file),
 * before DeepSpeed reads anything: the stop is the finding, whether or not DeepSpeed would read the
 * key. Lists are not walked, and fill_match finds a key by its dotted name, so one with a dot of its
 * own is not stopped on. `steps_per_print` is overwritten before the walk (DeepSpeedPlugin sets it to
 * infinity, dataclasses.py@v0.10.0:312, @v1.14.0:1324): no message. `zero_allow_untested_optimizer`
 * is overwritten only when the program hands Accelerate an optimizer of its own
 * (accelerator.py@v1.12.0:2210), which the file does not say: left to the checks below.
 */
function preparedAuto(ctx: RuleContext, issue: Issue): 'accelerate' | 'trainer' | 'overwritten' | undefined {
  if (ctx.format !== 'deepspeed' || issue.value !== 'auto' || issue.path.some((k) => typeof k === 'number' || String(k).includes('.'))) return undefined;
  const reader = deepspeedReader(ctx);
  if (reader !== 'accelerate' && reader !== 'trainer') return undefined;
  const top = issue.path.length === 1 ? issue.path[0] : undefined;
  if (top === 'zero_allow_untested_optimizer') return undefined;
  // The Trainer hands Accelerate's DeepSpeedPlugin its config too (TrainingArguments), which overwrites it the same way.
  return top === 'steps_per_print' ? 'overwritten' : reader;
}

/** Accelerate's stop on an `"auto"` it has no value for, after `who` ("… Accelerate, which"). */
function acceleratorStop(path: Path, who: string): string {
  const key = path.join('.');
  return `${who} fills every \`"auto"\` of the file when it prepares the model and stops on one it has no value for ${accelerateAutoQuote(key)}, whether or not DeepSpeed reads the key. Write the value you want, or remove the key.`;
}

/**
 * The finding on an `"auto"` in a JSON only a Transformers Trainer names: current Trainers prepare
 * DeepSpeed through Accelerate, which stops on it; one that starts DeepSpeed itself hands it on, with
 * `effect`. An error where DeepSpeed refuses that too (either Trainer stops), else a warning naming the release assumed.
 */
function trainerStop(path: Path, effect: string, severity: 'warning' | 'information' | undefined): { severity?: 'warning'; message: string } {
  const stop = acceleratorStop(path, 'the Transformers Trainer that uses this file prepares DeepSpeed through Accelerate (as current releases do), which').replace(/ Write the value.*$/, '');
  const older = severity === undefined ? ` A Trainer that starts DeepSpeed itself instead hands it on as written: ${effect}.` : ` This assumes such a Transformers release; with one whose Trainer starts DeepSpeed itself, ${effect}.`;
  return { severity: severity === undefined ? undefined : 'warning', message: `${pathLabel(path)} does not take \`"auto"\`, which neither Transformers nor Accelerate fill here: ${stop}${older} Write the value you want, or remove the key.` };
}

/**
 * Why a value in an Accelerate config is unused: `accelerate launch` at the release does not take
 * the top-level key from the file (`x-launch-ignores`: an option of the same name has its own
 * default, commands/launch.py `_validate_launch_command` copies only options still None), and
 * nothing else reads it, so no check of the value runs either.
 */
function launchIgnoredValue(ctx: RuleContext, issue: Issue): string | undefined {
  if (ctx.format !== 'accelerate' || issue.path.length !== 1 || !launchIgnoresKey(ctx, String(issue.path[0]))) return undefined;
  return '`accelerate launch` does not take this key from the config file (its command-line option of the same name keeps its own default), so the value is unused; pass the option on the command line instead';
}

/**
 * A value as the file writes it: text in quotes where the quotes are what is wrong (any text in JSON;
 * in YAML or a script, text that would otherwise read as a number, a boolean or null: `"8"`).
 */
function asWritten(ctx: RuleContext, v: unknown): unknown {
  if (typeof v !== 'string') return v;
  return ctx.doc.syntax === 'json' || /^\s*([-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?|true|false|null)\s*$/i.test(v) ? JSON.stringify(v) : v;
}

/**
 * A switch the tool only tests with `if` (`x-read-truthy`): a value of another type runs, as Python's
 * truth of it. Text that reads as "false" but is true (`"false"`, `"off"`, `"0"`) is a warning; other
 * text or numbers a hint, whose fix to the boolean it stands for leaves the run as it is.
 */
function truthyRead(ctx: RuleContext, issue: Issue, node: Node): boolean {
  const how = readTruthy(issue.schema);
  const v = issue.value;
  if (!how || node.kind !== 'scalar' || (typeof v !== 'string' && typeof v !== 'number')) return !!how && node.kind === 'scalar';
  const truth = typeof v === 'string' ? v.length > 0 : v !== 0;
  const looksFalse = typeof v === 'string' && /^\s*(false|no|off|0|none|null)\s*$/i.test(v);
  ctx.report({
    at: issue.path,
    on: 'value',
    severity: looksFalse ? 'warning' : 'hint',
    message: `${pathLabel(issue.path)} is ${code(asWritten(ctx, v))}, not a boolean: ${how}, so it runs as \`${truth}\`${looksFalse ? ', not as the false the text says' : ''}. Write \`${looksFalse ? 'false' : truth}\`${looksFalse ? ' if off was meant (that changes the run), or `true` to keep it' : ''}.`,
    fixes: [{ kind: looksFalse ? 'candidate' : 'truthy-as-boolean', title: `Change to \`${truth}\``, edits: [{ op: 'set', path: issue.path, value: truth }], recommended: !looksFalse }],
  });
  return true;
}

/**
 * An Accelerate switch the launcher hands the program through the environment (`x-env`), written as
 * text str_to_bool reads (`"true"`, `"yes"`, `"on"`, `"0"`, …, any case): the launcher exports
 * `str(value)` (lower-cased for most switches, utils/launch.py@v1.14.0:314-327) and the plugin parses
 * it with str_to_bool (utils/environment.py@v1.14.0:66-71; distutils' strtobool, the same words,
 * at v0.7.0), so the text runs as the boolean it names. A hint to write the boolean; not a refusal.
 * Other text is refused there ("invalid truth value"), and stays an error.
 */
const TRUE_WORDS = ['y', 'yes', 't', 'true', 'on', '1'];
const FALSE_WORDS = ['n', 'no', 'f', 'false', 'off', '0'];
function exportedBooleanText(ctx: RuleContext, issue: Issue, node: Node): boolean {
  const v = issue.value;
  if (ctx.format !== 'accelerate' || node.kind !== 'scalar' || typeof v !== 'string' || ![...TRUE_WORDS, ...FALSE_WORDS].includes(v.trim().toLowerCase())) return false;
  if (!environmentVariable(issue.schema) || issue.schema?.type !== 'boolean') return false;
  // A key the launcher does not take from the file is exported from its option's own default, not from this text.
  if (launchIgnoredValue(ctx, issue)) return false;
  const b = TRUE_WORDS.includes(v.trim().toLowerCase());
  ctx.report({
    at: issue.path,
    on: 'value',
    severity: 'hint',
    message: `${pathLabel(issue.path)} is the text ${code(asWritten(ctx, v))}, not a boolean: the launcher exports it to the program as \`${environmentVariable(issue.schema)}\`, where it is read as \`${b}\`, the same as the boolean. Write \`${b}\`.`,
    fixes: [{ kind: 'candidate', title: `Change to \`${b}\``, edits: [{ op: 'set', path: issue.path, value: b }], recommended: true }],
  });
  return true;
}

/**
 * `num_processes` of an Accelerate cluster config written as text: the operation that fails on it at
 * the targeted release, or null where the launcher hands the text on or the outcome is not settled
 * (nothing to report); undefined for every other value.
 */
function textProcessCount(ctx: RuleContext, path: Path, value: unknown): string | null | undefined {
  if (ctx.format !== 'accelerate' || path.length !== 1 || path[0] !== 'num_processes' || typeof value !== 'string' || /^\s*[-+]?\d/.test(value)) return undefined;
  return textProcessCountFails(ctx.model as AccelerateModel, (v) => ctx.atLeast(v)) ?? null;
}

export default defineRule({
  id: 'invalid-value',
  severity: 'error',
  formats: 'all',
  fixes: {
    'did-you-mean': { applicability: 'safe', changes: 'corrects a slip of the keyboard, case or one or two characters, to the only allowed value within reach' },
    candidate: { applicability: 'unsafe', changes: 'the value: one it may have meant, among several or more than a slip away' },
    'release-bound': { applicability: 'unsafe', changes: 'the value to one that only some releases accept, and no release is named' },
    'join-list': { applicability: 'safe', changes: 'writes the list as the one string the launcher expects' },
    'truthy-as-boolean': { applicability: 'safe', changes: 'writes the boolean a switch tested only with `if` already runs as (text or a number for true)' },
  },
  docs: {
    summary: 'A value of the wrong type, out of range, or not one of the allowed names.',
    why: 'Enumerations are matched exactly (`distributed_type: multi_gpu` fails with "is not a valid DistributedType"), numbers are converted with `int()` (Megatron-LM\'s argument parser refuses even a whole number written `1e6` or `1000000.0` for an integer flag) or compared to limits, and a wrong value stops the launch or, worse, is passed on to code that misreads it. The message lists what the targeted release allows: a value added in a later release is not listed or suggested (the message says when the closest one arrived), and an old one that release still reads is (Accelerate\'s `distributed_type: TP`, in the releases that had it). While no release is named, a correction to a value that only some releases accept is offered as an unsafe fix. A key the targeted release no longer has is not read, so its value is not judged (`deprecated-key` says it is ignored). An `"auto"` in a DeepSpeed JSON that neither the Trainer nor Accelerate fills is a warning, and only a note where the repository\'s own Python handles that section of the DeepSpeed config (it may fill it before `deepspeed.initialize`). With an Accelerate config that names the JSON, such an `"auto"` is an error whatever DeepSpeed would do with it (in a section switched off, on a switch it reads by truth): Accelerate fills every `"auto"` of the file before DeepSpeed reads it and stops on one it has no value for (`steps_per_print` aside, which it overwrites first); where only a Transformers Trainer recipe names it, current Trainers prepare DeepSpeed through Accelerate the same way, a warning that names that assumption unless DeepSpeed itself would refuse the value too. Where the tool takes any text and ignores a name it does not know (DeepSpeed\'s `tensor_parallel.preset_model`), another name is a warning: the run goes on without what the file asks for. A wrong value in a DeepSpeed section switched off is a note where DeepSpeed reads the section as written and uses it only while it is on (the flops profiler, progressive layer drop, `amp`, `nebula`, the eigenvalue and compression shared parameters, AutoEP, elasticity), except a key its reader checks whatever the switch (`torch_autocast.dtype`); it stays an error where a pydantic model validates the section whenever it is written (`fp16` and `bf16` from DeepSpeed 0.17.1, the monitors from 0.6.6). A Megatron config field that holds a function set in code (the pipeline schedules\' `grad_sync_func`, `no_sync_func`…) can only be null in a `--yaml-cfg`, Bridge or NeMo file: text there is an error where the run calls it (a TypeError), a note where the training loop replaces it first; so can the initializers (`init_method`, `embedding_init_method`) in a Bridge override, which keeps the text as written where a `--yaml-cfg` file converts `xavier_uniform` (a warning: the recipe may set the field in code, or turn initialization off). A value checked only while a switch is on is a note while the file leaves the switch off, and an error once it is on: Megatron Core refuses a negative CPU-offloading layer count while `cpu_offloading` is on (a config field; Megatron-LM\'s command line has no flag for it and turns it on only for a count above 0, and Megatron Core 0.5.0 checks the count whatever the switch), and a negative `--wgrad-deferral-limit` with `--defer-embedding-wgrad-compute`. A DeepSpeed key only the autotuner reads (`autotuning.metric`, `tuner_type`, the batch-size bounds…) is a warning that names the launch it assumes: the autotuner runs only under `deepspeed --autotuning`, reads the section whatever its `enabled` says, and the training engine never uses these values.',
    bad: 'distributed_type: multi_gpu\nnum_processes: 8\n',
    good: 'distributed_type: MULTI_GPU\nnum_processes: 8\n',
    fix: 'Replaces the value with the allowed value it most resembles (same letters in another case, or a close spelling); joins a list of class names into the comma-separated string the launcher expects.',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 2 --sequence-parallel --bf16 --position-embedding-type rotery \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 2 --sequence-parallel --bf16 --position-embedding-type rope \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
  },
  check(ctx) {
    // A fork's parser has its own choices for the flags it shares with upstream.
    const nav = ctx.nav;
    if (!nav || ctx.fork) return;
    // Each issue on its own: what is read for one does not weigh on another's finding.
    ctx.each(ctx.issues, (found) => {
      if (found.kind !== 'invalid-value') return;
      let issue: Issue = found;
      let node = ctx.doc.node(issue.path);
      // One word of a flag value written as one string (`--recompute-modules: core_attn mlpp`): the
      // word has no node of its own, so the report goes on the whole value and names the word.
      const word = !node && typeof issue.path[issue.path.length - 1] === 'number' ? ctx.doc.node(issue.path.slice(0, -1)) : undefined;
      if (word?.kind === 'scalar') node = word;
      else if (!node || yamlTrap(ctx, issue)) return;
      // An "auto" Accelerate meets before DeepSpeed reads the file: its stop, whatever DeepSpeed would do.
      const prepared = preparedAuto(ctx, issue);
      if (prepared === 'overwritten') return;
      if (prepared === 'accelerate') return void ctx.report({ at: issue.path, on: 'value', message: `${pathLabel(issue.path)} does not take \`"auto"\`, which neither Transformers nor Accelerate fill here: ${acceleratorStop(issue.path, 'this file is used through Accelerate, which')}` });
      if (releaseAccepts(ctx, issue.schema, node) || readUnchecked(ctx, issue.schemaPath)) return;
      // A key the release no longer has is not read there, whatever its value (deprecated-key says so).
      const gone = removal(issue.schema);
      if (gone && ctx.atLeast(gone.version)) return;
      // A number the targeted release's parser takes with a fraction (`x-type-before: number`) where the schema wants an integer.
      if (issue.schema?.type === 'integer' && typeof issue.value === 'number' && typeAtRelease(issue.schema, (v) => ctx.atLeast(v))?.type === 'number' && nav.matches({ ...issue.schema, type: 'number' }, issue.value)) return;
      // A flag the targeted release takes as a switch (`--export-kv-cache-quant` before 0.16.0), or
      // with no word at all (`nargs='*'`: `--recompute-modules` before 0.16.0), written bare: there is
      // no value to judge.
      const arity = bareSwitch(node) ? nargsBefore(issue.schema).find(([v]) => !ctx.atLeast(v))?.[1] : undefined;
      if (arity === 0 || arity === '*' || arity === '?') return;
      // A wrap key the chosen policy never reads is never converted (fsdp-wrap-policy-mismatch says so).
      if (wrapKeyUnread(ctx as RuleContext<AccelerateModel>, issue.path)) return;
      if (truthyRead(ctx, issue, node)) return;
      if (exportedBooleanText(ctx, issue, node)) return;
      // A pydantic section: lax mode converts what it can, and the converted value is what is judged.
      const lax = pydanticRead(ctx, issue);
      if (lax?.kind === 'accepted' || lax?.kind === 'unsettled') return;
      if (lax?.kind === 'value') issue = { ...issue, value: lax.value };
      // A value some releases accepted: refused only by the others.
      const removed = enumRemoved(issue.schema, issue.value);
      if (removed && (!removed.since || ctx.atLeast(removed.since)) && !ctx.atLeast(removed.removed)) return;
      const at = word ? issue.path.slice(0, -1) : issue.path;
      const written = node.kind === 'scalar' && !word ? node.value : issue.value;
      // An old spelling is reported by deprecated-key, unless the targeted release reads a narrower set that refuses it.
      const form = releaseForm(ctx, issue.schema);
      const narrower = form?.form === 'narrower' && !!form.accepts && !nav.matches(form.accepts, written) ? form : undefined;
      if (!narrower && deprecatedValue(issue.schema, issue.value, written)) return;
      // Accelerate's process count written as text: an error only where the launcher computes with it.
      const textCount = textProcessCount(ctx, issue.path, issue.value);
      if (textCount === null) return;
      // A `--yaml-cfg` key no listed value of which runs either (`x-yaml-cfg-refused.onlyNull`): only leaving it out does.
      const nullOnly = argumentChecks(ctx.format, ctx.model) === 'validate_yaml' && yamlCfgRefusal(issue.schema)?.onlyNull === true;
      const expected = nullOnly ? 'left out (or null)' : nav.describe(issue.schema, 0, (v) => ctx.atLeast(v)); // the values the targeted release accepts
      const shown = word ? code(issue.value) : node.kind === 'scalar' ? code(asWritten(ctx, node.value)) : node.kind === 'seq' ? 'a list' : 'a mapping';
      // Releases that run an unknown value silently as another: the finding is a warning, and any
      // correction changes what runs (unsafe).
      const runs = invalidRunsBefore(issue.schema);
      const silent = runs !== undefined && !ctx.atLeast(runs.version) && (!runs.bounds || (!!issue.schema && nav.matches(unbounded(issue.schema), issue.value)));
      // A section whose values are checked only while it is on: off, the value is unused (a note; a fix would change the run once it is on).
      const dormant = dormantValue(ctx, issue) ?? launchIgnoredValue(ctx, issue);
      // Read only by a tool a launch mode starts (the autotuner): the file does not say how it is launched.
      const launchOnly = !dormant && !silent ? launchModeReader(issue.schema) : undefined;
      // A DeepSpeed key its reader takes with no check: a value of the right kind outside the allowed
      // ones (an unknown name, a word for a switch read by truth) runs as something else, not refused.
      const unchecked = !silent && !dormant && uncheckedKind(ctx, issue);
      // An "auto" no integration fills, in a DeepSpeed JSON whose other placeholders say a program fills
      // them before DeepSpeed reads it, and no file here says which program: a program of the
      // repository's own may fill this one too (the Trainer and Accelerate do not).
      const placeholder = !silent && !dormant && !unchecked && ctx.format === 'deepspeed' && issue.value === 'auto' && deepspeedReader(ctx) === 'integration';
      // The repository's own Python handles the section that holds it (`ds_config["scheduler"]["params"] = …`
      // before `deepspeed.initialize`): what reaches DeepSpeed is that program's, not known from the file.
      const filler = placeholder ? ctx.settings.repositoryFlags?.deepspeedReads?.find((r) => issue.path.includes(r.key)) : undefined;
      const allowed = nav.allowedValues(issue.schema, (v) => ctx.atLeast(v)).filter((v): v is string => typeof v === 'string');
      const { advice, fixes } = nullOnly ? { advice: '', fixes: [] } : correction(ctx, issue, allowed, !!word, !silent && !dormant && !unchecked && !launchOnly);
      // Where the script reading the file may add its own choices (an entry point's `--model-provider`),
      // a value outside upstream's choices is a warning that says so.
      const extendable = !!ctx.keysOpen && !!ctx.flat && allowed.length > 0;
      const { yamlChoices, refused: configRefused, warned: readerRefused } = configFieldVerdict(ctx, issue, !dormant && !silent && allowed.length > 0);
      const refusal = `${invalidEffect(issue.schema) ?? `${ctx.tool} rejects it or misreads it`}`;
      const judged = dormant
        ? dormant
        : configRefused
        ? configRefused
        : readerRefused
        ? readerRefused
        : yamlChoices
        ? `argparse would refuse it on the command line, but Megatron-LM's \`--yaml-cfg\` reader checks no choices, so the value reaches the config as written and what it does depends on the code that reads it`
        : extendable
        ? `${ctx.tool} rejects it, unless the script that reads the flags adds it to the choices (${ctx.keysOpen})`
        : silent
          ? runs.effect
          : unchecked
            ? unchecked
          : filler
            ? `the Transformers Trainer and Accelerate fill only their own placeholders, but this repository's Python handles \`${filler.key}\` of the DeepSpeed config (\`${filler.file}\`) and may fill it before DeepSpeed reads it; if nothing does, DeepSpeed fails where it is used`
          : placeholder
            ? `the Transformers Trainer and Accelerate fill only their own placeholders, so this "auto" reaches DeepSpeed and fails where it is used, unless the program that fills this file's other placeholders fills it too`
          : narrower?.why
            ? narrower.why
          : textCount
            ? `the launcher keeps the text and ${textCount}, which stops with a TypeError before training starts`
            : lax && (typeof issue.value === 'string' || typeof issue.value === 'boolean') && !ctx.atLeast(validatorRefusal(issue.schema)?.since ?? '0')
              ? `the pydantic model that validates the section refuses it when DeepSpeed reads the config (its conversion of text and booleans cannot make it a valid value)`
              : refusal;
      const effect = launchOnly
        ? `only ${launchOnly.reader} reads it, which runs when the job is launched with \`${launchOnly.launch}\` (the training engine never uses the value), so this assumes such a launch. There, ${judged}`
        : judged;
      const severity = readerRefused ? 'warning' : dormant || filler || (yamlChoices && !configRefused) ? 'information' : configRefused ? undefined : extendable || silent || unchecked || placeholder || launchOnly ? 'warning' : undefined;
      // Named by a Trainer recipe alone: the Accelerate the Trainer prepares through stops first.
      if (prepared === 'trainer') return void ctx.report({ at, on: 'value', ...trainerStop(issue.path, effect, severity) });
      ctx.report({
        at,
        on: 'value',
        severity,
        message: `${pathLabel(issue.path)} must be ${expected}, not ${shown}: ${effect}${removed ? ` (accepted ${removed.since ? `from ${removed.since} ` : ''}until ${removed.removed}, which refuses it)` : ''}.${advice}`,
        fixes,
      });
    });
    walkSchema(ctx, (path, schema, node) => valueFormFindings(ctx, path, schema, node));
  },
});

/** The advice and fixes for a refused value: the allowed value it most resembles, or the form the reader expects. */
function correction(ctx: RuleContext, issue: Issue, allowed: string[], word: boolean, typoSafe: boolean): { advice: string; fixes: FixSpec[] } {
  const nav = ctx.nav!;
  const fixes: FixSpec[] = [];
  let advice = '';
  if (typeof issue.value === 'string' && allowed.length) {
    const near = closest(issue.value, allowed);
    if (near.length) {
      advice = ` Did you mean ${near.map(code).join(' or ')}?`;
      // A value some releases refuse is a safe correction only for a release that is named.
      const slip = (v: string) => near.length === 1 && isTypo(issue.value as string, v) && !ctx.keysOpen && typoSafe;
      const kind = (v: string) => (!slip(v) ? 'candidate' : releaseBound(issue.schema, v) && ctx.version === undefined ? 'release-bound' : 'did-you-mean');
      if (!word) near.forEach((v, i) => fixes.push({ kind: kind(v), title: `Change to \`${v}\``, edits: [{ op: 'set', path: issue.path, value: v }], recommended: i === 0 && near.length === 1 }));
    }
    advice += laterValues(ctx, issue.schema, issue.value, allowed);
  }
  if (ctx.doc.syntax === 'shell' && Array.isArray(issue.value) && nav.matches(issue.schema, issue.value.join(' '))) {
    // One quoted value that bash splits into words: an array or variable expanded without quotes.
    advice = ` bash passes it as ${issue.value.length} words (an unquoted \`\${ARGS[@]}\` or \`$VAR\` splits quoted text), so argparse takes the first as the value and stops at the others ("unrecognized arguments"). Quote the expansion.`;
  } else if (ctx.format === 'accelerate' && Array.isArray(issue.value) && issue.value.every((v) => typeof v === 'string') && nav.matches(issue.schema, issue.value.join(','))) {
    const joined = (issue.value as string[]).join(',');
    advice = ` The launcher turns a list into its Python text (\`['A', 'B']\`), which matches no class; write one comma-separated string without spaces.`;
    fixes.push({ kind: 'join-list', title: `Write as \`${joined}\``, edits: [{ op: 'set', path: issue.path, value: joined }], recommended: true });
  }
  return { advice, fixes };
}

/** Whether the releases that accept `v` are bounded (`x-enum-since`, `x-enum-removed`, `x-deprecated-values`). */
function releaseBound(schema: JsonSchema | undefined, v: string): boolean {
  return !!valueSince(schema, v) || !!enumRemoved(schema, v) || !!deprecatedValues(schema)?.[v];
}

/**
 * The values the written one is closest to among all the key's values that the targeted release does
 * not have yet (`x-enum-since`): said, so that the correction offered is not taken for a slip.
 */
function laterValues(ctx: RuleContext, schema: JsonSchema | undefined, value: string, allowed: string[]): string {
  const later = closest(value, ctx.nav!.allowedValues(schema).filter((v): v is string => typeof v === 'string')).filter((v) => !allowed.includes(v));
  const dated = later.map((v) => ({ v, since: valueSince(schema, v) })).filter((x): x is { v: string; since: string } => !!x.since);
  if (!dated.length) return '';
  return ` The targeted ${ctx.versionLabel ?? `${ctx.tool} release`} does not have ${dated.map((x) => `${code(x.v)} (from ${ctx.versions} ${x.since})`).join(' or ')}.`;
}

/** A range no release checks (`x-advised`), a list where the release splits a tuple string, a value a narrower release refuses, items a launcher hands to Popen (`x-value-forms`). */
function valueFormFindings(ctx: RuleContext, path: Path, schema: JsonSchema, node: Node): void {
  const nav = ctx.nav!;
  // A Megatron field that holds a function set in code (`x-value: "null"`): a file can write only null there.
  if (onlyNull(schema) && (ctx.format === 'megatron-yaml' || ctx.format === 'megatron-bridge' || ctx.format === 'nemo') && !(node.kind === 'scalar' && node.value === null)) {
    ctx.separately(() => {
      // A field the targeted release does not have is never called there (version-unsupported-key says so).
      const from = ctx.format === 'megatron-bridge' ? bridgeSince(schema, path.join('.')) : since(schema);
      if (from && ctx.schemaVersion !== undefined && !ctx.atLeast(from)) return;
      const dest = String(path[path.length - 1]);
      const use = callbackUse(ctx.model as MegatronModel, dest, ctx.format, (v) => ctx.atLeast(v));
      const shown = node.kind === 'scalar' ? code(asWritten(ctx, node.value)) : node.kind === 'seq' ? 'a list' : 'a mapping';
      // The flags named in the reason, in the file's spelling (looked up untracked: where a switch would be written is no input).
      const why = inFormat(untracked(ctx.model as MegatronModel), ctx.format, use.why);
      ctx.report({ at: path, on: 'value', severity: use.severity, message: `${pathLabel(path)} is ${shown}, but this field holds a function or object Megatron sets in code, which a file can only leave null: ${why}. Remove the key, or write null.` });
    });
    return;
  }
  if (bridgeTextCalled(ctx, path, schema, node)) return;
  // An explicit null a reader takes as the value (`x-null-effect`), where the default applies only to an absent key.
  const nul = nullEffect(schema);
  if (node.kind === 'scalar' && node.value === null && nul) {
    ctx.separately(() => {
      if (nul.since && !ctx.atLeast(nul.since)) return;
      const dflt = schema.default !== undefined ? ` (${code(JSON.stringify(schema.default))})` : '';
      ctx.report({ at: path, on: 'value', message: `${pathLabel(path)} is null, which ${ctx.tool} takes as the value, not as "not set": ${nul.effect}. Remove the key to get the default${dflt}, or write a value.` });
    });
    return;
  }
  // A range no release checks (`x-advised`): the value runs as written; a hint, not a finding of refusal.
  const written = node.kind === 'scalar' ? [{ at: path, value: node.value }] : node.kind === 'seq' ? node.items.flatMap((n, i) => (n.kind === 'scalar' ? [{ at: [...path, i], value: n.value }] : [])) : [];
  for (const w of written) {
    const advised = advisedBreaks(schema, w.value);
    if (!advised) continue;
    // A name the tool takes as free text and ignores when it does not know it: what the file asks
    // for does not happen, so a warning; no fix, since the name meant is not known.
    if (advised.names) {
      // Looked up only while the switch it needs is on (`x-values-checked-when-enabled`): off, the name is unused.
      if (keyGatedOff(ctx, schema, path)) continue;
      ctx.report({ at: w.at, on: 'value', severity: 'warning', message: `${pathLabel(w.at)} is ${code(String(w.value))}, which is not one of the names ${ctx.tool} knows here (${advised.names.map((n) => code(n)).join(', ')}): ${advised.why ?? `${ctx.tool} does not check the name and ignores one it does not know`}. Write one of those names, or remove the key.` });
      continue;
    }
    // A DeepSpeed optimizer parameter the torch.optim class it builds refuses: optimizer-config-invalid says so, and it does not run as written.
    if (ctx.format === 'deepspeed' && torchOptimRefusals(ctx.model as DeepSpeedModel, (v) => ctx.atLeast(v)).some((r) => samePath(r.at, w.at))) continue;
    ctx.report({ at: w.at, on: 'value', severity: 'hint', message: `${pathLabel(w.at)} is ${code(String(w.value))}, outside the range it is meant for (${advised.broken.join(' and ')}): ${advised.why ?? `${ctx.tool} does not check this range and runs the value as written`}.` });
  }
  if (node.kind === 'scalar' && (typesBefore(schema).length || schema?.type === 'integer')) ctx.separately(() => intAtRelease(ctx, path, schema, node));
  if (!valueForms(schema)) return;
  if (node.kind === 'scalar') {
    ctx.separately(() => {
      const form = releaseForm(ctx, schema);
      if (form?.form !== 'narrower' || !form.accepts || !nav.matches(schema, node.value) || nav.matches(form.accepts, node.value)) return;
      // A key read only while a switch is on (`x-values-checked-when-enabled` on the key): off, a note.
      const dormant = keyGatedOff(ctx, schema, path);
      ctx.report({ at: path, on: 'value', severity: dormant ? 'information' : undefined, message: `${pathLabel(path)} must be ${nav.describe(form.accepts)} for the targeted ${ctx.versionLabel ?? `${ctx.tool} release`}, not ${code(String(node.value))}: ${dormant ?? form.why ?? `${ctx.tool} refuses it there`}.${form.until && !dormant ? ` Upgrade ${ctx.versions} to ${form.until} or newer, or choose one of those values.` : ''}` });
    });
    return;
  }
  if (node.kind !== 'seq') return;
  ctx.separately(() => {
    const form = releaseForm(ctx, schema);
    // Items handed raw into the environment of the launched process (`raw-env`): torchrun's path
    // turns them into text, a launcher that hands the environment to Popen stops on a non-text one.
    const popen = form?.form === 'raw-env' && ctx.format === 'accelerate' && (ctx.model as AccelerateModel).mixedPrecision === 'fp8' ? popenLauncher(ctx.model as AccelerateModel) : undefined;
    if (popen && node.items.some((n) => n.kind === 'scalar' && typeof n.value !== 'string')) {
      ctx.report({ at: path, on: 'value', message: `${pathLabel(path)} is a list of non-text items, which the targeted ${ctx.versionLabel ?? `${ctx.tool} release`} puts into the launched process's environment as they are: ${popen} hands that environment to the process and stops with a TypeError ("expected str, bytes or os.PathLike object"). Quote the items (\`"false"\`), or upgrade Accelerate to ${form!.until ?? 'a release that converts them'} or newer.` });
      return;
    }
    if (form?.form !== 'tuple-string') return;
    const items = node.items.map((n) => (n.kind === 'scalar' ? String(n.value) : '…')).join(', ');
    ctx.report({ at: path, on: 'value', message: `${pathLabel(path)} is written as a list: ${form.why ?? `${ctx.tool} reads only a tuple string here`}. Write \`"(${items})"\` for this release, or upgrade to one that reads the list.` });
  });
}

/**
 * A number written with a fraction or an exponent for a flag whose parser at the targeted release
 * converts the value with `int()` (`x-type-before: integer`) while later ones take a fraction:
 * argparse stops on it there; and a whole number written that way (`1e6`, `1000000.0`) for a flag
 * that is an integer at every release. Only where argparse reads the flag (a `--yaml-cfg` file is not
 * parsed by it); a value the schema refuses anyway is left to the schema check.
 */
function intAtRelease(ctx: RuleContext, path: Path, schema: JsonSchema, node: ScalarNode): void {
  if (!(MLM_FLAG_FORMATS as readonly string[]).includes(ctx.format) || (ctx.model as MegatronModel | undefined)?.args?.yamlCfg) return;
  if ((schema.type !== 'number' && schema.type !== 'integer') || typeof node.value !== 'number' || !ctx.nav!.matches(schema, node.value)) return;
  // The word as argparse gets it: a fallback the script supplies (`${LAG:-0.5}`) by its value.
  const raw = scalarText(node);
  const text = node.assumed || raw.includes('$') ? String(node.value) : raw.trim().replace(/^(["'])(.*)\1$/, '$2').trim();
  // What Python's int() takes: digits, a sign, underscores between digits.
  if (/^[-+]?\d+(_\d+)*$/.test(text)) return;
  if (schema.type === 'integer' && typeAtRelease(schema, (v) => ctx.atLeast(v))?.type !== 'number') {
    // A whole number written with a fraction or an exponent (`1e6`, `1000000.0`): the schema takes
    // its value, but argparse converts the word with `int()` at every release and stops on it.
    if (!/^[-+]?[\d_]*\.?[\d_]*([eE][-+]?\d+)?$/.test(text) || !/[.eE]/.test(text)) return;
    ctx.report({
      at: path,
      on: 'value',
      message: `${pathLabel(path)} is converted with \`int()\` by Megatron-LM's argument parser, which refuses ${code(text)} although it is a whole number, so argparse stops before training ("invalid int value: '${text}'"). Write it in digits: \`${String(node.value)}\`.`,
    });
    return;
  }
  const at = typeAtRelease(schema, (v) => ctx.atLeast(v));
  if (at?.type !== 'integer') return;
  ctx.report({
    at: path,
    on: 'value',
    message: `${pathLabel(path)} must be an integer for ${ctx.tool} ${ctx.versionLabel ?? `before ${at.until}`}, not ${code(text)}: its parser there converts the value with \`int()\`, so argparse stops before training ("invalid int value: '${text}'"). Write a whole number, or upgrade ${ctx.versions} to ${at.until} or newer, whose parser takes a fraction.`,
  });
}

/**
 * Text in a Megatron Bridge override for a field Megatron Core calls as a function, where Bridge keeps
 * the string as written (`x-bridge-enum: []`; its override loader turns only `activation_func` names into
 * functions, omegaconf_utils.py@v0.4.0:43, @067f987:43) and the `--yaml-cfg` reader would convert
 * some names (`x-yaml-cfg-refused`): the initializers, called when the model is built unless the
 * switch `unlessOff` names (`perform_initialization`) is off, which a recipe may set; a function the
 * recipe set there is put back over the text (`_restore_excluded_fields`, omegaconf_utils.py@v0.2.0:89-92).
 * A warning, as for the callback fields (`x-value: "null"`), since the recipe behind the override is not
 * read. Reported unless the file writes that switch off.
 */
function bridgeTextCalled(ctx: RuleContext, path: Path, schema: JsonSchema, node: Node): boolean {
  const refused = yamlCfgRefusal(schema);
  if (ctx.format !== 'megatron-bridge' || !bridgeKeepsText(schema) || !refused?.unlessOff) return false;
  if (node.kind !== 'scalar' || typeof node.value !== 'string') return false;
  const m = ctx.model as MegatronModel;
  const off = untracked(m.args).get(refused.unlessOff)?.value;
  if (off === false || (typeof off === 'string' && /^(false|0|no|off)$/i.test(off))) return true;
  const sw = `\`model.${refused.unlessOff}\``;
  ctx.separately(() => {
    ctx.report({ at: path, on: 'value', severity: 'warning', message: `${pathLabel(path)} is ${code(asWritten(ctx, node.value))}, but Megatron Bridge keeps override text as written (it turns only \`activation_func\` names into functions), and Megatron Core calls this field as the initializer when it builds the model, so calling text stops the run with a TypeError ('str' object is not callable), unless the recipe sets this field in code (Bridge then puts its function back over the text) or ${sw} is off. Remove the key, or set the initializer in the recipe's Python code.` });
  });
  return true;
}

/**
 * What a value outside the choices does in a file that sets Megatron Core's config fields, where
 * argparse's choices do not apply. `yamlChoices`: a `--yaml-cfg` file, read by yaml_arguments.py, which
 * checks no argparse choices, so the value reaches the config as written (`language_model.fp4: nvfp4`
 * runs NVFP4, yaml_arguments.py@core_v0.19.0:373-392). `refused`, where it still stops the run (the
 * `--yaml-cfg` reader's own check, `x-yaml-cfg-refused`; in a Megatron Bridge or NeMo file the config
 * dataclass's own check, `x-yaml-cfg-refused.core`); `warned`, where the config takes it but the code
 * that usually reads the field refuses it (`x-enum-argparse-only.effect`, which names that code, so a
 * warning). `judged`: the value has choices and is neither unused nor run as something else here.
 */
function configFieldVerdict(ctx: RuleContext, issue: Issue, judged: boolean): { yamlChoices: boolean; refused?: string; warned?: string } {
  const yamlChoices = judged && argumentChecks(ctx.format, ctx.model) === 'validate_yaml';
  const yamlRefused = yamlChoices ? yamlCfgRefused(ctx.model as MegatronModel, issue.schema) : undefined;
  if (yamlRefused) return { yamlChoices, refused: yamlRefused };
  const configFile = judged && !yamlChoices && (ctx.format === 'megatron-bridge' || ctx.format === 'nemo');
  const coreRefused = configFile ? configRefusal(issue.schema) : undefined;
  if (coreRefused) return { yamlChoices, refused: coreRefused };
  const reader = yamlChoices || configFile ? argparseOnlyReader(issue.schema) : undefined;
  if (!reader) return { yamlChoices };
  return { yamlChoices, warned: `${yamlChoices ? "Megatron-LM's `--yaml-cfg` reader checks no choices" : `${ctx.tool} sets the config field as written`}, but ${reader}` };
}

/**
 * What a `--yaml-cfg` value outside the choices does where it still stops the run (`x-yaml-cfg-refused`:
 * the reader's own assertion, or text passed on where Megatron Core calls a function), unless the
 * switch it names is written off.
 */
function yamlCfgRefused(m: MegatronModel, schema: JsonSchema | undefined): string | undefined {
  const refused = yamlCfgRefusal(schema);
  if (!refused) return undefined;
  // Looked up untracked: a switch the file leaves out is no doubt about this value (the reader then
  // stops earlier, on the missing field).
  const off = refused.unlessOff ? untracked(m.args).get(refused.unlessOff)?.value : undefined;
  if (off === false || (typeof off === 'string' && /^(false|0|no|off)$/i.test(off))) return undefined;
  return refused.effect;
}
