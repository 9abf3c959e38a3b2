/**
 * fsdp-wrap-policy-mismatch: wrap settings that the chosen auto-wrap policy never reads.
 */
import type { AccelerateModel } from '../formats/accelerate/model';
import { src, WRAP_KEY_POLICY } from '../formats/accelerate/helpers';
import { PY_FLOAT, PY_INT } from '../syntax/scalars';
import { code } from './helpers';
import { defineRule, type RuleContext } from './rule';

/**
 * A threshold written as a float (`100000000.0`, `1.0e+8`) or with no value reaches the plugin the way
 * the launcher's old float default does: the launcher copies the file's value onto the option untyped
 * (commands/launch.py@v0.12.0:767-771, @v1.14.0:1262-1270), exports it with `str()` (utils/launch.py@v1.14.0:317)
 * and the plugin converts it with `int()` (utils/dataclasses.py@v1.14.0:1920), which refuses
 * `"100000000.0"` and `"None"`, at every release that reads the threshold. From 0.12.0 the launcher
 * prefixes a bare `min_num_params` with `fsdp_`, so both spellings are read; before, only the bare one.
 * Only YAML says whether a number was written as a float.
 */
function unreadableThreshold(ctx: RuleContext<AccelerateModel>, readsThreshold: boolean): void {
  const m = ctx.model;
  if (!readsThreshold) return;
  const keys = ctx.atLeast('0.12.0') ? ['fsdp_min_num_params', 'min_num_params'] : ['min_num_params'];
  if (keys.some((k) => m.commandLine(k).passed)) return;
  // Both canonical spellings may lead to the one key written: report it once, by the name written.
  const seen = new Set<string>();
  for (const canonical of keys) {
    const at = src(m, ['fsdp_config', canonical]);
    const key = String(at[at.length - 1]);
    if (seen.has(key)) continue;
    seen.add(key);
    const node = ctx.doc.node(at);
    if (node?.kind !== 'scalar' || node.aliased) continue;
    if (node.value === null && !node.tag) {
      ctx.report({
        at,
        on: node.span.end > node.span.start ? 'value' : 'entry',
        severity: 'error',
        tags: [],
        message: `\`${key}\` has no value: the launcher exports it as \`None\`, which the FSDP plugin's \`int()\` refuses ("invalid literal for int()"), so the launch fails. Write the threshold as an integer, e.g. \`100000000\`, or remove the key.`,
      });
      continue;
    }
    if (typeof node.value !== 'number' || node.style !== 'plain') continue;
    const float = node.tag === 'tag:yaml.org,2002:float' || (!node.tag && PY_FLOAT.test(node.raw) && !PY_INT.test(node.raw));
    if (!float || !Number.isFinite(node.value)) continue;
    const whole = Number.isInteger(node.value) && Math.abs(node.value) < 1e16 ? node.value : undefined;
    ctx.report({
      at,
      on: 'value',
      severity: 'error',
      tags: [],
      message: `\`${key}: ${node.raw}\` is a float to YAML: the launcher exports it as \`${whole !== undefined ? `${whole}.0` : node.raw}\`, which the FSDP plugin's \`int()\` refuses ("invalid literal for int()"), so the launch fails. Write the threshold as an integer${whole !== undefined ? `: \`${whole}\`` : ''}.`,
      fixes: whole !== undefined ? [{ kind: 'write-integer', title: `Write \`${key}: ${whole}\``, edits: [{ op: 'set', path: at, value: whole }], recommended: true }] : [],
    });
  }
}

export default defineRule<AccelerateModel>({
  id: 'fsdp-wrap-policy-mismatch',
  severity: 'warning',
  tags: ['unnecessary'],
  formats: ['accelerate'],
  fixes: {
    'set-policy': { applicability: 'unsafe', changes: 'how the model is wrapped' },
    // The file as written cannot run there: the edit writes the threshold the launcher meant.
    'write-threshold': { applicability: 'safe', changes: 'writes the threshold the launcher means by its default, 100000000' },
    // Likewise: a float threshold cannot run; the edit writes the same number as an integer.
    'write-integer': { applicability: 'safe', changes: 'writes the threshold as the integer it already is' },
  },
  docs: {
    summary: 'Layer classes or a size threshold that the chosen `fsdp_auto_wrap_policy` ignores.',
    why: '`fsdp_transformer_layer_cls_to_wrap` is read only by `TRANSFORMER_BASED_WRAP` and `fsdp_min_num_params` only by `SIZE_BASED_WRAP`. With another policy (or none: the default is `NO_WRAP`) they are ignored (before Accelerate 0.11.0, which had no policy key, a positive threshold alone wrapped by size) and the model is wrapped as one unit, so every step gathers all parameters at once. A threshold written as a float (`100000000.0`, `1.0e+8`) or with no value fails the same way at every release that reads it: the launcher exports it as written and the plugin\'s `int()` refuses `"100000000.0"` or `"None"`. The other way round, `SIZE_BASED_WRAP` without `fsdp_min_num_params` stops Accelerate 0.11.0 to 1.12.x (and any FSDP config without `min_num_params` stops 0.7.0 to 0.10.x, which read the threshold on every launch): the launcher exports its float default as `100000000.0`, which the plugin cannot convert to an integer; and `TRANSFORMER_BASED_WRAP` without `fsdp_transformer_layer_cls_to_wrap` stops Accelerate from 0.11.0 until 0.22.0, which added a fallback to the model\'s `_no_split_modules`: before it the plugin looks up a class with an empty name.',
    bad: 'distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_auto_wrap_policy: SIZE_BASED_WRAP\n  fsdp_transformer_layer_cls_to_wrap: LlamaDecoderLayer\n',
    good: 'distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP\n  fsdp_transformer_layer_cls_to_wrap: LlamaDecoderLayer\n',
    fix: 'Sets the policy that reads the key.',
  },
  check(ctx) {
    const m = ctx.model;
    if (m.distributedType !== 'FSDP') return;
    const policy = m.view.str(['fsdp_config', 'fsdp_auto_wrap_policy']);
    const policyPath = src(m, ['fsdp_config', 'fsdp_auto_wrap_policy']);
    const pairs = WRAP_KEY_POLICY;
    // From 0.11.0 (`--min_num_params`; `--fsdp_min_num_params` from 0.12.0) to 1.12.x the launcher's
    // default for the threshold is the float 1e8, which argparse leaves a float: it exports `100000000.0`, and under SIZE_BASED_WRAP the plugin's
    // int() refuses it (accelerate commands/launch.py, utils/dataclasses.py). 1.13.0 made it int(1e8).
    // 0.7.0 to 0.10.x, which have no policy key, read the threshold on every FSDP launch the same way
    // (commands/launch.py@v0.10.0:124-127, 300; utils/dataclasses.py@v0.10.0:437-438).
    // A key written with no value is not absent: it is reported as unreadable below.
    const written = (k: string) => m.view.has(['fsdp_config', k]) || ctx.doc.node(src(m, ['fsdp_config', k])) !== undefined;
    const absent = !written('fsdp_min_num_params') && !written('min_num_params');
    const readsThreshold = ctx.atLeast('0.11.0') ? policy === 'SIZE_BASED_WRAP' : ctx.atLeast('0.7.0');
    if (readsThreshold && absent && !ctx.atLeast('1.13.0') && !m.commandLine('fsdp_min_num_params').passed && !m.commandLine('min_num_params').passed) {
      // The spelling the targeted launcher reads: bare (`min_num_params`) before 0.12.0.
      const key = ctx.atLeast('0.12.0') ? 'fsdp_min_num_params' : 'min_num_params';
      ctx.report({
        at: ctx.atLeast('0.11.0') ? policyPath : src(m, ['distributed_type']),
        on: 'value',
        severity: 'error',
        tags: [],
        message: `${ctx.atLeast('0.11.0') ? '`SIZE_BASED_WRAP` without `fsdp_min_num_params`' : 'FSDP without `min_num_params`'}: the targeted ${ctx.versionLabel ?? 'release'} exports the launcher's default, the float \`1e8\`, as \`100000000.0\`, which the FSDP plugin's \`int()\` refuses, so the launch fails (Accelerate 1.13.0 made the default an integer). Write \`${key}: 100000000\`, or the threshold you want.`,
        fixes: [{ kind: 'write-threshold', title: `Add \`${key}: 100000000\``, edits: [{ op: 'set', path: src(m, ['fsdp_config', key]), value: 100000000 }], recommended: true }],
      });
    }
    unreadableThreshold(ctx, readsThreshold);
    // Before 0.22.0 the plugin has no fallback to the model's `_no_split_modules`: TRANSFORMER_BASED_WRAP
    // without layer classes looks up the class named "" (or "None") and raises (utils/dataclasses.py@v0.21.0:918-924).
    const noClasses = !m.view.has(['fsdp_config', 'fsdp_transformer_layer_cls_to_wrap']) && !m.view.has(['fsdp_config', 'transformer_layer_cls_to_wrap']);
    if (policy === 'TRANSFORMER_BASED_WRAP' && noClasses && ctx.atLeast('0.11.0') && !ctx.atLeast('0.22.0') && !m.commandLine(ctx.atLeast('0.12.0') ? 'fsdp_transformer_layer_cls_to_wrap' : 'transformer_layer_cls_to_wrap').passed) {
      ctx.report({
        at: policyPath,
        on: 'value',
        severity: 'error',
        tags: [],
        message: `\`TRANSFORMER_BASED_WRAP\` without \`fsdp_transformer_layer_cls_to_wrap\`: the targeted ${ctx.versionLabel ?? 'release'} has no fallback to the model's \`_no_split_modules\` (Accelerate 0.22.0 added it), so the FSDP plugin stops ("Could not find the transformer layer class to wrap in the model."). Name the decoder layer class, e.g. \`fsdp_transformer_layer_cls_to_wrap: LlamaDecoderLayer\`.`,
      });
    }
    for (const [key, needs] of pairs) {
      if (!m.view.has(['fsdp_config', key]) || policy === needs) continue;
      // Before 0.11.0 there is no policy key: a positive threshold alone turns on size-based wrapping
      // (utils/dataclasses.py@v0.10.0), so the threshold is read.
      if (key === 'fsdp_min_num_params' && !ctx.atLeast('0.11.0')) continue;
      // The other pair member may be what the policy reads; only flag keys with no reader.
      const current = policy ? code(`fsdp_auto_wrap_policy: ${policy}`) : 'no `fsdp_auto_wrap_policy` (so `NO_WRAP`)';
      ctx.report({
        at: src(m, ['fsdp_config', key]),
        message: `\`${key}\` is only read by \`${needs}\`, and this config has ${current}: the value is ignored${policy === 'NO_WRAP' || !policy ? ' and the whole model is one FSDP unit, gathered in full at every step' : ''}. Set \`fsdp_auto_wrap_policy: ${needs}\` or remove the key.`,
        fixes: [{ kind: 'set-policy', title: `Set \`fsdp_auto_wrap_policy: ${needs}\``, edits: [{ op: 'set', path: policyPath, value: needs }], recommended: true }],
      });
    }
  },
});
