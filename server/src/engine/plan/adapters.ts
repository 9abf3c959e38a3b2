/**
 * LoRA and QLoRA fine-tuning: the adapter parameters that are trained, and the memory of a run that
 * trains only them over frozen (possibly quantized) base weights. Pure arithmetic.
 *
 * A LoRA adapter on a linear layer of `in` inputs and `out` outputs adds A (rank × in) and B
 * (out × rank): rank × (in + out) trainable parameters per targeted matrix per layer. The base
 * weights stay frozen: no gradient and no optimizer state for them. Quantized loading
 * (bitsandbytes) stores the linear layers of the transformer blocks in 8 or 4 bits; embeddings,
 * the output layer and norms stay in 16 bits.
 */
import { countParameters, layerTerms, resolve, type ModelShape, type Sharding } from './memory';

/** What a LoRA/QLoRA run trains and keeps frozen, for the memory estimate. */
export interface AdapterMemory {
  /** Trainable adapter parameters, whole model. */
  trainable: number;
  /** Bits per frozen weight of the quantized linear layers (16: not quantized). */
  frozenBits: 16 | 8 | 4;
  /** Which matrices carry adapters, in words ("q_proj, v_proj of 32 layers"). */
  targets: string;
  rank: number;
}

/** The linear layers of a Llama-style block, by the module names PEFT targets, as (in, out). */
function blockLinears(shape: ModelShape): Record<string, [number, number]> | undefined {
  const r = resolve(shape);
  if (r.mla || r.nMoe > 0) return undefined;
  const q = r.kvc * r.a;
  const kv = r.kvc * r.g;
  const out: Record<string, [number, number]> = { q_proj: [r.h, q], k_proj: [r.h, kv], v_proj: [r.h, kv], o_proj: [q, r.h] };
  if (r.swiglu) Object.assign(out, { gate_proj: [r.h, r.f], up_proj: [r.h, r.f], down_proj: [r.f, r.h] });
  return out;
}

/**
 * The trainable parameters of LoRA adapters of `rank` on `modules` (module names, or every linear
 * layer of the blocks: PEFT's `all-linear`, LLaMA-Factory's `all`, axolotl's `lora_target_linear`,
 * which all leave the output layer out), or why they cannot be counted.
 */
export function loraTrainable(shape: ModelShape, rank: number, modules: readonly string[] | 'all-linear'): { count: number; targets: string } | { unknown: string } {
  const r = resolve(shape);
  if (r.mla) return { unknown: 'the model uses multi-head latent attention, whose projections are not counted here' };
  if (r.nMoe > 0 && modules === 'all-linear') return { unknown: 'the model has MoE layers, whose expert matrices are linear layers or fused parameters depending on the Transformers release' };
  const linears = blockLinears({ ...shape, experts: undefined });
  if (!linears) return { unknown: 'the model shape is not one whose linear layers are known here' };
  if (modules !== 'all-linear' && !r.swiglu) return { unknown: 'the model is not Llama-style (no gated MLP), so its module names are not known here' };
  const names = modules === 'all-linear' ? Object.keys(linears) : [...new Set(modules)];
  // MoE models: only the attention projections are shared by every layer under the same names.
  const allowed = r.nMoe > 0 ? ['q_proj', 'k_proj', 'v_proj', 'o_proj'] : Object.keys(linears);
  const strange = names.filter((n) => !allowed.includes(n));
  if (strange.length) return { unknown: `\`${strange.join('`, `')}\` ${strange.length === 1 ? 'is not a module' : 'are not modules'} whose shape is known here` };
  const perLayer = names.reduce((sum, n) => sum + rank * (linears[n][0] + linears[n][1]), 0);
  const what = modules === 'all-linear' ? `every linear layer of the blocks (${names.join(', ')})` : names.join(', ');
  return { count: perLayer * r.L, targets: `${what} in each of the ${r.L} layers` };
}

/** Parameters bitsandbytes quantizes: the linear layers of the blocks (embeddings, output layer and norms stay 16-bit). */
export function quantizableParams(shape: ModelShape): number {
  const c = countParameters(shape);
  const t = layerTerms(resolve(shape));
  return c.total - c.embedding - t.norms * shape.layers - t.finalNorm;
}

/** Bytes per frozen parameter: 4-bit NF4/FP4 is half a byte plus one fp32 absmax per block of 64; 8-bit one byte plus a scale per row. */
export function quantizedBytes(bits: 4 | 8): number {
  return bits === 4 ? 0.5 + 4 / 64 : 1;
}

/**
 * Weights, gradients and optimizer state of a LoRA/QLoRA run on one GPU (TP `tp`): the frozen base
 * (16-bit, or quantized linear layers), partitioned over N only under ZeRO-3; the adapters in fp32
 * with fp32 gradients and two Adam moments (16 bytes each), sharded as ZeRO shards them.
 */
export function adapterStates(shape: ModelShape, a: AdapterMemory, s: Sharding, tp: number): { weights: number; gradients: number; optimizer: number; assumptions: string[] } {
  const n = Math.max(1, s.group);
  const total = countParameters(shape).total;
  const quantized = a.frozenBits === 16 ? 0 : quantizableParams(shape);
  // The base is loaded in the checkpoint's 16-bit dtype whatever the Trainer's mixed-precision switch says.
  const half = 2;
  let frozen = (total - quantized) * half + quantized * (a.frozenBits === 16 ? half : quantizedBytes(a.frozenBits));
  const stage = s.kind === 'zero' ? (s.stage ?? 0) : 0;
  if (stage === 3) frozen /= n;
  if (stage === 3 && s.offloadParams) frozen = 0;
  frozen /= Math.max(1, tp);
  const k = a.trainable / Math.max(1, tp);
  let weights = k * 4;
  let gradients = k * 4;
  let optimizer = k * 8;
  if (stage >= 1) optimizer /= n;
  if (stage >= 2) gradients /= n;
  if (stage >= 3) weights /= n;
  if (s.kind === 'zero' && s.offloadOptimizer && stage >= 1) optimizer = 0;
  const assumptions = [
    `LoRA rank ${a.rank} on ${a.targets}: ${(a.trainable / 1e6).toFixed(1)}M trainable parameters (rank × (inputs + outputs) per targeted matrix), ${((a.trainable / total) * 100).toFixed(2)}% of ${(total / 1e9).toFixed(2)}B`,
    a.frozenBits === 16
      ? 'Frozen base weights in 16 bits (the bf16/fp16 dtype checkpoints are loaded in: 2 bytes per parameter), no gradients or optimizer state for them'
      : a.frozenBits === 4
        ? `Frozen linear layers of the blocks in 4 bits (bitsandbytes NF4/FP4: 0.5 byte per parameter plus one fp32 absmax per block of 64, 0.5625 bytes; double quantization would save about 0.047 more, QLoRA paper §3), embeddings, output layer and norms in 16 bits`
        : 'Frozen linear layers of the blocks in 8 bits (bitsandbytes LLM.int8: 1 byte per parameter plus a scale per row), embeddings, output layer and norms in 16 bits',
    'Adapters kept in fp32 (PEFT upcasts adapter weights by default), with fp32 gradients and two Adam moments: 16 bytes per trainable parameter',
  ];
  if (stage > 0) assumptions.push(`ZeRO-${stage} over N = ${n} ranks: ${['', 'the adapters\' optimizer state', 'the adapters\' optimizer state and gradients', 'the adapters\' states and the frozen weights'][stage]} divided over N${stage < 3 ? '; the frozen weights are whole on every GPU' : ''}`);
  return { weights: frozen + weights, gradients, optimizer, assumptions };
}
