/**
 * Runs one rule over one document with the certainty-aware context (certain.ts): every value the
 * rule reads is recorded with how it is known, and each finding is weighed against what was read
 * before it. A finding that rests on the release nobody named is checked against every release the
 * rule distinguishes (one more run per range of releases between the versions it compared): when it
 * holds in all of them, which release runs does not matter and the assumption is dropped.
 */
import { copyBasis, type Basis } from '../certainty';
import type { Field } from '../plan/plan';
import type { DocAnalysis } from '../result';
import type { FormatId } from '../settings';
import { compareVersions } from '../version';
import { capped, ReadLog, recordItem, tracked, untracked } from './certain';
import { OLDEST_COVERED, releaseAtLeast, releaseOf } from './release';
import type { Report, Rule, RuleContext } from './rule';

/** A report as the rule made it, with what it rested on. */
export interface WeighedReport {
  report: Report;
  basis: Basis;
}

interface Shared {
  keysOpen: string | undefined;
  fork: string | undefined;
  /** How many findings the rule may still show (its `saturated`). */
  limit: number;
  /**
   * The document's tracking views, made once and shared by its rules (each run starts the log over):
   * a view of a value is the same object for every rule, so none pays for making it again.
   */
  views?: { log: ReadLog; cache: WeakMap<object, unknown> };
}

/** The tracking views of one document, for `Shared.views`. */
export function documentViews(): NonNullable<Shared['views']> {
  return { log: new ReadLog(), cache: new WeakMap() };
}

/** One run of the rule's check; `forced` answers every release question as that release would. */
function runOnce(rule: Rule<any>, da: DocAnalysis, shared: Shared, release: Field<string | undefined>, forced: string | undefined, thresholds: Set<string>): WeighedReport[] {
  const out: WeighedReport[] = [];
  const shared_ = shared.views ?? documentViews();
  const log = shared_.log;
  log.reset();
  const view = <T,>(v: T): T => tracked(v, log, shared_.cache);
  const ctx: RuleContext<any> = {
    // Views are made when a rule first reads them (most rules stop at the format).
    get doc() {
      return view(da.doc);
    },
    format: da.format?.id as FormatId,
    tool: da.format?.toolName ?? 'the tool',
    versions: da.format?.tool === 'megatron-core' && da.format.toolName !== 'Megatron-LM' ? 'Megatron Core' : (da.format?.toolName ?? 'the tool'),
    get model() {
      return view(da.model);
    },
    get plan() {
      return view(da.plan);
    },
    settings: da.settings,
    nav: da.nav,
    get issues() {
      return view(da.issues);
    },
    get problems() {
      return [...da.doc.problems, ...(da.instance?.problems ?? [])];
    },
    get flat() {
      return view(da.format?.instance ? da.instance : undefined);
    },
    writePath: (schemaPath) => {
      if (!da.format?.writePath) return da.format?.instance ? undefined : schemaPath;
      try {
        return da.model === undefined ? undefined : da.format.writePath(da.model, schemaPath);
      } catch {
        return undefined;
      }
    },
    get version() {
      if (forced !== undefined) return forced;
      log.recordProvenance(release.from);
      return release.value;
    },
    schemaVersion: forced ?? release.value,
    atLeast: (v) => {
      thresholds.add(v);
      return forced !== undefined ? compareVersions(forced, v) >= 0 : releaseAtLeast(release, da.format?.tool, v, log);
    },
    keysOpen: shared.keysOpen,
    fork: shared.fork,
    get saturated() {
      return out.length >= shared.limit;
    },
    report: (r) => {
      out.push({ report: r, basis: copyBasis(log.basis) });
    },
    each: (items, check) => {
      for (const item of untracked(items)) {
        log.separately(() => {
          recordItem(log, item);
          check(view(item));
        });
      }
    },
    separately: (check) => log.separately(check),
  };
  try {
    rule.check(ctx);
  } catch {
    // A rule bug must not take the other findings down with it.
  }
  return out;
}

/**
 * The rule's reports with their severity and message weighed (unknown inputs drop a report, assumed
 * ones soften it and are named); `where` tells two reports of different runs at the same place apart.
 */
export function runRule(rule: Rule<any>, da: DocAnalysis, shared: Shared, where: (r: Report) => string | undefined): { report: Report; assumed?: string[] }[] {
  const release = releaseOf(da);
  const thresholds = new Set<string>();
  const first = runOnce(rule, da, shared, release, undefined, thresholds);
  // A finding that rests on a release nobody named (assumed) or that the context hides (unknown):
  // kept as it is only if every range of releases the rule told apart gives it too.
  const note = release.from.kind === 'assumed' || release.from.kind === 'unknown' ? release.from.note : undefined;
  if (note && first.some((w) => w.basis.assumptions.includes(note) || w.basis.unknowns.includes(note))) releaseIndependent(rule, da, shared, release, thresholds, first, note, where);
  const out: { report: Report; assumed?: string[] }[] = [];
  for (const w of first) {
    const weighed = capped(w.report.severity ?? rule.severity, w.report.message, w.basis, !!rule.about);
    if (!weighed) continue;
    const assumed = w.basis.certainty === 'assumed' && !rule.about ? [...w.basis.assumptions] : undefined;
    out.push({ report: { ...w.report, severity: weighed.severity, message: weighed.message }, assumed });
  }
  return out;
}

/** Drops the release assumption from every report that every range of releases the rule told apart also gives. */
function releaseIndependent(rule: Rule<any>, da: DocAnalysis, shared: Shared, release: Field<string | undefined>, thresholds: Set<string>, first: WeighedReport[], note: string, where: (r: Report) => string | undefined): void {
  // A release nobody named is one the schemas cover (the oldest covered stands for the lowest range);
  // one the context hides may be older than any of them.
  const floor = release.from.kind === 'unknown' ? '0.0.0' : da.format?.tool ? OLDEST_COVERED[da.format.tool] : undefined;
  const tried = new Set<string>();
  const holds = new Map<WeighedReport, boolean>(first.map((w) => [w, true]));
  // One release from each range between the versions compared; new comparisons add ranges (bounded).
  for (let round = 0; round < 8; round++) {
    const reps = [...new Set([floor, ...thresholds].filter((v): v is string => !!v))].filter((v) => !tried.has(v));
    if (!reps.length) break;
    for (const rep of reps) {
      tried.add(rep);
      const seen = new Set(runOnce(rule, da, shared, release, rep, thresholds).map((w) => where(w.report)));
      for (const w of first) if (!seen.has(where(w.report))) holds.set(w, false);
    }
  }
  for (const w of first) {
    if (!holds.get(w) || !(w.basis.assumptions.includes(note) || w.basis.unknowns.includes(note))) continue;
    w.basis.assumptions = w.basis.assumptions.filter((a) => a !== note);
    w.basis.unknowns = w.basis.unknowns.filter((a) => a !== note);
    if (!w.basis.unknowns.length && (w.basis.certainty === 'unknown' || w.basis.certainty === 'assumed')) w.basis.certainty = w.basis.assumptions.length ? 'assumed' : 'derived';
  }
}
