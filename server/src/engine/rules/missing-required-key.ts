/**
 * missing-required-key: a key the tool cannot do without (other than `distributed_type`, which has
 * its own rule).
 */
import type { AccelerateModel } from '../formats/accelerate/model';
import { src } from '../formats/accelerate/helpers';
import { requiredBefore, requiredWhenEnabled, since } from '../schema/vocabulary';
import { code, pathLabel, walkSchema } from './helpers';
import { defineRule, type RuleContext } from './rule';

export default defineRule({
  id: 'missing-required-key',
  severity: 'error',
  formats: 'all',
  docs: {
    summary: 'A required key is missing.',
    why: 'Some keys have no default: a SageMaker config without `ec2_instance_type` or `iam_role_name` fails to load (`missing 1 required positional argument`), and so does one without `image_uri` from Accelerate 0.11.0 to 0.16.0. Before Accelerate 0.16.0 a DeepSpeed config without a `deepspeed_config_file` needs `zero_stage` and `gradient_accumulation_steps`: the launcher exports an absent one as the text `None`, and the DeepSpeed plugin stops on its `int()`. DeepSpeed (0.7.0 on) reads `different_groups` of every `compression_training` sub-section it finds written (`weight_quantization`, `activation_quantization`, `sparse_pruning`, `row_pruning`, `head_pruning`, `channel_pruning`) and stops with a KeyError without it, even when the sub-section is not enabled; it also asserts that each activation quantization group has `params.bits`, each head pruning group `params.dense_ratio`, and that enabled head pruning names `num_heads`. With legacy `curriculum_learning` on, the scheduler the engine builds asserts the `schedule_config` keys its `schedule_type` needs (`total_curriculum_step` and `difficulty_step`, plus `root_degree` for `fixed_root`; `difficulty` and `max_step` for `fixed_discrete`).',
    bad: "compute_environment: AMAZON_SAGEMAKER\ndistributed_type: DATA_PARALLEL\nec2_instance_type: ml.p4d.24xlarge\n",
    good: "compute_environment: AMAZON_SAGEMAKER\ndistributed_type: DATA_PARALLEL\nec2_instance_type: ml.p4d.24xlarge\niam_role_name: training-role\n",
  },
  check(ctx) {
    if (ctx.format === 'accelerate') {
      deepspeedKeys(ctx as RuleContext<AccelerateModel>);
      topLevelKeys(ctx);
    }
    if (ctx.format === 'deepspeed') enabledSectionKeys(ctx);
    // Each issue on its own: what is read for one does not weigh on another's finding.
    ctx.each(ctx.issues, (issue) => {
      if (issue.kind !== 'missing-key' || (issue.parent.length === 0 && issue.key === 'distributed_type')) return;
      const where = issue.parent.length ? ` in ${pathLabel(issue.parent)}` : '';
      ctx.report({ at: issue.parent, message: `${code(issue.key)} is required${where} and has no default: ${ctx.tool} fails to load the file without it. Add it.` });
    });
  },
});

/**
 * The `deepspeed_config` keys the targeted Accelerate release cannot run without (`x-required-before`):
 * the launcher exports an absent one as `None`, and the DeepSpeed plugin, which reads them only when no
 * `deepspeed_config_file` is given, stops on its `int()` (utils/dataclasses.py before 0.16.0).
 */
function deepspeedKeys(ctx: RuleContext<AccelerateModel>): void {
  const m = ctx.model;
  const nav = ctx.nav;
  if (m.sagemaker || m.distributedType !== 'DEEPSPEED' || !nav || m.view.has(['deepspeed_config', 'deepspeed_config_file'])) return;
  const section = nav.resolve(nav.child(nav.resolve(nav.root, ctx.doc.value([])), 'deepspeed_config'));
  for (const [key, schema] of Object.entries(section?.properties ?? {})) {
    const before = requiredBefore(schema);
    if (!before || m.view.has(['deepspeed_config', key])) continue;
    ctx.separately(() => {
      if (ctx.atLeast(before) || m.commandLine(key).passed) return;
      const at = m.view.has(['deepspeed_config']) ? src(m, ['deepspeed_config']) : src(m, ['distributed_type']);
      ctx.report({ at, message: `${code(key)} is required in \`deepspeed_config\` for the targeted ${ctx.versionLabel ?? `${ctx.tool} release`} (without a \`deepspeed_config_file\`): the launcher exports the absent value as the text \`None\`, and the DeepSpeed plugin stops on \`int('None')\` (ValueError) before ${before}. Add it.` });
    });
  }
}

/**
 * The top-level Accelerate keys (of the cluster or the SageMaker key set, whichever the file is) that
 * the config dataclass of the targeted release declares without a default (`x-required-before`,
 * from the key's `x-since`): loading the file stops on the missing constructor argument.
 */
function topLevelKeys(ctx: RuleContext): void {
  const nav = ctx.nav;
  if (!nav) return;
  const root = nav.resolve(nav.root, ctx.doc.value([]));
  for (const [key, schema] of Object.entries(root?.properties ?? {})) {
    const before = requiredBefore(schema);
    if (!before || ctx.doc.value([key]) !== undefined) continue;
    const first = since(schema);
    ctx.separately(() => {
      if (ctx.atLeast(before) || (first && !ctx.atLeast(first))) return;
      ctx.report({ at: [], message: `${code(key)} is required for the targeted ${ctx.versionLabel ?? `${ctx.tool} release`}: its config class has no default for it before ${before}, so loading the file fails (a missing-argument error). Add it.` });
    });
  }
}

/**
 * The keys a DeepSpeed section's reader asserts once the section is enabled (`x-required-when-enabled`),
 * at the releases where it does: an absent one stops the engine when it sets the section up.
 */
function enabledSectionKeys(ctx: RuleContext): void {
  walkSchema(ctx, (path, schema, node) => {
    const keys = Object.entries(requiredWhenEnabled(schema));
    if (!keys.length || node.kind !== 'map' || ctx.doc.value([...path, 'enabled']) !== true) return;
    const first = since(schema);
    for (const [key, ranges] of keys) {
      if (ctx.doc.value([...path, key]) !== undefined) continue;
      ctx.separately(() => {
        if (first && !ctx.atLeast(first)) return;
        const range = ranges.find((r) => (!r.since || ctx.atLeast(r.since)) && (!r.before || !ctx.atLeast(r.before)));
        if (!range) return;
        const release = range.since || range.before ? ` at the targeted ${ctx.versionLabel ?? `${ctx.tool} release`}` : '';
        const fails = range.fails ?? 'DeepSpeed stops when it sets the section up without it (an assertion, a missing-key error or a config error that names it)';
        const assumes = range.assumes ? ` This assumes ${range.assumes}.` : '';
        ctx.report({ at: path, ...(range.assumes ? { severity: 'warning' as const } : {}), message: `${code(key)} is required in ${pathLabel(path)} when \`enabled\` is true${release}: ${fails}. Add it, or turn the section off.${assumes}` });
      });
    }
  });
}
