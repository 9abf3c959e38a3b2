/**
 * The order of layouts the step model cannot tell apart. Two steps closer than the model's measured
 * error (`TIE_BAND`, `TIE_BAND_MOE` for mixtures of experts) are a tie; ties are ordered by the rules practitioners publish for choosing a
 * layout, applied one after another (a lexicographic key: a later rule only decides between layouts
 * the earlier ones leave equal), and by time only after all of them. No rule changes a step's price.
 * Pure.
 */
import { TIE_BAND, tieBandOf, type Layout, type Workload } from './steptime';

/** One published rule for choosing a layout: how far a layout is from following it (0: follows it). */
export interface PreferenceRule {
  id: string;
  /** The rule in a few words, as the planner's answers name it. */
  text: string;
  source: string;
  cost(w: Workload, l: Pick<Layout, 'tp' | 'pp' | 'cp' | 'ep' | 'etp' | 'recompute'> & Partial<Pick<Layout, 'fsdp'>>): number;
}

const MOE_GUIDE = 'Megatron-Core MoE guide, megatron/core/transformer/moe/README.md @ d98e8a6, “Select Optimal Parallelism Strategy”';
const PTDP = 'Narayanan et al. 2021, Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM';

/** Sequence length from which context parallelism is worth its communication. */
export const CP_MIN_SEQUENCE = 8192;

/** The rules, in the order they are applied. */
export const PREFERENCE_RULES: readonly PreferenceRule[] = [
  {
    id: 'ep-in-nvlink',
    text: 'expert-parallel group (EP × expert TP) within the NVLink domain',
    source: `${MOE_GUIDE}, Guideline 2: keep EP × TP within one NVLink domain; beyond it, add pipeline stages rather than widen EP or TP across nodes`,
    cost: (w, l) => ((w.model.experts ?? 0) > 0 && l.ep * l.etp > w.nvlinkDomain ? 1 : 0),
  },
  {
    id: 'cp-long-sequences',
    text: `context parallelism only for sequences of ${CP_MIN_SEQUENCE / 1024}K tokens or more`,
    source: `${MOE_GUIDE}, Guideline 5: context parallelism for sequences of 8K tokens or more`,
    cost: (w, l) => (l.cp > 1 && w.seqLength < CP_MIN_SEQUENCE ? 1 : 0),
  },
  {
    id: 'ep-over-tp',
    text: 'experts split by EP rather than by tensor parallelism (expert TP 1 while EP can still grow)',
    source: `${MOE_GUIDE}, Guideline 4: prefer EP over TP for the expert layers (larger local GEMMs, less communication; Mixtral 8x7B runs faster at EP 8 × TP 1 than at EP 4 × TP 2)`,
    // Only where EP could take the expert TP's place: with EP at the number of experts, expert TP is the one way left to split them.
    cost: (w, l) => ((w.model.experts ?? 0) > 0 && l.etp > 1 && l.ep * l.etp <= (w.model.experts ?? 0) ? 1 : 0),
  },
  {
    id: 'distributed-optimizer',
    text: 'the distributed optimizer rather than fully sharded parameters (Megatron-FSDP)',
    source: `${MOE_GUIDE}, Guideline 1: keep model parallelism small and data parallelism large, using the distributed optimizer (--use-distributed-optimizer) to shard optimizer states across the data-parallel ranks`,
    cost: (_w, l) => (l.fsdp ? 1 : 0),
  },
  {
    id: 'no-recompute',
    text: 'no recomputation: the layout fits without it',
    source: `${MOE_GUIDE}, “Memory Bottleneck”: being forced into full recomputation is the sign of a layout at its memory limit; ${PTDP}, §3, takeaway #2: model parallelism large enough for the model to fit (the smallest model-parallel size counts among layouts that fit alike)`,
    cost: (_w, l) => (l.recompute === 'none' ? 0 : 1),
  },
  {
    id: 'least-model-parallel',
    text: 'the smallest model-parallel size TP × PP × CP (the most data parallelism)',
    source: `${MOE_GUIDE}, Guideline 1: keep model parallelism as small as memory allows and data parallelism as large; ${PTDP}, §3, takeaway #2: a model-parallel size just large enough for the model to fit, data parallelism for the rest`,
    cost: (_w, l) => l.tp * l.pp * l.cp,
  },
  {
    id: 'moe-stages-over-tp',
    text: 'for a mixture-of-experts model, pipeline stages rather than tensor parallelism (at the same model-parallel size)',
    source: `${MOE_GUIDE}, Guideline 1: keep TP as small as memory allows; Guideline 3: pipeline parallelism to distribute the layers; Guideline 4: EP rather than TP for the experts. In a mixture-of-experts model TP splits only the attention and dense layers, while its collectives and the sequence-parallel gathers around the router run in every layer`,
    cost: (w, l) => ((w.model.experts ?? 0) > 0 ? l.tp : 0),
  },
  {
    id: 'fewer-stages',
    text: 'fewer pipeline stages (tensor parallelism inside the node first)',
    source: `${PTDP}, §3, takeaway #1: tensor parallelism up to the GPUs of a server, pipeline parallelism across servers; ${MOE_GUIDE}, Guideline 3: pipeline parallelism to scale beyond the NVLink domain`,
    cost: (_w, l) => l.pp,
  },
  {
    id: 'fewest-local-experts',
    text: 'the experts split over as many EP ranks as the rules above allow (the fewest experts per GPU)',
    source: `${MOE_GUIDE}, Guideline 4: EP rather than TP for the expert layers, and with EP at the number of experts the local token permutation is eliminated; NVIDIA, Scalable Training of Mixture-of-Experts Models with Megatron Core (technical report, 2026), §9.2.2: EP 64 chosen for DeepSeek-V3 on GB200 and H100 so that each GPU holds four of the 256 experts. EP is folded into the data-parallel ranks (§3.3, Parallel Folding), so a larger EP does not take data parallelism from the dense layers; ep-in-nvlink, earlier, keeps it inside the NVLink domain`,
    cost: (w, l) => ((w.model.experts ?? 0) > 0 ? (w.model.experts ?? 0) / l.ep : 0),
  },
];

/** A layout's key: each rule's cost, in order. */
export function preferenceKey(w: Workload, l: Pick<Layout, 'tp' | 'pp' | 'cp' | 'ep' | 'etp' | 'recompute'> & Partial<Pick<Layout, 'fsdp'>>): number[] {
  return PREFERENCE_RULES.map((r) => r.cost(w, l));
}

/** The first rule on which two keys differ (negative: `a` follows it better), or undefined when they are equal. */
export function decidingRule(a: readonly number[], b: readonly number[]): { rule: PreferenceRule; sign: number } | undefined {
  for (let i = 0; i < PREFERENCE_RULES.length; i++) if (a[i] !== b[i]) return { rule: PREFERENCE_RULES[i], sign: Math.sign(a[i] - b[i]) };
  return undefined;
}

/** How a layout came to its rank. */
export interface RankOrder {
  /** Its step is within the model's error of the fastest layout's: ranked by the rules, then by time. */
  tied: boolean;
  /** Ranked above a layout whose step is shorter (the fastest such one, `rank`), by this rule. */
  above?: { rule: PreferenceRule; rank: number };
  /** Ranked below a layout whose step is longer (the first such one, `rank`), by this rule. */
  below?: { rule: PreferenceRule; rank: number };
}

/** The highest step time tied with the fastest, `fastest` seconds, within the tie band of the model's kind (dense unless given). */
export function tieLimit(fastest: number, band = TIE_BAND.value): number {
  return fastest * Math.exp(band);
}

/**
 * Layouts sorted by step time, reordered: those tied with the first by the rules, then by time;
 * the others stay in time order after them. Each gets how its rank was decided.
 */
export function orderTies<T extends { layout: Pick<Layout, 'tp' | 'pp' | 'cp' | 'ep' | 'etp' | 'recompute'> & Partial<Pick<Layout, 'fsdp'>>; step: { seconds: number } }>(w: Workload, byTime: readonly T[]): (T & { order: RankOrder })[] {
  if (!byTime.length) return [];
  const limit = tieLimit(byTime[0].step.seconds, tieBandOf(w.model).value);
  const n = byTime.findIndex((x) => x.step.seconds > limit);
  const tied = (n < 0 ? byTime : byTime.slice(0, n)).map((x) => ({ x, key: preferenceKey(w, x.layout) }));
  tied.sort((a, b) => decidingRule(a.key, b.key)?.sign || a.x.step.seconds - b.x.step.seconds);
  const out: (T & { order: RankOrder })[] = tied.map((t) => ({ ...t.x, order: { tied: true } }));
  const seconds = (i: number) => tied[i].x.step.seconds;
  for (let i = 0; i < tied.length; i++) {
    let fastest = -1;
    for (let j = i + 1; j < tied.length; j++) if (seconds(j) < seconds(i) && (fastest < 0 || seconds(j) < seconds(fastest))) fastest = j;
    const over = fastest < 0 ? undefined : decidingRule(tied[i].key, tied[fastest].key);
    if (over) out[i].order.above = { rule: over.rule, rank: fastest + 1 };
    const first = tied.findIndex((t, j) => j < i && t.x.step.seconds > seconds(i));
    const under = first < 0 ? undefined : decidingRule(tied[first].key, tied[i].key);
    if (under) out[i].order.below = { rule: under.rule, rank: first + 1 };
  }
  for (const x of n < 0 ? [] : byTime.slice(n)) out.push({ ...x, order: { tied: false } });
  return out;
}
