/**
 * unknown-key: a key the tool does not know in this place: a typo, a key from another section, or
 * a key the file's format never had.
 */
import type { AccelerateModel } from '../formats/accelerate/model';
import { closest, onlySlip } from '../suggest';
import type { JsonSchema } from '../schema/types';
import { launcherName } from '../schema/navigate';
import { pathLabel, refusesUnknownKeys } from './helpers';
import { deepspeedKeyPath } from '../formats/deepspeed/format';
import { flagTarget, spellingsAt } from '../formats/megatron/schema';
import { defineRule, type FixSpec } from './rule';
import { defaultAt, defaultsBefore, deprecation, keyPrefix, requiredPrefix, unknownKeyEffect, unknownKeyWhenEnabled } from '../schema/vocabulary';
import type { SchemaNav } from '../schema/navigate';
import type { Path } from '../types';

export default defineRule({
  id: 'unknown-key',
  severity: 'error',
  formats: 'all',
  // A fork whose own parser is known (the script's checkout) still has flags that parser lacks.
  forks: true,
  fixes: {
    rename: { applicability: 'safe', changes: 'corrects a slip of the keyboard, one or two characters, to the only known key within reach, where the tool refuses the unknown key (the file cannot run as written) or where the value written is that key\'s default (the run stays the same)' },
    'rename-candidate': { applicability: 'unsafe', changes: 'the configuration: a key it may have meant, among several or more than a slip away, one the tool may already know, or a slip in a section that ignores unknown keys, so the run changes once the key is read' },
    'remove-ignored': { applicability: 'safe', changes: 'removes a key the tool ignores' },
    remove: { applicability: 'unsafe', changes: 'the configuration: a key the tool refuses, or may read, is dropped' },
  },
  docs: {
    summary: 'A key that the tool does not know, at the top level or inside a section.',
    why: 'Accelerate refuses to load a file with an unknown top-level key ("had unknown keys"), but inside `fsdp_config`, `deepspeed_config` and the other sections it passes unknown keys on as arguments nobody reads: the setting you meant silently keeps its default. A typo such as `fsdp_versoin: 2` runs FSDP1. Shardwise reports both: an error at the top level, a warning inside a section. Renaming a slip is a safe fix only where the tool refuses the unknown key (the file cannot run as written); inside a section that ignores it, the rename would change the run (FSDP1 becomes FSDP2), so it is offered but never applied by `--fix`. A slip there whose value equals the default of the key it misspells (at the release that reads the file) changes nothing: it is a note that says so, and renaming it is safe. DeepSpeed refuses unknown keys in `zero_optimization` from 0.7.0 and in `fp16`/`bf16` from 0.17.1; earlier releases ignore them. A key DeepSpeed ignores that the repository\'s own Python reads from the DeepSpeed config (a library that wraps DeepSpeed with a section of its own, read by its `DeepSpeedConfig` subclass) is that library\'s setting: a note names the file that reads it. In a Megatron-LM launch of its own `pretrain_*.py`, flags that no release defines, that no parser Shardwise read defines and that are no slip of a real flag (a word apart, not a letter: `--use-mpi` is no slip of `--use-mup`) were written for another parser: they are said once, as a warning that the launch runs a fork or an extended parser, and upstream\'s own checks then rest on that assumption (fork-flags-not-checked); a slip of a real flag is still argparse\'s refusal, an error.',
    bad: 'distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_versoin: 2\n',
    good: 'distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_version: 2\n',
    fix: 'Renames the key to the closest known key of the same section (when one is close), or removes it.',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 8 --sequence-parallel --overlap-grad-reduse \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 8 --sequence-parallel --overlap-grad-reduce \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
    upstream: [
      { label: 'Accelerate v1.14.0, `commands/config/config_args.py`: an unknown top-level key stops the launcher', url: 'https://github.com/huggingface/accelerate/blob/v1.14.0/src/accelerate/commands/config/config_args.py#L150-L158' },
      { label: 'Megatron-LM core_v0.15.3, `megatron/training/arguments.py`: the flags are parsed with `parse_args`, which stops on one it does not know', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.3/megatron/training/arguments.py#L102-L106' },
    ],
  },
  check(ctx) {
    const nav = ctx.nav;
    if (!nav) return;
    // Each issue on its own: what is read for one does not weigh on another's finding.
    ctx.each(ctx.issues, (issue) => {
      if (issue.kind !== 'unknown-key') return;
      if (ctx.saturated) {
        ctx.report({ at: issue.path, message: '' });
        return;
      }
      // A flag the entry script adds from a later release is unknown only to the releases before it.
      if (issue.until && ctx.atLeast(issue.until)) return;
      // Read by an entry script that is Megatron-LM's own only from a release: before it, the script
      // of that name is someone else's, whose flags are not known here.
      if (issue.from && !ctx.atLeast(issue.from)) return;
      // Flags no release defines, passed on purpose: said once, for all of them (formats/megatron/script.ts).
      if (issue.group && issue.consequence) {
        ctx.report({ at: issue.path, severity: 'warning', message: issue.consequence, related: issue.group.slice(1).map((at) => ({ at, message: 'Not an upstream flag either.' })) });
        return;
      }
      const section = issue.section;
      const key = issue.key;
      const parent = issue.path.slice(0, -1);
      // Handled by missing-key-prefix: a real key of this section written without its required prefix.
      const required = requiredPrefix(section);
      if (required && !key.startsWith(required) && section?.properties?.[required + key]) return;
      const where = issue.where ?? (parent.length ? `in ${pathLabel(parent)}` : `at the top level of ${ctx.tool === 'accelerate' ? 'an Accelerate' : `a ${ctx.tool}`} config`);
      // A section a release reads key by key (DeepSpeed's `fp16` before 0.17.1) ignores what it does not know.
      // A section a release does not read at all (DeepSpeed's `compile` in 0.14.4–0.16.5) refuses nothing.
      const fatal = refusesUnknownKeys(ctx, section, issue.effect, parent, ctx.flat ? undefined : ctx.doc.value(issue.path));
      // `_comment`, `_note`: the JSON way of writing a comment, in a place the tool ignores unknown keys.
      if (!fatal && key.startsWith('_') && ctx.doc.syntax === 'json') return;
      // A key of a code that wraps DeepSpeed (its own DeepSpeedConfig subclass, a launcher that reads
      // the dict): the repository's Python reads it from the DeepSpeed config, so it is a setting, not a slip.
      const reader = !fatal && ctx.format === 'deepspeed' ? ctx.settings.repositoryFlags?.deepspeedReads?.find((r) => r.key === key) : undefined;
      if (reader) {
        ctx.report({
          at: issue.path,
          message: `\`${key}\` is not a known key ${where}, but this repository's Python reads it from the DeepSpeed config (\`${reader.file}\`): a setting of the code that wraps DeepSpeed, which Shardwise does not check. DeepSpeed itself ignores it.`,
          severity: 'information',
        });
        return;
      }
      const whenEnabled = unknownKeyWhenEnabled(section);
      const effect = issue.consequence
        ? issue.consequence
        : whenEnabled
        ? fatal
          ? whenEnabled
          : [false, undefined].includes(ctx.doc.value([...parent, 'enabled']) as boolean | undefined)
          ? `${ctx.tool} hands this section's keys on only while \`enabled\` is true, so here nothing reads it.`
          : `Once \`enabled\` resolves to true: ${whenEnabled}`
        : fatal
        ? `${ctx.tool} refuses to load a file with an unknown key here.`
        : `${ctx.tool} ignores it without a word, so whatever it was meant to set keeps its default.`;
      const names = issue.candidates ?? propertyNames(section);
      // A key the mapping already has is not what this one meant (a mapping holds a key once); a flag
      // passed twice under two spellings may be (a copy with a slip), but is not renamed onto the other.
      const present = (s: string) => !!ctx.doc.entry([...parent, s]);
      const suggestions = atRelease(ctx, closest(key, names)).filter((s) => s !== key && (key.startsWith('-') || !present(s)));
      const elsewhere = suggestions.length || issue.candidates ? undefined : otherSection(nav.root, key, parent);
      // A setting of DeepSpeed's own JSON written in Accelerate's `deepspeed_config`, which passes on
      // only the keys it knows.
      const deepspeedKey = !suggestions.length && !elsewhere && ctx.format === 'accelerate' && parent.length === 1 && parent[0] === 'deepspeed_config' ? deepspeedKeyPath(key) : undefined;
      let advice: string;
      let noop: { shown: string } | undefined;
      const fixes: FixSpec[] = [];
      // DeepSpeed's precision section that asks for what the top-level `mixed_precision` turns on anyway
      // (Accelerate writes `bf16`/`fp16` `enabled: true` into DeepSpeed's config from it): nothing changes.
      const anyway = deepspeedKey && (key === 'bf16' || key === 'fp16') && (ctx.model as AccelerateModel | undefined)?.mixedPrecision === key && ctx.doc.value([...parent, key, 'enabled']) === true;
      if (anyway) {
        advice = `It is a setting of DeepSpeed's JSON config (\`${key}\`), which Accelerate does not pass on from here; \`mixed_precision: ${key}\` turns DeepSpeed's ${key} on anyway, so nothing changes. It can go.`;
      } else if (deepspeedKey) {
        advice = `It is a setting of DeepSpeed's JSON config (\`${deepspeedKey.join('.')}\`), which Accelerate does not pass on from here: put it in the JSON file that \`deepspeed_config_file\` names.`;
      } else if (suggestions.length) {
        advice = `Did you mean ${suggestions.map((s) => `\`${s}\``).join(' or ')}?`;
        // A slip whose value is the default of the key it misspells: read or not, the run is the same.
        const slip = onlySlip(key, suggestions);
        // Only where the section ignores it outright (not where a later switch hands it on, as amp's keys).
        noop = !fatal && !whenEnabled && !issue.consequence && !key.startsWith('-') && slip !== undefined ? sameAsDefault(ctx, [...parent, slip], ctx.doc.value(issue.path)) : undefined;
        if (noop) advice += ` The value written equals \`${slip}\`'s default (${noop.shown}), so the run is the same as if the key were read: the slip changes nothing today, but a value changed here later would be lost too.`;
        if (!suggestions.some(present)) suggestions.forEach((s, i) => fixes.push({ kind: slip === s && !ctx.keysOpen && (fatal || !!noop) ? 'rename' : 'rename-candidate', title: `Rename to \`${s}\``, edits: [{ op: 'rename', path: issue.path, key: s }], recommended: (i === 0 && suggestions.length === 1) || slip === s }));
      } else if (elsewhere) {
        advice = `It is a key of ${pathLabel(elsewhere)}: move it there.`;
      } else {
        advice = 'Remove it, or check the spelling against the documentation.';
      }
      fixes.push({ kind: fatal || ctx.keysOpen ? 'remove' : 'remove-ignored', title: `Remove \`${key}\``, edits: [{ op: 'remove', path: issue.path }] });
      ctx.report({
        at: issue.path,
        message: `\`${key}\` is not a known ${key.startsWith('-') ? 'flag' : 'key'} ${where}: ${anyway ? `${ctx.tool} ignores it without a word.` : effect} ${advice}`,
        // Ignored, and nothing says what it was meant to set (no known key within reach, in this
        // section or another): a key of another program or a note to self, not a lost setting.
        severity: fatal ? 'error' : anyway || noop ? 'information' : suggestions.length || elsewhere || deepspeedKey || issue.consequence || key.startsWith('-') ? 'warning' : 'information',
        fixes,
      });
    });
  },
});

/**
 * Megatron-LM flag suggestions as the targeted release spells them: a spelling it does not have yet,
 * or no longer has, becomes the spelling it reads for the same argument (`--local_rank` at 0.8.0,
 * `--local-rank` from 0.9.0), or is dropped when it reads none (a rename would give a flag it refuses too).
 */
function atRelease(ctx: { format: string; atLeast(version: string): boolean }, suggestions: string[]): string[] {
  if (!ctx.format.startsWith('megatron')) return suggestions;
  const out = suggestions.map((s) => {
    if (!s.startsWith('-') || !flagTarget(s)) return s;
    const read = spellingsAt(s, (v) => ctx.atLeast(v));
    return read.includes(s) ? s : read[0];
  });
  return [...new Set(out.filter((s): s is string => !!s))];
}

/** A section's key names, once per section: the same list each time lets `closest` keep its index. */
const namesOf = new WeakMap<JsonSchema, string[]>();

function propertyNames(section: JsonSchema | undefined): string[] {
  if (!section?.properties) return [];
  let known = namesOf.get(section);
  if (!known) namesOf.set(section, (known = sectionNames(section)));
  return known;
}

function sectionNames(section: JsonSchema): string[] {
  if (!section.properties) return [];
  const names = Object.keys(section.properties).filter((k) => !deprecation(section.properties![k]));
  const prefix = keyPrefix(section);
  // Bare spellings are valid too where the launcher adds the prefix.
  if (prefix) for (const n of [...names]) if (n.startsWith(prefix.add) && launcherName(prefix, n.slice(prefix.add.length)) === n) names.push(n.slice(prefix.add.length));
  return names;
}

/** The section (other than `parent`) that has `key` as a property, if exactly one does. */
function otherSection(root: JsonSchema, key: string, parent: readonly (string | number)[]): string[] | undefined {
  const here = parent.join('.');
  const found: string[][] = [];
  const visit = (s: JsonSchema | undefined, path: string[], depth: number): void => {
    if (!s || depth > 4) return;
    for (const [k, sub] of Object.entries(s.properties ?? {})) {
      if (k === key && path.join('.') !== here && !deprecation(sub)) found.push(path);
      const target = sub.$ref ? resolveRef(root, sub.$ref) : sub;
      if (target?.properties) visit(target, [...path, k], depth + 1);
    }
  };
  for (const def of Object.values(root.definitions ?? {})) if (def.properties && (def.required?.length || unknownKeyEffect(def))) visit(def, [], 0);
  const unique = found.filter((p, i) => found.findIndex((q) => q.join('.') === p.join('.')) === i);
  return unique.length === 1 && unique[0].length > 0 ? unique[0] : undefined;
}

function resolveRef(root: JsonSchema, ref: string): JsonSchema | undefined {
  let s: unknown = root;
  for (const part of ref.replace(/^#\//, '').split('/')) s = s && typeof s === 'object' ? (s as Record<string, unknown>)[part] : undefined;
  return s as JsonSchema | undefined;
}

/**
 * Whether `value` is the default of the key at `path` at the release that reads the file: the key's
 * default is looked up without the release when every release has the same one (nothing rests on
 * which runs), and at the release only when the value is the default of some release. `shown`: the
 * value, for the message.
 */
function sameAsDefault(ctx: { nav: SchemaNav | undefined; doc: { value(path: Path): unknown }; version: string | undefined }, path: Path, value: unknown): { shown: string } | undefined {
  if (value === undefined || value === null || typeof value === 'object') return undefined;
  const schema = ctx.nav?.at(path, ctx.doc.value([]));
  if (!schema || !('default' in schema)) return undefined;
  const same = (d: unknown) => d !== undefined && d !== null && (d === value || (typeof d === 'number' && typeof value === 'number' && Math.abs(d - value) <= 1e-12 * Math.max(1, Math.abs(d))));
  const older = defaultsBefore(schema);
  if (!same(schema.default) && !older.some((d) => same(d.value))) return undefined;
  const dflt = older.length ? defaultAt(schema, ctx.version) : schema.default;
  if (!same(dflt)) return undefined;
  return { shown: typeof value === 'string' ? `\`${JSON.stringify(value)}\`` : `\`${String(value)}\`` };
}
