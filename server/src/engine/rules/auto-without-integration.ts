/**
 * auto-without-integration: `"auto"` values, which only Transformers or Accelerate fill in.
 */
import { accelerateAutoQuote, DS_BATCH_KEYS, ELASTICITY_SINCE, elasticBatch, type DeepSpeedModel } from '../formats/deepspeed/model';
import type { Node } from '../syntax/tree';
import type { Path } from '../types';
import { defineRule } from './rule';
import { autoDroppedSince, autoEffect, autoFillers, defaultAt, defaultsBefore, pydanticSection, strictSince, unknownKeyEffect } from '../schema/vocabulary';
import type { JsonSchema } from '../schema/types';
import type { RuleContext } from './rule';
import { releaseForm } from './helpers';

const NAMES: Record<string, string> = { transformers: 'the Transformers Trainer', accelerate: 'Accelerate' };
const UNFILLED = (key: string): string => `\`"auto"\` for \`${key}\` is filled by neither Transformers nor Accelerate`;

export default defineRule<DeepSpeedModel>({
  id: 'auto-without-integration',
  severity: 'information',
  formats: ['deepspeed'],
  docs: {
    summary: '`"auto"` values: placeholders that only the Transformers Trainer or Accelerate fill in, each for its own list of keys.',
    why: 'DeepSpeed has no `"auto"`. Transformers and Accelerate replace it before starting DeepSpeed, each for a fixed list of keys; a config used with plain `deepspeed.initialize`, or an `"auto"` on a key the launcher does not fill, is taken as the value wherever DeepSpeed reads the config key by key (the top level at every release, `zero_optimization` before 0.7.0, `fp16` and `bf16` before 0.17.1): a number then crashes at first use (`\'>\' not supported between instances of \'str\' and \'int\'`) and a boolean test takes the text as true. With plain `deepspeed.initialize`, inside the strictly checked sections it is dropped so DeepSpeed\'s default applies (once the section\'s model is built on DeepSpeed\'s own base class: before that, the monitor sections and `comms_logger` keep `"auto"` as the value, refused for a field that is not text, even in a section switched off, since those models are built whenever the section is present). Shardwise says who fills each one; with an Accelerate config pointing at the file, an `"auto"` only Transformers fills stops Accelerate ("`key` not found in kwargs") unless the program it starts is a Trainer, which the config does not say: a warning that names that assumption. An `"auto"` neither fills stops Accelerate whatever the program, since Accelerate fills every placeholder of the file from its own values when it prepares the model (an error with an Accelerate config that names the file; a warning when only a Trainer recipe does, since a Trainer prepares DeepSpeed through Accelerate only from the Transformers releases that do, which the file does not name). Its filler walks every mapping of the file and does not look at `enabled`, so this holds inside a section switched off, which plain DeepSpeed never reads, and for an `"auto"` that is no placeholder at all: DeepSpeed\'s own (`pipeline.stages`, ZenFlow\'s `select_strategy`) or that of a key DeepSpeed does not know. When a Transformers Trainer recipe or launch command names the file (`deepspeed: ds.json`, `--deepspeed ds.json`), or a launch script of the repository starts a Trainer with that Accelerate config (`accelerate launch --config_file acc.yaml train.py --per_device_train_batch_size …`), the Trainer fills its placeholders and they get no note.',
    bad: '{\n  "train_micro_batch_size_per_gpu": "auto",\n  "zero_optimization": { "stage": 2 }\n}\n',
    good: '{\n  "train_micro_batch_size_per_gpu": 4,\n  "zero_optimization": { "stage": 2 }\n}\n',
  },
  check(ctx) {
    const m = ctx.model;
    const nav = ctx.nav;
    if (!nav || !m.doc.root) return;
    // Accelerate configs whose program is not known to be a Trainer (one a launch script starts with a Trainer is).
    // Read only inside each placeholder's own scope: which program Accelerate starts is an
    // assumption, and weighs only on the findings that depend on it.
    const notTrainer = (): typeof m.referrers => m.referrers.filter((r) => !('trainer' in r.program));
    const underAccelerate = (): boolean => notTrainer().length > 0;
    // A Trainer recipe or launch command names this file, or starts it through Accelerate: the
    // Trainer fills its placeholders, so they need no note.
    const underTrainer = (): boolean => m.trainers.length > 0 || m.referrers.length > notTrainer().length;
    // Placeholders the integrations fill: one note for the file (on the first), a hint on each.
    const filled: { path: Path; key: string; who: string; schema: JsonSchema | undefined; section: JsonSchema | undefined }[] = [];
    // runtime/config.py (0.3.9 on): with elasticity on and the batch info ignored, DeepSpeed overwrites the batch keys.
    const elasticKeys = ctx.atLeast(ELASTICITY_SINCE) && elasticBatch(m) === 'replaced';
    const effectOf = (f: (typeof filled)[number]): PlainEffect =>
      elasticKeys && f.path.length === 1 && (DS_BATCH_KEYS as readonly string[]).includes(String(f.path[0])) ? { kind: 'own', text: 'elasticity overwrites it with the batch DeepSpeed computes' } : plainEffect(ctx, f.schema, f.section);
    // An Accelerate config names the file (whatever program it starts), or a Trainer recipe does.
    const accelerate = m.referrers.length > 0;
    const integration = accelerate || m.trainers.length > 0;
    const walk = (node: Node, path: Path, depth: number, off: boolean): void => {
      if (depth > 8) return;
      if (node.kind === 'map') {
        // A section switched off (`"enabled": false`): DeepSpeed reads none of its other keys (the fp16
        // loss-scale keys only `if get_fp16_enabled(...)`, runtime/config.py), so a placeholder there does nothing.
        // A section a pydantic model reads whenever it is present, on a base that keeps "auto" at this
        // release, validates every key anyway (comms_logger before 0.15.0): off, it still refuses it.
        const sec = nav.at(path, m.doc.value([]), ctx.schemaVersion);
        const drops = autoDroppedSince(sec);
        const validatedOff = pydanticSection(sec) && drops !== undefined && ctx.separately(() => !ctx.atLeast(drops));
        const switchedOff = path.length > 0 && !validatedOff && node.entries.some((e) => e.key === 'enabled' && e.value.kind === 'scalar' && e.value.value === false);
        // Accelerate's filler does not look at `enabled`: it walks every mapping of the file
        // (deepspeed_config_process, utils/dataclasses.py@v1.12.0:1356-1370, @v0.10.0 on), so under an
        // integration a placeholder in a section switched off still stops it.
        if (switchedOff && !integration) return;
        for (const e of node.entries) walk(e.value, [...path, e.key], depth + 1, off || switchedOff);
        return;
      }
      if (node.kind !== 'scalar' || node.value !== 'auto') return;
      // A program that passes deepspeed.initialize its own optimizer and scheduler (Megatron-DeepSpeed)
      // has DeepSpeed build neither section, so their values are never read.
      if (m.ownOptimizer && (path[0] === 'optimizer' || path[0] === 'scheduler')) return;
      const schema = nav.at(path, m.doc.value([]), ctx.schemaVersion);
      const fillers = autoFillers(schema);
      const key = path.join('.');
      if (!Array.isArray(fillers)) {
        // Not a placeholder: DeepSpeed's own "auto" (`pipeline.stages`, ZenFlow's intervals), a text
        // field, or a key the schema does not know. Accelerate stops on it all the same; one the
        // schema refuses is invalid-value's to report. fill_match finds a key by splitting its dotted
        // name, so a key with a dot of its own is never found, nor stopped on.
        if (integration && (!schema || nav.matches(schema, 'auto')) && !path.some((k) => String(k).includes('.'))) {
          ctx.report({ at: path, on: 'value', ...integrationStop(key, accelerate, `\`"auto"\` for \`${key}\` is no placeholder that Transformers or Accelerate fill${schema ? '' : ' (nor a key DeepSpeed knows)'}`, 'DeepSpeed receives it as written', off) });
        }
        return;
      }
      const section = nav.at(path.slice(0, -1), m.doc.value([]), ctx.schemaVersion);
      if (fillers.length === 0 && integration) {
        // Accelerate fills every "auto" of the file from its own values when it prepares the model
        // (the Trainer prepares through it), and stops on one it has no value for
        // (utils/dataclasses.py@v1.12.0:1321-1336 fill_match, called for every key by
        // deepspeed_config_process, accelerator.py@v1.12.0:2300).
        // A Trainer alone: its release decides (current ones prepare DeepSpeed through Accelerate), and no file names it.
        ctx.report({ at: path, on: 'value', ...integrationStop(key, accelerate, UNFILLED(key), off ? 'DeepSpeed does not read the section switched off' : 'DeepSpeed drops the key', off) });
      } else if (fillers.length === 0) {
        ctx.report({ at: path, on: 'value', ...unfilled(ctx, key, schema, section) });
      } else if (ctx.separately(() => underAccelerate()) && !fillers.includes('accelerate')) {
        // Which program Accelerate starts is not in its config: a Trainer fills the value first.
        ctx.separately(() => {
          void notTrainer()[0].program;
          ctx.report({
            at: path,
            on: 'value',
            severity: 'error',
            message: `\`"auto"\` for \`${key}\` is only filled by the Transformers Trainer, and this file is used by Accelerate, which stops ${accelerateAutoQuote(key)} unless the program it starts is a Trainer. Write the value.`,
          });
        });
      } else if (!off && !(fillers.includes('transformers') && ctx.separately(() => underTrainer() && !underAccelerate()))) {
        // Filled, so nothing stops; in a section switched off plain DeepSpeed would not read it either: no note.
        filled.push({ path, key, who: (fillers as string[]).map((f) => NAMES[f] ?? f).join(' and '), schema, section });
      }
    };
    walk(m.doc.root, [], 0, false);
    if (!filled.length) return;
    const groups = new Map<string, string[]>();
    for (const f of filled) groups.set(f.who, [...(groups.get(f.who) ?? []), f.key]);
    const summary = [...groups].map(([who, keys]) => `${who} fill${who.includes(' and ') ? '' : 's'} ${keys.map((k) => `\`${k}\``).join(', ')}`).join('; ');
    const plain = plainNote(filled.map((f) => ({ key: f.key, effect: effectOf(f) })));
    filled.forEach((f, i) =>
      ctx.report({
        at: f.path,
        on: 'value',
        severity: i === 0 ? 'information' : 'hint',
        message: i === 0
          ? `This file has ${filled.length} \`"auto"\` placeholder${filled.length === 1 ? '' : 's'}, filled in when the integration starts DeepSpeed: ${summary}. ${plain}`
          : `\`"auto"\` for \`${f.key}\`: ${f.who} fill${f.who.includes(' and ') ? '' : 's'} it in. ${plainNote([{ key: f.key, effect: effectOf(f) }])}`,
      }),
    );
  },
});

/**
 * Accelerate's stop on an `"auto"` it has no value for, when an integration reads the file: an error
 * with an Accelerate config that names it; a warning when only a Trainer recipe does, since a Trainer
 * prepares DeepSpeed through Accelerate only from the Transformers releases that do (`older`: what a
 * Trainer that starts DeepSpeed itself does with it).
 */
function integrationStop(key: string, accelerate: boolean, what: string, older: string, off = false): { severity: 'error' | 'warning'; message: string } {
  const how = accelerate ? 'this file is used through Accelerate, which' : 'the Transformers Trainer that uses this file prepares DeepSpeed through Accelerate, which';
  const assumption = accelerate ? '' : ` This assumes a Transformers release whose Trainer prepares DeepSpeed through Accelerate, as current ones do; with one that starts DeepSpeed itself, ${older}.`;
  return { severity: accelerate ? 'error' : 'warning', message: `${what}, and ${how} stops on it when it prepares the model ${accelerateAutoQuote(key)}${off ? ', although the section is switched off: Accelerate fills the whole file, whatever `enabled` says' : ''}. Write the value you want, or remove the key.${assumption}` };
}

/**
 * What DeepSpeed itself does with an `"auto"` at the release, with no integration to fill it:
 * - `dropped`: a strict model built on DeepSpeedConfigModel reads the section (`x-strict-since`, and
 *   `x-auto-dropped-since` where that came later), which drops the key, so the default applies;
 * - `refused`/`kept-text`: a strict model built on pydantic's BaseModel alone validates it as the value,
 *   which a field that is not text refuses when the file loads, and a text field keeps;
 * - `true`/`fails`/`text`: the section (or the top level) is read key by key, so the text is the
 *   value: a boolean test takes any non-empty text as true, a number (or list) fails where it is
 *   used, a text field keeps it. `since`: the release from which the strict reading applies;
 * - `own`: the key's reader does not go through the section's model (`x-auto-effect` says what happens).
 */
type PlainEffect = { kind: 'dropped' | 'refused' | 'kept-text' | 'true' | 'fails' | 'text' | 'own'; since?: string; text?: string };

function plainEffect(ctx: RuleContext<DeepSpeedModel>, schema: JsonSchema | undefined, section: JsonSchema | undefined): PlainEffect {
  // A key whose reader takes the config as written (`x-auto-effect`): the section's model does not decide.
  // Or the section's: parameters handed to a constructor as written.
  const own = autoEffect(schema) ?? autoEffect(section);
  if (own) return { kind: 'own', text: own };
  const strictAtAll = unknownKeyEffect(section) === 'error';
  const strict = strictSince(section);
  const drops = autoDroppedSince(section);
  const types = valueTypes(schema);
  if (!strictAtAll || (strict && !ctx.atLeast(strict))) {
    const kind = types.has('boolean') ? 'true' : types.has('string') && !types.has('integer') && !types.has('number') ? 'text' : 'fails';
    return { kind, since: strictAtAll ? strict : undefined };
  }
  // A section the release does not read at all takes nothing from it.
  if (drops && !ctx.atLeast(drops) && releaseForm(ctx, section)?.form !== 'unused') return { kind: types.has('string') ? 'kept-text' : 'refused', since: drops };
  return { kind: 'dropped' };
}

/** The JSON types a key's schema admits, beside the `"auto"` placeholder. */
function valueTypes(schema: JsonSchema | undefined): Set<string> {
  const out = new Set<string>();
  for (const s of schema?.anyOf ?? [schema]) {
    const t = s?.type;
    for (const x of Array.isArray(t) ? t : t ? [t] : []) out.add(x);
  }
  // `"auto"` itself is listed in an enum of a text-typed key (`stage`): the other enum members say the type.
  if (out.has('string') && Array.isArray(schema?.enum) && schema.enum.every((v) => v === 'auto' || typeof v !== 'string')) out.delete('string');
  return out;
}

const PLAIN: Record<PlainEffect['kind'], string> = {
  dropped: 'DeepSpeed drops it, so the default applies',
  refused: 'DeepSpeed refuses it when it loads the file',
  'kept-text': 'DeepSpeed takes the text "auto" as the value',
  true: 'DeepSpeed keeps the text "auto" as the value, which a test of the key takes as true',
  fails: 'DeepSpeed keeps the text "auto" as the value, which fails where the number is used',
  text: 'DeepSpeed takes the text "auto" as the value',
  own: '',
};

/** The note's last sentence: what plain `deepspeed.initialize` does with each placeholder (one alone is not named again). */
function plainNote(keys: { key: string; effect: PlainEffect }[]): string {
  const groups = new Map<string, string[]>();
  for (const { key, effect } of keys) {
    const said = effect.kind === 'own' ? (effect.text ?? '') : PLAIN[effect.kind];
    groups.set(said, [...(groups.get(said) ?? []), key]);
  }
  const parts = keys.length === 1 ? [...groups.keys()] : [...groups].map(([said, ks]) => `${ks.map((k) => `\`${k}\``).join(', ')}: ${said}`);
  return `With plain \`deepspeed.initialize\` (no integration), ${parts.join('; ')}. Write values if the file is used that way.`;
}

/**
 * What DeepSpeed does with an `"auto"` no integration fills: a strict model built on
 * DeepSpeedConfigModel drops it, so the default applies (`x-strict-since`, and `x-auto-dropped-since`
 * where that came later); a strict model built on pydantic's BaseModel alone validates it as the
 * value, which a field that is not text refuses when the file loads; a section read key by key takes
 * the text as the value.
 */
function unfilled(ctx: RuleContext<DeepSpeedModel>, key: string, schema: JsonSchema | undefined, section: JsonSchema | undefined): { severity: 'error' | 'warning'; message: string } {
  const strict = strictSince(section);
  const drops = autoDroppedSince(section);
  // Accelerate (and the Trainer, through it) stops on it; what follows is plain deepspeed.initialize.
  const head = `${UNFILLED(key)}: Accelerate and the Transformers Trainer stop on it ${accelerateAutoQuote(key, true)}. With plain \`deepspeed.initialize\``;
  if (strict && !ctx.atLeast(strict)) {
    const kind = plainEffect(ctx, schema, section).kind;
    const effect = kind === 'true' ? `, which a test of the key takes as true${defaultAt(schema, ctx.schemaVersion) === false ? ' (the default is false)' : ''}` : kind === 'fails' ? ', which fails where the number is used' : '';
    return { severity: 'warning', message: `${head}, DeepSpeed ${ctx.versionLabel ?? `before ${strict}`} reads this section key by key: the text "auto" is kept as the value${effect}. Write the value you want, or remove the key.` };
  }
  // A section the release does not read at all takes nothing from it.
  if (drops && !ctx.atLeast(drops) && releaseForm(ctx, section)?.form !== 'unused') {
    const text = (schema?.anyOf ?? [schema]).some((s) => s?.type === 'string' || (Array.isArray(s?.type) && s.type.includes('string')));
    const release = ctx.versionLabel ?? `before ${drops}`;
    return text
      ? { severity: 'warning', message: `${head}, DeepSpeed ${release} checks this section with a model that keeps "auto" (it is dropped from ${drops}): the text "auto" is taken as the value. Write the value you want, or remove the key.` }
      : { severity: 'error', message: `${head}, DeepSpeed ${release} checks this section with a model that keeps "auto" (it is dropped from ${drops}) and refuses it as the value when it loads the file. Write the value you want, or remove the key.` };
  }
  const raw = autoEffect(schema);
  if (raw) return { severity: 'warning', message: `${head}: ${raw}. Write the value you want, or remove the key.` };
  const dflt = defaultAt(schema, ctx.schemaVersion);
  const before = ctx.versionLabel ? '' : defaultsBefore(schema).length ? `; ${defaultsBefore(schema).map((d) => `${JSON.stringify(d.value)} before ${d.before}`).join(', ')}` : '';
  return { severity: 'warning', message: `${head}, DeepSpeed drops the key, so its default${dflt !== undefined ? ` (${JSON.stringify(dflt)}${before})` : ''} applies. Write the value you want, or remove the key.` };
}
