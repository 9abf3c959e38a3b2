/**
 * The Plan in words: the hover section on a degree, and `shardwise layout`. One list of lines,
 * rendered as markdown or as plain text.
 */
import { gib, type MemoryEstimate } from './memory';
import { fmtGiB, groupFabrics, layoutSummary, planMemory } from './layout';
import { describeProvenance, type Field, type Plan } from './plan';
import { samePath, type Path } from '../types';
import { estimateLine } from './advise';

interface Row {
  label: string;
  field: Field<unknown> | undefined;
  show?: (v: unknown) => string;
}

function rows(p: Plan): Row[] {
  const r: Row[] = [
    { label: 'world size', field: p.world },
    { label: 'nodes', field: p.nodes },
    { label: 'processes per node', field: p.perNode },
    { label: 'TP (tensor parallel)', field: p.tp },
    { label: 'PP (pipeline parallel)', field: p.pp },
  ];
  if (p.vpp) r.push({ label: 'VPP (virtual stages per PP rank)', field: p.vpp });
  r.push({ label: 'CP (context parallel)', field: p.cp });
  if (p.ep.value > 1 || p.style === 'megatron') r.push({ label: 'EP (expert parallel)', field: p.ep }, { label: 'expert TP', field: p.etp });
  if (p.style !== 'megatron') {
    r.push({ label: 'DP replicate', field: p.dpReplicate }, { label: 'DP shard', field: p.dpShard });
    if (p.spDegree.value > 1) r.push({ label: 'SP (Ulysses sequence parallel)', field: p.spDegree });
  }
  r.push({ label: 'DP (data parallel)', field: p.dp });
  if (p.expertDp && p.ep.value > 1) r.push({ label: 'expert DP', field: p.expertDp });
  if (p.style === 'megatron') r.push({ label: 'sequence parallel', field: p.sp, show: (v) => (v ? 'on' : 'off') });
  r.push(
    { label: 'micro-batch', field: p.microBatch },
    { label: 'global batch', field: p.globalBatch },
    { label: 'micro-batches per step', field: p.numMicroBatches },
    { label: 'gradient accumulation', field: p.gradAccum },
    { label: 'sequence length', field: p.seqLength },
    { label: 'precision', field: p.precision },
    { label: 'sharding', field: p.sharding, show: (v) => shardingText(v as Plan['sharding']['value']) },
    { label: 'recompute', field: p.recompute },
  );
  if (p.adapter) r.push({ label: 'adapters (LoRA)', field: p.adapter, show: (v) => adapterText(v as NonNullable<Plan['adapter']>['value']) });
  if (p.distributedOptimizer) r.push({ label: 'distributed optimizer', field: p.distributedOptimizer, show: (v) => (v ? 'on' : 'off') });
  for (const [k, f] of Object.entries(p.overlap)) r.push({ label: OVERLAP_LABEL[k] ?? `${k} overlap`, field: f, show: (v) => (v ? 'on' : 'off') });
  return r.filter((x) => x.field !== undefined);
}

function adapterText(a: NonNullable<Plan['adapter']>['value']): string {
  return `rank ${a.rank}, ${(a.trainable / 1e6).toFixed(1)}M trainable, base in ${a.frozenBits} bits`;
}

function shardingText(s: Plan['sharding']['value']): string {
  switch (s.kind) {
    case 'none':
      return 'none (full replicas)';
    case 'distributed-optimizer':
      return `distributed optimizer over ${s.group} ranks`;
    case 'zero':
      return `ZeRO stage ${s.stage} over ${s.group > 1 ? `${s.group} ranks` : 'the data-parallel ranks'}${s.offloadOptimizer ? ', optimizer offloaded' : ''}${s.offloadParams ? ', parameters offloaded' : ''}`;
    case 'fsdp':
      return `FSDP ${s.fsdp} over ${s.group} ranks${s.offloadParams ? ', offloaded to CPU' : ''}`;
  }
}

const OVERLAP_LABEL: Record<string, string> = {
  gradReduce: 'gradient-reduce overlap',
  paramGather: 'parameter all-gather overlap',
  tpComm: 'TP communication overlap',
  p2p: 'pipeline send/receive overlap',
  moeA2A: 'EP all-to-all overlap',
};

function value(row: Row): string {
  const v = row.field!.value;
  return row.show ? row.show(v) : typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/**
 * Without a world size, states sharded over the data-parallel group take a share nobody knows: the
 * estimate for a few DP sizes, never one of them as if it were the run's.
 */
function perDpLine(p: Plan): string | undefined {
  const s = p.sharding.value;
  if (p.world || !p.model || p.notTraining) return undefined;
  const shown = [1, 2, 4, 8].map((dp) => ({ dp, mem: planMemory(p, { dp, sharding: { ...s, group: dp } }) }));
  if (shown.some((x) => !x.mem)) return undefined;
  const hbm = Math.round(p.hardware.profile.hbmGiB);
  const what = s.kind === 'zero' ? `ZeRO-${s.stage}` : s.kind === 'fsdp' ? 'FSDP' : "Megatron's distributed optimizer";
  const texts = shown.map((x) => fmtGiB(x.mem!.bytes.total));
  const each = texts.every((t) => t === texts[0]) ? `~${texts[0]} GiB at any DP from 1 to 8 (what it divides is small here)` : texts.map((t, i) => `~${t} GiB at DP ${shown[i].dp}`).join(', ');
  return `Memory per GPU: the world size is not known, and ${what} divides states over the data-parallel ranks: ${each} (of ${hbm}; activations ${fmtGiB(shown[0].mem!.bytes.activations)} GiB whatever DP is).`;
}

function memoryLines(p: Plan, mem: MemoryEstimate | undefined): string[] {
  if (!p.model) return ['Memory per GPU: the model is not in this file; name it to get an estimate (`# shardwise: model=llama-3-70b seq_length=8192 micro_batch_size=1`, or `model:` in .shardwise.yaml).'];
  if (!mem) {
    const perDp = perDpLine(p);
    return [perDp ?? 'Memory per GPU: could not be estimated for this layout.'];
  }
  const b = mem.bytes;
  const hbm = p.hardware.profile.hbmGiB;
  return [
    `Memory per GPU: ~${fmtGiB(b.total)} GiB of ${Math.round(hbm)} (${Math.round((gib(b.total) / hbm) * 100)}%): weights ${fmtGiB(b.weights)}, gradients ${fmtGiB(b.gradients)}, optimizer ${fmtGiB(b.optimizer)}, activations ${fmtGiB(b.activations)} GiB; ${(mem.totalParams / 1e9).toFixed(2)}B parameters, ${(mem.paramsOnGpu / 1e9).toFixed(2)}B on the most loaded GPU.`,
  ];
}

/** The hover section for a degree or size: the derived layout, fabrics, memory and provenance. */
export function planMarkdown(p: Plan, focus?: Path): string {
  const out: string[] = [];
  out.push(`**Layout** (${p.runtime}): \`${layoutSummary(p)}\``);
  const focused = focus ? rows(p).find((r) => r.field?.from.kind === 'written' && samePath((r.field.from as { path: Path }).path, focus)) : undefined;
  if (focused) {
    const eff = p.effective?.find((e) => e.field === focused.field);
    out.push(eff ? `${focused.label}: ${value(focused)} as written, **${eff.value === true ? 'on' : eff.value === false ? 'off' : String(eff.value)} in effect**: ${eff.why}` : `${focused.label}: **${value(focused)}**`);
  }
  if (p.dp?.from.kind === 'derived') out.push(p.dp.from.formula);
  const fabrics = groupFabrics(p);
  if (fabrics.length) out.push(fabrics.map((g) => `- ${g.name} ${g.size}: ${g.insideDomain ? `inside one NVLink domain (${g.fabric})` : g.fabric}`).join('\n'));
  const defaults = rows(p).filter((r) => r.field!.from.kind === 'default' || r.field!.from.kind === 'unknown');
  if (defaults.length) out.push(`Not written here:\n${defaults.map((r) => `- ${r.label} ${value(r)}: ${describeProvenance(r.field!.from)}`).join('\n')}`);
  const mem = planMemory(p);
  out.push(...memoryLines(p, mem));
  const estimate = estimateLine(p);
  if (estimate) out.push(estimate);
  if (mem?.assumptions.length) out.push(`Assumptions: ${mem.assumptions.slice(0, 3).join('; ')}${mem.assumptions.length > 3 ? ` (and ${mem.assumptions.length - 3} more: \`shardwise layout <file>\` lists them)` : ''}.`);
  for (const n of p.notes) out.push(`ℹ ${n}`);
  if (p.allocation) out.push(`Allocation: ${p.allocation}.`);
  out.push(`Hardware: ${p.hardware.profile.title} — ${describeProvenance(p.hardware.from)}.`);
  return out.join('\n\n');
}

/** `shardwise layout`: every field with its value and provenance, the groups and the memory. */
export function planText(p: Plan): string {
  const out: string[] = [];
  out.push(layoutSummary(p));
  out.push(`runtime: ${p.runtime}`);
  if (p.allocation) out.push(`allocation: ${p.allocation}`);
  out.push(`hardware: ${p.hardware.profile.id} (${p.hardware.profile.title}); ${describeProvenance(p.hardware.from)}; NVLink domain ${p.hardware.nvlinkDomain.value}, ${p.hardware.gpusPerNode.value} GPUs per node, ${Math.round(p.hardware.profile.hbmGiB)} GiB HBM`);
  out.push('');
  const width = Math.max(...rows(p).map((r) => r.label.length));
  for (const r of rows(p)) out.push(`  ${r.label.padEnd(width)}  ${value(r).padEnd(10)}  ${describeProvenance(r.field!.from)}`);
  if (p.model) out.push(`  ${'model'.padEnd(width)}  ${shapeText(p)}  ${describeProvenance(p.model.from)}`);
  const fabrics = groupFabrics(p);
  if (fabrics.length) {
    out.push('', 'groups:');
    for (const g of fabrics) out.push(`  ${g.name} ${g.size}: ${g.insideDomain ? `inside one NVLink domain (${g.fabric})` : g.fabric}`);
  }
  const mem = planMemory(p);
  out.push('', ...memoryLines(p, mem));
  const estimate = estimateLine(p);
  if (estimate) out.push(estimate);
  if (mem) for (const a of mem.assumptions) out.push(`  - ${a}`);
  for (const n of p.notes) out.push('', `note: ${n}`);
  return out.join('\n');
}

function shapeText(p: Plan): string {
  const m = p.model!.value;
  return `${m.layers} layers, hidden ${m.hidden}, ${m.heads} heads${m.queryGroups ? ` (${m.queryGroups} KV groups)` : ''}${m.ffn ? `, FFN ${m.ffn}` : ''}${m.vocab ? `, vocab ${m.vocab}` : ''}${m.experts ? `, ${m.experts} experts${m.topK ? ` top-${m.topK}` : ''}` : ''}`;
}

/** The document paths whose hover should show the layout: every written degree and size. */
export function layoutPaths(p: Plan): Path[] {
  const out: Path[] = [];
  for (const r of rows(p)) if (r.field?.from.kind === 'written') out.push((r.field.from as { path: Path }).path);
  for (const path of Object.values(p.knobs)) if (path) out.push(path);
  return out;
}
