/**
 * The layout as a picture (SVG, deterministic, no script and no remote resource): nodes as rows of
 * GPU cells, each labelled with its rank and coloured by the group picked (TP group, PP stage, DP
 * replica, CP group, EP group); NVLink domains outlined (a rack-scale domain spans its nodes); the
 * collectives of the picked group drawn for the group of rank 0 over the fabric they cross, with
 * the data each GPU sends per step; the memory of the most loaded GPU against its HBM; the world
 * equation of each grid on top. Above FOLD_ABOVE GPUs the middle nodes are folded, and it says so.
 */
import { fmtGiB, planMemory } from './layout';
import type { Plan } from './plan';
import { coordinates, placement, rankAt, rankMap, type GridDim, type RankGrid, type RankMap } from './ranks';
import { groupTraffic } from './traffic';
import { fmtStep, planStep } from './advise';

export type ColourBy = 'tp' | 'pp' | 'dp' | 'cp' | 'ep';
export const COLOUR_BY: readonly ColourBy[] = ['tp', 'pp', 'dp', 'cp', 'ep'];

/** Pictures of more GPUs than this show the first FOLD_HEAD nodes and the last one. */
export const FOLD_ABOVE = 1024;
const FOLD_HEAD = 8;

const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac', '#86bcb6', '#d37295'];
/** Dark text on the light colours of the palette, white on the others (relative luminance above 0.45). */
function textOn(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.45 ? '#1f2328' : '#ffffff';
}
const CELL = 40;
const GAP = 4;
const LEFT = 96;
const NVLINK = '#2e7d32';
const SCALE_OUT = '#c62828';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const NAMES: Record<ColourBy, string> = { tp: 'TP group', pp: 'PP stage', dp: 'DP replica', cp: 'CP group', ep: 'EP group' };

/** The grid and dimension a colouring reads: EP groups live in the expert grid. */
function colourGrid(m: RankMap, by: ColourBy): { grid: RankGrid; dim: GridDim['name'] | 'dp*' } {
  if (by === 'ep') return { grid: m.expert ?? m.dense, dim: 'ep' };
  if (by === 'dp') return { grid: m.dense, dim: 'dp*' };
  return { grid: m.dense, dim: by };
}

/**
 * The colour index of each rank: a group (TP, CP, EP: the ranks that differ only along it) is
 * numbered by its first rank; a stage or replica (PP, DP) by its coordinate.
 */
export function colourIndex(m: RankMap, by: ColourBy, rank: number): number {
  const { grid, dim } = colourGrid(m, by);
  const c = coordinates(grid, rank);
  if (dim === 'dp*') return (c.dp ?? 0) + (c.dp_shard ?? 0) + (c.dp_replicate ?? 0) * (grid.dims.find((d) => d.name === 'dp_shard')?.size ?? 1);
  if (dim === 'pp') return c.pp ?? 0;
  if (!(dim in c)) return 0;
  return rankAt(grid, { ...c, [dim]: 0 });
}

/** The ranks in the group of `rank` along the colouring's dimension. */
export function groupOf(m: RankMap, by: ColourBy, rank: number): number[] {
  const { grid, dim } = colourGrid(m, by);
  const c = coordinates(grid, rank);
  const dims = dim === 'dp*' ? grid.dims.filter((d) => d.name === 'dp' || d.name === 'dp_shard' || d.name === 'dp_replicate') : grid.dims.filter((d) => d.name === dim);
  let ranks = [rankAt(grid, { ...c, ...Object.fromEntries(dims.map((d) => [d.name, 0])) })];
  for (const d of dims) {
    const next: number[] = [];
    for (const r of ranks) for (let i = 0; i < d.size; i++) next.push(rankAt(grid, { ...coordinates(grid, r), [d.name]: i }));
    ranks = next;
  }
  return [...new Set(ranks)].sort((a, b) => a - b);
}

/** One line per grid: the world as the product of its degrees (true by construction). */
export function worldEquations(m: RankMap): string[] {
  const label: Record<GridDim['name'], string> = { tp: 'TP', cp: 'CP', dp: 'DP', pp: 'PP', etp: 'expert TP', ep: 'EP', edp: 'expert DP', sp: 'SP', dp_shard: 'dp_shard', dp_replicate: 'dp_replicate' };
  const line = (g: RankGrid, what: string) => `${what}${m.world} GPUs = ${g.dims.map((d) => `${label[d.name]} ${d.size}`).join(' × ')}`;
  return [line(m.dense, m.expert ? 'dense layers: ' : ''), ...(m.expert ? [line(m.expert, 'expert layers: ')] : [])];
}

/** The nodes drawn: all of them, or the first FOLD_HEAD and the last with a fold between. */
function shownNodes(m: RankMap): { nodes: number[]; folded?: { from: number; to: number } } {
  const count = Math.ceil(m.world / m.gpusPerNode);
  if (m.world <= FOLD_ABOVE || count <= FOLD_HEAD + 1) return { nodes: [...Array(count).keys()] };
  return { nodes: [...Array(FOLD_HEAD).keys(), count - 1], folded: { from: FOLD_HEAD, to: count - 2 } };
}

export interface PictureOptions {
  colourBy?: ColourBy;
}

/** The SVG picture of a layout, or undefined when its degrees do not give a rank grid. */
export function layoutSvg(p: Plan, options: PictureOptions = {}): string | undefined {
  const m = rankMap(p);
  if (!m) return undefined;
  const by = options.colourBy ?? 'tp';
  const { nodes, folded } = shownNodes(m);
  const perRow = m.gpusPerNode;
  const header = worldEquations(m);
  const top = 44 + header.length * 18 + 26;
  const rowY: number[] = [];
  let y = top;
  for (let i = 0; i < nodes.length; i++) {
    if (folded && i === FOLD_HEAD) y += 28;
    rowY.push(y);
    y += CELL + GAP;
  }
  const cellX = (local: number) => LEFT + local * (CELL + GAP);
  const centre = (rank: number) => {
    const at = placement(m, rank);
    const row = nodes.indexOf(at.node);
    return row < 0 ? undefined : { x: cellX(at.local) + CELL / 2, y: rowY[row] + 6 };
  };
  const width = Math.max(LEFT + perRow * (CELL + GAP) + 24, 760);
  const parts: string[] = [];
  parts.push(`<text x="12" y="22" class="title">${esc(p.runtime)} · ${m.world} GPUs on ${Math.ceil(m.world / perRow)} node${m.world > perRow ? 's' : ''} of ${perRow}</text>`);
  parts.push(`<text x="12" y="40" class="legend">${esc(p.hardware.profile.title)} · NVLink domain ${m.nvlinkDomain} GPUs</text>`);
  header.forEach((h, i) => parts.push(`<text x="12" y="${60 + i * 18}" class="equation">${esc(h)}</text>`));
  parts.push(`<text x="12" y="${top - 10}" class="legend">colour: ${NAMES[by]} · rank order: ${esc((by === 'ep' && m.expert ? m.expert : m.dense).order)}</text>`);
  parts.push(...domainOutlines(m, nodes, rowY, cellX));
  const colour = colourer(m, by);
  nodes.forEach((node, row) => parts.push(...nodeRow(m, colour, node, rowY[row], cellX)));
  if (folded) parts.push(`<text x="${LEFT}" y="${rowY[FOLD_HEAD] - 10}" class="fold">… ${folded.to - folded.from + 1} nodes folded (${folded.from}–${folded.to}, ranks ${folded.from * perRow}–${(folded.to + 1) * perRow - 1}): the same pattern repeats …</text>`);
  const below = collectives(p, m, by, centre, y + 18);
  parts.push(...below.svg);
  const mem = memoryBar(p, below.y + 10, width);
  parts.push(...mem.svg);
  const step = stepBand(p, mem.y);
  parts.push(...step.svg);
  const height = step.y + 12;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(`Parallel layout: ${header.join('; ')}`)}">`,
    '<style>text{font-family:ui-monospace,Menlo,Consolas,monospace;fill:var(--sw-fg,#1f2328)}.title{font-size:13px;font-weight:600}.equation{font-size:12px}.legend,.fold,.note{font-size:11px}.rank{font-size:11px;text-anchor:middle}.node{font-size:11px}.domain{fill:none;stroke:' + NVLINK + ';stroke-width:2;stroke-dasharray:5 3}</style>',
    ...parts,
    '</svg>',
  ].join('\n');
}

/** Colours numbered in the order the groups first appear, so that neighbouring groups differ. */
function colourer(m: RankMap, by: ColourBy): (rank: number) => string {
  const ordinal = new Map<number, number>();
  return (rank) => {
    const key = colourIndex(m, by, rank);
    let n = ordinal.get(key);
    if (n === undefined) ordinal.set(key, (n = ordinal.size));
    return PALETTE[n % PALETTE.length];
  };
}

function nodeRow(m: RankMap, colour: (rank: number) => string, node: number, y: number, cellX: (l: number) => number): string[] {
  const out = [`<text x="12" y="${y + CELL / 2 + 4}" class="node">node ${node}</text>`];
  for (let local = 0; local < m.gpusPerNode; local++) {
    const rank = node * m.gpusPerNode + local;
    if (rank >= m.world) break;
    const coords = { ...coordinates(m.dense, rank), ...(m.expert ? Object.fromEntries(Object.entries(coordinates(m.expert, rank)).map(([k, v]) => [k, v])) : {}) };
    const data = Object.entries(coords).map(([k, v]) => ` data-${k.replace('_', '-')}="${v}"`).join('');
    const fill = colour(rank);
    out.push(`<g class="gpu" data-rank="${rank}" data-node="${node}" data-local="${local}"${data}><rect x="${cellX(local)}" y="${y}" width="${CELL}" height="${CELL}" rx="4" fill="${fill}"/><text x="${cellX(local) + CELL / 2}" y="${y + CELL / 2 + 4}" class="rank" style="fill:${textOn(fill)}">${rank}</text></g>`);
  }
  return out;
}

/** NVLink domains: one outline per domain across the rows it spans, or per part of a row. */
function domainOutlines(m: RankMap, nodes: number[], rowY: number[], cellX: (l: number) => number): string[] {
  const out: string[] = [];
  const d = m.nvlinkDomain;
  const gpn = m.gpusPerNode;
  if (d >= gpn && d % gpn === 0) {
    const per = d / gpn;
    const groups = new Map<number, number[]>();
    nodes.forEach((n, row) => groups.set(Math.floor(n / per), [...(groups.get(Math.floor(n / per)) ?? []), row]));
    for (const [domain, rows] of groups) {
      const first = rows[0];
      const last = rows[rows.length - 1];
      const used = Math.min(gpn, m.world - nodes[first] * gpn);
      out.push(`<rect class="domain" data-domain="${domain}" x="${cellX(0) - 2}" y="${rowY[first] - 2}" width="${used * (CELL + GAP)}" height="${rowY[last] - rowY[first] + CELL + 4}" rx="6"/>`);
    }
    return out;
  }
  nodes.forEach((n, row) => {
    for (let start = 0; start < gpn && n * gpn + start < m.world; ) {
      const rank = n * gpn + start;
      const end = Math.min(gpn, start + (d - (rank % d)), m.world - n * gpn);
      out.push(`<rect class="domain" data-domain="${Math.floor(rank / d)}" x="${cellX(start) - 2}" y="${rowY[row] - 2}" width="${(end - start) * (CELL + GAP)}" height="${CELL + 4}" rx="6"/>`);
      start = end;
    }
  });
  return out;
}

/** The collectives of the picked group for the group of rank 0: members joined, the fabric, the data per step. */
function collectives(p: Plan, m: RankMap, by: ColourBy, centre: (r: number) => { x: number; y: number } | undefined, y: number): { svg: string[]; y: number } {
  const members = groupOf(m, by, 0);
  const out: string[] = [];
  if (members.length <= 1) {
    out.push(`<text x="12" y="${y}" class="note">${NAMES[by]}s hold one GPU each: no collective.</text>`);
    return { svg: out, y: y + 8 };
  }
  const domains = new Set(members.map((r) => placement(m, r).domain));
  const inside = domains.size === 1;
  const fabric = inside ? p.hardware.profile.scaleUp : `${p.hardware.profile.scaleOut} (the group spans ${domains.size} NVLink domains)`;
  const points = members.map(centre).filter((c): c is { x: number; y: number } => !!c);
  if (points.length > 1) out.push(`<polyline class="collective" data-fabric="${inside ? 'nvlink' : 'scale-out'}" points="${points.map((c) => `${c.x},${c.y}`).join(' ')}" fill="none" stroke="${inside ? NVLINK : SCALE_OUT}" stroke-width="2.5" stroke-opacity="0.8"${inside ? '' : ' stroke-dasharray="6 3"'}/>`);
  const shown = members.length > 8 ? `${members.slice(0, 6).join(', ')}, … ${members[members.length - 1]}` : members.join(', ');
  out.push(`<text x="12" y="${y}" class="note">${NAMES[by]} of rank 0: ranks ${esc(shown)} (${members.length}) over ${esc(fabric)}</text>`);
  const dim = by === 'tp' || by === 'dp' || by === 'pp' ? by : undefined;
  const t = dim ? groupTraffic(p, dim) : undefined;
  const lines = t ? [`${t.collective}: ${fmtGiB(t.bytes)} GiB sent per GPU per step`, `  = ${t.formula}`] : [dim ? 'data per step: the config does not give the model, sequence length and batch it needs' : `data per step: ${by.toUpperCase()} traffic is not modelled yet`];
  lines.forEach((l, i) => out.push(`<text x="12" y="${y + 16 * (i + 1)}" class="note">${esc(l)}</text>`));
  return { svg: out, y: y + 16 * lines.length + 8 };
}

/** The estimated step as a band: the priced lower bound and the calibrated expectation. */
function stepBand(p: Plan, y: number): { svg: string[]; y: number } {
  const e = planStep(p);
  if (!e) return { svg: [], y };
  const mfu = (x: number | undefined) => (x === undefined ? '' : `, MFU ${(x * 100).toFixed(0)} %`);
  return {
    svg: [
      `<text x="12" y="${y + 12}" class="note">${esc(`step: at best ~${fmtStep(e.seconds)}${mfu(e.mfu)} (the priced lower bound); expected ~${fmtStep(e.expected.seconds)}${mfu(e.expected.mfu)} (× ${e.expected.factor}, the median gap to published runs)`)}</text>`,
    ],
    y: y + 20,
  };
}

/** Weights, gradients and optimizer state, then activations, of the most loaded GPU against its HBM. */
function memoryBar(p: Plan, y: number, width: number): { svg: string[]; y: number } {
  const mem = planMemory(p);
  if (!mem && p.model && !p.world) return { svg: [`<text x="12" y="${y + 12}" class="note">memory: the world size is not known, and the states are divided over the data-parallel ranks (\`shardwise layout\` gives the estimate per DP size)</text>`], y: y + 20 };
  if (!mem) return { svg: [`<text x="12" y="${y + 12}" class="note">memory: the config does not describe the model (a \`model\` setting names a preset)</text>`], y: y + 20 };
  const hbm = p.hardware.profile.hbmGiB * 1024 ** 3;
  const full = width - LEFT - 24;
  const scale = full / Math.max(hbm, mem.bytes.total);
  const states = mem.bytes.weights + mem.bytes.gradients + mem.bytes.optimizer;
  const who = p.pp.value > 1 ? 'the most loaded pipeline stage (the first)' : 'each GPU';
  const over = mem.bytes.total > hbm;
  return {
    svg: [
      `<text x="12" y="${y + 13}" class="node">memory</text>`,
      `<rect x="${LEFT}" y="${y}" width="${(hbm * scale).toFixed(1)}" height="18" fill="none" stroke="#888"/>`,
      `<rect class="states" x="${LEFT}" y="${y}" width="${(states * scale).toFixed(1)}" height="18" fill="#4e79a7"/>`,
      `<rect class="activations" x="${(LEFT + states * scale).toFixed(1)}" y="${y}" width="${(mem.bytes.activations * scale).toFixed(1)}" height="18" fill="#f28e2b"/>`,
      `<text x="12" y="${y + 34}" class="note">${esc(`${who}: ${fmtGiB(mem.bytes.total)} GiB of ${p.hardware.profile.hbmGiB} GiB HBM${over ? ' — over the HBM' : ''}`)}</text>`,
      `<text x="12" y="${y + 50}" class="note">${esc(`  weights, gradients and optimizer ${fmtGiB(states)} GiB (blue) + activations ${fmtGiB(mem.bytes.activations)} GiB (orange)`)}</text>`,
    ],
    y: y + 58,
  };
}
