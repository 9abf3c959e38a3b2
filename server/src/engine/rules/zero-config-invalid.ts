/**
 * zero-config-invalid: ZeRO settings DeepSpeed rejects, alone or together with others.
 */
import { bf16Stage1, type DeepSpeedModel } from '../formats/deepspeed/model';
import { noneDefaultRefused } from '../schema/vocabulary';
import type { Path } from '../types';
import { deepCompileChecks } from './tables/deepcompile';
import { runDsChecks, type DsCheck } from './helpers';
import { defineRule, type RuleContext } from './rule';

const Z = 'zero_optimization';
const reduceScatter = (m: DeepSpeedModel) => m.bool([Z, 'reduce_scatter']) !== false;
const sum = (m: DeepSpeedModel) => String(m.get(['gradient_allreduce_op']) ?? '').toLowerCase() === 'sum';

/**
 * A gradient-scaling check of the ZeRO optimizers with reduce-scatter: at every release when the
 * gradients are averaged (or at stage 3), and before 0.19.6 also with `gradient_allreduce_op: "sum"`
 * at stage 2, since those releases do not read the key.
 */
function scaleChecks(set: (m: DeepSpeedModel) => boolean, at: Path, message: (m: DeepSpeedModel) => string): DsCheck[] {
  const base = (m: DeepSpeedModel) => set(m) && m.stage !== undefined && m.stage >= 2 && reduceScatter(m);
  // Stage 1 runs the same ZeRO-1/2 optimizer unless `legacy_stage1` (engine.py@v0.4.0:872-874),
  // and 0.4.0 to 0.12.x check with reduce-scatter alone (stage2.py@v0.4.0:165-168); 0.13.0 adds
  // `partition_gradients`, which stage 1 does not set. The BF16 optimizer some bf16 stage-1 runs get
  // (see bucketChecks) has no such check.
  const one = (m: DeepSpeedModel) => set(m) && m.stage === 1 && reduceScatter(m) && m.bool([Z, 'legacy_stage1']) !== true;
  const cpu = (m: DeepSpeedModel) => String(m.get([Z, 'offload_optimizer', 'device']) ?? '').toLowerCase() === 'cpu';
  return [
    { when: (m) => (base(m) && !(sum(m) && m.stage === 2) ? at : undefined), message },
    { when: (m) => (base(m) && sum(m) && m.stage === 2 ? at : undefined), before: '0.19.6', message },
    { when: (m) => (one(m) && !bf16Stage1(m) ? at : undefined), since: '0.4.0', before: '0.13.0', message },
    { when: (m) => (one(m) && bf16Stage1(m) ? at : undefined), since: '0.4.0', before: '0.7.6', message },
    { when: (m) => (one(m) && bf16Stage1(m) && cpu(m) ? at : undefined), since: '0.10.1', before: '0.13.0', message },
  ];
}

const BUCKET_MESSAGE = (m: DeepSpeedModel) => `${m.get([Z]) === true ? '`allgather_size` (the bucket size of the legacy `"zero_optimization": true`)' : '`allgather_bucket_size`'} must be even at ZeRO stage 1 and 2: DeepSpeed stops when it builds the optimizer ("allgather_bucket_size must be a multiple of nccl_start_alignment_factor, 2"). Use an even number of elements.`;

/**
 * The all-gather bucket alignment check of the ZeRO 1/2 optimizer (stage_1_and_2.py, from 0.5.2). It
 * runs only where that optimizer is built: not for the old stage-1 optimizer of `legacy_stage1`
 * (0.5.8: no such check; from 0.5.9 the flag stops the engine first), and not at stage 1 with bf16
 * and fp32 gradient accumulation from 0.7.6 (runtime/engine.py `_do_optimizer_sanity_check`: 0.7.6
 * to 0.8.0 stop on that dtype mix before any optimizer is built, 0.8.1 to 0.10.0 build the BF16
 * optimizer, from 0.10.1 they do so unless the optimizer is offloaded to the CPU). The BF16
 * optimizer has no bucket check.
 */
function bucketChecks(): DsCheck[] {
  // The legacy `zero_optimization: true` takes the bucket size from the top-level `allgather_size`
  // (zero/config.py `read_zero_config_deprecated`, at every release).
  const legacy = (m: DeepSpeedModel) => m.get([Z]) === true;
  const bucket = (m: DeepSpeedModel): Path => (legacy(m) ? ['allgather_size'] : [Z, 'allgather_bucket_size']);
  const odd = (m: DeepSpeedModel) => {
    const b = m.num(bucket(m));
    if (m.stage === 1 && m.bool([Z, 'legacy_stage1']) === true) return false;
    return b !== undefined && m.stage !== undefined && m.stage >= 1 && m.stage <= 2 && b % 2 !== 0;
  };
  const cpu = (m: DeepSpeedModel) => String(m.get([Z, 'offload_optimizer', 'device']) ?? '').toLowerCase() === 'cpu';
  const at = bucket;
  const negative = (m: DeepSpeedModel) => legacy(m) && (m.num(['allgather_size']) ?? 0) < 0;
  return [
    // zero/config.py@v0.7.0:83 on: the ZeRO model takes the copied value as `allgather_bucket_size` (ge=0).
    { when: (m) => (negative(m) ? ['allgather_size'] : undefined), since: '0.7.0', message: () => 'A negative `allgather_size` with the legacy `"zero_optimization": true`: DeepSpeed copies it into `zero_optimization.allgather_bucket_size`, which must be 0 or more, and stops when it reads the config. Write `"zero_optimization": {"stage": 1, "allgather_bucket_size": 500000000}` instead.' },
    { when: (m) => (odd(m) && !bf16Stage1(m) ? at(m) : undefined), since: '0.5.2', message: BUCKET_MESSAGE },
    { when: (m) => (odd(m) && bf16Stage1(m) ? at(m) : undefined), since: '0.5.2', before: '0.7.6', message: BUCKET_MESSAGE },
    { when: (m) => (odd(m) && bf16Stage1(m) && cpu(m) ? at(m) : undefined), since: '0.10.1', message: BUCKET_MESSAGE },
  ];
}

const LEGACY_MESSAGE = () => '`legacy_stage1: true` asks for the old ZeRO stage 1 optimizer, which DeepSpeed 0.5.9 removed: it stops when it builds the ZeRO optimizer ("The deprecated version of ZeRO Stage 1 is not supported in deepspeed >= 0.5.9"). Remove the key; `stage: 1` runs the current stage 1 optimizer.';

/**
 * `legacy_stage1: true` where the ZeRO optimizer is built (runtime/engine.py@v0.5.9:1328-1331,
 * @v0.19.5:2333-2336, `_configure_zero_optimizer`; with or without an optimizer from 0.5.9, :297):
 * at stages 1 to 3, not where stage 1 with bf16 and fp32 accumulation gets the BF16 optimizer (see
 * bucketChecks). Stage 0 never builds it, so the flag does nothing there.
 */
function legacyStage1Checks(): DsCheck[] {
  const on = (m: DeepSpeedModel) => m.bool([Z, 'legacy_stage1']) === true && m.stage !== undefined && m.stage >= 1;
  const cpu = (m: DeepSpeedModel) => String(m.get([Z, 'offload_optimizer', 'device']) ?? '').toLowerCase() === 'cpu';
  const at: Path = [Z, 'legacy_stage1'];
  return [
    { when: (m) => (on(m) && !bf16Stage1(m) ? at : undefined), since: '0.5.9', message: LEGACY_MESSAGE },
    { when: (m) => (on(m) && bf16Stage1(m) ? at : undefined), since: '0.5.9', before: '0.7.6', message: LEGACY_MESSAGE },
    { when: (m) => (on(m) && bf16Stage1(m) && cpu(m) ? at : undefined), since: '0.10.1', message: LEGACY_MESSAGE },
  ];
}

/** The combinations DeepSpeed refuses with `managed_gradient_accumulation: false` (from 0.19.4, where the key arrives). */
function managedAccumulationChecks(): DsCheck[] {
  const off = (m: DeepSpeedModel) => m.bool(['managed_gradient_accumulation']) === false;
  const at: Path = ['managed_gradient_accumulation'];
  const offloaded = (m: DeepSpeedModel, section: string) => {
    const d = m.get([Z, section, 'device']);
    return typeof d === 'string' && d !== 'none';
  };
  const say = (what: string) => () => `\`managed_gradient_accumulation: false\` (your loop owns the accumulation boundary) does not work with ${what}: DeepSpeed stops when it sets the engine up. Keep \`managed_gradient_accumulation\` true (the default), or turn the other setting off.`;
  return [
    { when: (m) => (off(m) && m.stage !== undefined && m.stage < 2 && m.bool([Z, 'overlap_comm']) === true ? at : undefined), since: '0.19.4', message: say('`overlap_comm` at ZeRO stage 0 or 1 ("supports ZeRO overlap_comm only with ZeRO stage 2"; stages 2 and 3 take it)') },
    { when: (m) => (off(m) && m.bool(['compile', 'deepcompile']) === true ? at : undefined), since: '0.19.4', message: say('DeepCompile (`compile.deepcompile`)') },
    { when: (m) => (off(m) && m.bool(['amp', 'enabled']) === true ? at : undefined), since: '0.19.4', message: say('Apex AMP (`amp.enabled`)') },
    { when: (m) => (off(m) && (offloaded(m, 'offload_optimizer') || offloaded(m, 'offload_param')) ? at : undefined), since: '0.19.4', before: '0.19.5', message: say('ZeRO offload in DeepSpeed 0.19.4 (0.19.5 lifts this)') },
  ];
}

/**
 * What the ZeRO-3 optimizer refuses beside AutoEP's expert layers (runtime/engine.py@v0.19.3:1771-1785,
 * master:1896-1910, `_validate_zero3_moe_compatibility`, run when the model has MoE layers, which
 * AutoEP builds from the model's own): AutoTP, quantized gradients, MiCS, hpZ. AutoTP with stage 3 is
 * refused for any model before 0.19.4 (the check above). Sequence parallelism comes from the program.
 */
function autoEpStage3Checks(): DsCheck[] {
  const on = (m: DeepSpeedModel) => m.bool(['expert_parallel', 'enabled']) === true && m.stage === 3;
  const say = (what: string, quote: string) => () => `AutoEP (\`expert_parallel.enabled\`) with ZeRO stage 3 does not work with ${what}: DeepSpeed stops when it builds the ZeRO-3 optimizer ("AutoEP with ZeRO Stage 3 does not support ${quote}"). Remove it, or use ZeRO stage 1 or 2 with AutoEP.`;
  const num = (m: DeepSpeedModel, k: string) => m.num([Z, k]);
  return [
    { when: (m) => (on(m) && (m.num(['tensor_parallel', 'autotp_size']) ?? 0) > 1 ? ['tensor_parallel', 'autotp_size'] : undefined), since: '0.19.4', message: say('AutoTP (`tensor_parallel.autotp_size` above 1)', 'AutoTP yet') },
    { when: (m) => (on(m) && m.bool([Z, 'zero_quantized_gradients']) === true ? [Z, 'zero_quantized_gradients'] : undefined), since: '0.19.3', message: say('ZeRO++ quantized gradients (`zero_quantized_gradients`)', 'zero_quantized_gradients or LoCo quantized gradients yet') },
    { when: (m) => (on(m) && (num(m, 'mics_shard_size') ?? 0) > 0 ? [Z, 'mics_shard_size'] : undefined), since: '0.19.3', message: say('MiCS (`mics_shard_size`)', 'MiCS yet') },
    { when: (m) => (on(m) && (num(m, 'zero_hpz_partition_size') ?? 1) > 1 ? [Z, 'zero_hpz_partition_size'] : undefined), since: '0.19.3', message: say('hpZ (`zero_hpz_partition_size` above 1)', 'hpZeRO secondary tensor groups yet') },
  ];
}

/**
 * AutoEP with AutoTP above 1 folds the expert groups onto the tensor-parallel ones; DeepSpeed checks
 * the fold before it creates any process group (module_inject/auto_ep_folding.py@v0.19.3:199-255,
 * validate_folding_global, called from runtime/engine.py@v0.19.3:580 only with AutoEP on).
 */
function foldingChecks(): DsCheck[] {
  const folded = (m: DeepSpeedModel) => m.bool(['expert_parallel', 'enabled']) === true && (m.num(['tensor_parallel', 'autotp_size']) ?? 0) > 1;
  const say = (what: string, quote: string, todo: string) => () => `AutoEP with AutoTP (\`tensor_parallel.autotp_size\` above 1) does not work with ${what}: DeepSpeed stops before it creates the process groups ("${quote}"). ${todo}`;
  const text = (m: DeepSpeedModel, p: Path) => (typeof m.get(p) === 'string' ? String(m.get(p)) : undefined);
  return [
    { when: (m) => (folded(m) && m.bool(['compile', 'deepcompile']) === true ? ['compile', 'deepcompile'] : undefined), since: '0.19.3', message: say('DeepCompile (`compile.deepcompile`)', 'DeepCompile with AutoEP+AutoTP folding is not supported', 'Turn DeepCompile off, or AutoTP.') },
    { when: (m) => (folded(m) && (m.num(['sequence_parallel_size']) ?? 1) > 1 ? ['sequence_parallel_size'] : undefined), since: '0.19.3', message: say('Ulysses sequence parallelism (`sequence_parallel_size` above 1)', 'tensor_parallel.autotp_size and Ulysses sequence parallelism are mutually exclusive', 'Use one of the two.') },
    { when: (m) => (folded(m) && m.num(['expert_parallel', 'autoep_size']) === 1 ? ['expert_parallel', 'autoep_size'] : undefined), since: '0.19.3', message: say('`autoep_size` 1', 'AutoEP+AutoTP folding requires expert_parallel.autoep_size > 1', 'Set `autoep_size` above 1, or turn AutoEP off.') },
    // The engine's attribute `use_data_before_expert_parallel_` holds the file's `use_data_before_expert_parallelism` (runtime/config.py@v0.19.3 get_expert_data_topo_config).
    { when: (m) => (folded(m) && m.bool(['use_data_before_expert_parallelism']) === true ? ['use_data_before_expert_parallelism'] : undefined), since: '0.19.3', message: say('`use_data_before_expert_parallelism`', 'expert_parallel with use_data_before_expert_parallel_ is not supported with', 'Remove it, or set it to false.') },
    {
      // The engine passes whether the offload section exists (its pydantic object is not None), whatever its device.
      when: (m) => (folded(m) ? ([[Z, 'offload_optimizer'], [Z, 'offload_param']] as Path[]).find((p) => m.get(p) !== undefined && m.get(p) !== null) : undefined),
      since: '0.19.3',
      message: say('ZeRO offload (`offload_optimizer` or `offload_param`, whatever its device)', 'ZeRO optimizer/parameter offload with AutoEP+AutoTP folding is not validated yet', 'Remove the offload section.'),
    },
    {
      when: (m) => {
        const tp = text(m, ['tensor_parallel', 'preset_model']);
        const ep = text(m, ['expert_parallel', 'preset_model']);
        // Checked whenever AutoEP is on, with or without AutoTP.
        return m.bool(['expert_parallel', 'enabled']) === true && tp !== undefined && ep !== undefined && tp !== ep ? ['expert_parallel', 'preset_model'] : undefined;
      },
      since: '0.19.3',
      message: () => 'AutoEP with a `preset_model` other than the one `tensor_parallel` names: DeepSpeed stops before it creates the process groups ("tensor_parallel.preset_model and expert_parallel.preset_model must match when both are set"). Give both sections the same preset.',
    },
  ];
}

/**
 * ZenFlow's pairing of its selection strategy and interval, checked when the engine sets ZenFlow up
 * for any config with the section (runtime/zenflow/engine.py@v0.17.5:36-46, called from
 * runtime/engine.py@v0.19.5:409); both default to "auto".
 */
function zenflowChecks(): DsCheck[] {
  const ZF: Path = [Z, 'zenflow'];
  const on = (m: DeepSpeedModel) => typeof m.get(ZF) === 'object' && m.get(ZF) !== null;
  const strategy = (m: DeepSpeedModel) => String(m.get([...ZF, 'select_strategy']) ?? 'auto');
  const interval = (m: DeepSpeedModel) => m.get([...ZF, 'select_interval']) ?? 'auto';
  return [
    {
      when: (m) => (on(m) && strategy(m) === 'auto' && typeof interval(m) === 'number' ? [...ZF, 'select_interval'] : undefined),
      since: '0.17.5',
      message: () => 'ZenFlow with `select_strategy` "auto" (the default) and a numeric `select_interval`: DeepSpeed stops when it sets ZenFlow up ("If use auto select strategy, select_interval will be set to 1 … would be overwritten", raised as an exception). Set `select_strategy` to "step" or "epoch", or remove `select_interval`.',
    },
    {
      when: (m) => (on(m) && (strategy(m) === 'step' || strategy(m) === 'epoch') && interval(m) === 'auto' ? [...ZF, 'select_strategy'] : undefined),
      since: '0.17.5',
      message: (m) => `ZenFlow with \`select_strategy\` "${strategy(m)}" and no numeric \`select_interval\`: DeepSpeed stops when it sets ZenFlow up ("If don't use auto select strategy, select_interval must be a number."). Give \`select_interval\` a number of ${strategy(m) === 'step' ? 'steps' : 'epochs'}.`,
    },
    {
      // runtime/zenflow/engine.py@v0.17.5:62-63: a "step" interval is compared as written (an
      // "epoch" one is multiplied by the dataloader's length, which the file does not give).
      when: (m) => {
        const sel = m.get([...ZF, 'select_interval']);
        const upd = m.get([...ZF, 'update_interval']);
        return on(m) && strategy(m) === 'step' && Number.isInteger(sel) && Number.isInteger(upd) && sel !== 0 && (sel as number) < (upd as number) ? [...ZF, 'select_interval'] : undefined;
      },
      since: '0.17.5',
      message: (m) => `ZenFlow's \`select_interval\` ${String(m.get([...ZF, 'select_interval']))} is below its \`update_interval\` ${String(m.get([...ZF, 'update_interval']))}: DeepSpeed stops when it sets ZenFlow up ("Select interval must be greater or equal to update interval"). Raise \`select_interval\` to at least \`update_interval\`.`,
    },
    ...zenflowOptimizerChecks(on),
  ];
}

/**
 * What the ZenFlow optimizers check when they are built: at stage 1 and 2 (ZenFlowZeroOptimizer,
 * runtime/zenflow/zenflow_stage_1_and_2.py@v0.17.5:98-99,121-122, @v0.19.5:69-70,92-93) the optimizer
 * must be offloaded (any device but "none" sets `cpu_offload` in stage_1_and_2.py) and `offload: true`
 * needs overlap_comm (default false below stage 3); at stage 3 (runtime/zenflow/engine_stage3.py@v0.18.1:101, @v0.18.4:100-101)
 * only the latter, where overlap_comm defaults to true. Stage 1 with bf16 and fp32 gradient
 * accumulation and no CPU offload gets the BF16 optimizer instead (see bf16Stage1).
 */
function zenflowOptimizerChecks(on: (m: DeepSpeedModel) => boolean): DsCheck[] {
  const ZF: Path = [Z, 'zenflow'];
  const low = (m: DeepSpeedModel) => m.stage === 1 || m.stage === 2;
  const device = (m: DeepSpeedModel) => {
    const section = m.get([Z, 'offload_optimizer']);
    if (section === undefined || section === null) return 'none';
    const d = m.get([Z, 'offload_optimizer', 'device']);
    return d === undefined ? 'none' : d;
  };
  const overlap = (m: DeepSpeedModel) => m.get([Z, 'overlap_comm']);
  const at = (m: DeepSpeedModel): Path => (m.get([Z, 'offload_optimizer']) !== undefined ? [Z, 'offload_optimizer'] : ZF);
  return [
    {
      when: (m) => (on(m) && low(m) && device(m) === 'none' && !bf16Stage1(m) ? at(m) : undefined),
      since: '0.17.5',
      message: (m) => `ZenFlow at ZeRO stage ${m.stage} needs the optimizer offloaded: DeepSpeed stops when it builds the ZenFlow optimizer ("Zenflow must be used with cpu offload"). Add \`"offload_optimizer": {"device": "cpu"}\`, or remove the \`zenflow\` section.`,
    },
    {
      when: (m) => (on(m) && low(m) && m.bool([...ZF, 'offload']) === true && (overlap(m) === undefined || overlap(m) === false) && !bf16Stage1(m) ? [...ZF, 'offload'] : undefined),
      since: '0.17.5',
      message: (m) => `ZenFlow's \`offload: true\` needs \`overlap_comm\`, which is ${overlap(m) === false ? 'off' : 'off by default'} at ZeRO stage ${m.stage}: DeepSpeed stops when it builds the ZenFlow optimizer ("offload selective optimizer should be used with overlap_comm"). Set \`"overlap_comm": true\`, or turn \`offload\` off.`,
    },
    {
      when: (m) => (on(m) && m.stage === 3 && m.bool([...ZF, 'offload']) === true && overlap(m) === false && !((m.num([Z, 'mics_shard_size']) ?? -1) > 0) ? [...ZF, 'offload'] : undefined),
      since: '0.18.1',
      message: () => 'ZenFlow\'s `offload: true` needs `overlap_comm`, which this file turns off: DeepSpeed (0.18.1 and later) stops when it builds the ZeRO-3 optimizer ("offload selective optimizer should be used with overlap_comm"). Remove `"overlap_comm": false`, or turn `offload` off.',
    },
  ];
}

/**
 * The legacy switch whose presence in `zero_optimization` (any value) makes the key-by-key releases
 * read it instead of the offload section (zero/config.py@v0.5.7:131-149, @v0.6.7:130-148).
 */
const LEGACY_SWITCH = { offload_optimizer: 'cpu_offload', offload_param: 'cpu_offload_params' } as const;

/**
 * An offload section written without `device` (or with `device: null`) at a release whose default
 * device is None while its reader checks the device (`x-default-before`, `x-value-checked-since`):
 * DeepSpeed 0.5.7 to 0.6.7 default it to None (zero/offload_constants.py@v0.5.7:28,56, @v0.6.7:28,56)
 * and assert it is a device they know whenever the section is read, at any ZeRO stage
 * (zero/offload_config.py@v0.5.7:44,62, @v0.6.7:44,62). Before 0.5.7 the default is "cpu", from
 * 0.7.0 the model's "none" (zero/offload_config.py@v0.7.0:19,28), so the same file runs there; an
 * explicit null from 0.7.0 is invalid-value's (`x-null-effect`).
 */
function offloadWithoutDevice(ctx: RuleContext<DeepSpeedModel>): void {
  const m = ctx.model;
  for (const section of ['offload_optimizer', 'offload_param'] as const) {
    ctx.separately(() => {
      const base: Path = [Z, section];
      const node = m.doc.node(base);
      if (node?.kind !== 'map' || m.doc.node([Z, LEGACY_SWITCH[section]]) !== undefined) return;
      const device = m.doc.node([...base, 'device']);
      if (device !== undefined && !(device.kind === 'scalar' && device.value === null)) return;
      const ranges = noneDefaultRefused(ctx.nav?.at([...base, 'device'], ctx.doc.value([]), ctx.schemaVersion));
      const hit = ranges.find((r) => ctx.atLeast(r.since) && !ctx.atLeast(r.before));
      if (!hit) return;
      const what = section === 'offload_optimizer' ? 'optimizer' : 'parameter';
      const release = ctx.versionLabel ?? `${hit.since} and later before ${hit.before}`;
      const set = (value: string) => ({ op: 'set' as const, path: [...base, 'device'], value });
      ctx.report({
        at: device ? [...base, 'device'] : base,
        on: device ? 'value' : 'key',
        message: `\`${section}\` ${device ? 'has a null `device`' : 'has no `device`'}: DeepSpeed ${release} takes the device as None and stops when it reads the config ("Invalid ${what} offloading device specified: None"), at any ZeRO stage. Write \`"device": "cpu"\` to offload (what releases before ${hit.since} did with this section), or \`"device": "none"\` not to (what ${hit.before} and later do).`,
        fixes: [
          { kind: 'offload-device-cpu', title: 'Set `"device": "cpu"`', edits: [set('cpu')], recommended: true },
          { kind: 'offload-device-none', title: 'Set `"device": "none"`', edits: [set('none')] },
        ],
      });
    });
  }
}

const CHECKS: DsCheck[] = [
  {
    when: (m) => {
      const tp = m.num(['tensor_parallel', 'autotp_size']);
      return tp !== undefined && tp > 1 && m.stage === 3 ? ['tensor_parallel', 'autotp_size'] : undefined;
    },
    before: '0.19.4',
    message: (m) => `AutoTP (\`autotp_size\` ${m.num(['tensor_parallel', 'autotp_size'])}) with ZeRO stage 3: DeepSpeed 0.16.4–0.19.3 stops when it sets up tensor parallelism ("the compatibility between 'autotp' and 'zero_stage = 3' has not been validated"). Use DeepSpeed 0.19.4 or later, or ZeRO stage 2.`,
  },
  {
    when: (m) => (m.bool(['expert_parallel', 'enabled']) === true && m.stage === 3 ? ['expert_parallel', 'enabled'] : undefined),
    // engine.py@v0.19.2:1594-1597,2121: AutoEP's layers count as MoE layers, and the ZeRO-3 branch
    // asserts there are none; 0.19.3 lets AutoEP through (the section arrives in 0.19.2).
    since: '0.19.2',
    before: '0.19.3',
    message: () => 'AutoEP (`expert_parallel.enabled`) with ZeRO stage 3: DeepSpeed 0.19.2 takes the layers AutoEP builds for MoE layers and stops when it builds the ZeRO-3 optimizer ("MoE not supported with Stage 3"). Use DeepSpeed 0.19.3 or later, or ZeRO stage 1 or 2.',
  },
  ...autoEpStage3Checks(),
  ...foldingChecks(),
  ...zenflowChecks(),
  {
    // runtime/engine.py@v0.3.3:664, @v0.5.7:1313-1315 (_configure_zero_optimizer); 0.5.8 no longer reads the key.
    when: (m) => (m.bool(['fp32_allreduce']) === true && m.stage !== undefined && m.stage >= 1 ? ['fp32_allreduce'] : undefined),
    since: '0.3.3',
    before: '0.5.8',
    message: () => '`fp32_allreduce: true` with ZeRO: DeepSpeed 0.3.3 to 0.5.7 stop when they build the ZeRO optimizer ("ZeRO does not support \'fp32_allreduce\': true"). Remove it, or use ZeRO stage 0.',
  },
  {
    when: (m) => {
      const etp = m.num(['expert_parallel', 'expert_tensor_parallel_size']);
      return m.bool(['expert_parallel', 'enabled']) === true && etp !== undefined && etp > 1 ? ['expert_parallel', 'expert_tensor_parallel_size'] : undefined;
    },
    // module_inject/auto_ep_folding.py@v0.19.3:214-217: the key arrives with AutoEP and anything but 1 is refused.
    // A value below 1 is refused earlier, by build_folding_spec (auto_ep_folding.py@v0.19.3:76-78, :95-98): invalid-value reports it.
    since: '0.19.3',
    message: (m) => `AutoEP with \`expert_tensor_parallel_size\` ${m.num(['expert_parallel', 'expert_tensor_parallel_size'])}: DeepSpeed reserves expert tensor parallelism for later and stops when it sets AutoEP up ("is reserved for expert-internal tensor parallelism and is not supported yet"). Use 1 (the default).`,
  },
  {
    // validate_autoep_config, called whenever AutoEP is on (runtime/engine.py@v0.19.5:555-576):
    // both counts come from the file (module_inject/auto_ep_config.py@v0.19.2:149-151, @v0.19.5:174-176).
    when: (m) => {
      const limited = m.num(['expert_parallel', 'num_limited_groups']);
      const groups = m.num(['expert_parallel', 'num_expert_groups']);
      return m.bool(['expert_parallel', 'enabled']) === true && limited !== undefined && groups !== undefined && groups >= 1 && limited > groups ? ['expert_parallel', 'num_limited_groups'] : undefined;
    },
    since: '0.19.2',
    message: (m) => `AutoEP routes each token to \`num_limited_groups\` ${m.num(['expert_parallel', 'num_limited_groups'])} of the \`num_expert_groups\` ${m.num(['expert_parallel', 'num_expert_groups'])} expert groups, more than there are: DeepSpeed stops when it sets the experts up ("num_limited_groups (…) must be <= num_expert_groups (…)"). Lower \`num_limited_groups\`, or raise \`num_expert_groups\`.`,
  },
  {
    when: (m) => {
      const r = m.num([Z, 'offload_optimizer', 'ratio']);
      return r !== undefined && r < 1 && m.stage !== undefined && m.stage !== 3 ? [Z, 'offload_optimizer', 'ratio'] : undefined;
    },
    // zero/config.py@v0.12.3-v0.14.5: the check is a pydantic-1 root validator that looks the
    // offload section up as an attribute of the values dict, finds nothing and never asserts (stage
    // 1/2 then offload everything); from 0.15.0 it is a model validator on the built config and fires.
    since: '0.15.0',
    message: (m) => `Partial optimizer offload (\`ratio\` ${m.num([Z, 'offload_optimizer', 'ratio'])}) only exists at ZeRO stage 3: DeepSpeed stops when it reads the config ("Partial offloading only supported for ZeRO Stage 3"). Use stage 3, or remove \`ratio\` to offload everything.`,
  },
  // runtime/engine.py@v0.19.4:1650-1664, @v0.19.5:1664-1672: with managed_gradient_accumulation false
  // the engine asserts that overlap_comm runs only where gradients are partitioned (stage >= 2), that
  // neither DeepCompile nor Apex AMP is on, and in 0.19.4 alone that nothing is offloaded.
  ...managedAccumulationChecks(),
  ...bucketChecks(),
  ...legacyStage1Checks(),
  ...deepCompileChecks(),
  {
    // runtime/zero/stage3.py@v0.10.0:228-229, master:382-383: quantized gradients give the ZeRO-3
    // optimizer an all-to-all group (runtime/engine.py@v0.10.0:1099-1101), which it runs only with reduce-scatter.
    when: (m) => (m.stage === 3 && m.bool([Z, 'zero_quantized_gradients']) === true && m.bool([Z, 'reduce_scatter']) === false ? [Z, 'reduce_scatter'] : undefined),
    since: '0.10.0',
    message: () => 'ZeRO++ quantized gradients (`zero_quantized_gradients`) need reduce-scatter at ZeRO stage 3: DeepSpeed stops when it builds the ZeRO-3 optimizer ("when enable all_to_all_reduce, reduce_scatter should also be enabled"). Remove `"reduce_scatter": false`, or turn the quantized gradients off.',
  },
  {
    when: (m) => (sum(m) && m.stage === 3 ? ['gradient_allreduce_op'] : undefined),
    // runtime/config.py: the key and its checks arrive in 0.19.6 (older releases ignore the key).
    since: '0.19.6',
    message: () => '`gradient_allreduce_op: "sum"` does not work with ZeRO stage 3: DeepSpeed stops when it reads the config ("gradient_allreduce_op=\'sum\' is not supported with ZeRO stage 3"). Use `"mean"` (the default).',
  },
  {
    when: (m) => (sum(m) && m.has([Z, 'zenflow']) ? ['gradient_allreduce_op'] : undefined),
    since: '0.19.6',
    message: () => '`gradient_allreduce_op: "sum"` does not work with ZenFlow (`zero_optimization.zenflow`): DeepSpeed stops when it reads the config. Use `"mean"` (the default), or remove the `zenflow` section.',
  },
  {
    when: (m) => (sum(m) && m.bool(['compile', 'deepcompile']) === true ? ['gradient_allreduce_op'] : undefined),
    since: '0.19.6',
    message: () => '`gradient_allreduce_op: "sum"` does not work with DeepCompile (`compile.deepcompile`): DeepSpeed stops when it reads the config. Use `"mean"` (the default), or turn DeepCompile off.',
  },
  // stage_1_and_2.py: ZeRO-1/2 check pre-scaling and the pre-divide factor only when gradients are
  // averaged; from 0.19.6 `gradient_allreduce_op: "sum"` turns averaging off, and the checks with it
  // (ZeRO-3 checks them always). Before 0.19.6 the key is not read, so "sum" changes nothing.
  ...scaleChecks((m) => m.bool(['prescale_gradients']) === true, ['prescale_gradients'],
    (m) => `Pre-scaling gradients is not supported by ZeRO-${m.stage} with reduce-scatter: DeepSpeed stops when it builds the optimizer. Remove \`prescale_gradients\`, or set \`"reduce_scatter": false\` (slower).`),
  ...scaleChecks((m) => {
    const f = m.num(['gradient_predivide_factor']);
    return f !== undefined && f !== 1;
  }, ['gradient_predivide_factor'],
    (m) => `\`gradient_predivide_factor\` other than 1 is not supported by ZeRO-${m.stage} with reduce-scatter: DeepSpeed stops when it builds the optimizer. Remove it.`),
  {
    when: (m) => {
      const t = String(m.get(['optimizer', 'type']) ?? '').toLowerCase();
      return ['onebitadam', 'zerooneadam', 'onebitlamb'].includes(t) && m.stage !== undefined && m.stage >= 1 ? ['optimizer', 'type'] : undefined;
    },
    // engine.py@v0.4.1: the 1-bit optimizers' ZeRO check first appears.
    since: '0.4.1',
    message: (m) => `\`${String(m.get(['optimizer', 'type']))}\` compresses its own communication and does not work with ZeRO: DeepSpeed stops ("… is not compatible with ZeRO"). Use stage 0, or Adam/AdamW with ZeRO.`,
  },
  {
    // MiCS's hierarchical gather needs a shard that spans nodes: the groups are built with
    // span_nodes = shard size // devices per node, asserted above 1 (runtime/zero/mics_utils.py@v0.9.2:125, :193).
    when: (m, p) => {
      const shard = m.num([Z, 'mics_shard_size']);
      const perNode = p?.hardware.gpusPerNode.value;
      return m.stage === 3 && shard !== undefined && shard > 0 && m.bool([Z, 'mics_hierarchical_params_gather']) === true && perNode && Math.floor(shard / perNode) <= 1 ? [Z, 'mics_hierarchical_params_gather'] : undefined;
    },
    since: '0.9.2',
    message: (m, p) => `MiCS's hierarchical gather needs a shard spanning at least two nodes, and \`mics_shard_size: ${m.num([Z, 'mics_shard_size'])}\` covers ${Math.floor(m.num([Z, 'mics_shard_size'])! / p!.hardware.gpusPerNode.value) <= 0 ? 'part of one node' : 'one node'} of ${p!.hardware.gpusPerNode.value} GPUs: DeepSpeed stops when it builds the MiCS groups ("sharding spans on single node, no need for hierarchy allgather"). Remove \`mics_hierarchical_params_gather\`, or shard over at least ${2 * p!.hardware.gpusPerNode.value} GPUs.`,
  },
  // Apex AMP under ZeRO: asserted when the optimizer is set up at every release that reads `amp`
  // (runtime/engine.py@v0.3.0:520, @v0.7.6:1130, @v0.19.5:1941); the advice names only the modes the release has
  // (`bf16` is read from 0.6.0, engine.py@v0.6.0 bfloat16_enabled; before, fp16 alone).
  ...[{ before: '0.6.0', modes: '`fp16`' }, { since: '0.6.0', modes: '`bf16` or `fp16`' }].map(
    ({ modes, ...range }): DsCheck => ({
      ...range,
      when: (m) => (m.bool(['amp', 'enabled']) === true && m.stage !== undefined && m.stage >= 1 ? ['amp', 'enabled'] : undefined),
      message: () => `Apex AMP and ZeRO do not work together: DeepSpeed stops when it builds the optimizer ("Amp and ZeRO are not currently compatible"). Use ${modes} instead of \`amp\`.`,
    }),
  ),
];

export default defineRule<DeepSpeedModel>({
  id: 'zero-config-invalid',
  severity: 'error',
  formats: ['deepspeed'],
  fixes: {
    'offload-device-cpu': { applicability: 'unsafe', changes: 'whether the section offloads: "cpu" offloads to host memory, as DeepSpeed before 0.5.7 did with a section without `device`' },
    'offload-device-none': { applicability: 'unsafe', changes: 'whether the section offloads: "none" keeps the data on the GPU, as DeepSpeed 0.7.0 and later do with a section without `device`' },
  },
  docs: {
    summary: 'ZeRO settings DeepSpeed rejects: AutoTP with stage 3 before 0.19.4, MiCS hierarchical gather within one node, unmanaged gradient accumulation with overlap_comm below stage 2, DeepCompile or Apex AMP, AutoEP with stage 3 in 0.19.2 (and from 0.19.3 beside AutoTP, quantized gradients, MiCS or hpZ), partial offload below stage 3, an odd all-gather bucket (also the top-level `allgather_size` of the legacy `"zero_optimization": true`, which from 0.7.0 must not be negative), `legacy_stage1: true` under ZeRO from 0.5.9, quantized gradients without reduce-scatter at stage 3, sum reduction at stage 3 or with ZenFlow or DeepCompile, ZenFlow without optimizer offload at stage 1/2 or its selective-state offload without overlap_comm, DeepCompile offload passes at stage 3 that clash with each other or with ZeRO\'s optimizer offload (from 0.19.4), pre-scaling with reduce-scatter, 1-bit optimizers or Apex AMP with ZeRO, and an `offload_optimizer` or `offload_param` section without `device` at DeepSpeed 0.5.7 to 0.6.7.',
    why: 'Some of these DeepSpeed refuses while it reads the config (partial optimizer offload below stage 3, sum reduction at stage 3, with ZenFlow or with DeepCompile), the others when it builds the ZeRO optimizer, after the model is loaded (the AutoEP restrictions apply to the expert layers AutoEP builds from the model\'s MoE layers, which a model enabling AutoEP has). The DeepCompile offload clashes stop `engine.compile()` at stage 3, before it converts the engine. AutoEP with AutoTP above 1 folds the expert groups onto the tensor-parallel ones, and DeepSpeed 0.19.3 on checks the fold before it creates the process groups: no offload section (whatever its device), no DeepCompile, no Ulysses sequence parallelism, `autoep_size` above 1, and the same `preset_model` in both sections (that last one with or without AutoTP). With AutoEP on, DeepSpeed also refuses a `num_limited_groups` above `num_expert_groups` when it sets the experts up (from 0.19.2). ZenFlow (from 0.17.5) stops when its default `select_strategy` "auto" meets a numeric `select_interval`, `step`/`epoch` meets none, or a `step` interval is below `update_interval`; its stage 1/2 optimizer needs `offload_optimizer` (any device but "none"), and its `offload: true` needs `overlap_comm` (off by default below stage 3; at stage 3 checked from 0.18.1). DeepSpeed 0.5.7 to 0.6.7 read an offload section\'s missing (or null) `device` as None and assert it is a device they know, at any stage, so such a section stops them when they read the config; earlier releases offload to the CPU and 0.7.0 on keep the data on the GPU, so the same file runs there. Each message says which, and quotes the check that fires.',
    bad: '{\n  "train_micro_batch_size_per_gpu": 4,\n  "zero_optimization": {\n    "stage": 2,\n    "offload_optimizer": { "device": "cpu", "ratio": 0.5 }\n  }\n}\n',
    good: '{\n  "train_micro_batch_size_per_gpu": 4,\n  "zero_optimization": {\n    "stage": 3,\n    "offload_optimizer": { "device": "cpu", "ratio": 0.5 }\n  }\n}\n',
  },
  check(ctx) {
    runDsChecks(ctx, CHECKS);
    offloadWithoutDevice(ctx);
  },
});
