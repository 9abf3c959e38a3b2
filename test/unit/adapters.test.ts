/**
 * LoRA and QLoRA recipes in the Plan: the adapter parameters counted from the model shape as PEFT
 * builds them, the frozen base in 16, 8 or 4 bits, and the memory of a run that trains only the
 * adapters — never shown as if DP were 1 when the world size is unknown and states are divided over it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyze, layoutText } from '../../server/src/engine';
import { adapterStates, loraTrainable, quantizedBytes } from '../../server/src/engine/plan/adapters';
import { planMemory } from '../../server/src/engine/plan/layout';
import { modelPreset } from '../../server/src/engine/plan/models';
import type { Plan } from '../../server/src/engine/plan/plan';

const llama8b = modelPreset('llama-3-8b')!.shape;
const qwen7b = modelPreset('qwen2.5-7b')!.shape;

function planOf(text: string, path = 'recipe.yaml', files: Record<string, string> = {}): { plan?: Plan; layout?: string } {
  const a = analyze({ path, text, resolve: (ref) => (ref in files ? { ref, path: ref, text: files[ref], tried: [ref] } : { ref, tried: [ref] }) }, {});
  return { plan: a.docs[0]?.plan, layout: layoutText(a) };
}

test('LoRA rank 8 on every linear layer of Llama 3 8B: 20,971,520 trainable parameters (what PEFT prints for it)', () => {
  const c = loraTrainable(llama8b, 8, 'all-linear');
  assert.ok('count' in c);
  assert.equal(c.count, 20_971_520);
});

test("LoRA rank 16 on q_proj, v_proj of Qwen2.5 7B (PEFT's default targets for qwen2, src/peft/utils/constants.py@v0.20.0:101): 5,046,272", () => {
  const c = loraTrainable(qwen7b, 16, ['q_proj', 'v_proj']);
  assert.ok('count' in c);
  assert.equal(c.count, 5_046_272);
});

test('a module whose shape is not known, and all-linear on a MoE model, are not counted', () => {
  assert.ok('unknown' in loraTrainable(llama8b, 8, ['q_proj', 'lm_head']));
  assert.ok('unknown' in loraTrainable(modelPreset('mixtral-8x7b')!.shape, 8, 'all-linear'));
  assert.ok('count' in loraTrainable(modelPreset('mixtral-8x7b')!.shape, 8, ['q_proj', 'v_proj']));
});

test('4-bit frozen weights: half a byte plus one fp32 absmax per block of 64 (bitsandbytes, QLoRA paper §3)', () => {
  assert.equal(quantizedBytes(4), 0.5625);
  const a = { trainable: 20_971_520, frozenBits: 4 as const, targets: 'all', rank: 8 };
  const q = adapterStates(llama8b, a, { kind: 'none', group: 1 }, 1);
  const full = adapterStates(llama8b, { ...a, frozenBits: 16 }, { kind: 'none', group: 1 }, 1);
  // 16-bit: 8.03B × 2 bytes ≈ 15 GiB of frozen weights; 4-bit: the block linears at 0.5625 B, embeddings and output layer at 2 B.
  assert.ok(full.weights / 2 ** 30 > 14.9 && full.weights / 2 ** 30 < 15.1, String(full.weights / 2 ** 30));
  assert.ok(q.weights / 2 ** 30 > 5.5 && q.weights / 2 ** 30 < 5.9, String(q.weights / 2 ** 30));
  // Gradients and Adam state only for the adapters (fp32: 4 + 8 bytes each).
  assert.equal(q.gradients, 20_971_520 * 4);
  assert.equal(q.optimizer, 20_971_520 * 8);
});

test('ZeRO-3 partitions the frozen weights too; ZeRO-2 only the adapters\' gradients and optimizer state', () => {
  const a = { trainable: 20_971_520, frozenBits: 16 as const, targets: 'all', rank: 8 };
  const z2 = adapterStates(llama8b, a, { kind: 'zero', stage: 2, group: 8 }, 1);
  const z3 = adapterStates(llama8b, a, { kind: 'zero', stage: 3, group: 8 }, 1);
  assert.equal(z2.optimizer, (20_971_520 * 8) / 8);
  assert.ok(z3.weights < z2.weights / 7);
});

const LF_QLORA = `model_name_or_path: meta-llama/Meta-Llama-3-8B-Instruct
quantization_bit: 4
stage: sft
do_train: true
finetuning_type: lora
lora_target: all
cutoff_len: 2048
output_dir: saves/llama3-8b/lora/sft
per_device_train_batch_size: 1
gradient_accumulation_steps: 8
learning_rate: 1.0e-4
bf16: true
`;

test("a LLaMA-Factory QLoRA recipe (no DeepSpeed): rank 8 by LLaMA-Factory's default (hparams/finetuning_args.py@ff6d4d1:77), 4-bit base, per-GPU memory that does not depend on DP", () => {
  const { plan, layout } = planOf(LF_QLORA);
  assert.ok(plan?.adapter, 'adapter in the plan');
  assert.equal(plan.adapter.value.rank, 8);
  assert.equal(plan.adapter.value.frozenBits, 4);
  assert.equal(plan.adapter.value.trainable, 20_971_520);
  assert.equal(plan.sharding.from.kind, 'assumed');
  const mem = planMemory(plan);
  assert.ok(mem && mem.bytes.total / 2 ** 30 < 20, 'fits in 20 GiB');
  assert.match(layout ?? '', /\? GPUs = DP \?/);
  assert.match(layout ?? '', /4 bits/);
});

test('a TRL recipe with use_peft and ZeRO-3 but no world size: the memory is given per DP size, never as DP 1', () => {
  const text = 'model_name_or_path: Qwen/Qwen2.5-7B-Instruct\nuse_peft: true\nlora_r: 16\nper_device_train_batch_size: 2\ngradient_accumulation_steps: 4\nlearning_rate: 2.0e-4\noutput_dir: out\nbf16: true\ndeepspeed: ds.json\n';
  const { plan, layout } = planOf(text, 'recipe.yaml', { 'ds.json': '{"train_micro_batch_size_per_gpu": "auto", "zero_optimization": {"stage": 3}}' });
  assert.ok(plan?.adapter);
  assert.equal(plan.adapter.value.trainable, 5_046_272);
  assert.equal(planMemory(plan), undefined);
  assert.match(layout ?? '', /world size is not known.*at DP 1, .*at DP 8/);
});

test('an axolotl LoRA config without lora_r (no default in axolotl, utils/schemas/peft.py@v0.18.0:53): no estimate, and the note says why', () => {
  const text = 'base_model: meta-llama/Meta-Llama-3-8B\nadapter: lora\nlora_target_linear: true\nmicro_batch_size: 2\nsequence_len: 2048\nnum_epochs: 1\nlearning_rate: 0.0002\noutput_dir: ./out\ndeepspeed: ds.json\n';
  const { plan } = planOf(text, 'config.yml', { 'ds.json': '{"zero_optimization": {"stage": 2}}' });
  assert.ok(plan);
  assert.equal(plan.adapter, undefined);
  assert.equal(plan.model, undefined);
  assert.ok(plan.notes.some((n) => /LoRA rank is not known/.test(n)), plan.notes.join('\n'));
});

test('the model from the config.json of a folder the repository holds', () => {
  const config = JSON.stringify({ model_type: 'llama', num_hidden_layers: 16, hidden_size: 2048, num_attention_heads: 32, num_key_value_heads: 8, head_dim: 64, intermediate_size: 8192, vocab_size: 128256, hidden_act: 'silu', rms_norm_eps: 1e-5, tie_word_embeddings: true });
  const text = 'model_name_or_path: ./models/small\nuse_peft: true\nlora_r: 8\nload_in_4bit: true\nper_device_train_batch_size: 4\nlearning_rate: 2.0e-4\noutput_dir: out\nbf16: true\n';
  const { plan } = planOf(text, 'recipe.yaml', { './models/small/config.json': config });
  assert.ok(plan?.adapter);
  // Llama 3.2 1B, q_proj and v_proj (PEFT's llama default), rank 8: 16 × 8 × ((2048 + 2048) + (2048 + 512)).
  assert.equal(plan.adapter.value.trainable, 16 * 8 * (4096 + 2560));
  assert.match(plan.model?.from.kind === 'derived' ? plan.model.from.formula : '', /config\.json/);
});

test('a full fine-tune with no DeepSpeed JSON gets no Plan (its sharding is the launch\'s), as before', () => {
  const text = LF_QLORA.replace('finetuning_type: lora', 'finetuning_type: full').replace('quantization_bit: 4\n', '');
  assert.equal(planOf(text).plan, undefined);
});
