/**
 * Runs one rule over one document with the certainty-aware context (certain.ts): every value the
 * rule reads is recorded with how it is known, and each finding is weighed against what was read
 * before it. A finding that rests on the release nobody named is checked against every release the
 * rule distinguishes (one more run per range of releases between the versions it compared): when it
 * holds in all of them, which release runs does not matter and the assumption is dropped.
 */
import { addInput, copyBasis, type Basis } from '../certainty';
import { releaseName } from '../formats/format';
import type { Field } from '../plan/plan';
import type { DocAnalysis } from '../result';
import type { FormatId } from '../settings';
import type { Path, Severity } from '../types';
import { compareVersions } from '../version';
import { capped, ReadLog, recordItem, tracked, untracked } from './certain';
import { inRange } from '../pins';
import { OLDEST_COVERED, preReleaseAt, releaseAtLeast, type Release } from './release';
import type { Report, Rule, RuleContext } from './rule';

/** A report as the rule made it, with what it rested on. */
export interface WeighedReport {
  report: Report;
  basis: Basis;
}

interface Shared {
  keysOpen: string | undefined;
  fork: string | undefined;
  /**
   * That upstream's code runs the document, where it shows that something else may (a launch's
   * flags no release defines; formats/megatron/runtime.ts, `upstreamAssumed`): every finding of a
   * rule that does not check what forks share rests on it.
   */
  upstream?: string;
  /**
   * Where that assumption is contradicted for a finding that points at or rests on these keys: a
   * flag of the fork's own in the same launch is about the same setting (`upstreamRedefined`).
   */
  redefined?: (paths: Path[]) => string | undefined;
  /** The release that reads the document, worked out once for all its rules. */
  release: Release;
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

/**
 * The context of one run of a rule's check (a class: one object per run, its methods shared).
 * Untracked, a rule sees the values themselves: the same reports, none of them weighed. A tracked run
 * goes untracked inside the scopes (items of `each`, `separately` blocks) that reported nothing
 * untracked: what is read there weighs on no report.
 */
class Run implements RuleContext<any> {
  readonly out: WeighedReport[] = [];
  readonly log: ReadLog;
  readonly format: FormatId;
  readonly tool: string;
  readonly versions: string;
  readonly settings: DocAnalysis['settings'];
  readonly nav: DocAnalysis['nav'];
  readonly schemaVersion: string | undefined;
  readonly keysOpen: string | undefined;
  readonly keysSkipped: boolean;
  readonly keysIgnored: boolean;
  readonly fork: string | undefined;
  /** The scopes that reported: found by an untracked run, followed by a tracked one. */
  readonly reporting: Scopes;
  private tracking: boolean;
  private scope = 0;

  constructor(
    private readonly da: DocAnalysis,
    private readonly shared: Shared,
    private readonly views: NonNullable<Shared['views']>,
    private readonly release: Field<string | undefined>,
    private readonly forced: string | undefined,
    private readonly thresholds: Set<string>,
    private readonly track: Scopes | undefined,
  ) {
    this.log = views.log;
    this.log.reset();
    this.tracking = !!track;
    this.reporting = track ?? new Set<number>();
    this.format = da.format?.id as FormatId;
    this.tool = da.format?.toolName ?? 'the tool';
    this.versions = releaseName(da.format);
    this.settings = da.settings;
    this.nav = da.nav;
    this.schemaVersion = forced ?? release.value;
    this.keysOpen = shared.keysOpen;
    this.keysSkipped = da.format?.unknownKeys === 'skipped';
    this.keysIgnored = da.format?.unknownKeysIn?.(da.doc) === 'ignored';
    this.fork = shared.fork;
  }

  private view<T>(v: T): T {
    return this.tracking ? tracked(v, this.log, this.views.cache) : v;
  }

  // Views are made when a rule first reads them (most rules stop at the format).
  get doc() {
    return this.view(this.da.doc);
  }
  get model() {
    return this.view(this.da.model);
  }
  get plan() {
    return this.view(this.da.plan);
  }
  get issues() {
    return this.view(this.da.issues);
  }
  get problems() {
    return [...this.da.doc.problems, ...(this.da.instance?.problems ?? [])];
  }
  get flat() {
    return this.view(this.da.format?.instance ? this.da.instance : undefined);
  }

  writePath(schemaPath: Path): Path | undefined {
    const da = this.da;
    if (!da.format?.writePath) return da.format?.instance ? undefined : schemaPath;
    try {
      return da.model === undefined ? undefined : da.format.writePath(da.model, schemaPath);
    } catch {
      return undefined;
    }
  }

  get versionLabel() {
    return this.forced ?? (this.release as Release).label ?? this.release.value;
  }

  get version() {
    if (this.forced !== undefined) return this.forced;
    this.log.recordProvenance(this.release.from);
    return this.release.value;
  }

  atLeastIfSettled(v: string): boolean | undefined {
    if (this.forced === undefined && preReleaseAt(this.release as Release, v)) return undefined;
    return this.atLeast(v);
  }

  atLeast(v: string): boolean {
    this.thresholds.add(v);
    return this.forced !== undefined ? compareVersions(this.forced, v) >= 0 : releaseAtLeast(this.release, this.da.format?.tool, v, this.log);
  }

  get saturated() {
    return this.out.length >= this.shared.limit;
  }

  report(r: Report, ...restsOn: readonly Report[]): void {
    const basis = copyBasis(this.log.basis);
    for (const h of [r, ...restsOn]) {
      const held = this.heldBasis.get(h);
      if (!held) continue;
      addInput(basis, held.certainty);
      for (const a of held.assumptions) addInput(basis, 'assumed', a);
      for (const u of held.unknowns) addInput(basis, 'unknown', u);
    }
    this.out.push({ report: r, basis });
  }

  /** Held reports and what they rested on when held; a scope that holds one counts as reporting. */
  private readonly heldBasis = new WeakMap<Report, Basis>();
  private holds = 0;

  hold(r: Report): Report {
    const h = { ...r };
    this.heldBasis.set(h, copyBasis(this.log.basis));
    this.holds++;
    return h;
  }

  /** Reports made or held so far (a scope whose count grows reported). */
  private get made(): number {
    return this.out.length + this.holds;
  }

  each<T>(items: readonly T[], check: (item: T) => void): void {
    if (!this.track) {
      // The untracked run (most of them): each item is a scope, noted when it reports.
      for (const item of items) {
        const n = this.scope++;
        const before = this.made;
        check(item);
        if (this.made > before) this.reporting.add(n);
      }
      return;
    }
    for (const item of untracked(items))
      this.inScope((raw) => {
        if (raw) return check(item);
        recordItem(this.log, item);
        check(this.view(item));
      });
  }

  separately<T>(check: () => T): T {
    let r: T | undefined;
    this.inScope(() => {
      r = check();
    });
    return r as T;
  }

  /** Runs one scope: noted when it reports (untracked), tracked only if it did (tracked). */
  private inScope(fn: (raw: boolean) => void): void {
    const n = this.scope++;
    if (!this.track) {
      const before = this.made;
      fn(true);
      if (this.made > before) this.reporting.add(n);
      return;
    }
    if (!this.tracking) return fn(true);
    if (this.reporting.has(n)) return this.log.separately(() => fn(false));
    this.tracking = false;
    try {
      this.log.separately(() => fn(true));
    } finally {
      this.tracking = true;
    }
  }
}

/**
 * One run of the rule's check; `forced` answers every release question as that release would.
 * Without `track`, untracked (and which scopes reported is returned); with the scopes of an untracked
 * run, tracked where they reported.
 */
function runOnce(rule: Rule<any>, da: DocAnalysis, shared: Shared, release: Field<string | undefined>, forced: string | undefined, thresholds: Set<string>, track: Scopes | undefined): { reports: WeighedReport[]; scopes: Scopes } {
  const run = new Run(da, shared, shared.views ?? documentViews(), release, forced, thresholds, track);
  try {
    rule.check(run);
  } catch {
    // A rule bug must not take the other findings down with it.
  }
  return { reports: run.out, scopes: run.reporting };
}

/** The scopes of an untracked run that reported (numbered in the order the rule opened them). */
type Scopes = Set<number>;

/**
 * The rule's reports with their severity and message weighed (unknown inputs drop a report, assumed
 * ones soften it and are named); `where` tells two reports of different runs at the same place apart.
 */
export function runRule(rule: Rule<any>, da: DocAnalysis, shared: Shared, where: (r: Report) => string | undefined): { report: Report; assumed?: string[] }[] {
  const release = shared.release;
  const thresholds = new Set<string>();
  // Most rules find nothing in most files: a first run without the tracking views says whether there
  // is anything to weigh (reads never change what a rule sees, so the reports are the same), and
  // only then is the check run again to record what each report rests on.
  const plain = runOnce(rule, da, shared, release, undefined, thresholds, undefined);
  if (!plain.reports.length) return [];
  const first = runOnce(rule, da, shared, release, undefined, thresholds, plain.scopes).reports;
  // A finding that rests on a release nobody named (assumed) or that the context hides (unknown):
  // kept as it is only if every range of releases the rule told apart gives it too.
  const note = release.from.kind === 'assumed' || release.from.kind === 'unknown' ? release.from.note : undefined;
  // An assumed release only softens errors and warnings (a note stays a note); an unknown one drops any report.
  const weighs = (w: WeighedReport): boolean => {
    if (!note || !(w.basis.assumptions.includes(note) || w.basis.unknowns.includes(note))) return false;
    const severity = w.report.severity ?? rule.severity;
    return release.from.kind === 'unknown' || severity === 'error' || severity === 'warning';
  };
  if (note && first.some(weighs)) releaseIndependent(rule, da, shared, release, thresholds, first, note, where);
  // A fork may change what upstream does (drop a check, invert it): only the rules that check what
  // forks share (`Rule.forks`) do not rest on upstream's code running.
  // Where a flag of the fork's own in the launch is about the setting a finding rests on, what the
  // fork makes of it is not known: the finding is dropped, not softened.
  if (shared.upstream && !rule.forks) {
    for (const w of first) {
      const keys = [w.report.at, ...(w.report.related ?? []).filter((r) => !r.other).map((r) => r.at)].filter((x): x is Path => Array.isArray(x));
      const redefined = shared.redefined?.(keys);
      addInput(w.basis, redefined ? 'unknown' : 'assumed', redefined ?? shared.upstream);
    }
  }
  const out: { report: Report; assumed?: string[] }[] = [];
  // Advice in the spelling of a release the context names (FormatSupport.messageAt); an assumed or
  // unknown one is not the release the file meets, so the message keeps today's spelling.
  const named = release.value !== undefined && release.from.kind !== 'assumed' && release.from.kind !== 'unknown' ? release.value : undefined;
  const worded = (message: string) => (named && da.format?.messageAt ? da.format.messageAt(message, named, da.doc) : message);
  for (const w of first) {
    const weighed = capped(w.report.severity ?? rule.severity, w.report.message, w.basis, !!rule.about);
    if (!weighed) continue;
    const assumed = w.basis.certainty === 'assumed' && !rule.about ? [...w.basis.assumptions] : undefined;
    out.push({ report: { ...w.report, severity: weighed.severity, message: worded(weighed.message) }, assumed });
  }
  return out;
}

const LEVEL: Record<Severity, number> = { hint: 0, information: 1, warning: 2, error: 3 };

/** Drops the release assumption from every report that every range of releases the rule told apart also gives. */
function releaseIndependent(rule: Rule<any>, da: DocAnalysis, shared: Shared, release: Field<string | undefined>, thresholds: Set<string>, first: WeighedReport[], note: string, where: (r: Report) => string | undefined): void {
  // A release the context hides may be older than every release the histories cover, where no
  // fact by release says what happens: a report that rests on the release cannot be shown to hold
  // there, so it keeps the unknown (and is dropped).
  if (release.from.kind === 'unknown') return;
  // A release nobody named is one the schemas cover (the oldest covered stands for the lowest range).
  // A pinned range: the releases it allows, from its floor.
  const range = (release as Release).range;
  const covered = range?.floor ? range.floor : da.format?.tool ? OLDEST_COVERED[da.format.tool] : undefined;
  // A release nobody named is at least the one the file's own writing needs (older ones stop on it anyway).
  // Not above the newest release allowed: then no allowed release reads the file, and each stops on it.
  const wanted = release.from.kind === 'assumed' ? da.format?.releaseFloor?.(da.doc) : undefined;
  const needed = wanted && (release.value === undefined || compareVersions(wanted, release.value) <= 0) ? wanted : undefined;
  const floor = covered && needed && compareVersions(needed, covered) > 0 ? needed : covered;
  const tried = new Set<string>();
  const holds = new Map<WeighedReport, boolean>(first.map((w) => [w, true]));
  // One release from each range between the versions compared; new comparisons add ranges (bounded).
  for (let round = 0; round < 8; round++) {
    const reps = [...new Set([floor, ...thresholds].filter((v): v is string => !!v))].filter((v) => !tried.has(v) && (!range || v === floor || inRange(range.spec, v)));
    if (!reps.length) break;
    for (const rep of reps) {
      tried.add(rep);
      // Only which reports a release gives, and how severe, matters here, not what they rest on. A
      // release that gives a finding at another level does not hold it: a milder one ignores what
      // the assumed one refuses, and a graver one refuses what the assumed one ignores, so the
      // message (which says what the assumed release does) rests on the release either way.
      const seen = new Map<string | undefined, Set<number>>();
      for (const w of runOnce(rule, da, shared, release, rep, thresholds, undefined).reports) {
        const at = where(w.report);
        if (!seen.has(at)) seen.set(at, new Set());
        seen.get(at)!.add(LEVEL[w.report.severity ?? rule.severity]);
      }
      for (const w of first) if (!seen.get(where(w.report))?.has(LEVEL[w.report.severity ?? rule.severity])) holds.set(w, false);
    }
  }
  for (const w of first) {
    if (!holds.get(w) || !(w.basis.assumptions.includes(note) || w.basis.unknowns.includes(note))) continue;
    w.basis.assumptions = w.basis.assumptions.filter((a) => a !== note);
    w.basis.unknowns = w.basis.unknowns.filter((a) => a !== note);
    if (!w.basis.unknowns.length && (w.basis.certainty === 'unknown' || w.basis.certainty === 'assumed')) w.basis.certainty = w.basis.assumptions.length ? 'assumed' : 'derived';
  }
}
