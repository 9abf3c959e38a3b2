/**
 * fsdp-config-invalid: Megatron's FSDP modes combined with settings they do not support.
 */
import { argAbsent, argGiven, argNum, argOff, argOn, argValue, argWritten, bridgeMegatronFsdpOn, MEGATRON_FORMATS, argOnByDefault, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { envLiteral, runChecks, unsetArg, type ArgCheck } from '../formats/megatron/checks';
import { defineRule, type RuleContext } from './rule';
import { untracked } from './certain';

const torchFsdp2 = (m: MegatronModel) => argOn(m, 'use_torch_fsdp2');
/*
 * `--use-torch-fsdp2` and its checks arrive together (training/arguments.py@core_v0.10.0:372-388): an
 * older release refuses the flag itself (version-unsupported-key), so the file fails at any release and
 * the checks below that take no release stay errors where the file does not say which release runs it.
 */
/** An optimizer written other than Adam and SGD (Megatron-LM's "emerging" optimizers, such as Muon). */
const emergingOptimizer = (m: MegatronModel): boolean => {
  const o = argValue(m, 'optimizer');
  return typeof o === 'string' && o !== 'adam' && o !== 'sgd';
};

/** A Muon optimizer written (`muon`, `dist_muon`): what Megatron-LM 0.16 and 0.17 test with `'muon' in args.optimizer`. */
const muonOptimizer = (m: MegatronModel): boolean => {
  const o = argValue(m, 'optimizer');
  return typeof o === 'string' && o.includes('muon');
};

/**
 * Gradient accumulation fusion is known to be on: written on, or left out where Megatron-LM's
 * default applies (on: only `--no-gradient-accumulation-fusion` turns it off).
 */
const fusionOn = (m: MegatronModel) => argOnByDefault(m, 'gradient_accumulation_fusion');

/**
 * Megatron-FSDP on in a Bridge override: `ddp.use_megatron_fsdp` or `dist.use_megatron_fsdp` written
 * true, whatever the other says (ConfigContainer.validate turns on both when either is).
 */
const bridgeMegatronFsdp = bridgeMegatronFsdpOn;
/** The file saves or loads a checkpoint: `checkpoint.save` or `checkpoint.load` written with a path. */
const savesOrLoads = (m: MegatronModel) => argWritten(m, 'save') || argWritten(m, 'load');
/** `checkpoint.ckpt_format` written as something other than fsdp_dtensor. */
const notDtensor = (m: MegatronModel) => argWritten(m, 'ckpt_format') && argValue(m, 'ckpt_format') !== 'fsdp_dtensor';
const BRIDGE_FSDP_FIX = 'Set `checkpoint.ckpt_format: fsdp_dtensor`, or save and load no checkpoint.';

/**
 * Megatron Bridge's own Megatron-FSDP checks, in ConfigContainer.validate (training/config.py): only
 * what the file writes is judged. Megatron-FSDP version 2 (Bridge after 0.6) takes another path, so
 * a file that writes `ddp.megatron_fsdp_version: 2` is left out of the version 1 checks.
 */
const fsdpV1 = (m: MegatronModel) => untracked(m.args).get('megatron_fsdp_version')?.value !== 2;
const BRIDGE_FSDP_CHECKS: ArgCheck[] = [
  {
    // @v0.1.0rc4:985-991 to @v0.4.0: "Megatron FSDP only supports fsdp_dtensor checkpoint format".
    when: (m) => (bridgeMegatronFsdp(m) && savesOrLoads(m) && notDtensor(m) ? 'ckpt_format' : undefined),
    formats: ['megatron-bridge'],
    before: '0.18.0',
    message: (m) => `Megatron-FSDP saves and loads only the \`fsdp_dtensor\` checkpoint format, and \`checkpoint.ckpt_format\` is \`${String(argValue(m, 'ckpt_format'))}\` with a checkpoint to save or load: Megatron Bridge stops when it validates the config ("Megatron FSDP only supports fsdp_dtensor checkpoint format"). ${BRIDGE_FSDP_FIX}`,
  },
  {
    // @v0.5.0 on (@067f987:1104-1109), and in the version 2 path at 067f987 ("MFSDP V2 checkpoint save and load are not yet supported").
    when: (m) => (bridgeMegatronFsdp(m) && savesOrLoads(m) && notDtensor(m) && fsdpV1(m) ? 'ckpt_format' : undefined),
    formats: ['megatron-bridge'],
    since: '0.18.0',
    message: (m) => `Megatron-FSDP saves and loads only the \`fsdp_dtensor\` checkpoint format, and \`checkpoint.ckpt_format\` is \`${String(argValue(m, 'ckpt_format'))}\` with a checkpoint to save or load: Megatron Bridge stops when it validates the config ("Megatron-FSDP requires the fsdp_dtensor checkpointing format!"). ${BRIDGE_FSDP_FIX}`,
  },
  {
    // From Bridge 0.5 (@v0.5.0, @067f987:1114-1118): manual registration only with NCCL user buffers.
    when: (m) => (bridgeMegatronFsdp(m) && fsdpV1(m) && argWritten(m, 'fsdp_manual_registration') && argOn(m, 'fsdp_manual_registration') && argWritten(m, 'nccl_ub') && !argOn(m, 'nccl_ub') ? 'fsdp_manual_registration' : undefined),
    formats: ['megatron-bridge'],
    since: '0.18.0',
    message: () => 'Megatron-FSDP\'s manual buffer registration works only with NCCL user buffers, and `ddp.nccl_ub` is off: Megatron Bridge stops when it validates the config ("DDP.fsdp_manual_registration requires DDP.nccl_ub!"). Turn `ddp.nccl_ub` on (Bridge then registers manually itself), or `ddp.fsdp_manual_registration` off.',
  },
  {
    // From Bridge 0.5 (@v0.5.0:1145-1149, @067f987:1119-1123), in the version 1 path.
    when: (m) => (bridgeMegatronFsdp(m) && fsdpV1(m) && argWritten(m, 'data_parallel_sharding_strategy') && fullSharding(m) && argWritten(m, 'check_weight_hash_across_dp_replicas_interval') ? 'check_weight_hash_across_dp_replicas_interval' : undefined),
    formats: ['megatron-bridge'],
    since: '0.18.0',
    message: () => 'Megatron-FSDP\'s `optim_grads_params` sharding gives each DP rank a different shard of the weights, so there is no replica to compare: Megatron Bridge stops when it validates the config ("TrainingConfig.check_weight_hash_across_dp_replicas_interval is not supported with the Megatron-FSDP optim_grads_params sharding strategy"). Remove `train.check_weight_hash_across_dp_replicas_interval`.',
  },
  {
    // @v0.1.0rc4:1001-1006 to @067f987:1528-1533: a run that saves or loads `fsdp_dtensor` checkpoints
    // needs Megatron-FSDP and not FSDP2 (both at once are refused on their own, below).
    when: (m) => (argWritten(m, 'use_torch_fsdp2') && argOn(m, 'use_torch_fsdp2') && !bridgeMegatronFsdp(m) && savesOrLoads(m) && argWritten(m, 'ckpt_format') && argValue(m, 'ckpt_format') === 'fsdp_dtensor' ? 'ckpt_format' : undefined),
    formats: ['megatron-bridge'],
    message: () => 'The `fsdp_dtensor` checkpoint format is Megatron-FSDP\'s, and this run uses PyTorch FSDP2 (`dist.use_torch_fsdp2`) with a checkpoint to save or load: Megatron Bridge stops when it validates the config ("fsdp_dtensor checkpoint format only supports Megatron FSDP"). Use `checkpoint.ckpt_format: torch_dist`.',
  },
  {
    // @v0.2.0:1243 on (@067f987:1124, and the version 2 path at :1159-1160).
    when: (m) => (bridgeMegatronFsdp(m) && argWritten(m, 'use_tp_pp_dp_mapping') && argOn(m, 'use_tp_pp_dp_mapping') ? 'use_tp_pp_dp_mapping' : undefined),
    formats: ['megatron-bridge'],
    since: '0.15.0',
    message: () => 'Megatron-FSDP does not support the TP-PP-DP rank order: Megatron Bridge stops when it validates the config ("use_tp_pp_dp_mapping is not supported with Megatron FSDP"). Set `dist.use_tp_pp_dp_mapping: false`.',
  },
];

const megatronFsdp = (m: MegatronModel) => argOn(m, 'use_megatron_fsdp');
/**
 * Megatron-FSDP on as a release before 0.14 reads it: there only `--use-custom-fsdp` turns it on
 * (runChecks reads that older name in today's place); `--use-megatron-fsdp` is no flag of those
 * releases, which refuse it in argparse (version-unsupported-key says so), before any of these checks.
 */
const customFsdp = (m: MegatronModel) => {
  const path = untracked(m.args).get('use_megatron_fsdp')?.path ?? [];
  return megatronFsdp(m) && !/use[-_]megatron[-_]fsdp$/.test(String(path[path.length - 1] ?? ''));
};

/** The sharding strategy is written `optim_grads_params` (the default from 0.18, checked on its own). */
const fullSharding = (m: MegatronModel) => argValue(m, 'data_parallel_sharding_strategy') === 'optim_grads_params';

/**
 * Megatron-LM's validate_args under `--use-megatron-fsdp` (arguments.py@core_v0.14.0:619-638,
 * @core_v0.18.0:1107-1159, @d98e8a6:1118-1191): the checkpoint format, the weight-hash
 * check under full sharding, meta-device initialisation without sharding, single grouped MoE
 * parameters, and manual buffer registration.
 */
const MEGATRON_FSDP_CHECKS: ArgCheck[] = [
  {
    // arguments.py@core_v0.12.0:554-556, @core_v0.13.0:646-648; from 0.14 a warning, and from 0.18
    // Megatron-LM turns the distributed optimizer on itself.
    when: (m) => (customFsdp(m) && argOff(m, 'use_distributed_optimizer') ? 'use_megatron_fsdp' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.12.0',
    before: '0.14.0',
    message: () => '`--use-custom-fsdp` without `--use-distributed-optimizer`: Megatron-FSDP before Megatron Core 0.14 runs only with the distributed optimizer, and Megatron-LM stops at startup ("--use-custom-fsdp only supported with distributed optimizer"). Add `--use-distributed-optimizer`.',
  },
  {
    // arguments.py@core_v0.12.0:558-561, @core_v0.13.0:650-653; a warning from 0.14.
    when: (m) => {
      const s = argValue(m, 'data_parallel_sharding_strategy');
      if (!customFsdp(m) || (s !== 'optim_grads' && s !== 'optim_grads_params') || !fusionOn(m)) return undefined;
      return argAbsent(m, 'gradient_accumulation_fusion') ? 'data_parallel_sharding_strategy' : 'gradient_accumulation_fusion';
    },
    formats: MLM_FLAG_FORMATS,
    since: '0.12.0',
    before: '0.14.0',
    message: (m) => `\`--data-parallel-sharding-strategy ${String(argValue(m, 'data_parallel_sharding_strategy'))}\` under \`--use-custom-fsdp\` with gradient accumulation fusion${argAbsent(m, 'gradient_accumulation_fusion') ? ' (on by default)' : ''}: before Megatron Core 0.14 Megatron-LM stops at startup ("optim_grads_params optim_grads are not supported with gradient accumulation fusion"). Add \`--no-gradient-accumulation-fusion\`, or shard less (\`optim\`, \`no_shard\`).`,
  },
  {
    when: (m) => {
      if (!megatronFsdp(m)) return undefined;
      const format = argAbsent(m, 'ckpt_format') ? 'torch_dist' : argValue(m, 'ckpt_format');
      return typeof format === 'string' && format !== 'fsdp_dtensor' ? (argAbsent(m, 'ckpt_format') ? 'use_megatron_fsdp' : 'ckpt_format') : undefined;
    },
    formats: MLM_FLAG_FORMATS,
    since: '0.14.0',
    message: (m) => `Megatron-FSDP with ${argAbsent(m, 'ckpt_format') ? 'the default checkpoint format `torch_dist`' : `\`--ckpt-format ${argValue(m, 'ckpt_format')}\``}: it saves only DTensor checkpoints, and Megatron stops ("Megatron-FSDP requires the \`fsdp_dtensor\` checkpointing format."; before Megatron Core 0.18 "Megatron FSDP only supports fsdp_dtensor checkpoint format"). Add \`--ckpt-format fsdp_dtensor\`.`,
  },
  ...[
    // The same assert under `--use-custom-fsdp` (Megatron-FSDP's name before 0.14: @core_v0.12.0:566-568),
    // then under `--use-megatron-fsdp` (@core_v0.14.0:631-633, @d98e8a6:1163-1165).
    { since: '0.12.0', before: '0.14.0', on: customFsdp },
    { since: '0.14.0', on: megatronFsdp },
  ].map((r): ArgCheck => ({
    when: (m) => (r.on(m) && fullSharding(m) && argGiven(m, 'check_weight_hash_across_dp_replicas_interval') ? 'check_weight_hash_across_dp_replicas_interval' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: r.since,
    ...(r.before ? { before: r.before } : {}),
    message: () => '`--check-weight-hash-across-dp-replicas-interval` with Megatron-FSDP\'s `optim_grads_params` sharding: each DP rank holds a different shard of the weights, so there is no replica to compare, and Megatron stops ("check_weight_hash_across_dp_replicas_interval is not supported with optim_grads_params"). Drop the interval.',
  })),
  {
    when: (m) => (megatronFsdp(m) && argAbsent(m, 'data_parallel_sharding_strategy') && argGiven(m, 'check_weight_hash_across_dp_replicas_interval') ? 'check_weight_hash_across_dp_replicas_interval' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.18.0',
    message: () => '`--check-weight-hash-across-dp-replicas-interval` with Megatron-FSDP\'s default sharding (`optim_grads_params` from Megatron Core 0.18): each DP rank holds a different shard of the weights, so there is no replica to compare, and Megatron stops ("check_weight_hash_across_dp_replicas_interval is not supported with optim_grads_params"). Drop the interval.',
  },
  {
    when: (m) => (megatronFsdp(m) && argOn(m, 'init_model_with_meta_device') && argValue(m, 'data_parallel_sharding_strategy') === 'no_shard' ? 'init_model_with_meta_device' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.18.0',
    message: () => '`--init-model-with-meta-device` with Megatron-FSDP\'s `no_shard` strategy: every rank holds the whole model, so there is nothing to initialise lazily, and Megatron stops ("Meta device initialization (init_model_with_meta_device=True) is not supported or necessary for the \'no_shard\' / 0 sharding strategy."). Drop `--init-model-with-meta-device`, or shard (`--data-parallel-sharding-strategy optim_grads_params`).',
  },
  {
    // training.py@core_v0.12.0:938-942,970: the model is built under torch.device('meta') and the
    // `.cuda()` move skipped; only Megatron-FSDP materialises it, so DDP copies from meta tensors
    // (param_and_grad_buffer.py@core_v0.12.0:622-655) or the forward pass meets them.
    when: (m) => (argOn(m, 'init_model_with_meta_device') && argOff(m, 'use_megatron_fsdp') && argOff(m, 'use_torch_fsdp2') ? 'init_model_with_meta_device' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.12.0',
    before: '0.15.0',
    message: () => '`--init-model-with-meta-device` without Megatron-FSDP (`--use-custom-fsdp` before Megatron Core 0.14, then `--use-megatron-fsdp`): the model is built on the meta device and, before 0.15, only Megatron-FSDP gives it memory, so the run fails when DDP copies the weights into its buffers ("Cannot copy out of meta tensor") or at the first forward pass. Drop the flag, or use Megatron-FSDP.',
  },
  {
    // training.py@core_v0.15.0:929-931: outside Megatron-FSDP and FSDP2 the meta model is given
    // memory with torch.empty_like (utils.py@core_v0.15.0:630-649), and nothing initialises it.
    when: (m) => (argOn(m, 'init_model_with_meta_device') && argOff(m, 'use_megatron_fsdp') && argOff(m, 'use_torch_fsdp2') && argAbsent(m, 'load') && argAbsent(m, 'pretrained_checkpoint') ? 'init_model_with_meta_device' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.15.0',
    severity: 'warning',
    message: () => '`--init-model-with-meta-device` without Megatron-FSDP or FSDP2, and no `--load` or `--pretrained-checkpoint`: from Megatron Core 0.15 Megatron-LM gives the meta-device model uninitialised GPU memory (`torch.empty_like`) and nothing initialises it, so training starts from whatever the memory held. Load weights from a checkpoint, use Megatron-FSDP (which initialises the shards), or drop the flag.',
  },
  {
    when: (m) => (megatronFsdp(m) ? ['moe_single_grouped_weight', 'moe_single_grouped_bias'].find((d) => argOn(m, d)) : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.19.0',
    message: () => 'Single grouped MoE parameters (`--moe-single-grouped-weight`, `--moe-single-grouped-bias`) with Megatron-FSDP: it cannot remap their grouped storage yet, and Megatron stops ("Megatron-FSDP does not currently support moe_single_grouped_weight or moe_single_grouped_bias"). Drop them, or use the distributed optimizer without Megatron-FSDP.',
  },
  {
    when: (m) => (argOn(m, 'fsdp_manual_registration') && argOff(m, 'use_megatron_fsdp') ? 'fsdp_manual_registration' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
    message: () => '`--fsdp-manual-registration` without `--use-megatron-fsdp`: it registers Megatron-FSDP\'s buffers, and Megatron stops ("FSDP manual registration is only supported with Megatron FSDP."). Drop it, or use Megatron-FSDP.',
  },
  {
    when: (m) => (argOn(m, 'fsdp_manual_registration') && argOff(m, 'nccl_ub') ? 'fsdp_manual_registration' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
    message: () => '`--fsdp-manual-registration` without `--use-nccl-ub`: it registers the buffers with NCCL user buffers, and Megatron stops ("FSDP manual registration is only supported with --nccl-ub argument."; before Megatron Core 0.18 "… with nccl-ub option"). Add `--use-nccl-ub` (which, from 0.18, turns the registration on by itself under Megatron-FSDP), or drop the flag.',
  },
];

/** Megatron-FSDP version 2, the DP-only rewrite (Megatron Core 0.20). */
const fsdpV2 = (m: MegatronModel) => argOn(m, 'use_megatron_fsdp') && argNum(m, 'megatron_fsdp_version') === 2;
const V2_STOPS = 'Megatron Core stops when it wraps the model in Megatron-FSDP';

/** A switch Megatron-FSDP version 2 refuses, reported where it is written. */
function v2Refuses(dest: string, flag: string, quote: string, what: string): ArgCheck {
  return {
    when: (m) => (fsdpV2(m) && argOn(m, dest) ? dest : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.20.0',
    message: () => `Megatron-FSDP version 2 does not support ${what}: ${V2_STOPS} ("${quote}"). Remove \`${flag}\`, or use Megatron-FSDP version 1.`,
  };
}

/**
 * Megatron-FSDP version 2's own checks when it wraps the model
 * (megatron/core/distributed/fsdp/mcore_fsdp_adapter.py@d98e8a6:633-703, `_validate_config`; new in 0.20).
 * Made for Megatron-LM's formats only: Megatron Bridge rewrites several of these fields for version 2
 * (it turns gradient accumulation fusion off and sets the sharding strategy) and makes checks of its own.
 */
const V2_CHECKS: ArgCheck[] = [
  {
    when: (m, p) => (fsdpV2(m) && ((p?.tp.value ?? 1) > 1 || (p?.pp.value ?? 1) > 1 || (p?.cp.value ?? 1) > 1) ? 'megatron_fsdp_version' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.20.0',
    message: (_m, p) => `Megatron-FSDP version 2 is data-parallel only, and this job has TP ${p?.tp.value ?? 1}, PP ${p?.pp.value ?? 1}, CP ${p?.cp.value ?? 1}: ${V2_STOPS} ("MFSDP v2 does not currently support: tensor_model_parallel_size=…"). Use TP, PP and CP 1, or Megatron-FSDP version 1.`,
  },
  {
    when: (m) => {
      const s = argValue(m, 'data_parallel_sharding_strategy');
      return fsdpV2(m) && typeof s === 'string' && s !== 'optim_grads_params' ? 'data_parallel_sharding_strategy' : undefined;
    },
    formats: MLM_FLAG_FORMATS,
    since: '0.20.0',
    message: (m) => `Megatron-FSDP version 2 shards optimizer state, gradients and parameters, and \`--data-parallel-sharding-strategy ${String(argValue(m, 'data_parallel_sharding_strategy'))}\` asks for less: ${V2_STOPS} ("MFSDP v2 requires data_parallel_sharding_strategy='optim_grads_params'"). Use \`optim_grads_params\` (the default), or Megatron-FSDP version 1.`,
  },
  {
    when: (m) => {
      const s = argValue(m, 'outer_dp_sharding_strategy');
      return fsdpV2(m) && typeof s === 'string' && s !== 'no_shard' ? 'outer_dp_sharding_strategy' : undefined;
    },
    formats: MLM_FLAG_FORMATS,
    since: '0.20.0',
    message: () => `Megatron-FSDP version 2 has no outer (hybrid) sharding: ${V2_STOPS} ("MFSDP v2 does not currently support outer DP sharding"). Remove \`--outer-dp-sharding-strategy\`, or use Megatron-FSDP version 1.`,
  },
  {
    when: (m) => (fsdpV2(m) && fusionOn(m) ? (argAbsent(m, 'gradient_accumulation_fusion') ? 'megatron_fsdp_version' : 'gradient_accumulation_fusion') : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.20.0',
    message: (m) => `Megatron-FSDP version 2 does not support gradient accumulation fusion${argAbsent(m, 'gradient_accumulation_fusion') ? ' (on by default)' : ''}: ${V2_STOPS} ("MFSDP v2 does not currently support gradient accumulation fusion"). Add \`--no-gradient-accumulation-fusion\`.`,
  },
  v2Refuses('calculate_per_token_loss', '--calculate-per-token-loss', 'MFSDP v2 does not currently support per-token loss normalization', 'per-token loss normalization'),
  {
    when: (m) => {
      if (!fsdpV2(m)) return undefined;
      if (argValue(m, 'fp8')) return 'fp8';
      if (argValue(m, 'fp4')) return 'fp4';
      return argOn(m, 'fp8_param_gather') ? 'fp8_param_gather' : argOn(m, 'fp4_param_gather') ? 'fp4_param_gather' : undefined;
    },
    formats: MLM_FLAG_FORMATS,
    since: '0.20.0',
    message: () => `Megatron-FSDP version 2 does not support FP8 or FP4 training: ${V2_STOPS} ("MFSDP v2 does not currently support FP8 or FP4"). Train in BF16, or use Megatron-FSDP version 1.`,
  },
  {
    when: (m) => {
      if (!fsdpV2(m)) return undefined;
      const impl = argValue(m, 'cuda_graph_impl');
      if (typeof impl === 'string' && impl !== 'none') return 'cuda_graph_impl';
      return argOn(m, 'enable_cuda_graph') ? 'enable_cuda_graph' : argOn(m, 'external_cuda_graph') ? 'external_cuda_graph' : undefined;
    },
    formats: MLM_FLAG_FORMATS,
    since: '0.20.0',
    message: () => `Megatron-FSDP version 2 does not support CUDA graphs: ${V2_STOPS} ("MFSDP v2 does not currently support CUDA graphs"). Remove the CUDA graph setting, or use Megatron-FSDP version 1.`,
  },
  v2Refuses('fsdp_db_use_persist_buf_on_alloc_fail', '--fsdp-db-use-persist-buf-on-alloc-fail', 'MFSDP v2 does not support fsdp_db_use_persist_buf_on_alloc_fail', 'a persistent double buffer on allocation failure (it takes its buffers from PyTorch memory pools)'),
  {
    // Megatron-LM turns manual registration on with `--use-nccl-ub` under Megatron-FSDP
    // (arguments.py@d98e8a6:1172-1175); with symmetric registration disabled the earlier check speaks.
    when: (m) => (fsdpV2(m) && argOn(m, 'nccl_ub') ? 'nccl_ub' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.20.0',
    message: (m) => argOn(m, 'disable_symmetric_registration')
      ? `Megatron-FSDP version 2 needs symmetric registration for NCCL user buffers, and \`--disable-symmetric-registration\` turns it off: ${V2_STOPS} ("MFSDP v2 requires symmetric registration when nccl_ub is enabled"). Remove \`--use-nccl-ub\`, or use Megatron-FSDP version 1.`
      : `\`--use-nccl-ub\` under Megatron-FSDP makes Megatron-LM turn on manual buffer registration, which version 2 does not support: ${V2_STOPS} ("MFSDP v2 does not support fsdp_manual_registration"). Remove \`--use-nccl-ub\`, or use Megatron-FSDP version 1.`,
  },
  v2Refuses('fsdp_manual_registration', '--fsdp-manual-registration', 'MFSDP v2 does not support fsdp_manual_registration', 'manual buffer registration'),
  v2Refuses('delay_wgrad_compute', '--delay-wgrad-compute', 'MFSDP v2 does not support delay_wgrad_compute', 'delayed weight-gradient computation'),
  {
    when: (m) => (fsdpV2(m) && argGiven(m, 'suggested_communication_unit_size') ? 'suggested_communication_unit_size' : fsdpV2(m) && argGiven(m, 'ddp_num_buckets') ? 'ddp_num_buckets' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.20.0',
    message: (m) => {
      const unit = argGiven(m, 'suggested_communication_unit_size');
      return `Megatron-FSDP version 2 chooses its own communication units: ${V2_STOPS} ("MFSDP v2 does not support ${unit ? 'suggested_communication_unit_size' : 'num_buckets'}"). Remove \`${unit ? '--suggested-communication-unit-size' : '--ddp-num-buckets'}\`.`;
    },
  },
  v2Refuses('megatron_fsdp_enable_fine_grained_param_gather', '--megatron-fsdp-enable-fine-grained-param-gather', 'MFSDP v2 does not support megatron_fsdp_enable_fine_grained_param_gather', 'fine-grained parameter gathering'),
  v2Refuses('megatron_fsdp_max_pool_double_buffer', '--megatron-fsdp-max-pool-double-buffer', 'MFSDP v2 does not support megatron_fsdp_max_pool_double_buffer', 'the max-pool double buffer'),
];

const CHECKS: ArgCheck[] = [
  {
    // Before Megatron-FSDP (`--use-custom-fsdp`, 0.12) only PP 1 is left (arguments.py@core_v0.10.0:376, @core_v0.11.0:411).
    when: (m, p) => (torchFsdp2(m) && (p?.pp.value ?? 1) > 1 ? 'use_torch_fsdp2' : undefined),
    formats: MLM_FLAG_FORMATS,
    before: '0.12.0',
    message: () => 'PyTorch FSDP2 in Megatron does not support pipeline parallelism: Megatron stops ("--use-torch-fsdp2 is not supported with pipeline parallelism"). Use PP 1, or the distributed optimizer instead of FSDP2.',
  },
  {
    when: (m, p) => (torchFsdp2(m) && (p?.pp.value ?? 1) > 1 ? 'use_torch_fsdp2' : undefined),
    // Megatron-LM's validate_args (megatron/training/arguments.py): not run for Bridge or NeMo files.
    formats: MLM_FLAG_FORMATS,
    since: '0.12.0',
    message: () => 'PyTorch FSDP2 in Megatron does not support pipeline parallelism: Megatron stops ("--use-torch-fsdp2 is not supported with pipeline parallelism"). Use `--use-megatron-fsdp`, or PP 1.',
  },
  {
    // The same before Megatron-FSDP (0.12): the check is there from 0.10 (arguments.py@core_v0.10.0).
    when: (m, p) => (torchFsdp2(m) && (p?.ep.value ?? 1) > 1 ? 'use_torch_fsdp2' : undefined),
    formats: MLM_FLAG_FORMATS,
    before: '0.12.0',
    message: () => 'PyTorch FSDP2 in Megatron does not support expert parallelism: Megatron stops ("--use-torch-fsdp2 is not supported with expert parallelism"). Use EP 1, or the distributed optimizer instead of FSDP2.',
  },
  {
    when: (m, p) => (torchFsdp2(m) && (p?.ep.value ?? 1) > 1 ? 'use_torch_fsdp2' : undefined),
    // Megatron-LM's validate_args (megatron/training/arguments.py): not run for Bridge or NeMo files.
    formats: MLM_FLAG_FORMATS,
    since: '0.12.0',
    message: () => 'PyTorch FSDP2 in Megatron does not support expert parallelism: Megatron stops ("--use-torch-fsdp2 is not supported with expert parallelism"). Use `--use-megatron-fsdp` for MoE models.',
  },
  {
    when: (m) => (torchFsdp2(m) && argOn(m, 'use_distributed_optimizer') ? 'use_distributed_optimizer' : undefined),
    // Megatron-LM's validate_args (megatron/training/arguments.py): not run for Bridge or NeMo files.
    formats: MLM_FLAG_FORMATS,
    message: () => 'FSDP2 already shards the optimizer state: Megatron stops ("--use-torch-fsdp2 is not supported with MCore\'s distributed optimizer"). Remove `--use-distributed-optimizer`.',
    fix: (m) => unsetArg(m, 'distributed-optimizer-off', 'use_distributed_optimizer', 'Turn off the distributed optimizer'),
  },
  {
    // Tied embeddings are shared across the FSDP2 units: validate_args asserts untied ones
    // (arguments.py@core_v0.10.0:385 … @core_v0.19.0, the same at HEAD).
    // Megatron-FSDP, the other way out, arrives in 0.12 (`--use-custom-fsdp`; `--use-megatron-fsdp` from 0.14).
    when: (m) => (torchFsdp2(m) && !argOn(m, 'untie_embeddings_and_output_weights') ? 'use_torch_fsdp2' : undefined),
    formats: MLM_FLAG_FORMATS,
    before: '0.12.0',
    message: () => 'PyTorch FSDP2 in Megatron needs untied embedding and output weights: Megatron stops ("--use-torch-fsdp2 requires --untie-embeddings-and-output-weights"). Add `--untie-embeddings-and-output-weights` (a model of its own: the output layer gets weights of its own).',
  },
  {
    when: (m) => (torchFsdp2(m) && !argOn(m, 'untie_embeddings_and_output_weights') ? 'use_torch_fsdp2' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.12.0',
    message: () => 'PyTorch FSDP2 in Megatron needs untied embedding and output weights: Megatron stops ("--use-torch-fsdp2 requires --untie-embeddings-and-output-weights"). Add `--untie-embeddings-and-output-weights` (a model of its own: the output layer gets weights of its own), or use `--use-megatron-fsdp`.',
  },
  {
    // validate_args asserts it off under FSDP2 (arguments.py@core_v0.10.0:381-382 … @core_v0.19.0:1006-1007,
    // @d98e8a6:1040-1041); the fusion is on unless `--no-gradient-accumulation-fusion` is given.
    when: (m) => (torchFsdp2(m) && fusionOn(m) ? (argAbsent(m, 'gradient_accumulation_fusion') ? 'use_torch_fsdp2' : 'gradient_accumulation_fusion') : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.10.0',
    message: (m) => `PyTorch FSDP2 in Megatron does not support gradient accumulation fusion${argAbsent(m, 'gradient_accumulation_fusion') ? ' (on by default)' : ''}: Megatron stops ("--use-torch-fsdp2 is not supported with gradient accumulation fusion"). Add \`--no-gradient-accumulation-fusion\`.`,
  },
  {
    when: (m) => (torchFsdp2(m) && argOn(m, 'fp16') ? 'fp16' : undefined),
    // Megatron-LM's validate_args (megatron/training/arguments.py): not run for Bridge or NeMo files.
    formats: MLM_FLAG_FORMATS,
    message: () => 'PyTorch FSDP2 in Megatron does not support FP16 yet: Megatron stops. Use `--bf16`.',
  },
  {
    when: (m) => (argOn(m, 'use_megatron_fsdp') && argNum(m, 'megatron_fsdp_version') === 2 && argOn(m, 'use_distributed_optimizer') ? 'use_distributed_optimizer' : undefined),
    // Megatron-LM's validate_args (megatron/training/arguments.py): not run for Bridge or NeMo files.
    formats: MLM_FLAG_FORMATS,
    message: () => 'Megatron-FSDP version 2 shards the optimizer itself: Megatron stops ("--megatron-fsdp-version 2 is not compatible with --use-distributed-optimizer"). Remove `--use-distributed-optimizer`.',
    fix: (m) => unsetArg(m, 'distributed-optimizer-off', 'use_distributed_optimizer', 'Turn off the distributed optimizer'),
  },
  ...[
    // validate_args under FSDP2: `torch_dist` only at arguments.py@core_v0.10.0:383-384 and core_v0.11.0,
    // `torch_dcp` too from core_v0.12.0 (@d98e8a6:1042-1043); the default `torch_dist` passes.
    { since: '0.10.0', before: '0.12.0', formats: ['torch_dist'], quote: '--use-torch-fsdp2 requires --ckpt-format torch_dist' },
    { since: '0.12.0', formats: ['torch_dist', 'torch_dcp'], quote: '--use-torch-fsdp2 requires --ckpt-format torch_dist or torch_dcp' },
  ].map((r): ArgCheck => ({
    when: (m) => (torchFsdp2(m) && typeof argValue(m, 'ckpt_format') === 'string' && !r.formats.includes(argValue(m, 'ckpt_format') as string) ? 'ckpt_format' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: r.since,
    ...(r.before ? { before: r.before } : {}),
    message: (m) => `\`--ckpt-format ${argValue(m, 'ckpt_format')}\` with PyTorch FSDP2: its sharded state is saved only as a distributed checkpoint, and Megatron stops ("${r.quote}"). Use \`--ckpt-format torch_dist\` (the default).`,
  })),
  ...MEGATRON_FSDP_CHECKS,
  {
    when: (m) => (argOn(m, 'use_megatron_fsdp') && argOn(m, 'use_torch_fsdp2') ? 'use_torch_fsdp2' : undefined),
    // Megatron Bridge's ConfigContainer.validate raises it; Megatron-LM's argument checks do not.
    formats: ['megatron-bridge'],
    message: () => 'Megatron-FSDP and PyTorch FSDP2 are exclusive: Megatron Bridge stops, in its config validation or when it wraps the model (the wording differs by release and by where the switches are written). Keep one.',
  },
  ...BRIDGE_FSDP_CHECKS,
  {
    // training/arguments.py@core_v0.16.0:1178-1186, @core_v0.17.0:1476-1484: under `'muon' in args.optimizer`
    // (muon, dist_muon; 0.17's lion is not among them), neither FSDP.
    when: (m) => (muonOptimizer(m) && (argOn(m, 'use_torch_fsdp2') || argOn(m, 'use_megatron_fsdp')) ? 'optimizer' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
    before: '0.18.0',
    message: (m) => `\`--optimizer ${String(argValue(m, 'optimizer'))}\` with ${argOn(m, 'use_torch_fsdp2') ? '`--use-torch-fsdp2`' : '`--use-megatron-fsdp`'}: Megatron-LM stops at startup ("Muon optimizer does not support ${argOn(m, 'use_torch_fsdp2') ? 'Torch-FSDP2' : 'Megatron-FSDP'} for now."). Use Adam or SGD with FSDP, or train Muon without FSDP (and, before Megatron Core 0.18, without the distributed optimizer).`,
  },
  {
    // training/arguments.py@core_v0.18.0:1565, @d98e8a6:1739: optimizers other than Adam and SGD (Muon
    // and the other emerging ones) run without Torch-FSDP2.
    when: (m) => (emergingOptimizer(m) && argOn(m, 'use_torch_fsdp2') ? 'optimizer' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.18.0',
    message: (m) => `\`--optimizer ${String(argValue(m, 'optimizer'))}\` with \`--use-torch-fsdp2\`: Megatron-LM stops at startup ("Emerging optimizer does not support Torch-FSDP2 for now."). Use Adam or SGD with FSDP, or train this optimizer with the (layer-wise) distributed optimizer.`,
  },
  {
    // Megatron-FSDP's own block comes first (training/arguments.py@core_v0.18.0:1122-1124, @d98e8a6:1149-1151);
    // the emerging-optimizer check after it (@core_v0.18.0:1566) is not reached.
    when: (m) => (emergingOptimizer(m) && argOn(m, 'use_megatron_fsdp') ? 'optimizer' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.18.0',
    message: (m) => `\`--optimizer ${String(argValue(m, 'optimizer'))}\` with \`--use-megatron-fsdp\`: Megatron-FSDP takes only Adam and SGD, and Megatron-LM stops at startup ("Megatron-FSDP does not support the ${String(argValue(m, 'optimizer'))} optimizer yet."). Use Adam or SGD with FSDP, or train this optimizer with the (layer-wise) distributed optimizer.`,
  },
];

export default defineRule<MegatronModel>({
  id: 'fsdp-config-invalid',
  severity: 'error',
  formats: MEGATRON_FORMATS,
  fixes: {
    'distributed-optimizer-off': { applicability: 'unsafe', changes: 'optimizer sharding' },
  },
  docs: {
    summary: "Megatron's FSDP modes (PyTorch FSDP2, Megatron-FSDP) with settings they do not support (parallelism, optimizer, checkpoint format, precision, MoE parameter layout, buffer registration).",
    why: "`--use-torch-fsdp2` supports neither pipeline nor expert parallelism, the distributed optimizer, tied embeddings, gradient accumulation fusion (on unless `--no-gradient-accumulation-fusion` is given) or FP16; Megatron-FSDP version 2 shards the optimizer itself. Neither FSDP takes Muon in Megatron Core 0.16 and 0.17 (`muon`, `dist_muon`), nor from 0.18 any optimizer other than Adam or SGD (Muon and the other emerging optimizers). Before 0.14 Megatron-FSDP is `--use-custom-fsdp` (these checks read it under that name at those releases): it needs `--use-distributed-optimizer`, and refuses gradient accumulation fusion under `optim_grads` or `optim_grads_params` sharding. FSDP2 needs a distributed checkpoint format (from 0.10); Megatron-FSDP needs `--ckpt-format fsdp_dtensor` (from 0.14, where it appeared), and refuses meta-device initialisation without sharding (from 0.18) and, under its `optim_grads_params` sharding (the default from 0.18), the weight-hash check (from 0.12); from 0.19 it refuses single grouped MoE parameters; `--fsdp-manual-registration` needs Megatron-FSDP and `--use-nccl-ub` (from 0.16); and from 0.14 to 0.17 `--use-nccl-ub` refuses an exported `PYTORCH_CUDA_ALLOC_CONF` with `expandable_segments:True` when the DDP config is built (not under `--use-torch-fsdp2`, whose own config leaves NCCL user buffers off; from 0.18 only before PyTorch 2.11, which is not judged). Meta-device initialisation without Megatron-FSDP or FSDP2 fails at 0.12–0.14, where nothing gives the model memory; from 0.15 it leaves the weights uninitialised unless a checkpoint is loaded (a warning). Megatron-LM's argument checks stop on these at startup, for launch scripts and Megatron-LM YAML (Megatron Bridge and NeMo do not run them). Megatron-FSDP version 2 (Megatron Core 0.20) is data-parallel only and, when Megatron Core wraps the model, refuses TP, PP or CP above 1, a sharding strategy other than `optim_grads_params`, outer sharding, gradient accumulation fusion (on by default in Megatron-LM), per-token loss, FP8 or FP4, CUDA graphs, `--use-nccl-ub` (Megatron-LM turns manual registration on with it), manual registration, delayed weight gradients, communication unit sizes or bucket counts, fine-grained parameter gathering, and the persistent or max-pool double buffers; these are checked for launch scripts and Megatron-LM YAML only (Megatron Bridge rewrites several of these fields for version 2). Megatron Bridge stops on both FSDP kinds at once, and on Megatron-FSDP (either `ddp.use_megatron_fsdp` or `dist.use_megatron_fsdp` turns it on) with a checkpoint to save or load in another format than `fsdp_dtensor` (every release), with the TP-PP-DP rank order (from Bridge 0.2, Megatron Core 0.15), with manual buffer registration without NCCL user buffers or with the weight-hash check under `optim_grads_params` sharding (both from Bridge 0.5, Megatron Core 0.18), and on `fsdp_dtensor` checkpoints saved or loaded under PyTorch FSDP2 (every release); in an override file only the fields written are judged.",
    bad: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --bf16: true\n  --use-torch-fsdp2: true\n  --untie-embeddings-and-output-weights: true\n  --use-distributed-optimizer: true\n',
    good: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --bf16: true\n  --use-torch-fsdp2: true\n  --untie-embeddings-and-output-weights: true\n  --no-gradient-accumulation-fusion: true\n',
    fix: 'Removes `--use-distributed-optimizer` where FSDP already shards the optimizer.',
    shell: {
      bad: '#!/bin/bash\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --bf16 --use-torch-fsdp2 --untie-embeddings-and-output-weights --use-distributed-optimizer \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --bf16 --use-torch-fsdp2 --untie-embeddings-and-output-weights --no-gradient-accumulation-fusion \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
    upstream: [
      { label: 'Megatron-LM d98e8a6 (0.20), `megatron/core/distributed/fsdp/mcore_fsdp_adapter.py`: what Megatron-FSDP version 2 refuses', url: 'https://github.com/NVIDIA/Megatron-LM/blob/d98e8a64ddf34856e74b24714e3bedb2f5a39553/megatron/core/distributed/fsdp/mcore_fsdp_adapter.py#L601-L703' },
      { label: 'Megatron-LM core_v0.19.0, `megatron/training/arguments.py`: Torch FSDP2 refuses gradient accumulation fusion (from core_v0.10.0)', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.19.0/megatron/training/arguments.py#L1006-L1007' },
      { label: 'Megatron-LM core_v0.15.3, `megatron/training/arguments.py`: Torch FSDP2 refuses pipeline and expert parallelism and the distributed optimizer', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.3/megatron/training/arguments.py#L633-L641' },
    ],
  },
  check(ctx) {
    runChecks(ctx, CHECKS);
    runChecks(ctx, V2_CHECKS);
    ncclUbWithExpandableSegments(ctx);
  },
});

const ALLOC_VAR = 'PYTORCH_CUDA_ALLOC_CONF';

/**
 * NCCL user buffers with PyTorch's expandable segments: the DDP config (built for DDP and Megatron-FSDP)
 * raises when `PYTORCH_CUDA_ALLOC_CONF` lists `expandable_segments:True`
 * (distributed_data_parallel_config.py@core_v0.14.0:145-150 to @core_v0.17.0; from 0.18 only before
 * PyTorch 2.11, which the file cannot show). PyTorch FSDP2 builds its own config from
 * `reshard_after_forward` alone (training.py@core_v0.14.0:918-920, @core_v0.17.0:1440-1442), so `nccl_ub`
 * stays False there and nothing refuses; the check needs FSDP2 known to be off. Only a launch script
 * shows the environment; only a value it exports as written is judged.
 */
function ncclUbWithExpandableSegments(ctx: RuleContext<MegatronModel>): void {
  const m = ctx.model;
  const env = m.args.env;
  if (ctx.format !== 'megatron-args' || !env || m.args.notTraining || !argOn(m, 'nccl_ub') || !argOff(m, 'use_torch_fsdp2')) return;
  const v = env.get(ALLOC_VAR);
  if (!v || v.unknown || !v.exported || !envLiteral(ctx.doc.text, v) || !(v.value ?? '').split(',').includes('expandable_segments:True')) return;
  if (!ctx.atLeast('0.14.0') || ctx.atLeast('0.18.0')) return;
  ctx.report({
    at: m.args.get('nccl_ub')?.path ?? [],
    message: `\`--use-nccl-ub\` with \`${ALLOC_VAR}=${v.value}\`: NCCL user buffers are allocated from a CUDA memory pool that expandable segments do not work with, and Megatron Core stops when it builds the DDP config ("PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True is currently not supported with nccl_ub"). Drop \`expandable_segments:True\` from \`${ALLOC_VAR}\`, or \`--use-nccl-ub\`.`,
  });
}
