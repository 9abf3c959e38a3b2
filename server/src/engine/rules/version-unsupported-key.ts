/**
 * version-unsupported-key: a key or value newer than the tool version the file targets
 * (`shardwise.targetVersions` setting, `.shardwise.yaml`, or `# shardwise: accelerate=1.10.0`).
 */
import type { Path } from '../types';
import { bareSwitch, code, pathLabel, refusesUnknownKeys, releaseForm, walkSchema } from './helpers';
import { checkoutHas, repositoryHas } from '../formats/megatron/checkout';
import { defineRule } from './rule';
import { argparseOnlyReader, enumArgparseOnly, namesBefore, nargsBefore, nargsSince, normalized, since, spellingRemoved, valueSince } from '../schema/vocabulary';
import { bridgePaths, bridgeSince, spellingsAt, yamlCfgSince } from '../formats/megatron/schema';
import type { RuleContext } from './rule';
import { launcherSpelling } from '../schema/navigate';
import type { JsonSchema } from '../schema/types';
import { argumentChecks, setsConfigFields } from '../formats/megatron/runtime';
import { keyGatedOff } from './invalid-value';

/** The name of `schema` among the properties of `section`. */
function schemaKey(section: JsonSchema | undefined, schema: JsonSchema): string | undefined {
  return Object.entries(section?.properties ?? {}).find(([, s]) => s === schema)?.[0];
}

/**
 * A `--yaml-cfg` key under a name the targeted Megatron release does not store the argument under
 * (`x-name-before`: `special_tokens` was `tokenizer_special_tokens` before 0.18.0): the loader sets an
 * attribute nothing reads, so the setting is lost. Reported here; true when it was.
 */
function renamedKey(ctx: RuleContext, path: Path, schema: JsonSchema, section: JsonSchema, written: string): boolean {
  if (ctx.format !== 'megatron-yaml' || written.startsWith('-')) return false;
  for (const [release, old] of namesBefore(schema)) {
    const before = !ctx.atLeast(release);
    const reads = before ? old : written === old ? String(schemaKey(section, schema) ?? '') : undefined;
    if (!reads || reads === written || (before && written === old)) continue;
    ctx.report({
      at: path,
      severity: 'warning',
      message: `${code(written)} is this argument's name ${before ? `from ${ctx.versions} ${release}` : `only before ${ctx.versions} ${release}`}; the targeted ${ctx.versionLabel ?? ctx.version} stores it as ${code(reads)}, so Megatron sets an attribute nothing reads and the setting is lost. Rename it to ${code(reads)}.`,
      fixes: [{ kind: 'rename', title: `Rename to ${code(reads)}`, edits: [{ op: 'rename', path, key: reads }] }],
    });
    return true;
  }
  return false;
}

/**
 * A Megatron-LM flag under a spelling the targeted release's parser does not have, though it has the
 * argument under another (`--local_rank` up to 0.8.0, `--local-rank` from 0.9.0): argparse refuses
 * the file, and the spelling it reads sets the same argument. Reported here; true when it was.
 */
function respelledFlag(ctx: RuleContext, path: Path, schema: JsonSchema, written: string): boolean {
  if (!written.startsWith('-')) return false;
  const flag = written.replace(/=.*$/, '');
  const gone = spellingRemoved(schema, flag);
  const from = since(schema, flag);
  const missing = gone && ctx.atLeast(gone) ? `was dropped in ${ctx.versions} ${gone}` : from && !ctx.atLeast(from) ? `arrived in ${ctx.versions} ${from}` : undefined;
  if (!missing) return false;
  const reads = spellingsAt(flag, (v) => ctx.atLeast(v)).filter((f) => f !== flag)[0];
  if (!reads) {
    // Dropped with nothing that sets the argument the same way (`--enable-one-logger` gave way to `--no-one-logger`).
    if (!gone || !ctx.atLeast(gone)) return false;
    ctx.report({
      at: path,
      message: `The spelling ${code(flag)} ${missing}; the targeted ${ctx.versionLabel ?? ctx.version} refuses it, so ${ctx.tool} stops at startup ("unrecognized arguments"). Remove it, or run a release before ${gone}.`,
      fixes: [{ kind: 'remove', title: `Remove ${code(flag)}`, edits: [{ op: 'remove', path }] }],
    });
    return true;
  }
  const key = written.includes('=') ? reads + written.slice(flag.length) : reads;
  ctx.report({
    at: path,
    message: `The spelling ${code(flag)} ${missing}; the targeted ${ctx.versionLabel ?? ctx.version} spells this argument ${code(reads)} and refuses ${code(flag)}, so ${ctx.tool} stops at startup ("unrecognized arguments"). Rename it to ${code(reads)}.`,
    fixes: [{ kind: 'respell', title: `Rename to ${code(reads)}`, edits: [{ op: 'rename', path, key }] }],
  });
  return true;
}

export default defineRule({
  id: 'version-unsupported-key',
  severity: 'error',
  formats: 'all',
  fixes: {
    'remove-ignored': { applicability: 'safe', changes: 'removes a key the targeted version ignores' },
    rename: { applicability: 'unsafe', changes: 'the configuration: a key the targeted version ignores under this spelling is renamed to the one it reads, so the setting takes effect' },
    respell: { applicability: 'safe', changes: 'renames a flag the targeted release refuses under this spelling (the file cannot run as written) to the spelling it reads for the same argument' },
    remove: { applicability: 'unsafe', changes: 'the configuration: a key the targeted version refuses is dropped' },
  },
  docs: {
    summary: 'A key or value that the targeted tool version does not have yet.',
    why: 'A config written against the newest documentation often runs on an older install. Accelerate refuses unknown top-level keys, so a newer top-level key fails the load; a newer key inside a section is silently ignored, so the feature is simply off (inside `deepspeed_config`, releases before 0.16.0 copy every key onto the launch arguments and stop on one they do not know). Set the version you run (`shardwise.targetVersions`, `.shardwise.yaml` or `# shardwise: accelerate=1.9.0`) to get these checks. A value of a Megatron argument the targeted release\'s flag does not list is refused on the command line; in a `--yaml-cfg`, Bridge or NeMo file, where the config field takes any text and only argparse checked the choices (`fp4_recipe: custom` at 0.15.0), it is a note.',
    bad: '# shardwise: accelerate=1.9.0\ndistributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_version: 2\nparallelism_config:\n  parallelism_config_dp_shard_size: 4\n  parallelism_config_tp_size: 2\n',
    good: '# shardwise: accelerate=1.10.0\ndistributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_version: 2\nparallelism_config:\n  parallelism_config_dp_shard_size: 4\n  parallelism_config_tp_size: 2\n',
  },
  check(ctx) {
    const target = ctx.version;
    if (!target) return;
    // A key inside a section the release does not know is that section's finding, not one more.
    const reported: Path[] = [];
    walkSchema(ctx, (path, schema, node, section) => {
      if (node.kind === 'scalar' && node.value === null) return;
      if (reported.some((r) => r.length < path.length && r.every((seg, i) => seg === path[i]))) return;
      // A flag can be younger than the setting it spells (a config field first, `--flag` later).
      const written = String(path[path.length - 1] ?? '');
      // A spelling of a key younger than the key (Accelerate's `fsdp_offload_params`, read from 0.12.0).
      // A Megatron Bridge path is dated by the first Bridge release whose config section has the field,
      // which may come before Megatron-LM's flag (`model.yarn_beta_fast`) or after it
      // (`model.moe_pad_experts_for_cuda_graph_inference`, `validation.skip_train`).
      const bridgePath = ctx.format === 'megatron-bridge' && path.length === 2 && !written.startsWith('-') && !String(path[0]).startsWith('-');
      // A `--yaml-cfg` key is dated by the config field its reader fills, which may come before the flag.
      const yamlCfg = !bridgePath && argumentChecks(ctx.format, ctx.model) === 'validate_yaml';
      const keySince = bridgePath ? bridgeSince(schema, path.join('.')) : yamlCfg ? yamlCfgSince(schema) : since(schema, written.startsWith('-') ? written.replace(/=.*$/, '') : written);
      const fatal = refusesUnknownKeys(ctx, section, undefined, path.slice(0, -1), node.kind === 'scalar' ? node.value : undefined);
      // A flag the run's own parsers define (the checkout's, or one of the repository's, such as the
      // entry script's `extra_args_provider`) is theirs, whatever Megatron-LM's history says.
      if (written.startsWith('-') && (checkoutHas(ctx.settings.megatronCheckout, written) || repositoryHas(ctx.settings.repositoryFlags, written))) return;
      // A flag the launch line's entry script adds itself (`examples/multimodal/train.py` has
      // `--disable-vision-class-token` from 0.8.0, before pretrain_vlm.py): that script's history, not
      // the shared parser's, says when it arrived.
      const entry = ctx.settings.megatronEntry;
      if (written.startsWith('-') && entry?.flags?.includes(written.replace(/=.*$/, ''))) return;
      // An entry script whose own flags are not known (`tasks/main.py`) may add one the shared parser
      // lacks at this release, under any spelling: that the release refuses it is not known.
      const unknownEntry = written.startsWith('-') && !!entry && !entry.flags && !(entry.ownFrom && ctx.atLeast(entry.ownFrom));
      if (renamedKey(ctx, path, schema, section, written) || (!unknownEntry && respelledFlag(ctx, path, schema, written))) {
        reported.push(path);
        return;
      }
      // A Bridge path outside `model` without a Bridge date is in every Bridge release (bridgeSince).
      const bridgeOwn = ctx.format === 'megatron-bridge' && !bridgePath && !written.startsWith('-');
      if (keySince && !unknownEntry && !bridgeOwn && !ctx.atLeast(keySince)) {
        reported.push(path);
        // The spelling the targeted launcher reads instead (`offload_params` before Accelerate 0.12.0).
        const key = String(schemaKey(section, schema) ?? written);
        const reads = launcherSpelling(section, key, target);
        const keyFirst = bridgePath || yamlCfg ? keySince : since(schema);
        if (reads && reads !== written && !fatal && (!keyFirst || ctx.atLeast(keyFirst))) {
          ctx.report({
            at: path,
            severity: 'warning',
            message: `${pathLabel(path)} is read under this name from ${ctx.versions} ${keySince}; the targeted ${ctx.versionLabel ?? target} reads it as ${code(reads)} and ignores ${code(written)} without a word. Rename it to ${code(reads)}, or upgrade ${ctx.versions} to ${keySince} or newer.`,
            fixes: [
              { kind: 'rename', title: `Rename to ${code(reads)}`, edits: [{ op: 'rename', path, key: reads }] },
              { kind: 'remove-ignored', title: `Remove ${code(written)}`, edits: [{ op: 'remove', path }] },
            ],
          });
          return;
        }
        ctx.report({
          at: path,
          severity: fatal ? 'error' : 'warning',
          message: `${pathLabel(path)} arrived in ${ctx.versions} ${keySince}; the targeted ${ctx.versionLabel ?? target} does not know it, so ${ctx.tool} ${fatal ? 'refuses to load the file' : ctx.keysSkipped ? 'skips it (that release\'s config has no such field)' : 'ignores it without a word'}${bridgeElsewhere(ctx, schema, path, bridgePath)}. Upgrade ${ctx.versions} to ${keySince} or newer, or remove the key.`,
          fixes: [{ kind: fatal ? 'remove' : 'remove-ignored', title: `Remove ${code(path[path.length - 1])}`, edits: [{ op: 'remove', path }] }],
        });
        return;
      }
      // A number of a numeric choice (DeepSpeed's `elasticity.version: 0.2`) is dated by its JSON text;
      // each item of a list (`--cuda-graph-scope attn mlp`) by its own.
      // A flag that takes one word at the targeted release, given several (`--cuda-graph-scope attn mlp` at 0.15.0).
      const several = nargsSince(schema);
      if (several && !ctx.atLeast(several) && node.kind === 'seq' && node.items.length > 1) {
        ctx.report({
          at: path,
          on: 'value',
          message: `${pathLabel(path)} takes several values from ${ctx.versions} ${several}; the targeted ${ctx.versionLabel ?? target} takes one and stops on the other ${node.items.length - 1} ("unrecognized arguments"). Give one value, or upgrade ${ctx.versions} to ${several} or newer.`,
        });
        return;
      }
      // A flag that took another number of words at the targeted release (`--spec`: 2 in 0.4.0;
      // `--lazy-mpu-init`: one word before 0.17.0; `--export-kv-cache-quant`: a switch before 0.16.0).
      const arity = nargsBefore(schema).find(([v]) => !ctx.atLeast(v));
      const words = node.kind === 'seq' ? node.items.length : node.kind === 'scalar' && !bareSwitch(node) ? 1 : 0;
      if (arity && !takes(arity[1], words)) {
        const n = arity[1];
        const wants = n === 0 ? 'takes no value (a switch)' : n === '+' ? 'takes at least one value' : n === '?' ? 'takes at most one value' : `takes exactly ${n} value${n === 1 ? '' : 's'}`;
        const says = n === 0 ? 'unrecognized arguments' : n === 1 || n === '?' ? 'expected one argument' : n === '+' ? 'expected at least one argument' : `expected ${n} arguments`;
        ctx.report({
          at: path,
          on: 'value',
          message: `${pathLabel(path)} ${wants} in ${ctx.versions} before ${arity[0]}, and ${words} ${words === 1 ? 'is' : 'are'} given: the targeted ${ctx.versionLabel ?? target} stops at startup ("${says}"). Write it as that release takes it, or upgrade ${ctx.versions} to ${arity[0]} or newer.`,
        });
        return;
      }
      const items = node.kind === 'seq' ? node.items.map((n, i) => ({ n, at: [...path, i] as Path })) : [{ n: node, at: path }];
      for (const { n: item, at: itemAt } of items) {
        const enumOf = node.kind === 'seq' ? schema.items?.enum : schema.enum;
        const text = item.kind === 'scalar' ? (typeof item.value === 'string' ? item.value : typeof item.value === 'number' && enumOf?.includes(item.value) ? String(item.value) : undefined) : undefined;
        if (text === undefined) continue;
        const reported = valueTooNew(ctx, schema, itemAt, text, target);
        if (reported) return;
      }
    });
  },
});

/**
 * Where the targeted Bridge release reads the same setting instead, said after a skipped Bridge path
 * outside `model` (`validation.skip_train` before Bridge 0.4, whose `train.skip_train` sets it): another
 * of the argument's Bridge paths, in another section, that the release has.
 */
function bridgeElsewhere(ctx: RuleContext, schema: JsonSchema, path: Path, bridgePath: boolean): string {
  if (!bridgePath || path[0] === 'model') return '';
  const has = (p: string): boolean => {
    const from = bridgeSince(schema, p);
    return !from || ctx.atLeast(from);
  };
  const other = bridgePaths(schema).find((p) => !p.startsWith(`${String(path[0])}.`) && !p.startsWith('model.') && !p.startsWith('mixed_precision.') && has(p));
  return other ? `; that release reads this setting as ${code(other)}` : '';
}

/** Reports a value younger than the targeted release (`x-enum-since`), saying whether that release refuses it; whether it reported. */
function valueTooNew(ctx: RuleContext, schema: JsonSchema, path: Path, text: string, target: string): boolean {
  const v = normalized(schema, text);
  const vs = valueSince(schema, text);
  if (!vs || ctx.atLeast(vs)) return false;
  // A release that reads the key without converting it (or not at all) refuses no value of it: what it
  // does instead is the form's to say.
  const form = releaseForm(ctx, schema);
  if (form?.form === 'unused' || form?.form === 'unchecked') {
    ctx.report({
      at: path,
      on: 'value',
      severity: 'information',
      message: `${code(v)} for ${pathLabel(path)} is a value of ${ctx.versions} ${vs} on; the targeted ${ctx.versionLabel ?? target} does not check it: ${form.why ?? 'it does not read the value'}. Upgrade ${ctx.versions} to ${vs} or newer for it to take effect.`,
    });
    return true;
  }
  // A value checked only while a switch is on (`x-values-checked-when-enabled`: the SFT prompt format
  // under `--tokenizer-type SFTTokenizer`) that the file leaves off is unused there: a note.
  const off = keyGatedOff(ctx, schema, path);
  if (off) {
    ctx.report({
      at: path,
      on: 'value',
      severity: 'information',
      message: `${code(v)} for ${pathLabel(path)} arrived in ${ctx.versions} ${vs}; the targeted ${ctx.versionLabel ?? target} does not know it, but ${off}. Upgrade ${ctx.versions} to ${vs} or newer, or choose another value.`,
    });
    return true;
  }
  // A choice only argparse checks (`x-enum-argparse-only`): a `--yaml-cfg`, Bridge or NeMo file sets
  // the config field, which takes any text, so that release does not refuse it where it reads the file.
  if (enumArgparseOnly(schema) && setsConfigFields(ctx.format, ctx.model)) {
    // The code that usually reads the field refuses a name it lacks (`x-enum-argparse-only.effect`):
    // a warning, since it names the reader it assumes.
    const reader = argparseOnlyReader(schema);
    if (reader) {
      ctx.report({
        at: path,
        on: 'value',
        severity: 'warning',
        message: `${code(v)} for ${pathLabel(path)} is one of the command line's choices from ${ctx.versions} ${vs} on; the targeted ${ctx.versionLabel ?? target} would refuse it as a flag, and this file sets the config field, which takes any text, but ${reader}. Upgrade ${ctx.versions} to ${vs} or newer, or choose a value that release knows.`,
      });
      return true;
    }
    ctx.report({
      at: path,
      on: 'value',
      severity: 'information',
      message: `${code(v)} for ${pathLabel(path)} is one of the command line's choices from ${ctx.versions} ${vs} on; the targeted ${ctx.versionLabel ?? target} would refuse it as a flag, but this file sets the config field, which takes any text, so what that release does with it depends on the code that reads it. Upgrade ${ctx.versions} to ${vs} or newer for the value to be one it knows.`,
    });
    return true;
  }
  ctx.report({
    at: path,
    on: 'value',
    message: `${code(v)} for ${pathLabel(path)} arrived in ${ctx.versions} ${vs}; the targeted ${ctx.versionLabel ?? target} rejects it. Upgrade ${ctx.versions} to ${vs} or newer, or choose another value.`,
  });
  return true;
}


/** Whether a flag of argparse arity `n` (a word count, or `*`, `+`, `?`) takes `words` words. */
function takes(n: number | string, words: number): boolean {
  return n === '*' || (n === '+' ? words >= 1 : n === '?' ? words <= 1 : words === n);
}
