/**
 * optimizer-config-invalid: optimizer and scheduler settings DeepSpeed rejects when it builds them.
 */
import type { DeepSpeedModel } from '../formats/deepspeed/model';
import { bf16Stage1, DS_OPTIMIZERS, offloadsOptimizer, optimizerType, torchAdam } from '../formats/deepspeed/model';
import { OWN_NAME_SINCE, torchOptimRefusals } from '../formats/deepspeed/torch-optim';
import { code, pathLabel, runDsChecks, type DsCheck } from './helpers';
import { defineRule, type FixSpec } from './rule';

/**
 * Optimizers ZeRO is tested with; others need `zero_allow_untested_optimizer`. ZeRO compares the
 * optimizer's exact class (zero/utils.py ZERO_SUPPORTED_OPTIMIZERS): mup's MuAdam/MuAdamW build
 * torch's Adam/AdamW, which pass, but MuSGD builds torch's SGD, which does not.
 */
const ZERO_TESTED = ['adam', 'adamw', 'adagrad', 'lion', 'muon', 'muadam', 'muadamw'];

function writtenText(m: DeepSpeedModel, path: (string | number)[]): string {
  const node = m.doc.node(m.where(path));
  return node ? m.doc.text.slice(node.span.start, node.span.end) : '';
}

/** A number written as a float literal (`1e3`, `1000.0`): not a Python int once loaded. */
function floatLiteral(m: DeepSpeedModel, path: (string | number)[]): boolean {
  const node = m.doc.node(m.where(path));
  return node?.kind === 'scalar' && typeof node.value === 'number' && /[.eE]/.test(node.raw || m.doc.text.slice(node.span.start, node.span.end));
}

const isLamb = (m: DeepSpeedModel) => ['lamb', 'onebitlamb'].includes((optimizerType(m) ?? '').toLowerCase());

/**
 * Lamb/OneBitLamb with bf16: up to v0.17.0 runtime/config.py's get_loss_scale returns a fixed 1.0
 * when bf16 is on and fp16 is not, so engine.py's `dynamic_loss_scale()` (`loss_scale == 0`) is
 * false and the Lamb check stops. v0.5.5 reads the `bfloat16` section only; v0.6.0 reads `bf16`
 * first, then `bfloat16`. From v0.17.1 the check reads the fp16 config's loss scale (default 0).
 */
const BF16_LAMB: DsCheck[] = (['bf16', 'bfloat16'] as const).map((section) => ({
  when: (m: DeepSpeedModel) => {
    // get_bfloat16_enabled takes the first of bf16/bfloat16 the file has (bf16 only from v0.6.0).
    if (section === 'bfloat16' && m.get(['bf16']) !== undefined) return undefined;
    return isLamb(m) && m.bool(['fp16', 'enabled']) !== true && m.bool([section, 'enabled']) === true ? ['optimizer', 'type'] : undefined;
  },
  since: section === 'bf16' ? '0.6.0' : '0.5.5',
  before: '0.17.1',
  message: (m: DeepSpeedModel) =>
    `${optimizerType(m)} with \`${section}\`: DeepSpeed ${section === 'bf16' ? '0.6.0' : '0.5.5'} to 0.17.0 run bf16 with a fixed loss scale of 1.0, so their ${optimizerType(m)} check stops ("requires dynamic loss scaling"). Use DeepSpeed 0.17.1 or later, or another optimizer.`,
}));

const isMuon = (m: DeepSpeedModel) => (optimizerType(m) ?? '').toLowerCase() === 'muon';
// The section's model drops an "auto" (the default, on) at the releases these checks exist.
const reduceScatter = (m: DeepSpeedModel) => m.bool(['zero_optimization', 'reduce_scatter']) !== false;

/**
 * Muon (DeepSpeed builds MuonWithAuxAdam from the section) against reduce-scatter, which is on unless
 * the file turns it off: ZeRO-3 refuses the pair from 0.18.9, where Muon first runs at stage 3
 * (runtime/zero/stage3.py@v0.18.9:338, master:351-352); ZeRO-1/2 refuse it with optimizer offload from
 * 0.19.3 (runtime/zero/stage_1_and_2.py@v0.19.3:230-231, master:230-232), which keeps only partition slices.
 * NVMe at stage 1 with bf16 and fp32 accumulation runs the BF16 optimizer instead.
 */
const MUON_CHECKS: DsCheck[] = [
  {
    when: (m) => (isMuon(m) && m.stage === 3 && reduceScatter(m) ? ['optimizer', 'type'] : undefined),
    since: '0.18.9',
    message: () => 'Muon with ZeRO stage 3 and reduce-scatter (on by default): DeepSpeed stops when it builds the ZeRO-3 optimizer ("Muon and reduce scatter cannot be used together"). Set `"reduce_scatter": false` in `zero_optimization`, or use another optimizer.',
  },
  {
    when: (m) => {
      const device = String(m.get(['zero_optimization', 'offload_optimizer', 'device']) ?? '').toLowerCase();
      const offloaded = device === 'cpu' || (device === 'nvme' && !bf16Stage1(m));
      return isMuon(m) && (m.stage === 1 || m.stage === 2) && offloaded && reduceScatter(m) ? ['zero_optimization', 'offload_optimizer', 'device'] : undefined;
    },
    since: '0.19.3',
    message: (m) => `Muon with ZeRO-${m.stage} optimizer offload and reduce-scatter (on by default): DeepSpeed stops when it builds the ZeRO optimizer ("Muon with reduce scatter does not support optimizer offload because offload retains only partition slices"). Remove the offload, or set \`"reduce_scatter": false\` in \`zero_optimization\`.`,
  },
];

const allowed = (m: DeepSpeedModel) => m.bool(['zero_allow_untested_optimizer']) === true;
const zeroOn = (m: DeepSpeedModel) => m.stage !== undefined && m.stage >= 1;
const ALLOW_FIX = (): FixSpec => ({ kind: 'allow-untested-optimizer', title: 'Set zero_allow_untested_optimizer: true', edits: [{ op: 'set', path: ['zero_allow_untested_optimizer'], value: true }], recommended: true });
const UNTESTED = '("You are using an untested ZeRO Optimizer. Please add <\\"zero_allow_untested_optimizer\\": true>")';

/**
 * How a release reads an `offload_optimizer` section when it picks the optimizer class
 * (runtime/engine.py `zero_cpu_offload()`, `zero_use_cpu_optimizer()` from 0.7.2): before 0.5.7 a
 * section without `device` offloads to the CPU (zero/offload_constants.py@v0.5.6:54); 0.5.7 to 0.6.x
 * assert the device (a section without one is refused there, not judged here); 0.7.0 and 0.7.1 build
 * the CPU optimizer for any section at all, `device: none` included (`offload_optimizer is not None`,
 * engine.py@v0.7.0:648-649); from 0.7.2 only `cpu` and `nvme` do (engine.py@v0.7.2:649-652).
 */
type OffloadReading = 'default-cpu' | 'asserted' | 'any-section' | 'default-none';

/**
 * What DeepSpeed 0.5.5 to 0.9.1 build for `Adagrad` (engine.py@v0.5.5…@v0.9.1, the branch it shares
 * with Adam): torch's Adam/AdamW with `torch_adam`; DeepSpeedCPUAdagrad with the CPU optimizer (an
 * offloading section, or the legacy `cpu_offload: true`, which becomes one: zero/config.py@v0.6.0:131-136);
 * FusedAdam otherwise. Undefined where the section is refused or not settled.
 */
function adagradBuilds(m: DeepSpeedModel, reading: OffloadReading): 'torch' | 'cpu' | 'fused' | undefined {
  if (torchAdam(m)) return 'torch';
  // Before 0.7.0 a written `cpu_offload` decides alone: the section is then not read (zero/config.py@v0.6.0:129-138).
  const legacy = m.get(['zero_optimization', 'cpu_offload']);
  if (legacy !== undefined && (reading === 'default-cpu' || reading === 'asserted')) return legacy === true ? 'cpu' : legacy === false ? 'fused' : undefined;
  if (legacy === true || offloadsOptimizer(m)) return 'cpu';
  const section = m.get(['zero_optimization', 'offload_optimizer']);
  if (section === undefined || section === null) return 'fused';
  if (typeof section !== 'object' || Array.isArray(section)) return undefined;
  if (reading === 'any-section') return 'cpu';
  const device = m.get(['zero_optimization', 'offload_optimizer', 'device']);
  if (device === undefined) return reading === 'default-cpu' ? 'cpu' : reading === 'default-none' ? 'fused' : undefined;
  return String(device).toLowerCase() === 'none' ? 'fused' : undefined;
}

/**
 * Adagrad from 0.5.5 (a DeepSpeed name) to 0.9.1: with the CPU optimizer it is DeepSpeedCPUAdagrad,
 * which zero/utils.py lists as tested only from 0.9.2 (an error with ZeRO); otherwise it trains as
 * Adam/AdamW without a word (a warning). torch.optim.Adagrad from 0.9.2.
 */
const ADAGRAD_CHECKS: DsCheck[] = ([
  ['0.5.5', '0.5.7', 'default-cpu'],
  ['0.5.7', '0.7.0', 'asserted'],
  ['0.7.0', '0.7.2', 'any-section'],
  ['0.7.2', '0.9.2', 'default-none'],
] as const).flatMap(([since, before, reading]): DsCheck[] => {
  const adagrad = (m: DeepSpeedModel) => (optimizerType(m) ?? '').toLowerCase() === 'adagrad';
  return [
    {
      when: (m) => (adagrad(m) && zeroOn(m) && !allowed(m) && adagradBuilds(m, reading) === 'cpu' ? ['optimizer', 'type'] : undefined),
      since,
      before,
      message: (m) => `Adagrad with ${offloadsOptimizer(m) || m.bool(['zero_optimization', 'cpu_offload']) === true ? 'optimizer offload' : reading === 'any-section' ? 'an `offload_optimizer` section (DeepSpeed 0.7.0 and 0.7.1 build the CPU optimizer for any device, `none` included)' : 'an `offload_optimizer` section without a device (CPU before DeepSpeed 0.5.7)'} builds DeepSpeedCPUAdagrad, which ZeRO before DeepSpeed 0.9.2 does not list as tested: DeepSpeed stops ${UNTESTED}. Add \`"zero_allow_untested_optimizer": true\` if you accept that, or use DeepSpeed 0.9.2 or later.`,
      fix: ALLOW_FIX,
    },
    {
      when: (m) => (adagrad(m) && ['torch', 'fused'].includes(adagradBuilds(m, reading) ?? '') ? ['optimizer', 'type'] : undefined),
      since,
      before,
      severity: 'warning',
      message: (m) => `DeepSpeed 0.5.5 to 0.9.1 build \`Adagrad\` ${torchAdam(m) ? "with `torch_adam` as torch's Adam/AdamW" : 'without optimizer offload as FusedAdam'} (${m.bool(['optimizer', 'params', 'adam_w_mode']) === false ? 'Adam' : 'AdamW'}): the run trains with Adam, not Adagrad, without a word. Use DeepSpeed 0.9.2 or later for \`torch.optim.Adagrad\`, or offload the optimizer to CPU for DeepSpeedCPUAdagrad.`,
    },
  ];
});

/**
 * Classes DeepSpeed builds from a name ZeRO lists as tested, which at some releases are missing from
 * that list (zero/utils.py ZERO_SUPPORTED_OPTIMIZERS, compared by exact class; engine.py then asserts
 * `zero_allow_untested_optimizer`, `_do_optimizer_sanity_check`):
 * - Muon at ZeRO stage 1 and 2 in 0.17.6 to 0.18.4: the list imports MuonWithAuxAdam from
 *   `deepspeed.runtime.muon_optimizer`, which those releases do not have (the class is in
 *   runtime/zero/muon/muon_optimizer.py, engine.py@v0.17.6:53), and swallows the ImportError
 *   (zero/utils.py@v0.17.6:48-53); 0.18.5 imports it from the right module (zero/utils.py@v0.18.5:50).
 *   Stage 3 stops earlier on its own check (above).
 * - Adam/AdamW with a `zenflow` section and the CPU optimizer in 0.17.5 to 0.19.2: the engine builds
 *   ZenFlowCPUAdam (engine.py@v0.17.5:1505-1511; `self.zenflow` is set for any section,
 *   zenflow/engine.py@v0.17.5 configure_zenflow), which joins the list only in 0.19.3
 *   (zero/utils.py@v0.19.3:45-48); `torch_adam` builds torch's Adam/AdamW instead.
 * - OneBitAdam and OneBitLamb before 0.4.1, which have no ZeRO check of their own yet
 *   (engine.py@v0.3.16:618-622; from 0.4.1 they refuse ZeRO outright, zero-config-invalid).
 * - `Adam` with `torch_adam` before 0.3.11: torch.optim.AdamW unless `adam_w_mode` is false
 *   (engine.py@v0.3.10:553-580), which the list has only from 0.3.11
 *   (zero/utils.py@v0.3.10:26 vs @v0.3.11:28).
 */
const UNTESTED_BUILDS: DsCheck[] = [
  {
    when: (m) => (isMuon(m) && (m.stage === 1 || m.stage === 2) && !allowed(m) ? ['optimizer', 'type'] : undefined),
    since: '0.17.6',
    before: '0.18.5',
    message: (m) => `Muon with ZeRO stage ${m.stage}: DeepSpeed 0.17.6 to 0.18.4 build MuonWithAuxAdam but leave it out of the optimizers ZeRO is tested with (their list imports it from \`deepspeed.runtime.muon_optimizer\`, a module they do not have, and ignores the ImportError), so DeepSpeed stops ${UNTESTED}. Add \`"zero_allow_untested_optimizer": true\`, or use DeepSpeed 0.18.5 or later.`,
    fix: ALLOW_FIX,
  },
  {
    when: (m) => {
      const zenflow = m.get(['zero_optimization', 'zenflow']);
      const adam = ['adam', 'adamw'].includes((optimizerType(m) ?? '').toLowerCase());
      return adam && zeroOn(m) && !allowed(m) && !torchAdam(m) && (offloadsOptimizer(m) || m.bool(['zero_optimization', 'cpu_offload']) === true) && !!zenflow && typeof zenflow === 'object' && !Array.isArray(zenflow) ? ['zero_optimization', 'zenflow'] : undefined;
    },
    since: '0.17.5',
    before: '0.19.3',
    message: (m) => `ZenFlow with the optimizer offloaded builds \`ZenFlowCPUAdam\` for \`${optimizerType(m)}\`, which DeepSpeed 0.17.5 to 0.19.2 do not list among the optimizers ZeRO is tested with: DeepSpeed stops ${UNTESTED}. Add \`"zero_allow_untested_optimizer": true\`, or use DeepSpeed 0.19.3 or later.`,
    fix: ALLOW_FIX,
  },
  {
    when: (m) => (['onebitadam', 'onebitlamb'].includes((optimizerType(m) ?? '').toLowerCase()) && zeroOn(m) && !allowed(m) ? ['optimizer', 'type'] : undefined),
    before: '0.4.1',
    message: (m) => `\`${optimizerType(m)}\` with ZeRO: DeepSpeed before 0.4.1 builds it but does not list it among the optimizers ZeRO is tested with, so it stops ${UNTESTED}. The 1-bit optimizers compress their own communication and do not work with ZeRO (0.4.1 and later refuse the pair outright): use stage 0, or Adam/AdamW with ZeRO.`,
  },
  {
    when: (m) => ((optimizerType(m) ?? '').toLowerCase() === 'adam' && torchAdam(m) && m.bool(['optimizer', 'params', 'adam_w_mode']) !== false && zeroOn(m) && !allowed(m) ? ['optimizer', 'type'] : undefined),
    before: '0.3.11',
    message: () => `\`Adam\` with \`torch_adam\` builds \`torch.optim.AdamW\` (\`adam_w_mode\` is on unless written false), which DeepSpeed before 0.3.11 does not list among the optimizers ZeRO is tested with: DeepSpeed stops ${UNTESTED}. Set \`"adam_w_mode": false\` for torch.optim.Adam, add \`"zero_allow_untested_optimizer": true\`, or use DeepSpeed 0.3.11 or later.`,
    fix: ALLOW_FIX,
  },
];

const CHECKS: DsCheck[] = [
  ...MUON_CHECKS,
  {
    // engine.py@v0.17.6: `assert zero_stage <= ZeroStageEnum.gradients`, gone in v0.18.9.
    when: (m) => ((optimizerType(m) ?? '').toLowerCase() === 'muon' && m.stage === 3 ? ['optimizer', 'type'] : undefined),
    since: '0.17.6',
    before: '0.18.9',
    message: () => 'Muon with ZeRO stage 3: DeepSpeed 0.17.6 to 0.18.8 stop when they build the optimizer ("Muon optimizer is not yet compatible with ZeRO Stage 3"). Use ZeRO stage 1 or 2, or DeepSpeed 0.18.9 or later.',
  },
  ...ADAGRAD_CHECKS,
  ...UNTESTED_BUILDS,
  ...Object.values(OWN_NAME_SINCE).map(({ since, torch }): DsCheck => ({
    when: (m) => (optimizerType(m) === torch && m.stage !== undefined && m.stage >= 1 && m.bool(['zero_allow_untested_optimizer']) !== true ? ['optimizer', 'type'] : undefined),
    before: since,
    message: (m) => `\`${optimizerType(m)}\` with ZeRO: before DeepSpeed ${since} it is not a DeepSpeed optimizer, so DeepSpeed builds \`torch.optim.${optimizerType(m)}\`, which ZeRO has not tested, and stops ("You are using an untested ZeRO Optimizer. Please add <\\"zero_allow_untested_optimizer\\": true>"). Add \`"zero_allow_untested_optimizer": true\` if you accept that, or use DeepSpeed ${since} or later.`,
    fix: () => ({ kind: 'allow-untested-optimizer', title: 'Set zero_allow_untested_optimizer: true', edits: [{ op: 'set', path: ['zero_allow_untested_optimizer'], value: true }], recommended: true }),
  })),
  {
    when: (m) => {
      const t = optimizerType(m);
      if (!t || m.stage === undefined || m.stage < 1 || m.bool(['zero_allow_untested_optimizer']) === true) return undefined;
      const lower = t.toLowerCase();
      return ZERO_TESTED.includes(lower) || ['onebitadam', 'zerooneadam', 'onebitlamb'].includes(lower) ? undefined : ['optimizer', 'type'];
    },
    message: (m) => `\`${optimizerType(m)}\` is not one of the optimizers ZeRO is tested with: DeepSpeed stops ("You are using an untested ZeRO Optimizer. Please add <\\"zero_allow_untested_optimizer\\": true>"). Add \`"zero_allow_untested_optimizer": true\` if you accept that, or use Adam/AdamW.`,
    fix: () => ({ kind: 'allow-untested-optimizer', title: 'Set zero_allow_untested_optimizer: true', edits: [{ op: 'set', path: ['zero_allow_untested_optimizer'], value: true }], recommended: true }),
  },
  {
    when: (m) => {
      const t = (optimizerType(m) ?? '').toLowerCase();
      const scale = m.num(['fp16', 'loss_scale']);
      return (t === 'lamb' || t === 'onebitlamb') && m.bool(['fp16', 'enabled']) === true && scale !== undefined && scale > 0 ? ['fp16', 'loss_scale'] : undefined;
    },
    message: (m) => `${optimizerType(m)} needs dynamic loss scaling, and \`fp16.loss_scale\` is a fixed ${m.num(['fp16', 'loss_scale'])}: DeepSpeed stops ("requires dynamic loss scaling"). Set \`"loss_scale": 0\`.`,
    fix: () => ({ kind: 'dynamic-loss-scale', title: 'Set loss_scale: 0 (dynamic)', edits: [{ op: 'set', path: ['fp16', 'loss_scale'], value: 0 }], recommended: true }),
  },
  ...BF16_LAMB,
  {
    when: (m) => {
      const t = optimizerType(m);
      // DeepSpeed matches its own optimizers in any case, torch.optim classes only exactly.
      return t && !DS_OPTIMIZERS.includes(t.toLowerCase()) && /^[a-z]/.test(t) ? ['optimizer', 'type'] : undefined;
    },
    message: (m) => `\`${optimizerType(m)}\` is neither a DeepSpeed optimizer nor a \`torch.optim\` class as spelled: DeepSpeed matches torch classes case-sensitively and stops ("is not a supported DeepSpeed Optimizer"). Write the class name (\`SGD\`, \`RMSprop\`…).`,
  },
  {
    when: (m) => (floatLiteral(m, ['scheduler', 'params', 'warmup_num_steps']) ? ['scheduler', 'params', 'warmup_num_steps'] : undefined),
    since: '0.19.3',
    message: (m) => `\`warmup_num_steps\` is written as a float (\`${writtenText(m, ['scheduler', 'params', 'warmup_num_steps'])}\` is a float once loaded from JSON) and DeepSpeed from 0.19.3 requires a Python int: it stops when it builds the scheduler ("warmup_num_steps must be a positive integer"). Write the digits.`,
    fix: (m) => {
      const v = m.num(['scheduler', 'params', 'warmup_num_steps']);
      return v !== undefined && Number.isInteger(v) ? { kind: 'write-integer', title: `Write ${v}`, edits: [{ op: 'set', path: ['scheduler', 'params', 'warmup_num_steps'], value: v }], recommended: true } : undefined;
    },
  },
  {
    when: (m) => {
      const total = m.num(['scheduler', 'params', 'total_num_steps']);
      const warm = m.num(['scheduler', 'params', 'warmup_num_steps']);
      return total !== undefined && warm !== undefined && total < warm ? ['scheduler', 'params', 'total_num_steps'] : undefined;
    },
    severity: 'warning',
    message: (m) => `\`total_num_steps\` ${m.num(['scheduler', 'params', 'total_num_steps'])} is less than \`warmup_num_steps\` ${m.num(['scheduler', 'params', 'warmup_num_steps'])}: the decay never starts (DeepSpeed only warns). Check the step counts.`,
  },
];

export default defineRule<DeepSpeedModel>({
  id: 'optimizer-config-invalid',
  severity: 'error',
  formats: ['deepspeed'],
  fixes: {
    'allow-untested-optimizer': { applicability: 'unsafe', changes: 'what DeepSpeed accepts: an optimizer it has not tested with ZeRO' },
    'dynamic-loss-scale': { applicability: 'unsafe', changes: 'the loss scaling' },
    'write-integer': { applicability: 'safe', changes: 'writes the integer the value stands for', unconditional: true },
  },
  docs: {
    summary: 'Optimizer and scheduler settings DeepSpeed rejects: an untested optimizer with ZeRO (including the classes a release builds but leaves out of its tested list: Muon in 0.17.6 to 0.18.4, ZenFlow\'s CPU Adam before 0.19.3, the 1-bit optimizers before 0.4.1, torch\'s AdamW before 0.3.11), Muon with reduce-scatter at ZeRO stage 3 or beside optimizer offload at stage 1 or 2, Lamb with a static loss scale (a fixed `fp16.loss_scale`, or bf16 up to DeepSpeed 0.17.0), a lower-case torch class, a float `warmup_num_steps`; and, as warnings, `Adagrad` that DeepSpeed 0.5.5 to 0.9.1 silently build as AdamW, and a learning rate, epsilon, beta, weight decay or momentum out of range for the `torch.optim` class DeepSpeed builds from the section.',
    why: 'DeepSpeed builds the optimizer and scheduler from these sections after the model is loaded, so each of these stops a run that already spent its start-up time. Each message quotes the check that fires. Muon needs `reduce_scatter: false` at ZeRO stage 3 (from 0.18.9, where it first runs there) and, with the optimizer offloaded, at stage 1 or 2 (from 0.19.3). Before DeepSpeed 0.3.11 `AdamW`, before 0.5.5 `Adagrad`, and before 0.17.6 `Muon` are not names DeepSpeed builds itself: it looks them up as `torch.optim` classes, which ZeRO has not tested, so with ZeRO they stop the same way. ZeRO compares the exact class it built with its list, release by release: DeepSpeed 0.17.6 to 0.18.4 leave their own Muon out of it (a wrong import path), 0.17.5 to 0.19.2 the ZenFlowCPUAdam they build for Adam with ZenFlow and optimizer offload, releases before 0.9.2 the DeepSpeedCPUAdagrad of Adagrad with the CPU optimizer, and releases before 0.3.11 the torch.optim.AdamW that `torch_adam` builds. Where DeepSpeed hands `optimizer.params` to a `torch.optim` class (a `type` that is not one of its own, `torch_adam`, `Adagrad` without the CPU optimizer from 0.9.2, mup\'s MuAdam, MuAdamW and MuSGD), that class\'s constructor refuses a negative learning rate, epsilon, weight decay or momentum and a beta outside [0, 1) with a ValueError; DeepSpeed\'s own optimizers check none of these. The file does not pin PyTorch, so these are warnings.',
    bad: '{\n  "train_micro_batch_size_per_gpu": 4,\n  "optimizer": { "type": "SGD", "params": { "lr": 0.01 } },\n  "zero_optimization": { "stage": 2, "overlap_comm": true }\n}\n',
    good: '{\n  "train_micro_batch_size_per_gpu": 4,\n  "zero_allow_untested_optimizer": true,\n  "optimizer": { "type": "SGD", "params": { "lr": 0.01 } },\n  "zero_optimization": { "stage": 2, "overlap_comm": true }\n}\n',
    fix: 'Allows the untested optimizer, makes the loss scale dynamic, or writes the step count as an integer.',
  },
  check(ctx) {
    runDsChecks(ctx, CHECKS);
    // The ranges a torch.optim constructor checks, where DeepSpeed builds one from the section: a
    // warning, since the file does not pin the PyTorch release whose checks these are.
    for (const r of torchOptimRefusals(ctx.model, (v) => ctx.atLeast(v)))
      ctx.separately(() =>
        ctx.report({
          at: ctx.model.where(r.at),
          on: 'value',
          severity: 'warning',
          message: `${pathLabel(r.at)} is ${code(String(r.value))}: ${r.via}, so DeepSpeed builds \`torch.optim.${r.cls}\` with these parameters, and its constructor refuses the value ("${r.quote}"): the run stops in deepspeed.initialize. That is what PyTorch's releases do (the file does not pin one; DeepSpeed itself checks no range). Write a value ${r.rule}.`,
        }),
      );
  },
});
