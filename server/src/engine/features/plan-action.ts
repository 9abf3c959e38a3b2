/**
 * "Plan a layout for this model…": offered on any degree or batch size of a Megatron-style layout
 * whose model, GPUs, sequence and batch are known. The planner's best layouts for the same workload
 * (the batch, sequence, precision, GPUs, recompute and overlap switches stay as written) become
 * edits of the file, each applied to the text and analysed again before it is offered: one that
 * breaks the file or brings an error it did not have is left out. Every one changes a decision, so
 * each is an unsafe fix whose title says what it changes.
 */
import { analyze } from '../analyze';
import { layoutPaths } from '../plan/describe';
import { describeChanges, planChanges } from '../plan/diff';
import { fmtStep, layoutEdits, planAlternatives, planStep } from '../plan/advise';
import { layoutLabel, shardingOf, type PlanResult, type RankedLayout } from '../plan/planner';
import type { FileAnalysis, FileInput } from '../result';
import type { EngineSettings } from '../settings';
import { applyEdits } from '../text';
import { samePath, type TextEdit } from '../types';
import { docAt } from './locate';

export const PLAN_ACTION_TITLE = 'Plan a layout for this model…';

/** A layout the editor can offer, with the edits that write it and what it changes. */
export interface PlannedLayout {
  /** `TP 4 · PP 4 (VPP 5) · CP 2 · DP 2 · MBS 1`. */
  label: string;
  /** `~52 GiB/GPU · step ~10.7 s (−12 %)`. */
  description: string;
  /** `changes the layout: TP 8 → 4, PP 2 → 4, …`. */
  changes: string;
  edits: TextEdit[];
}

/** Layouts offered at most, and tried at most (each try is an analysis of the whole file). */
const OFFERED = 8;
const TRIED = 16;

/** The document index whose layout the cursor is on, when the planner can answer for it. */
export function planActionAt(a: FileAnalysis, offset: number): number | undefined {
  const da = docAt(a, offset);
  const p = da?.plan;
  if (!da || !p || p.style !== 'megatron' || !p.model || !p.world) return undefined;
  const loc = da.doc.locate(offset);
  if (!loc?.entry || !layoutPaths(p).some((path) => samePath(path, loc.path))) return undefined;
  return a.docs.indexOf(da);
}

/** When a rule rather than the step decided the layout's rank: which, over how much faster a layout. */
function tieNote(result: PlanResult, r: RankedLayout): string {
  const above = r.order?.above;
  if (!above) return '';
  const faster = result.layouts[above.rank - 1].step.seconds;
  return ` · ranked above a layout ${(((r.step.seconds - faster) / r.step.seconds) * 100).toFixed(1)} % faster, within the model's error, by the rule: ${above.rule.text}`;
}

/** The best layouts for a document's workload, as checked edits of the file, fastest first. */
export function plannedLayouts(a: FileAnalysis, input: FileInput, settings: EngineSettings, docIndex: number): { layouts: PlannedLayout[]; current?: string } | { problem: string } {
  const da = a.docs[docIndex];
  const p = da?.plan;
  if (!da || !p) return { problem: 'this document describes no parallel layout' };
  const result = planAlternatives(p);
  if ('missing' in result) return { problem: `the layout planner needs ${result.missing.join(', ')}` };
  if (result.empty) return { problem: `no layout fits: ${result.empty}` };
  const base = planStep(p)?.seconds;
  const errorsBefore = a.findings.filter((f) => f.severity === 'error').length;
  const out: PlannedLayout[] = [];
  let tried = 0;
  for (const r of result.layouts) {
    if (out.length >= OFFERED || tried >= TRIED) break;
    const pathEdits = layoutEdits(p, r.layout);
    if (!pathEdits?.length) continue;
    const edits = da.doc.edit(pathEdits);
    if (!edits?.length) continue;
    tried++;
    const text = applyEdits(a.text, edits);
    const after = analyze({ ...input, text }, settings);
    // Refused if the file no longer reads as the same format, or has more errors than before.
    const same = after.docs[docIndex]?.plan;
    if (!same || after.findings.filter((f) => f.severity === 'error').length > errorsBefore) continue;
    const l = r.layout;
    out.push({
      label: layoutLabel(l),
      description: `~${(r.memory.bytes.total / 2 ** 30).toFixed(0)} GiB/GPU · step ~${fmtStep(r.step.seconds)} at best, ~${fmtStep(r.step.expected.seconds)} expected${base ? ` (${r.step.seconds <= base ? '−' : '+'}${Math.abs((1 - r.step.seconds / base) * 100).toFixed(0)} %)` : ''}${shardingOf(l) !== 'optimizer' && shardingOf(l) !== 'none' ? ` · ${shardingOf(l)}` : ''}${tieNote(result, r)}`,
      changes: `changes the layout: ${describeChanges(planChanges(p, same), undefined, 6)}`,
      edits,
    });
  }
  if (!out.length) return { problem: 'no layout the planner found can be written into this file without an error' };
  return { layouts: out, current: base ? `now ~${fmtStep(base)} per step at best` : undefined };
}
