/**
 * The layout surface: a one-line summary above each document that describes a parallel layout
 * (code lens), and the full description for `shardwise layout` and the editor's layout view.
 */
import type { DocAnalysis, FileAnalysis } from '../result';
import { checkedAgainst } from '../rules/release';
import { planMarkdown, planText } from '../plan/describe';
import { layoutSummary } from '../plan/layout';
import type { Span } from '../types';
import { reportSpan } from '../analyze';
import { layoutSvg, type ColourBy } from '../plan/picture';
import type { Field } from '../plan/plan';

export interface LayoutLens {
  /** The first line of the document's content. */
  span: Span;
  title: string;
  docIndex: number;
}

export function layoutLenses(a: FileAnalysis): LayoutLens[] {
  const out: LayoutLens[] = [];
  a.docs.forEach((da, i) => {
    if (!da.plan || !da.doc.root) return;
    const line = a.lines.position(da.doc.root.span.start).line;
    out.push({ span: { start: a.lines.lineStart(line), end: a.lines.lineEnd(line) }, title: layoutSummary(da.plan), docIndex: i });
  });
  return out;
}

function titled(a: FileAnalysis, i: number): string {
  return a.docs.length > 1 ? `document ${i + 1}` : '';
}

export function layoutMarkdown(a: FileAnalysis): string | undefined {
  const parts = a.docs.map((da, i) => (da.plan ? `${titled(a, i) ? `### ${titled(a, i)}\n\n` : ''}${planMarkdown(da.plan)}` : '')).filter(Boolean);
  return parts.length ? parts.join('\n\n---\n\n') : undefined;
}

export function layoutText(a: FileAnalysis): string | undefined {
  // After the runtime line: the release the file is checked against, and how that is known.
  const withRelease = (da: DocAnalysis, text: string): string => {
    const release = checkedAgainst(da).release;
    return release ? text.replace(/^(runtime: .*)$/m, `$1\nrelease: ${release}`) : text;
  };
  const parts = a.docs.map((da, i) => (da.plan ? `${titled(a, i) ? `# ${titled(a, i)}\n` : ''}${withRelease(da, planText(da.plan))}` : '')).filter(Boolean);
  return parts.length ? parts.join('\n\n') : undefined;
}

/** A degree the picture shows, with the span that sets it when the file writes it. */
export interface PictureDegree {
  name: string;
  value: number;
  span?: Span;
}

/** The picture of the first layout of a file, and its degrees with where each is written. */
export function layoutPicture(a: FileAnalysis, colourBy: ColourBy = 'tp'): { svg: string; degrees: PictureDegree[] } | undefined {
  const d = a.docs.find((x) => x.plan);
  const p = d?.plan;
  const svg = p && layoutSvg(p, { colourBy });
  if (!d || !p || !svg) return undefined;
  const fields: [string, Field<number> | undefined][] =
    p.style === 'megatron'
      ? [['GPUs', p.world], ['TP', p.tp], ['PP', p.pp], ['CP', p.cp], ...(p.ep.value > 1 ? ([['EP', p.ep], ['expert TP', p.etp]] as [string, Field<number>][]) : []), ['DP', p.dp], ['micro-batch', p.microBatch], ['global batch', p.globalBatch]]
      : [['GPUs', p.world], ['TP', p.tp], ['CP', p.cp], ['SP', p.spDegree], ['dp_shard', p.dpShard], ['dp_replicate', p.dpReplicate]];
  const degrees = fields.flatMap(([name, f]): PictureDegree[] => {
    if (!f) return [];
    const span = f.from.kind === 'written' ? reportSpan(d.doc, f.from.path, 'value') : undefined;
    return [{ name, value: f.value, ...(span ? { span } : {}) }];
  });
  return { svg, degrees };
}
