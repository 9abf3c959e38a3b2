/**
 * unread-key: a Megatron Bridge field the config accepts that no code reads. Bridge's config classes
 * inherit Megatron-LM's training options; some of them only Megatron-LM's own training loop reads,
 * which Bridge does not run, so setting them changes nothing (`x-bridge-unread`, found by the history
 * script: no reader by name in Bridge, recipes aside, or in Megatron Core at the commit Bridge pins).
 * In an Accelerate SageMaker config, a key the SageMaker launch loads but does not pass on to the job
 * (`x-sagemaker-unused`, found by the history script in the SageMaker launcher of each release).
 * Also a Megatron-LM flag that, before some release, stored an attribute nothing reads
 * (`x-unread-before`): argparse takes it there and nothing changes.
 */
import { bridgeOverwritten, bridgePaths, bridgeUnread, bridgeUnreadSince, MEGATRON_SCHEMA, onlyWith, primaryFlag, setBy, unreadBefore, unreadFrom, yamlCfgSectionAt, yamlCfgUnread } from '../formats/megatron/schema';
import { deprecation, removal } from '../schema/vocabulary';
import { compareVersions } from '../version';
import type { AccelerateModel } from '../formats/accelerate/model';
import { defaultAt, sagemakerUnused } from '../schema/vocabulary';
import { formatDefault } from '../formats/megatron/args';
import type { RuleContext } from './rule';
import { argOff, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { inFormat } from '../formats/megatron/checks';
import { untracked } from './certain';
import type { Node } from '../syntax/tree';
import type { JsonSchema } from '../schema/types';
import { defineRule } from './rule';

export default defineRule({
  id: 'unread-key',
  severity: 'information',
  tags: ['unnecessary'],
  formats: ['megatron-bridge', 'accelerate', ...MLM_FLAG_FORMATS],
  docs: {
    summary: 'A Megatron Bridge field that the config accepts but no code reads, a Megatron-LM flag the targeted release stores where nothing reads it, does not read at all or reads only under a switch the file leaves off, a `--yaml-cfg` key its reader does not copy, or a key of an Accelerate SageMaker config that the SageMaker launch does not pass on: setting it changes nothing.',
    why: 'Bridge builds its config from dataclasses that inherit Megatron-LM\'s training options, so it accepts fields that only Megatron-LM\'s own training loop reads, and Bridge runs its own loop. `checkpoint.verify_integrity: true` there hashes nothing; `checkpoint.save_wgrads_interval` saves nothing. Fields of the sections Bridge hands to the builders of Megatron (tokenizer, optimizer, DDP, dataset, model) can be read by nothing at all: `tokenizer.vocab_extra_ids` adds no tokens. The list comes from a search of Bridge (recipes aside) and Megatron-LM at the commit Bridge pins for any read of the field (for those builder sections, anywhere in Megatron-LM, and a field Megatron reads under a name it builds, such as the optimizer\'s `muon_*`, counts as read), so a field read some other way would be missed: the finding is a note. An Accelerate SageMaker config is loaded like a local one, but the SageMaker launcher builds the job from a few of its keys only: `debug`, `use_cpu`, `gpu_ids`, `enable_cpu_affinity` and `dynamo_config` are loaded and then left out of the job (its environment has no `ACCELERATE_DEBUG_MODE`, and the compile settings come from the command line). A Megatron-LM flag that a release accepts but stores under an attribute nothing reads (`--disable-mamba-mem-eff-path` before 0.16.0) is a warning for that release. A flag that no Python file of the release reads at all (the history script scans every release, the argument parsers and tests aside: `--enable-full-sharding-in-hsdp`, the vision flags once their scripts were removed in 0.17.0; `--output-bert-embeddings` from 0.18.0, when the legacy BERT model went and the one tool naming it still imports the removed `pretrain_bert.py`) is a note, as a read that builds the name at run time would not be seen. A flag Megatron Core reads only to set something it overwrites before use (`--use-torch-optimizer-for-cpu-offload`, whose optimizer class the next lines replace) has no effect in any release, in a launch script or as its Bridge field, and the note says why. A `--yaml-cfg` file\'s `language_model` section is copied field by field into TransformerConfig only, and the multi-latent-attention config is built from that same set, so MLATransformerConfig\'s own fields written there (`q_lora_rank`, `kv_lora_rank`, `beta_slow`, …) keep their defaults at every release that has the reader; and a top-level key that only the command-line side reads (`recompute_activations`, which the argument checks turn into a granularity; `--decoder-first-pipeline-num-layers`, which the flags\' config builder turns into a TransformerConfig field) is read by nothing in such a file (`--quick-geglu`, which only the flags\' config builder turns into the activation; `--num-channels`, from 0.18.0, when the legacy models that also read it were removed). A flag Megatron-LM\'s training loop reads only under a switch the file leaves off is a note too: `--use-pytorch-profiler`, the profiled steps, `--record-shapes` and `--nvtx-ranges` do nothing without `--profile`, which turns profiling on. The `--yaml-cfg` note names the flag that sets the value on the command line or, for a field with no flag (`batch_p2p_comm`), the key Megatron-LM derives it from.',
    bad: 'model:\n  tensor_model_parallel_size: 2\ncheckpoint:\n  save: /ckpt\n  save_interval: 1000\n  verify_integrity: true\n',
    good: 'model:\n  tensor_model_parallel_size: 2\ncheckpoint:\n  save: /ckpt\n  save_interval: 1000\n',
  },
  check(ctx) {
    if (ctx.format === 'accelerate') return sagemakerKeys(ctx as unknown as RuleContext<AccelerateModel>);
    if (ctx.format !== 'megatron-bridge') {
      // A flag the targeted release takes but stores where nothing reads it.
      for (const { dest, before } of unreadFacts().before) {
        const args = (ctx.model as MegatronModel | undefined)?.args;
        // A `--yaml-cfg` file's config section is copied into the config by field name, not through the
        // flag's dest (`language_model.use_mamba_mem_eff_path` reaches the Mamba mixer at 0.15): the fact is the flag's.
        if (args?.yamlCfg && (yamlCfgSectionAt(dest, (v) => ctx.atLeast(v)) ?? 'top') !== 'top') continue;
        const a = args?.get(dest);
        if (!a?.path) continue;
        ctx.separately(() => {
          if (ctx.atLeast(before.version)) return;
          ctx.report({ at: a.path, severity: 'warning', message: `${ctx.tool} ${ctx.versionLabel ?? `before ${before.version}`} takes this ${args?.yamlCfg ? 'key' : 'flag'} but ${before.why}: it changes nothing there. It takes effect from ${before.version}.` });
        });
      }
      unreadFlags(ctx as unknown as RuleContext<MegatronModel>);
      withoutSwitch(ctx as unknown as RuleContext<MegatronModel>);
      yamlCfgKeys(ctx as unknown as RuleContext<MegatronModel>);
      return;
    }
    // The document's own keys, not the arguments they set: two Bridge paths may set one argument
    // (`train.skip_train`, `validation.skip_train`), and only one of them may be read.
    // A field Megatron-LM stopped reading at a release is unread only from that release on.
    const unread = unreadPaths()
      .filter((u) => ctx.separately(() => !u.from || ctx.atLeast(u.from)))
      .map((u) => u.path);
    const go = (node: Node | undefined, path: string[], depth: number): void => {
      if (node?.kind !== 'map' || depth > 8) return;
      for (const e of node.entries) {
        if (e.merged) continue;
        const here = [...path, e.key];
        const dotted = here.join('.');
        const field = unread.find((b) => dotted === b || dotted.endsWith(`.${b}`));
        const reset = field ? undefined : overwrittenPaths().find((b) => dotted === b || dotted.endsWith(`.${b}`));
        const dead = field || reset ? undefined : deadReads().find((d) => dotted === d.path || dotted.endsWith(`.${d.path}`));
        if (field) {
          ctx.separately(() =>
            ctx.report({
              at: here,
              message: BUILDER_SECTIONS.includes(field.split('.')[0])
                ? `Nothing in Megatron Bridge (its recipes aside) or in the Megatron-LM it pins reads \`${field}\`: Bridge accepts it because its config class inherits the field, but no code uses it, so setting it most likely changes nothing. Remove it, or get what it promised another way.`
                : `Nothing in Megatron Bridge (its recipes aside) or in Megatron Core reads \`${field}\`: Bridge accepts it because its config inherits Megatron-LM's training options, but only Megatron-LM's own training loop would use it, so setting it most likely changes nothing. Remove it, or get what it promised another way.`,
            }),
          );
        } else if (reset) {
          ctx.separately(() =>
            ctx.report({
              at: here,
              message: `Megatron Bridge sets \`${reset}\` itself whenever it builds the \`${reset.split('.')[0]}\` config (the section's \`__post_init__\`, which \`ConfigContainer.validate()\` runs again), so the value written here never takes effect. Set what that code derives it from instead (for the tokenizer, \`hf_tokenizer_kwargs\`), or remove it.`,
            }),
          );
        } else if (dead) {
          ctx.separately(() => ctx.report({ at: here, message: `\`${dead.path}\` has no effect in any release that has it: ${dead.why}. Remove it.` }));
        } else go(e.value, here, depth + 1);
      }
    };
    go(ctx.doc.root, [], 0);
  },
});

let deadPaths: { path: string; why: string }[] | undefined;
/**
 * The Bridge paths of arguments Megatron Core reads only to overwrite what the read set (`x-unread-from`
 * with a `why` and no release): Bridge hands the value to the same code, so it changes nothing there either.
 */
function deadReads(): { path: string; why: string }[] {
  return (deadPaths ??= Object.values(MEGATRON_SCHEMA.properties ?? {}).flatMap((s) => {
    const u = unreadFrom(s);
    return u?.why && !u.version ? bridgePaths(s).map((path) => ({ path, why: u.why as string })) : [];
  }));
}

let resetPaths: string[] | undefined;
/** Every Bridge path the schema marks as set by its section's own code whatever is written (`x-bridge-overwritten`). */
function overwrittenPaths(): string[] {
  return (resetPaths ??= Object.values(MEGATRON_SCHEMA.properties ?? {}).flatMap((s) => bridgeOverwritten(s)));
}

/** The Bridge sections whose objects Megatron Core's builders take (tokenizer, optimizer, DDP, dataset, model). */
const BUILDER_SECTIONS = ['tokenizer', 'optimizer', 'ddp', 'dataset', 'model'];

let paths: { path: string; from?: string }[] | undefined;
/**
 * Every Bridge path the schema marks as read by nothing (`x-bridge-unread`), with the release from
 * which Megatron-LM itself no longer reads the argument (`x-unread-from`): the older Megatron-LM a
 * Bridge release pins may still read it for Bridge (`tokenizer.vocab_extra_ids`, read by the
 * legacy tokenizer builder of Bridge 0.2 to 0.3.1, which pin Megatron Core 0.15 to 0.16).
 */
function unreadPaths(): { path: string; from?: string }[] {
  return (paths ??= Object.values(MEGATRON_SCHEMA.properties ?? {}).flatMap((s) =>
    bridgeUnread(s).map((path) => {
      // The later of the two: Megatron-LM's own last read, and the first Bridge release that no longer reads the path (`x-bridge-unread-since`).
      const versions = [unreadFrom(s)?.version, bridgeUnreadSince(s, path)].filter((v): v is string => !!v).sort(compareVersions);
      return { path, from: versions[versions.length - 1] };
    }),
  ));
}

/** The keys of a SageMaker config that the SageMaker launch of the targeted release leaves out of the job. */
function sagemakerKeys(ctx: RuleContext<AccelerateModel>): void {
  const nav = ctx.nav;
  const root = ctx.doc.root;
  if (!ctx.model.sagemaker || !nav || root?.kind !== 'map') return;
  const schema = nav.resolve(nav.root, ctx.doc.value([]));
  for (const e of root.entries) {
    const key = nav.child(schema, e.key);
    if (e.merged || !sagemakerUnused(key, (v) => ctx.atLeast(v))) continue;
    // A value equal to the default (what the questionnaire writes) asks for nothing.
    const dflt = defaultAt(key, ctx.schemaVersion);
    const value = ctx.doc.value([e.key]);
    if (JSON.stringify(value) === JSON.stringify(dflt) || (value === null && dflt === undefined)) continue;
    ctx.separately(() =>
      ctx.report({
        at: [e.key],
        message: `The SageMaker launch of accelerate loads \`${e.key}\` but does not pass it on to the job it starts (neither as an argument of the job nor in its environment), so ${value !== null && typeof value === 'object' ? `this \`${e.key}\`` : `\`${e.key}: ${String(value)}\``} has no effect on a SageMaker job. Remove it${e.key === 'dynamo_config' ? ', and pass the compile settings on the `accelerate launch` command line (`--dynamo_backend` …)' : ''}.`,
      }),
    );
  }
}

/**
 * Flags the targeted release accepts and nothing of it reads (`x-unread-from`): a note, as a read the
 * scan of the release cannot see (an attribute name built at run time) is possible. From the release
 * that deprecates or removes the flag on, it is deprecated-key's.
 */
function unreadFlags(ctx: RuleContext<MegatronModel>): void {
  // Which of them the file writes: looked up untracked, as an absent one (whose default may not be
  // known) is no input of a report about one that is written.
  const args = ctx.model ? untracked(ctx.model.args) : undefined;
  for (const { dest, from, until } of unreadFacts().from) {
    const a = args?.get(dest);
    if (!a?.path) continue;
    ctx.separately(() => {
      if ((from.version && !ctx.atLeast(from.version)) || (until && ctx.atLeast(until))) return;
      const when = from.version ? (until ? `from ${from.version} until ${until}, which deprecates or removes it` : `from ${from.version} on`) : 'in any release that has it';
      const yamlCfg = ctx.model.args.yamlCfg;
      const flag = spelled(ctx.model, dest);
      if (from.why) ctx.report({ at: a.path, message: `${flag} has no effect in ${ctx.tool}${ctx.versionLabel ? ` ${ctx.versionLabel}` : ''} (${when}): ${from.why}. Remove it.` });
      else ctx.report({ at: a.path, message: `Nothing in ${ctx.tool}${ctx.versionLabel ? ` ${ctx.versionLabel}` : ''} reads ${flag} (${when}): ${yamlCfg ? 'the `--yaml-cfg` reader' : 'argparse'} takes it, but no code uses its value, so setting it most likely changes nothing. Remove it, or look for the setting that does what it meant.` });
    });
  }
}

/**
 * An argument read only under a switch the file leaves off (`x-only-with`): `--use-pytorch-profiler`
 * without `--profile` profiles nothing. Only a dependent written on (a switch written `false` asks for
 * nothing, as does its default written out) and a switch known to be off count.
 */
function withoutSwitch(ctx: RuleContext<MegatronModel>): void {
  const m = ctx.model;
  if (!m) return;
  for (const [dest, prop] of Object.entries(MEGATRON_SCHEMA.properties ?? {})) {
    const only = onlyWith(prop);
    const a = only ? m.args.get(dest) : undefined;
    if (!only || !a?.path) continue;
    // The default written out (a config listing every key, Megatron-LM's own examples/gpt3/gpt_config.yaml) asks for nothing.
    // In the file's format's default (formatDefault: a `--yaml-cfg` file's TransformerConfig), else the command line's.
    const own = formatDefault(untracked(m.args), dest);
    const dflt = own && 'value' in own ? own.value : defaultAt(prop, ctx.schemaVersion);
    if (a.unknown === undefined && dflt !== undefined && String(a.value) === String(dflt)) continue;
    ctx.separately(() => {
      if ((only.since && !ctx.atLeast(only.since)) || (prop.type === 'boolean' && argOff(m, dest)) || !argOff(m, only.key)) return;
      const flag = spelled(m, dest);
      const sw = spelled(m, only.key);
      const why = inFormat(m, ctx.format, only.why);
      ctx.report({ at: a.path, message: `${flag} does nothing without ${sw}: ${why}. ${m.args.yamlCfg ? `Set ${sw.replace(/`$/, ': true`')}` : `Add ${sw}`}, or remove ${flag}.` });
    });
  }
}

/** An argument as the file writes it: its flag, or in a `--yaml-cfg` file its key (in its section). */
function spelled(m: MegatronModel, dest: string): string {
  if (!m.args.yamlCfg) return `\`${primaryFlag(dest) ?? dest}\``;
  const path = untracked(m.args).get(dest)?.path ?? m.args.pathFor(dest);
  return `\`${path ? path.join('.') : dest}\``;
}

/** A `--yaml-cfg` key nothing reads from the file (`x-yaml-cfg-unread`: MLATransformerConfig's own fields, arguments only the command-line side reads). */
function yamlCfgKeys(ctx: RuleContext<MegatronModel>): void {
  const args = ctx.model?.args;
  if (!args?.yamlCfg) return;
  for (const [dest, prop] of Object.entries(MEGATRON_SCHEMA.properties ?? {})) {
    const unread = yamlCfgUnread(prop);
    const path = unread ? untracked(args).get(dest)?.path : undefined;
    if (!unread || !path) continue;
    ctx.separately(() => {
      // Where the reader of the release would look for it: a top-level key at the top, a config
      // field in its section, which for some keys changed between releases (`x-yaml-cfg-before`).
      if ((path.length === 1 ? 'top' : path[0]) !== (yamlCfgSectionAt(dest, (v) => ctx.atLeast(v)) ?? 'top')) return;
      if (unread.since && !ctx.atLeast(unread.since)) return;
      const from = unread.since ? ` (from ${unread.since} on; earlier releases also read it outside the command-line side)` : '';
      ctx.report({ at: path, message: `Not read here${from}: ${unread.why}. Setting it changes nothing in this file; ${yamlCfgAdvice(dest, prop)}` });
    });
  }
}

/**
 * What to do instead: the flag that sets it on the command line, the key the reader derives it from,
 * or, for a field with neither (`original_max_position_embeddings`), nothing a Megatron-LM run can set.
 */
function yamlCfgAdvice(dest: string, prop: JsonSchema): string {
  const flag = primaryFlag(dest);
  if (flag) return `pass \`${flag}\` on the command line (without \`--yaml-cfg\`) to set it.`;
  const from = setBy(prop);
  if (from.length) return `Megatron-LM derives it from ${from.map((k) => `\`${k}\``).join(' or ')}: set that instead, or remove it.`;
  return 'Megatron-LM has no command-line flag for it either, so a Megatron-LM run cannot set it: remove it.';
}

interface UnreadFacts {
  before: { dest: string; before: { version: string; why: string } }[];
  /** `until`: the first release that deprecates or removes the flag (deprecated-key speaks from there). */
  from: { dest: string; from: { version?: string; why?: string }; until?: string }[];
}
let facts: UnreadFacts | undefined;

/** The flags with an unread fact, read from the schema once (the rule runs on every edit of a launch script). */
function unreadFacts(): UnreadFacts {
  if (facts) return facts;
  const out: UnreadFacts = { before: [], from: [] };
  for (const [dest, prop] of Object.entries(MEGATRON_SCHEMA.properties ?? {})) {
    const before = unreadBefore(prop);
    if (before) out.before.push({ dest, before });
    const from = unreadFrom(prop);
    if (!from) continue;
    const dep = deprecation(prop);
    const until = [dep?.earlier?.[0]?.since ?? dep?.since, removal(prop)?.version].filter((v): v is string => !!v).sort(compareVersions)[0];
    out.from.push({ dest, from, until });
  }
  return (facts = out);
}
