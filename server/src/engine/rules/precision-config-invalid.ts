/**
 * precision-config-invalid: precision settings DeepSpeed rejects together.
 */
import { bf16Path, bf16Stage1, type DeepSpeedModel } from '../formats/deepspeed/model';
import { runDsChecks, type DsCheck } from './helpers';
import { defineRule } from './rule';
import type { Path } from '../types';

const noZero = (m: DeepSpeedModel) => m.stage === 0;

type Dtype = 'fp32' | 'fp16' | 'bf16' | 'int8';

/** Every name of DeepSpeed's dtype table, DtypeEnum (runtime/config.py@v0.19.5:101-105, the same from 0.7.6). */
const DTYPE_SPELLINGS: Record<string, Dtype> = {
  fp32: 'fp32', float32: 'fp32', float: 'fp32', 'torch.float32': 'fp32',
  fp16: 'fp16', float16: 'fp16', half: 'fp16', 'torch.float16': 'fp16',
  bf16: 'bf16', bfloat16: 'bf16', 'torch.bfloat16': 'bf16',
  int8: 'int8', 'torch.int8': 'int8',
};

const TORCH: Record<Dtype, string> = { fp32: 'torch.float32', fp16: 'torch.float16', bf16: 'torch.bfloat16', int8: 'torch.int8' };

/** A precision switch as DeepSpeed tests it: absent is off; undefined for `"auto"` or text it does not settle. */
function switchOn(m: DeepSpeedModel, path: readonly (string | number)[]): boolean | undefined {
  return m.has([...path]) ? m.bool([...path]) : false;
}

/**
 * The model dtype runtime/engine.py get_data_types derives (fp16 first, then bf16, else fp32);
 * undefined when a switch is not settled by the file.
 */
function modelDtype(m: DeepSpeedModel): Dtype | undefined {
  const fp16 = switchOn(m, ['fp16', 'enabled']);
  if (fp16 !== false) return fp16 ? 'fp16' : undefined;
  const bf16 = switchOn(m, bf16Path(m, 'enabled'));
  return bf16 === undefined ? undefined : bf16 ? 'bf16' : 'fp32';
}

/** The written `data_types.grad_accum_dtype` (any DtypeEnum spelling), or undefined. */
function writtenAccum(m: DeepSpeedModel): Dtype | undefined {
  const v = m.get(['data_types', 'grad_accum_dtype']);
  return typeof v === 'string' ? DTYPE_SPELLINGS[v] : undefined;
}

/**
 * The model and written accumulation dtypes `_do_optimizer_sanity_check` compares (runtime/engine.py
 * from 0.7.6), in the branch it takes: `zero` (stage 1-3), `amp` (Apex AMP without ZeRO) or `plain`.
 * Undefined unless both dtypes and the branch are settled and the accumulation type is written (an
 * absent one is the model dtype, or fp32 for bf16 in the releases whose default the checks below
 * name). Amp with ZeRO is refused by an assertion first (zero-config-invalid).
 */
function accumMix(m: DeepSpeedModel): { model: Dtype; accum: Dtype; branch: 'zero' | 'amp' | 'plain' } | undefined {
  const accum = writtenAccum(m);
  const model = accum && modelDtype(m);
  const amp = model && switchOn(m, ['amp', 'enabled']);
  if (!accum || !model || amp === undefined || m.stage === undefined) return undefined;
  if (m.stage >= 1) return amp ? undefined : { model, accum, branch: 'zero' };
  return { model, accum, branch: amp ? 'amp' : 'plain' };
}

const ACCUM: Path = ['data_types', 'grad_accum_dtype'];

const STAGE_2_ONLY = 'fp16 master weights and gradients work only at ZeRO stage 2 before DeepSpeed 0.18.3: it stops when it reads the config ("Fp16_master_weights_and_grads is only supported with ZeRO Stage 2 for now."). Use stage 2 (with CPU optimizer offload and DeepSpeedCPUAdam), or remove the key.';

const BF16_ACCUM = 'Without ZeRO, DeepSpeed 0.7.6 to 0.17.5 refuse bf16 gradients accumulated in bf16 when they build the optimizer ("Bfloat16 wrapper must use a gradient accumulation type of fp32, enable ZeRO to use Bfloat16 gradient accumulation").';

/** bf16 without ZeRO or AMP and `grad_accum_dtype` bf16 written (the default is fp32 until 0.17.5). */
function bf16Accumulated(m: DeepSpeedModel): boolean {
  const mix = accumMix(m);
  return mix?.branch === 'plain' && mix.model === 'bf16' && mix.accum === 'bf16';
}

/** Under ZeRO, a written accumulation type other than the model's; `stage1BF16`: bf16 with fp32 at stage 1 runs the BF16 optimizer. */
function zeroMix(m: DeepSpeedModel, stage1BF16: boolean): boolean {
  const mix = accumMix(m);
  if (mix?.branch !== 'zero' || mix.model === mix.accum) return false;
  return !(stage1BF16 && mix.model === 'bf16' && mix.accum === 'fp32' && m.stage === 1);
}

/** `stage1`: the advice for bf16 with fp32, which stage 1 takes from 0.8.1. */
function zeroMixMessage(m: DeepSpeedModel, stage1: string): string {
  const mix = accumMix(m)!;
  const also = mix.model === 'bf16' && mix.accum === 'fp32' ? stage1 : '';
  return `Under ZeRO, DeepSpeed 0.7.6 to 0.10.0 refuse a gradient accumulation type other than the model's when they build the optimizer ("Model data type and gradient accumulation data type must be equal to use ZeRO"); the model is ${mix.model} and \`data_types.grad_accum_dtype\` is ${mix.accum}. Write \`"${mix.model}"\` or remove the key${also}, or use DeepSpeed 0.10.1 or later.`;
}

/** Without ZeRO or AMP, a written accumulation type that is neither the model's nor bf16's fp32. */
function otherMix(m: DeepSpeedModel): boolean {
  const mix = accumMix(m);
  return mix?.branch === 'plain' && mix.model !== mix.accum && !(mix.model === 'bf16' && mix.accum === 'fp32');
}

function otherMixMessage(m: DeepSpeedModel, quote: string): string {
  const mix = accumMix(m)!;
  return `Without ZeRO, DeepSpeed refuses a gradient accumulation type other than the model's when it builds the optimizer (${quote}); the model is ${mix.model} and \`data_types.grad_accum_dtype\` is ${mix.accum}. Remove the key, or write \`"${mix.model}"\`.`;
}

const autocastOn = (m: DeepSpeedModel) => m.bool(['torch_autocast', 'enabled']) === true;

/** The written `data_types.param_dtype` (any DtypeEnum spelling), or undefined. */
function writtenParam(m: DeepSpeedModel): Dtype | undefined {
  const v = m.get(['data_types', 'param_dtype']);
  return typeof v === 'string' ? DTYPE_SPELLINGS[v] : undefined;
}

/**
 * torch.autocast mode's own checks (runtime/torch_autocast.py `_validate_auto_cast_settings`, run by
 * the engine's constructor whenever `torch_autocast.enabled`, at every ZeRO stage): zero quantized
 * weights from 0.17.2 on; fp16 and bf16 in 0.17.2-0.18.2 (@v0.18.2:32-33, gone @v0.18.3); a
 * communication type other than fp32 in 0.17.2-0.17.5 (@v0.17.5:31, gone @v0.17.6).
 */
const AUTOCAST_CHECKS: DsCheck[] = [
  {
    // int8 passes DeepSpeed's read of the dtype (runtime/config.py@v0.19.5:175-179, DtypeEnum :101-105),
    // and the engine hands it to torch.autocast (runtime/torch_autocast.py@v0.19.5:114-118) and tags the
    // lower-precision-safe modules' parameters with it (:53-57; `autocast_dtype` @v0.17.2:52-55).
    since: '0.17.2',
    severity: 'warning',
    when: (m) => {
      const v = m.get(['torch_autocast', 'dtype']);
      return autocastOn(m) && typeof v === 'string' && DTYPE_SPELLINGS[v] === 'int8' ? ['torch_autocast', 'dtype'] : undefined;
    },
    message: (m) => `\`torch_autocast.dtype\` ${m.get(['torch_autocast', 'dtype'])} is a name of DeepSpeed's dtype table, so DeepSpeed loads the file, but int8 is no autocast type: torch.autocast takes a 16-bit float type (on CUDA it warns that the dtype is not supported and turns autocast off, with the PyTorch releases assumed here; the file does not pin PyTorch), and DeepSpeed still tags the parameters of the modules it treats as lower-precision safe with int8. Use \`bf16\` or \`fp16\`, or remove the key.`,
  },
  {
    // torch_autocast.py@v0.17.2:27, master:32.
    since: '0.17.2',
    when: (m) => (autocastOn(m) && m.bool(['zero_optimization', 'zero_quantized_weights']) === true ? ['zero_optimization', 'zero_quantized_weights'] : undefined),
    message: () => 'ZeRO++ quantized weights (`zero_quantized_weights`) do not work with `torch_autocast`, at any ZeRO stage: DeepSpeed stops when it builds the engine ("Cannot enable both torch autocast and zero quantized weights"). Remove `zero_quantized_weights`, or turn `torch_autocast` off.',
  },
  {
    since: '0.17.2',
    before: '0.18.3',
    when: (m) => (autocastOn(m) && m.bool(['fp16', 'enabled']) === true ? ['fp16', 'enabled'] : undefined),
    message: () => 'DeepSpeed 0.17.2 to 0.18.2 run `torch_autocast` only with the fp16 mode off and stop when they build the engine ("Cannot enable both torch autocast and fp16"). Turn `fp16` off (autocast keeps the parameters in fp32 and runs the forward pass in `torch_autocast.dtype`), or use DeepSpeed 0.18.3 or later.',
  },
  {
    since: '0.17.2',
    before: '0.18.3',
    when: (m) => (autocastOn(m) && m.bool(['fp16', 'enabled']) !== true && m.bool(bf16Path(m, 'enabled')) === true ? bf16Path(m, 'enabled') : undefined),
    message: () => 'DeepSpeed 0.17.2 to 0.18.2 run `torch_autocast` only with the bf16 mode off and stop when they build the engine ("Cannot enable both torch autocast and bfloat16"). Turn `bf16` off (autocast keeps the parameters in fp32 and runs the forward pass in `torch_autocast.dtype`), or use DeepSpeed 0.18.3 or later.',
  },
  {
    // torch_autocast.py@v0.17.2:31: `engine.communication_data_type` is the written type, else the
    // fp16/bf16 mode's (refused first, above), else fp32.
    since: '0.17.2',
    before: '0.17.6',
    when: (m) => {
      const c = m.get(['communication_data_type']);
      return autocastOn(m) && m.bool(['fp16', 'enabled']) !== true && m.bool(bf16Path(m, 'enabled')) !== true && typeof c === 'string' && ['fp16', 'bf16'].includes(c.toLowerCase()) ? ['communication_data_type'] : undefined;
    },
    message: (m) => `DeepSpeed 0.17.2 to 0.17.5 run \`torch_autocast\` only with fp32 communication, and \`communication_data_type\` is ${String(m.get(['communication_data_type']))}: they stop when they build the engine ("Communication data type must be float32 for torch autocast"). Remove the key, or use DeepSpeed 0.17.6 or later.`,
  },
];

/**
 * The file turns no optimizer offload on: no `offload_optimizer` section (or its device `"none"`) and
 * no legacy `cpu_offload: true`; false when that is not settled (an `"auto"` device).
 */
function noOptimizerOffload(m: DeepSpeedModel): boolean {
  const Z = 'zero_optimization';
  const legacy = m.get([Z, 'cpu_offload']);
  if (legacy !== undefined && legacy !== false) return false;
  if (!m.has([Z, 'offload_optimizer'])) return true;
  const d = m.get([Z, 'offload_optimizer', 'device']);
  return typeof d === 'string' && d.toLowerCase() === 'none';
}

const MASTER_OFFLOAD = 'DeepSpeed keeps 16-bit master weights only with the optimizer offloaded to the CPU (DeepSpeedCPUAdam keeps the fp32 states there), and stops when it builds the ZeRO optimizer';

/**
 * The ZeRO optimizers' master-weight checks (runtime/zero/stage2.py@v0.5.0:196-197,
 * stage_1_and_2.py@v0.18.2:269-273; from 0.18.3 runtime/base_optimizer.py `_configure_master_weights`
 * with the stage 1/2 and stage 3 validators, stage_1_and_2.py@v0.18.3:273-283, stage3.py@v0.18.3:273-283):
 * fp16 master weights, and bf16 ones without bf16 optimizer states, assert ZeRO-Offload. Without any
 * optimizer offload that fails whatever optimizer runs. Stages the config check refuses first are left to it.
 */
const MASTER_CHECKS: DsCheck[] = [
  {
    since: '0.5.0',
    before: '0.18.3',
    when: (m) => (m.bool(['fp16', 'enabled']) === true && m.bool(['fp16', 'fp16_master_weights_and_grads']) === true && m.stage === 2 && noOptimizerOffload(m) ? ['fp16', 'fp16_master_weights_and_grads'] : undefined),
    message: () => `fp16 master weights and gradients without optimizer offload: ${MASTER_OFFLOAD} ("fp16_master_and_gradients requires optimizer to support keeping fp16 master and gradients while keeping the optimizer states in fp32"). Add \`"offload_optimizer": {"device": "cpu"}\` (with Adam or AdamW, which DeepSpeed then builds as DeepSpeedCPUAdam), or remove the key.`,
  },
  {
    since: '0.18.3',
    when: (m) => (m.bool(['fp16', 'enabled']) === true && m.bool(['fp16', 'fp16_master_weights_and_grads']) === true && m.stage !== undefined && m.stage >= 1 && noOptimizerOffload(m) ? ['fp16', 'fp16_master_weights_and_grads'] : undefined),
    message: (m) => `fp16 master weights and gradients without optimizer offload: ${MASTER_OFFLOAD} ("Master weights feature requires ${m.stage === 3 ? 'ZeRO-3' : `ZeRO-${m.stage}`} Offload with DeepSpeedCPUAdam"). Add \`"offload_optimizer": {"device": "cpu"}\` (with Adam or AdamW, which DeepSpeed then builds as DeepSpeedCPUAdam), or remove the key.`,
  },
  {
    since: '0.18.3',
    when: (m) => {
      const at = bf16Path(m, 'bf16_master_weights_and_grads');
      const on = m.bool(['fp16', 'enabled']) !== true && m.bool(bf16Path(m, 'enabled')) === true && m.bool(at) === true;
      // bf16 optimizer states keep the states in bf16 on the GPU (no offload needed); stage 1 with
      // fp32 gradient accumulation runs the BF16 optimizer, which has no such check.
      const states = bf16Path(m, 'bf16_optimizer_states');
      return on && (!m.has(states) || m.bool(states) === false) && m.stage !== undefined && m.stage >= 1 && !bf16Stage1(m) && noOptimizerOffload(m) ? at : undefined;
    },
    message: (m) => `bf16 master weights and gradients without bf16 optimizer states or optimizer offload: ${MASTER_OFFLOAD} ("Master weights feature requires ${m.stage === 3 ? 'ZeRO-3' : `ZeRO-${m.stage}`} Offload with DeepSpeedCPUAdam"). Add \`"offload_optimizer": {"device": "cpu"}\` (with Adam or AdamW), add \`"bf16_optimizer_states": true\` to keep the optimizer states in bf16 on the GPU, or remove the key.`,
  },
];

const MOQ: Path = ['compression_training', 'weight_quantization', 'shared_parameters'];
const moqOn = (m: DeepSpeedModel) => m.bool([...MOQ, 'enabled']) === true;

/**
 * MoQ, the weight quantization of `compression_training` (from 0.7.0, compression/config.py
 * get_quantize_enabled): quantizing in the optimizer step asserts fp16 when the engine sets up the
 * optimizer (runtime/engine.py@v0.7.0:1258, master:2259-2261), which a written `optimizer` section
 * makes certain; and the eigenvalue schedule of `quantize_training` is refused while MoQ is on
 * (runtime/config.py@v0.7.0:557, master:550), where 0.7.0 to 0.19.2 need the section itself.
 */
const MOQ_CHECKS: DsCheck[] = [
  {
    since: '0.7.0',
    when: (m) => {
      const forward = m.has([...MOQ, 'quantize_weight_in_forward']) ? m.bool([...MOQ, 'quantize_weight_in_forward']) : false;
      return moqOn(m) && forward === false && switchOn(m, ['fp16', 'enabled']) === false && m.has(['optimizer', 'type']) ? [...MOQ, 'enabled'] : undefined;
    },
    message: () => 'MoQ weight quantization in the optimizer step works only with fp16: DeepSpeed stops when it sets up the optimizer ("MoQ (quantize in optimization step) weight quantization is only supported for FP16"). Enable `fp16`, or set `"quantize_weight_in_forward": true` in `shared_parameters`.',
  },
  {
    since: '0.7.0',
    when: (m) => (moqOn(m) && m.bool(['quantize_training', 'eigenvalue', 'enabled']) === true ? ['quantize_training', 'eigenvalue', 'enabled'] : undefined),
    message: () => 'The eigenvalue schedule of MoQ is switched off in DeepSpeed: with `compression_training` weight quantization on, it stops when it reads the config ("Eigenvalue based MoQ is temporarily disabled"). Set `quantize_training.eigenvalue.enabled` to false, or remove the section.',
  },
  {
    // With MoQ on, get_eigenvalue_config indexes `param_dict['quantize_training']` (runtime/config.py@v0.7.0:556,
    // @v0.19.2) when the config is read, a KeyError without the section; 0.19.3 falls back to the
    // eigenvalue defaults (runtime/config.py@v0.19.3, `param_dict.get('quantize_training')`).
    since: '0.7.0',
    before: '0.19.3',
    when: (m) => (moqOn(m) && !m.has(['quantize_training']) ? [...MOQ, 'enabled'] : undefined),
    message: () => 'With `compression_training` weight quantization on, DeepSpeed 0.7.0 to 0.19.2 also read the eigenvalue settings of the legacy `quantize_training` section, and stop while reading the config when the file has none (KeyError: \'quantize_training\'); 0.19.3 takes the defaults instead. Add an empty `"quantize_training": {}`, or use DeepSpeed 0.19.3 or later.',
    fix: () => ({ kind: 'add-quantize-training', title: 'Add an empty quantize_training section', edits: [{ op: 'set', path: ['quantize_training'], value: {} }], recommended: true }),
  },
  {
    // Before 0.7.0 the old `quantize_training.enabled` switches MoQ on and the eigenvalue schedule is
    // built with the engine (runtime/engine.py@v0.4.0:204-205, @v0.6.7:337-338), whose constructor
    // asserts a layer name and a positive layer count (runtime/eigenvalue.py@v0.4.0:26, @v0.6.7:26);
    // the layer count defaults to 0.
    since: '0.4.0',
    before: '0.7.0',
    when: (m) => {
      const E: Path = ['quantize_training', 'eigenvalue'];
      if (m.bool(['quantize_training', 'enabled']) !== true || m.bool([...E, 'enabled']) !== true) return undefined;
      const num = m.has([...E, 'layer_num']) ? m.get([...E, 'layer_num']) : 0;
      const name = m.has([...E, 'layer_name']) ? m.get([...E, 'layer_name']) : 'bert.encoder.layer';
      if (typeof num === 'number' && num <= 0) return m.has([...E, 'layer_num']) ? [...E, 'layer_num'] : [...E, 'enabled'];
      return name === '' ? [...E, 'layer_name'] : undefined;
    },
    message: () => 'The eigenvalue schedule of MoQ needs `layer_name` and a `layer_num` above 0 (the number of layers to analyse, 0 by default): DeepSpeed before 0.7.0 asserts both when it builds the engine. Set `quantize_training.eigenvalue.layer_num` to the model\'s layer count, or turn the eigenvalue schedule off.',
  },
];

/**
 * Apex AMP beside DeepSpeed's own fp16 or bf16 mode, without ZeRO (with ZeRO the optimizer set-up
 * stops on AMP first, zero-config-invalid). What DeepSpeed says depends on the release: an assert on
 * the fp16 mode alone before 0.5.5 (runtime/engine.py@v0.3.0:531, @v0.5.4:885), on fp16 or the bfloat16
 * mode from 0.5.5 (@v0.5.5:907); from 0.7.6 `_do_optimizer_sanity_check` raises on the dtypes
 * (@v0.7.6:1149-1153, @v0.19.5:1957-1959), first on a gradient accumulation type other than the
 * model's, which for bf16 without ZeRO defaults to fp32 up to 0.17.5 (get_data_types@v0.7.6:809-813,
 * @v0.17.5:1092-1096) and to the model dtype from 0.17.6.
 */
function ampModeChecks(): DsCheck[] {
  const BOTH = '"Cannot enable both amp with (legacy) fp16 or bfloat16 mode"';
  const EQUAL = '"Model data type and gradient accumulation data type must be equal to use Amp"';
  const mode = (m: DeepSpeedModel) => (m.bool(['fp16', 'enabled']) === true ? 'fp16' : 'bf16');
  const when = (fp16Only: boolean) => (m: DeepSpeedModel): Path | undefined => {
    if (m.bool(['amp', 'enabled']) !== true || (m.stage !== undefined && m.stage >= 1)) return undefined;
    return m.bool(['fp16', 'enabled']) === true || (!fp16Only && m.bool(bf16Path(m, 'enabled')) === true) ? ['amp', 'enabled'] : undefined;
  };
  const say = (quote: (m: DeepSpeedModel) => string) => (m: DeepSpeedModel) =>
    `Apex AMP cannot be combined with DeepSpeed's own ${mode(m)} mode: DeepSpeed stops when it builds the optimizer (${quote(m)})${m.stage === undefined ? ', or, under ZeRO, earlier on "Amp and ZeRO are not currently compatible"' : ''}. Keep one: turn \`amp\` off (DeepSpeed's ${mode(m)} mode is the usual choice), or turn the ${mode(m)} mode off.`;
  /** From 0.7.6: the accumulation type compared first, written or by default (`bf16Fp32`: bf16 defaults to fp32). */
  const dtypes = (bf16Fp32: boolean) => (m: DeepSpeedModel) => {
    const model = mode(m);
    const accum = writtenAccum(m) ?? (model === 'bf16' && bf16Fp32 ? 'fp32' : model);
    return accum === model ? BOTH : EQUAL;
  };
  // bf16 is read from 0.5.5 (`bfloat16`) and 0.6.0 (`bf16`): before, the section is not bf16 mode.
  const keys = (m: DeepSpeedModel): Path[] => (m.bool(['fp16', 'enabled']) === true ? [['fp16']] : [[bf16Path(m, 'enabled')[0]]]);
  return [
    { before: '0.5.5', when: when(true), keys, message: say(() => '"Cannot enable both amp with (legacy) fp16 mode"') },
    { since: '0.5.5', before: '0.7.6', when: when(false), keys, message: say(() => BOTH) },
    { since: '0.7.6', before: '0.17.6', when: when(false), keys, message: say(dtypes(true)) },
    { since: '0.17.6', when: when(false), keys, message: say(dtypes(false)) },
  ];
}

const CHECKS: DsCheck[] = [
  ...ampModeChecks(),
  {
    // runtime/config.py@v0.18.3: stages 1, 2 and 3.
    since: '0.18.3',
    when: (m) => (m.bool(['fp16', 'fp16_master_weights_and_grads']) === true && noZero(m) ? ['fp16', 'fp16_master_weights_and_grads'] : undefined),
    message: () => 'fp16 master weights and gradients need ZeRO stage 1, 2 or 3: DeepSpeed stops when it reads the config. Set a ZeRO stage (with CPU optimizer offload and DeepSpeedCPUAdam), or remove the key.',
  },
  {
    // runtime/config.py@v0.5.0 to @v0.18.2: stage 2 only; before 0.17.1 the key is read only with fp16 enabled.
    before: '0.17.1',
    when: (m) => (m.bool(['fp16', 'fp16_master_weights_and_grads']) === true && m.bool(['fp16', 'enabled']) === true && m.stage !== undefined && m.stage !== 2 ? ['fp16', 'fp16_master_weights_and_grads'] : undefined),
    message: () => STAGE_2_ONLY,
  },
  {
    since: '0.17.1',
    before: '0.18.3',
    when: (m) => (m.bool(['fp16', 'fp16_master_weights_and_grads']) === true && m.stage !== undefined && m.stage !== 2 ? ['fp16', 'fp16_master_weights_and_grads'] : undefined),
    message: () => STAGE_2_ONLY,
  },
  // runtime/config.py@v0.18.3: the bf16 options and their checks arrive in 0.18.3 and read the
  // section DeepSpeed takes bf16 from (`bf16`, else the legacy `bfloat16`).
  {
    since: '0.18.3',
    when: (m) => (m.bool(bf16Path(m, 'bf16_master_weights_and_grads')) === true && noZero(m) ? bf16Path(m, 'bf16_master_weights_and_grads') : undefined),
    message: () => 'bf16 master weights and gradients need ZeRO stage 1, 2 or 3: DeepSpeed stops when it reads the config. Set a ZeRO stage, or remove the key.',
  },
  {
    since: '0.18.3',
    when: (m) => (m.bool(bf16Path(m, 'bf16_optimizer_states')) === true && (noZero(m) || m.bool(bf16Path(m, 'bf16_master_weights_and_grads')) !== true) ? bf16Path(m, 'bf16_optimizer_states') : undefined),
    message: (m) => (noZero(m) ? 'bf16 optimizer states need ZeRO stage 1, 2 or 3: DeepSpeed stops when it reads the config.' : 'bf16 optimizer states need `bf16_master_weights_and_grads: true`: DeepSpeed stops when it reads the config ("bf16_optimizer_states requires bf16_master_weights_and_grads to be enabled"). Add it, or remove this key.'),
  },
  {
    since: '0.18.3',
    when: (m) => (m.bool(['fp16', 'fp16_master_weights_and_grads']) === true && m.bool(bf16Path(m, 'bf16_master_weights_and_grads')) === true ? bf16Path(m, 'bf16_master_weights_and_grads') : undefined),
    message: () => 'fp16 and bf16 master weights are exclusive: DeepSpeed stops when it builds the optimizer. Keep the one that matches the enabled precision.',
  },
  // bf16 and the ZeRO stage by release: 0.5.5-0.5.10 take bf16 only at stage 2, 0.6.0-0.6.1 only with
  // ZeRO (runtime/config.py@v0.5.5 and @v0.6.0:902, asserts gone @v0.6.2 with the BF16 optimizer);
  // 0.7.6 gives bf16 under ZeRO an fp32 gradient accumulation unless data_types says otherwise, then
  // refuses the mix (runtime/engine.py@v0.7.6:802-817, 1131-1134; @v0.7.7 keeps bf16 under ZeRO).
  {
    since: '0.5.5',
    before: '0.6.0',
    when: (m) => (m.bool(bf16Path(m, 'enabled')) === true && m.stage !== undefined && m.stage !== 2 ? bf16Path(m, 'enabled') : undefined),
    message: (m) => `DeepSpeed before 0.6.0 runs bf16 only at ZeRO stage 2 and stops when it reads the config ("bfloat16 mode is only enabled for Zero2 currently"); this file has stage ${m.stage}. Use stage 2, or DeepSpeed 0.6.2 or later.`,
  },
  {
    since: '0.6.0',
    before: '0.6.2',
    when: (m) => (m.bool(bf16Path(m, 'enabled')) === true && noZero(m) ? bf16Path(m, 'enabled') : undefined),
    message: () => 'DeepSpeed 0.6.0 and 0.6.1 run bf16 only with ZeRO stage 1, 2 or 3 and stop when they read the config ("bfloat16 mode is only enabled for Zero 1,2,3 currently"). Set a ZeRO stage, or use DeepSpeed 0.6.2 or later.',
  },
  {
    since: '0.7.6',
    before: '0.7.7',
    when: (m) => (m.bool(bf16Path(m, 'enabled')) === true && m.stage !== undefined && m.stage >= 1 && !m.has(['data_types', 'grad_accum_dtype']) ? bf16Path(m, 'enabled') : undefined),
    message: () => 'DeepSpeed 0.7.6 accumulates bf16 gradients in fp32 unless `data_types.grad_accum_dtype` says otherwise, and refuses that mix under ZeRO when it builds the optimizer ("Model data type and gradient accumulation data type must be equal to use ZeRO"). Add `"data_types": {"grad_accum_dtype": "bf16"}`, or use DeepSpeed 0.7.7 or later.',
  },
  // data_types.grad_accum_dtype against the model dtype, as `_do_optimizer_sanity_check` refuses it
  // when it builds the optimizer (runtime/engine.py, data_types read from 0.7.6).
  {
    // Under ZeRO: refused in 0.7.6-0.10.0 (@v0.7.6:1131-1135, @v0.10.0:1146-1148), except bf16 with
    // fp32 at stage 1 from 0.8.1 (@v0.8.1:1219-1221); gone in 0.10.1 (@v0.10.1:1132-1143).
    since: '0.7.6',
    before: '0.8.1',
    when: (m) => (zeroMix(m, false) ? ACCUM : undefined),
    message: (m) => zeroMixMessage(m, ', or stage 1 with DeepSpeed 0.8.1 or later (the BF16 optimizer)'),
  },
  {
    since: '0.8.1',
    before: '0.10.1',
    when: (m) => (zeroMix(m, true) ? ACCUM : undefined),
    message: (m) => zeroMixMessage(m, ', or use stage 1 (the BF16 optimizer)'),
  },
  {
    // Without ZeRO, bf16 accumulated in bf16: refused from 0.7.6 (@v0.7.6:1162-1166); from 0.12.5
    // a PipelineModule runs it with the BF16 optimizer (@v0.12.5), which the config does not tell;
    // 0.17.6 runs it as plain bf16 (DDP_BFLOAT16, @v0.17.6:1408-1416).
    since: '0.7.6',
    before: '0.12.5',
    when: (m) => (bf16Accumulated(m) ? ACCUM : undefined),
    message: () => `${BF16_ACCUM} Remove the key (bf16 then accumulates in fp32 with the BF16 optimizer), set a ZeRO stage, or use DeepSpeed 0.17.6 or later.`,
  },
  {
    since: '0.12.5',
    before: '0.17.6',
    severity: 'warning',
    when: (m) => (bf16Accumulated(m) ? ACCUM : undefined),
    message: () => `${BF16_ACCUM} Only a model built as a PipelineModule (pipeline parallelism) is let through; this assumes the model is not one. Remove the key (bf16 then accumulates in fp32 with the BF16 optimizer), set a ZeRO stage, or use DeepSpeed 0.17.6 or later.`,
  },
  {
    // Without ZeRO, bf16 with fp32 ran the BF16 optimizer up to 0.18.4 (@v0.18.4:1476-1477); the branch
    // is gone from 0.18.5 (@v0.18.5:1489-1499, commit 09885efef), which refuses the mix.
    since: '0.18.5',
    when: (m) => {
      const mix = accumMix(m);
      return mix?.branch === 'plain' && mix.model === 'bf16' && mix.accum === 'fp32' ? ACCUM : undefined;
    },
    message: () => 'DeepSpeed 0.18.5 and later refuse bf16 with fp32 gradient accumulation without ZeRO when they build the optimizer ("unsupported mix of model_dtype=torch.bfloat16 and grad_accum_dtype=torch.float32"); up to 0.18.4 the BF16 optimizer took that mix. Remove the key (bf16 then accumulates in bf16), or set ZeRO stage 1, where fp32 accumulation runs the BF16 optimizer.',
  },
  // Without ZeRO, every other mix of two dtypes is refused (@v0.7.6:1172-1175, @v0.17.5:1424-1425); the
  // message names the dtypes from 0.17.6 (@v0.17.6:1419-1420, @v0.19.5:1976-1977).
  // Spelled "accummulation" until 0.9.2 (@v0.7.6:1173-1174, @v0.9.2:1138); corrected in 0.9.3.
  {
    since: '0.7.6',
    before: '0.9.3',
    when: (m) => (otherMix(m) ? ACCUM : undefined),
    message: (m) => otherMixMessage(m, '"unsupported mix of model dtype and gradient accummulation type"'),
  },
  {
    since: '0.9.3',
    before: '0.17.6',
    when: (m) => (otherMix(m) ? ACCUM : undefined),
    message: (m) => otherMixMessage(m, '"unsupported mix of model dtype and gradient accumulation type"'),
  },
  {
    since: '0.17.6',
    when: (m) => (otherMix(m) ? ACCUM : undefined),
    message: (m) => {
      const mix = accumMix(m)!;
      return otherMixMessage(m, `"unsupported mix of model_dtype=${TORCH[mix.model]} and grad_accum_dtype=${TORCH[mix.accum]}"`);
    },
  },
  {
    // Apex AMP without ZeRO: the two dtypes must be equal (@v0.7.6:1146-1150, @v0.19.5:1954-1957);
    // AMP with fp16 or bf16 is the check above.
    since: '0.7.6',
    when: (m) => {
      const mix = accumMix(m);
      return mix?.branch === 'amp' && mix.model === 'fp32' && mix.accum !== 'fp32' ? ACCUM : undefined;
    },
    message: (m) => `With Apex AMP the model stays fp32, and DeepSpeed refuses any other gradient accumulation type when it builds the optimizer ("Model data type and gradient accumulation data type must be equal to use Amp"); \`data_types.grad_accum_dtype\` is ${accumMix(m)?.accum}. Remove the key, or write \`"fp32"\`.`,
  },
  {
    when: (m) => {
      const scale = m.num(['fp16', 'loss_scale']);
      if (m.bool(['fp16', 'enabled']) !== true || (scale !== undefined && scale !== 0)) return undefined;
      for (const k of ['loss_scale_window', 'min_loss_scale']) {
        const v = m.num(['fp16', k]);
        if (v !== undefined && v <= 0) return ['fp16', k];
      }
      return undefined;
    },
    // deepspeed/runtime/precision_config.py gained this validator in 0.19.3; earlier releases run with the value.
    since: '0.19.3',
    message: () => 'With dynamic loss scaling (`loss_scale: 0`), `loss_scale_window` and `min_loss_scale` must be above 0: DeepSpeed (0.19.3 and later) stops when it reads the config. Use the defaults (1000 and 1).',
  },
  {
    // Before the validator, the dynamic loss scaler takes the step count modulo the window after each
    // step without overflow (runtime/fp16/loss_scaler.py, DynamicLossScaler.update_scale): a window of 0
    // raises ZeroDivisionError in the first steps.
    when: (m) => {
      const scale = m.num(['fp16', 'loss_scale']);
      if (m.bool(['fp16', 'enabled']) !== true || (scale !== undefined && scale !== 0)) return undefined;
      return m.num(['fp16', 'loss_scale_window']) === 0 ? ['fp16', 'loss_scale_window'] : undefined;
    },
    before: '0.19.3',
    message: () => 'With dynamic loss scaling (`loss_scale: 0`), a `loss_scale_window` of 0 stops the run in its first steps: DeepSpeed before 0.19.3 takes the step count modulo the window after every step without overflow (ZeroDivisionError). Use the default 1000.',
  },
  {
    // runtime/engine.py@v0.19.2:1325-1342 (`_assert_valid_mixed_precision_config`, from the engine's
    // sanity check): a written param_dtype must be the dtype of the enabled precision mode.
    since: '0.19.2',
    when: (m) => {
      const param = writtenParam(m);
      const model = param && modelDtype(m);
      return model && param !== model ? ['data_types', 'param_dtype'] : undefined;
    },
    message: (m) => `\`data_types.param_dtype\` is ${writtenParam(m)}, and the enabled precision mode makes the model ${modelDtype(m)}: DeepSpeed stops when it builds the engine ("data_types.param_dtype=… conflicts with the enabled precision mode"). Remove the key (the parameters then take the mode's dtype), or turn on the mode that matches it.`,
  },
  ...AUTOCAST_CHECKS,
  ...MASTER_CHECKS,
  ...MOQ_CHECKS,
];

export default defineRule<DeepSpeedModel>({
  id: 'precision-config-invalid',
  severity: 'error',
  formats: ['deepspeed'],
  fixes: {
    'add-quantize-training': { applicability: 'safe', changes: 'adds an empty `quantize_training` section, which DeepSpeed reads as the eigenvalue defaults' },
  },
  docs: {
    summary: 'Precision settings DeepSpeed rejects together: Apex AMP with fp16/bf16, master-weight options without ZeRO or without the optimizer offload the ZeRO optimizer needs for them, bf16 optimizer states without bf16 master weights, non-positive dynamic loss-scale settings, bf16 at a ZeRO stage an older release does not run it with, a gradient accumulation type (`data_types.grad_accum_dtype`) the release does not run with the model dtype, a `data_types.param_dtype` other than the precision mode\'s, and `torch_autocast` with ZeRO quantized weights (or, in older releases, with fp16, bf16 or a 16-bit communication type), MoQ weight quantization in the optimizer step without fp16, and MoQ\'s eigenvalue schedule (from 0.7.0; before, without a positive `layer_num`), or MoQ without a `quantize_training` section in 0.7.0 to 0.19.2.',
    why: 'DeepSpeed checks these when it reads the config or builds the optimizer; each stops the run. Each message quotes the condition as the targeted release words it: Apex AMP beside DeepSpeed\'s fp16 mode (or its bf16 mode, read from 0.5.5) stops the optimizer set-up without ZeRO (under ZeRO, zero-config-invalid\'s AMP check comes first) on an assert that names fp16 alone before 0.5.5, and from 0.7.6 on the dtype comparison first when the accumulation type differs from the model\'s (bf16 without ZeRO accumulates in fp32 by default up to 0.17.5). A check DeepSpeed added in a later release (the dynamic loss-scale bounds, in 0.19.3) applies only from that release, and one it dropped only before (bf16 only at ZeRO stage 2 in 0.5.5-0.5.10, only with ZeRO in 0.6.0-0.6.1, and in 0.7.6 not under ZeRO without `data_types.grad_accum_dtype`). The gradient accumulation type is compared with the model dtype when the optimizer is built, from 0.7.6: under ZeRO 0.7.6 to 0.10.0 refuse any other type (except fp32 with bf16 at stage 1 from 0.8.1); without ZeRO every other type is refused, except fp32 with bf16 up to 0.18.4 (the BF16 optimizer), and bf16 with bf16 is refused in 0.7.6 to 0.17.5 (a warning from 0.12.5, which lets a PipelineModule through); with Apex AMP the types must be equal. The ZeRO optimizers keep fp16 master weights (from 0.5.0), and bf16 ones without `bf16_optimizer_states` (from 0.18.3), only with the optimizer offloaded to the CPU. From 0.19.2 the engine checks that a written `data_types.param_dtype` is the dtype of the enabled precision mode. With `torch_autocast` on, the engine refuses `zero_optimization.zero_quantized_weights` at any ZeRO stage (from 0.17.2, where the section arrives), the fp16 and bf16 modes in 0.17.2 to 0.18.2, and a `communication_data_type` other than fp32 in 0.17.2 to 0.17.5. From 0.7.0, MoQ (`compression_training.weight_quantization`) quantizing in the optimizer step needs fp16 when the engine builds the optimizer the file names, and its eigenvalue schedule (`quantize_training.eigenvalue`) is refused when the config is read, where 0.7.0 to 0.19.2 also stop on a file with no `quantize_training` section at all (they look the eigenvalue settings up in it; 0.19.3 falls back to the defaults); 0.4.0 to 0.6.x, where `quantize_training.enabled` turns MoQ on, build the eigenvalue schedule with the engine and assert a non-empty `layer_name` and a `layer_num` above 0 (its default is 0).',
    bad: '{\n  "train_micro_batch_size_per_gpu": 4,\n  "zero_optimization": { "stage": 2 },\n  "bf16": { "enabled": true, "bf16_optimizer_states": true }\n}\n',
    good: '{\n  "train_micro_batch_size_per_gpu": 4,\n  "zero_optimization": { "stage": 2 },\n  "bf16": { "enabled": true, "bf16_master_weights_and_grads": true, "bf16_optimizer_states": true }\n}\n',
  },
  check(ctx) {
    runDsChecks(ctx, CHECKS);
  },
});
