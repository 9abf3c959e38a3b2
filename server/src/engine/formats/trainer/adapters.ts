/**
 * The LoRA/QLoRA settings of a fine-tuning recipe, as the program that reads it builds the PEFT
 * adapter: LLaMA-Factory (`finetuning_type: lora`, `lora_rank` default 8, `lora_target` default
 * `all`, `quantization_bit`: src/llamafactory/hparams/finetuning_args.py@ff6d4d1:77-90,
 * hparams/model_args.py@ff6d4d1:283-294), axolotl (`adapter: lora|qlora`, `lora_r` with no default,
 * `lora_target_modules`, `lora_target_linear`, `load_in_4bit`/`load_in_8bit`:
 * src/axolotl/utils/schemas/peft.py@v0.18.0, loaders/adapter.py@v0.18.0:167-200) and TRL's
 * ModelConfig (`use_peft`, `lora_r` default 16, `lora_target_modules` default None, which PEFT fills
 * per model type, `load_in_4bit`/`load_in_8bit`: trl/trainer/model_config.py@v1.9.0:103-160).
 */
import type { Field } from '../../plan/plan';
import type { SourceDoc } from '../../syntax/sourcedoc';
import type { Node } from '../../syntax/tree';
import type { Program } from './model';

export interface RecipeAdapter {
  /** How the recipe asks for adapters (`finetuning_type: lora`), for messages. */
  sign: string;
  rank?: Field<number>;
  /** Module names, every linear layer of the blocks, or PEFT's default for the model type. */
  modules?: Field<string[] | 'all-linear' | 'peft-default'>;
  bits: Field<16 | 8 | 4>;
  /** Why the trained parameters cannot be counted (not LoRA, whole modules trained too, a value not read). */
  unknown?: string;
}

function entry(doc: SourceDoc, key: string): { key: string; value: Node } | undefined {
  const root = doc.root;
  if (root?.kind !== 'map') return undefined;
  let found: { key: string; value: Node } | undefined;
  for (const e of root.entries) if (e.key === key || e.key.replace(/^--/, '').replace(/-/g, '_') === key) found = e;
  return found;
}

/** A scalar as written: a bare flag is true, numbers in strings are numbers; null when unset. */
function valueOf(doc: SourceDoc, key: string): { v: unknown; path: string[]; unknown?: boolean } | undefined {
  const e = entry(doc, key);
  if (!e) return undefined;
  const n = e.value;
  if (n.kind === 'seq') return { v: n.items.map((i) => (i.kind === 'scalar' ? i.value : undefined)), path: [e.key] };
  if (n.kind !== 'scalar') return { v: undefined, path: [e.key], unknown: true };
  if (n.unknown) return { v: undefined, path: [e.key], unknown: true };
  if (n.value === undefined && e.key.startsWith('--')) return { v: true, path: [e.key] };
  if (typeof n.value === 'string' && /^\d+$/.test(n.value.trim())) return { v: Number(n.value), path: [e.key] };
  if (typeof n.value === 'string' && /^(true|false)$/i.test(n.value.trim())) return { v: n.value.trim().toLowerCase() === 'true', path: [e.key] };
  return { v: n.value, path: [e.key] };
}

function rankField(doc: SourceDoc, key: string, fallback: number | undefined, where: string): Field<number> | undefined {
  const w = valueOf(doc, key);
  if (w && !w.unknown && typeof w.v === 'number' && Number.isInteger(w.v) && w.v > 0) return { value: w.v, from: { kind: 'written', path: w.path } };
  if (w && w.v !== null) return undefined;
  return fallback === undefined ? undefined : { value: fallback, from: { kind: 'default', note: `${where}'s default \`${key}\` ${fallback}` } };
}

function moduleList(v: unknown): string[] | undefined {
  if (typeof v === 'string') return v.split(',').map((s) => s.trim()).filter(Boolean);
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
  return undefined;
}

/** Bits of the frozen base from `load_in_4bit`/`load_in_8bit` (axolotl, TRL). */
function loadBits(doc: SourceDoc, qlora: boolean): Field<16 | 8 | 4> | undefined {
  for (const [key, bits] of [['load_in_4bit', 4], ['load_in_8bit', 8]] as const) {
    const w = valueOf(doc, key);
    if (w?.unknown) return undefined;
    if (w?.v === true) return { value: bits, from: { kind: 'written', path: w.path } };
  }
  return qlora ? undefined : { value: 16, from: { kind: 'default', note: 'no 4- or 8-bit loading asked for' } };
}

function llamaFactory(doc: SourceDoc): RecipeAdapter | undefined {
  const ft = valueOf(doc, 'finetuning_type')?.v;
  if (ft === undefined || ft === 'full' || ft === null) return undefined;
  const sign = `\`finetuning_type: ${String(ft)}\``;
  const q = valueOf(doc, 'quantization_bit');
  const method = valueOf(doc, 'quantization_method')?.v;
  const bits: Field<16 | 8 | 4> | undefined =
    !q || q.v === null ? { value: 16, from: { kind: 'default', note: 'no `quantization_bit`: the base is loaded in 16 bits' } } : (q.v === 4 || q.v === 8) && (method === undefined || method === 'bnb' || method === 'bitsandbytes') ? { value: q.v, from: { kind: 'written', path: q.path } } : undefined;
  if (ft !== 'lora') return { sign, bits: bits ?? { value: 16, from: { kind: 'unknown', note: 'quantization not read' } }, unknown: `${sign} trains other parameters than LoRA adapters` };
  if (!bits) return { sign, bits: { value: 16, from: { kind: 'unknown', note: '`quantization_bit` not read' } }, unknown: 'the quantization is not bitsandbytes 4 or 8 bits' };
  const extra = ['additional_target', 'use_dora', 'pissa_init', 'use_llama_pro', 'freeze_vision_tower'].find((k) => k === 'additional_target' ? valueOf(doc, k)?.v : k !== 'freeze_vision_tower' && valueOf(doc, k)?.v === true);
  if (extra) return { sign, bits, unknown: `\`${extra}\` trains or shapes parameters beyond plain LoRA` };
  const t = valueOf(doc, 'lora_target');
  const list = t ? moduleList(t.v) : ['all'];
  const modules: Field<string[] | 'all-linear'> | undefined = !list ? undefined : list.length === 1 && list[0] === 'all' ? { value: 'all-linear', from: t ? { kind: 'written', path: t.path } : { kind: 'default', note: "LLaMA-Factory's default `lora_target: all` (every linear layer but the output layer)" } } : { value: list, from: { kind: 'written', path: t!.path } };
  return { sign, rank: rankField(doc, 'lora_rank', 8, 'LLaMA-Factory'), modules, bits };
}

function axolotl(doc: SourceDoc): RecipeAdapter | undefined {
  const a = valueOf(doc, 'adapter')?.v;
  if (a !== 'lora' && a !== 'qlora') return a ? { sign: `\`adapter: ${String(a)}\``, bits: { value: 16, from: { kind: 'unknown', note: 'not read' } }, unknown: `\`adapter: ${String(a)}\` is not LoRA` } : undefined;
  const sign = `\`adapter: ${a}\``;
  const bits = loadBits(doc, a === 'qlora') ?? { value: 4 as const, from: { kind: 'derived' as const, formula: '`adapter: qlora` loads the base in 4 bits' } };
  const extra = ['lora_modules_to_save', 'peft_use_dora', 'lora_target_parameters', 'peft_layers_to_transform', 'lora_rank_pattern'].find((k) => { const v = valueOf(doc, k)?.v; return v !== undefined && v !== null && v !== false && !(Array.isArray(v) && !v.length); });
  if (extra) return { sign, bits, unknown: `\`${extra}\` trains or shapes parameters beyond plain LoRA` };
  const linear = valueOf(doc, 'lora_target_linear');
  const t = valueOf(doc, 'lora_target_modules');
  const list = t && t.v !== null ? moduleList(t.v) : [];
  const modules: Field<string[] | 'all-linear'> | undefined = linear?.v === true ? { value: 'all-linear', from: { kind: 'written', path: linear.path } } : list && list.length ? { value: list, from: { kind: 'written', path: t!.path } } : undefined;
  return { sign, rank: rankField(doc, 'lora_r', undefined, 'axolotl'), modules, bits };
}

function trl(doc: SourceDoc): RecipeAdapter | undefined {
  const u = valueOf(doc, 'use_peft');
  if (u?.v !== true) return undefined;
  const sign = '`use_peft: true`';
  const bits = loadBits(doc, false)!;
  const saved = valueOf(doc, 'lora_modules_to_save')?.v;
  if (saved !== undefined && saved !== null) return { sign, bits, unknown: '`lora_modules_to_save` trains whole modules as well' };
  if (valueOf(doc, 'use_dora')?.v === true) return { sign, bits, unknown: '`use_dora` adds magnitude vectors to the adapters' };
  const t = valueOf(doc, 'lora_target_modules');
  const list = t && t.v !== null ? moduleList(t.v) : undefined;
  const modules: Field<string[] | 'all-linear' | 'peft-default'> | undefined =
    !t || t.v === null ? { value: 'peft-default', from: { kind: 'default', note: "TRL's `lora_target_modules: None`: PEFT's default modules for the model type" } } : list && list.length === 1 && list[0] === 'all-linear' ? { value: 'all-linear', from: { kind: 'written', path: t.path } } : list ? { value: list, from: { kind: 'written', path: t.path } } : undefined;
  return { sign, rank: rankField(doc, 'lora_r', 16, "TRL's ModelConfig"), modules, bits };
}

/**
 * The recipe's adapter settings, when it trains adapters (a full fine-tune has none). A launched
 * script's flags (`program` undefined) are its own parser's, whose LoRA defaults are not known: not read.
 */
export function recipeAdapter(doc: SourceDoc, program: Program | undefined): RecipeAdapter | undefined {
  if (program === 'llama-factory') return llamaFactory(doc);
  if (program === 'axolotl') return axolotl(doc);
  return program === 'trainer' ? trl(doc) : undefined;
}
