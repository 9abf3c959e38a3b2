/**
 * How a pipeline splits the decoder layers over its stages and model chunks (PP × VPP chunks; chunk
 * c runs on pipeline rank c mod PP, as Megatron numbers them), and the load of the ranks that set
 * its pace. Three splits:
 * - even: every chunk the same number of layers;
 * - embedding-loss: the embedding and the loss each counted as one layer (Megatron's
 *   `--account-for-embedding-in-pipeline-split --account-for-loss-in-pipeline-split`), so the
 *   first and last chunk hold one layer fewer;
 * - uneven: the chunks take unequal numbers of layers, as Megatron-Core's
 *   `--pipeline-model-parallel-layout` (from 0.13.0) or `--decoder-first/last-pipeline-num-layers`
 *   (from 0.9.0) write them. The planner's own uneven split gives the embedding and the loss one
 *   layer's place each and every chunk at most ⌈(layers + 2) / chunks⌉ places; a file's own
 *   gives the layers of each chunk.
 * The interleaved schedule runs the ranks in step, chunk by chunk, so a rank is priced as VPP
 * chunks of the heaviest (the pipeline moves at the pace of its slowest stage). Pure.
 */

/** A split other than the even one. */
export type Split = 'embedding-loss' | 'uneven';

/** The splits a search may use: only even ones, also the embedding and loss counted as layers, or any (an uneven layout where neither exists). */
export type SplitChoice = 'even' | 'accounted' | 'any';

/** What a layout says of its split: the kind, and with a file's own uneven layout, the decoder layers of each chunk in Megatron's order. */
export interface SplitOf {
  pp: number;
  vpp?: number;
  split?: Split;
  chunks?: readonly number[];
}

/** Layers per chunk of the planner's uneven split: the embedding and the loss one place each, spread over the chunks. */
export function unevenChunk(layers: number, chunks: number): number {
  return Math.ceil((layers + 2) / chunks);
}

/** Whether the planner's uneven split fits `chunks` chunks: each holds at least one of the embedding, the loss or a layer. */
export function unevenFits(layers: number, chunks: number): boolean {
  return chunks >= 1 && chunks <= layers + 2;
}

/**
 * How `pp` stages split `layers` as Megatron can: evenly (undefined), with the embedding and the
 * loss counted as layers, unevenly (where neither exists and `allow` is `any`), or not at all (null).
 */
export function layerSplit(layers: number, pp: number, allow: SplitChoice): Split | undefined | null {
  if (layers % pp === 0) return undefined;
  if (allow !== 'even' && pp > 2 && (layers + 2) % pp === 0) return 'embedding-loss';
  return allow === 'any' && unevenFits(layers, pp) ? 'uneven' : null;
}

/**
 * The virtual stages per rank a split allows: those dividing an even split's layers per rank; of
 * those that fit an uneven one (with `prune`), each that no other beats on both its rank's pace (VPP chunks of the
 * heaviest) and its bubble (PP − 1 heaviest chunks): more virtual stages only shrink the bubble when
 * the chunks shrink with them, and a slower pace or a larger bubble is never faster nor smaller.
 */
export function vppChoices(layers: number, l: Pick<SplitOf, 'pp' | 'split'>, max: number, divisors: (n: number) => number[], prune = true): number[] {
  if (l.split === 'uneven') {
    const fit: { v: number; pace: number; chunk: number }[] = [];
    for (let v = 1; v <= max && unevenFits(layers, l.pp * v); v++) fit.push({ v, chunk: unevenChunk(layers, l.pp * v), pace: v * unevenChunk(layers, l.pp * v) });
    const beats = (a: (typeof fit)[number], b: (typeof fit)[number]) => a.pace <= b.pace && a.chunk <= b.chunk && (a.pace < b.pace || a.chunk < b.chunk || a.v < b.v);
    return fit.filter((b) => !prune || !fit.some((a) => a !== b && beats(a, b))).map((x) => x.v);
  }
  return divisors((layers + (l.split === 'embedding-loss' ? 2 : 0)) / l.pp).filter((v) => v <= max);
}

/**
 * The load of the ranks that set the pipeline's pace, in layers per micro-batch: `rank`, a rank
 * running VPP chunks of the heaviest; `last`, the last rank's layers (beside which the output
 * layer and the loss run), its other chunks paced as the heaviest; `first`, the layers the
 * first rank holds beside the embedding (what its memory keeps); `chunk`, the heaviest chunk's.
 */
export function stageLoad(layers: number, l: SplitOf): { rank: number; first: number; last: number; chunk: number } {
  const vpp = Math.max(1, l.vpp ?? 1);
  const n = l.pp * vpp;
  if (l.split === 'uneven' && l.chunks && l.chunks.length === n && n > 0) {
    const c = l.chunks;
    // The heaviest chunk other than the last (the last is weighed with the loss beside it).
    const heavy = n > 1 ? Math.max(...c.slice(0, -1)) : c[0];
    const chunk = Math.max(heavy, c[n - 1]);
    const first = c.filter((_, i) => i % l.pp === 0).reduce((a, b) => a + b, 0);
    return { rank: vpp * heavy, first, last: (vpp - 1) * heavy + c[n - 1], chunk };
  }
  if (l.split === 'uneven') {
    const k = unevenChunk(layers, n);
    return { rank: vpp * k, first: vpp * k - 1, last: vpp * k - 1, chunk: k };
  }
  if (l.split === 'embedding-loss') {
    const r = (layers + 2) / l.pp;
    return { rank: r, first: r - 1, last: r - 1, chunk: r / vpp };
  }
  const r = layers / l.pp;
  return { rank: r, first: r, last: r, chunk: r / vpp };
}

/**
 * The decoder layers of each chunk of a `--pipeline-model-parallel-layout` string (`E` embedding,
 * `t` transformer layer, `m` MTP layer, `L` loss; `|` between chunks; `(..)*n` and `x*n` repeat;
 * commas are spacing) or list of chunks (each a list of `embedding`, `decoder`, `mtp`, `loss`),
 * or undefined when it is neither.
 */
export function layoutChunks(layout: unknown): number[] | undefined {
  // Megatron Bridge also takes the layout as a list of chunks, each a list of layer-type names.
  if (Array.isArray(layout)) {
    if (!layout.length || !layout.every((c) => Array.isArray(c) && c.every((x) => typeof x === 'string'))) return undefined;
    return (layout as string[][]).map((c) => c.filter((x) => x.trim().toLowerCase() === 'decoder').length);
  }
  if (typeof layout !== 'string' || !layout.trim()) return undefined;
  let s = layout.replace(/,/g, '');
  // Repeats are unrolled as Megatron does: parenthesised groups first, then single characters.
  for (let i = 0; i < 8 && /\(/.test(s); i++) s = s.replace(/\(([^()]+)\)\*(\d+)/g, (_, body: string, k: string) => body.repeat(Number(k)));
  s = s.replace(/(.)\*(\d+)/g, (_, ch: string, k: string) => ch.repeat(Number(k)));
  if (!/^[ELtm|]*$/.test(s)) return undefined;
  return s.split('|').map((chunk) => [...chunk].filter((ch) => ch === 't').length);
}

/**
 * The decoder layers of each chunk with `--decoder-first-pipeline-num-layers` and
 * `--decoder-last-pipeline-num-layers`: the first and last stage as given, the other stages the
 * rest evenly, each stage's layers spread evenly over its VPP chunks (Megatron-Core's
 * get_num_layers_to_build). Undefined where Megatron would refuse the split.
 */
export function firstLastChunks(layers: number, pp: number, vpp: number, first?: number, last?: number): number[] | undefined {
  if (pp < 2) return undefined;
  let rest = layers;
  let stages = pp;
  if (first !== undefined) (rest -= first), stages--;
  if (last !== undefined) (rest -= last), stages--;
  if (rest < 0 || (stages > 0 && rest % stages !== 0)) return undefined;
  const perRank = (r: number) => (r === 0 && first !== undefined ? first : r === pp - 1 && last !== undefined ? last : stages > 0 ? rest / stages : 0);
  const out: number[] = [];
  for (let c = 0; c < pp * vpp; c++) {
    const p = perRank(c % pp);
    if (p % vpp !== 0) return undefined;
    out.push(p / vpp);
  }
  return out;
}
