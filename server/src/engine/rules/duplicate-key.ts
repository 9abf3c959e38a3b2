/**
 * duplicate-key: a key written twice in one mapping (or twice under two spellings of one setting).
 */
import type { DeepSpeedModel } from '../formats/deepspeed/model';
import type { SchemaNav } from '../schema/navigate';
import type { Node } from '../syntax/tree';
import type { Path } from '../types';
import { defineRule, type RuleContext } from './rule';
import { aliasOf, autoFillers } from '../schema/vocabulary';
import { refusesUnknownKeys } from './helpers';
import { trainerArgument } from '../formats/trainer/script';

const JSON_LOAD = /json\.load keeps only the last one and drops this one without a word\./;

/** An `"auto"` placeholder that the Transformers Trainer or Accelerate fills in: the file is loaded by one of them. */
function hasFilledAuto(node: Node | undefined, nav: SchemaNav | undefined, root: unknown, version: string | undefined, path: Path = [], depth = 0): boolean {
  if (!node || !nav || depth > 8) return false;
  // A copy the loader drops still says what its author meant the file for.
  if (node.kind === 'map') return [...node.entries, ...(node.dropped ?? [])].some((e) => hasFilledAuto(e.value, nav, root, version, [...path, e.key], depth + 1));
  if (node.kind !== 'scalar' || node.value !== 'auto') return false;
  const fillers = autoFillers(nav.at(path, root, version));
  return Array.isArray(fillers) && fillers.length > 0;
}

/**
 * Who loads a DeepSpeed JSON: Accelerate (an Accelerate config names it), the Transformers Trainer
 * (a recipe or launch command names it) or Megatron-DeepSpeed (its launch scripts name it), all with json.load; one of them when an `"auto"` they fill
 * is written; else DeepSpeed itself, from the path it is given. Undefined for any other file.
 */
export function deepspeedReader(ctx: RuleContext<any>): 'deepspeed' | 'accelerate' | 'trainer' | 'integration' | 'megatron-deepspeed' | undefined {
  if (ctx.format !== 'deepspeed' || ctx.doc.syntax !== 'json') return undefined;
  const m = ctx.model as DeepSpeedModel | undefined;
  if (m?.referrers.length) return 'accelerate';
  // Every launch script that names it runs Megatron-DeepSpeed, which loads it with json.load.
  if (m?.ownOptimizer) return 'megatron-deepspeed';
  // A Trainer recipe or launch command names it: Accelerate's HfDeepSpeedConfig loads it for the Trainer (json.load).
  if (m?.trainers.length) return 'trainer';
  if (hasFilledAuto(ctx.doc.root, ctx.nav, ctx.doc.value([]), ctx.schemaVersion)) return 'integration';
  return 'deepspeed';
}

export default defineRule({
  id: 'duplicate-key',
  severity: 'warning',
  about: 'text',
  formats: 'all',
  forks: true,
  docs: {
    summary: 'A key is written twice in the same mapping.',
    why: 'YAML and JSON loaders keep the last occurrence and drop the others silently, so an edit to the first one has no effect. DeepSpeed itself is stricter: when it opens a config file it refuses one with a duplicate key (\"Duplicate keys in DeepSpeed config\"), while Accelerate or the Transformers Trainer load the file and hand DeepSpeed a dictionary, where the last value wins; both are warnings, the first naming its assumption, since a DeepSpeed JSON does not say what loads it. The same goes for two spellings of one setting (`offload_params` and `fsdp_offload_params`) in a release whose launcher adds the prefix and so folds them into one; before that, they are two keys and only the one its flag is named after is read. DeepSpeed\'s validated sections take a setting under its field name or its alias (`prefetch_bucket_size` / `stage3_prefetch_bucket_size`), not both: with both written the model refuses the file, an error.',
    bad: 'distributed_type: MULTI_GPU\ndebug: true\nnum_processes: 8\ndebug: false\n',
    good: 'distributed_type: MULTI_GPU\nnum_processes: 8\ndebug: false\n',
    upstream: [
      { label: 'DeepSpeed v0.19.5, `runtime/config_utils.py`: a key twice in the JSON stops DeepSpeed', url: 'https://github.com/deepspeedai/DeepSpeed/blob/v0.19.5/deepspeed/runtime/config_utils.py#L211' },
    ],
  },
  check(ctx) {
    // A DeepSpeed JSON: DeepSpeed reads a config path with a hook that rejects duplicate keys
    // (runtime/config.py → config_utils.py dict_raise_error_on_duplicate_keys, since v0.2.0; v0.1.0
    // used a plain json.load). Accelerate (utils/deepspeed.py HfDeepSpeedConfig) and the HF Trainer
    // load the file with json.load and hand DeepSpeed a dict, which is not checked.
    const reader = deepspeedReader(ctx);
    const deepspeed = reader === 'deepspeed' ? (ctx.atLeast('0.2.0') ? 'refuses' : 'old') : reader;
    // A launch script of a Trainer recipe: only the Trainer's own arguments are known to be stored
    // (the last wins); a wrapper's or the script's own flag may collect every value (`action="append"`).
    const unknownParser = ctx.format === 'trainer' && ctx.doc.syntax === 'shell';
    for (const p of ctx.problems) {
      if (p.code !== 'duplicate-key') continue;
      if (unknownParser && !trainerArgument(p.key ?? '')) continue;
      let message = p.message;
      let severity = p.severity;
      if (deepspeed === 'refuses' && JSON_LOAD.test(message)) {
        // Nothing here names what loads the file: DeepSpeed opening it itself is an assumption.
        message = message.replace(JSON_LOAD, 'DeepSpeed refuses the file when it reads it itself ("Duplicate keys in DeepSpeed config", from a path given to `deepspeed.initialize` or `--deepspeed_config`), so the run stops before training; this assumes it does, as nothing here names what loads the file (the Transformers Trainer and Accelerate load it with json.load, which keeps the last one without a word).');
        severity = 'warning';
      } else if (deepspeed === 'accelerate') {
        message = message.replace(JSON_LOAD, 'Accelerate, which uses this file, loads it with json.load, which keeps only the last one without a word (DeepSpeed reading the file itself would refuse it).');
      } else if (deepspeed === 'trainer') {
        message = message.replace(JSON_LOAD, 'The Transformers Trainer, whose recipe names this file, loads it with json.load, which keeps only the last one without a word (DeepSpeed reading the file itself would refuse it).');
      } else if (deepspeed === 'megatron-deepspeed') {
        message = message.replace(JSON_LOAD, 'Megatron-DeepSpeed, whose launch script names this file, loads it with json.load, which keeps only the last one without a word (DeepSpeed reading the file itself would refuse it).');
      } else if (deepspeed === 'integration') {
        message = message.replace(JSON_LOAD, 'Its `"auto"` values mean the Transformers Trainer or Accelerate loads it, with json.load, which keeps only the last one without a word (DeepSpeed reading the file itself would refuse it).');
      }
      ctx.report({ at: p.span, message, severity });
    }
    if (ctx.format === 'deepspeed') bothSpellings(ctx, ctx.doc.root, []);
  },
});

/**
 * A DeepSpeed setting written under both of its spellings (`x-alias-of`: a pydantic field's name and
 * its alias, `prefetch_bucket_size` / `stage3_prefetch_bucket_size`) in a section the release
 * validates with its model: pydantic takes the alias and refuses the name as an extra key, whoever
 * loads the file. An `"auto"` is dropped before the model sees it and does not count.
 */
function bothSpellings(ctx: RuleContext, node: Node | undefined, path: Path, depth = 0): void {
  if (node?.kind !== 'map' || depth > 4 || !ctx.nav) return;
  const root = ctx.doc.value([]);
  const written = new Map(node.entries.filter((e) => !(e.value.kind === 'scalar' && e.value.value === 'auto')).map((e) => [e.key, e]));
  const section = ctx.nav.at(path, root, ctx.schemaVersion);
  for (const e of node.entries) {
    const alias = aliasOf(ctx.nav.at([...path, e.key], root, ctx.schemaVersion));
    if (alias && written.has(alias) && written.has(e.key) && refusesUnknownKeys(ctx, section, undefined, path)) {
      // pydantic's words: DeepSpeed 0.7.0-0.14.x validate with the v1 API (runtime/config_utils.py@v0.7.0:86-90,
      // deepspeed/pydantic_v1.py@v0.14.0), 0.15.0 and later with pydantic 2 (requirements/requirements.txt@v0.15.0).
      const refusal = ctx.atLeast('0.15.0') ? 'Extra inputs are not permitted' : 'extra fields not permitted';
      ctx.report({
        at: [...path, e.key],
        on: 'key',
        severity: 'error',
        message: `\`${e.key}\` and \`${alias}\` are two spellings of one setting, and both are written: the model DeepSpeed validates ${path.length ? `\`${path.join('.')}\`` : 'the config'} with takes \`${alias}\` and refuses \`${e.key}\` as an extra key ("${refusal}"), so the run stops before training. Keep one of them.`,
      });
    }
    bothSpellings(ctx, e.value, [...path, e.key], depth + 1);
  }
}
