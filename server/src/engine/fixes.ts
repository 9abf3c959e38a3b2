/**
 * Applying fixes as a set: fix-all in the editor and `shardwise check --fix`.
 *
 * Each finding contributes at most one fix: the one its rule recommends, when it is safe (with
 * `unsafe`, whatever its applicability) and the finding is an error or a warning; information and
 * hints are advice, applied only one by one. Fixes that write the same key, flag or array are merged
 * when one's edits already contain the other's, and dropped otherwise: never stacked. The set is
 * then applied and the result analysed once more; it is refused if the file no longer parses, if it
 * has an error it did not have, or if a rule whose fix was applied reports something new. A refused
 * set is retried one fix at a time, so one bad fix does not hold back the others.
 */
import { analyze } from './analyze';
import type { FileAnalysis, FileInput } from './result';
import { ruleById } from './rules';
import type { EngineSettings } from './settings';
import { applyEdits } from './text';
import type { Finding, Fix, TextEdit } from './types';

export interface FixOptions {
  /** Also apply unsafe fixes (those that change a decision: degrees, batch, precision, switches). */
  unsafe?: boolean;
}

export interface AppliedFix {
  finding: Finding;
  fix: Fix;
}

export interface RefusedFix extends AppliedFix {
  /** Why it was not applied, for the user. */
  reason: string;
}

export interface FixRound {
  /** The edits of every accepted fix, on the analysed text. */
  edits: TextEdit[];
  applied: AppliedFix[];
  refused: RefusedFix[];
}

export interface FixResult {
  text: string;
  /** The analysis of the final text. */
  analysis: FileAnalysis;
  applied: AppliedFix[];
  /** Fixes not applied, for findings still present in the final text. */
  refused: RefusedFix[];
}

/** The fix a finding contributes to a fix set, if any. */
export function fixForSet(finding: Finding, options: FixOptions = {}): Fix | undefined {
  if (finding.severity !== 'error' && finding.severity !== 'warning') return undefined;
  // A rule with no safe kind of fix has nothing for a safe set: its fixes are not even made.
  if (!options.unsafe && !Object.values(ruleById(finding.code)?.fixes ?? {}).some((k) => k.applicability === 'safe')) return undefined;
  return finding.fixes().find((x) => x.recommended && !x.otherFiles && (x.applicability === 'safe' || options.unsafe));
}

/** Past this many candidates, a refused set is not retried fix by fix (each try is an analysis). */
const MAX_ONE_BY_ONE = 64;

/** One round: choose, merge, apply and re-check the fixes of one analysis. */
export function fixRound(analysis: FileAnalysis, input: FileInput, settings: EngineSettings, options: FixOptions = {}): FixRound {
  const refused: RefusedFix[] = [];
  const chosen: AppliedFix[] = [];
  const touched = new Set<string>();
  // Safe fixes first: what the file evidently meant is settled before a decision is changed on top of it.
  const candidates = analysis.findings.flatMap((finding) => {
    const fix = fixForSet(finding, options);
    return fix ? [{ finding, fix }] : [];
  });
  candidates.sort((a, b) => Number(a.fix.applicability === 'unsafe') - Number(b.fix.applicability === 'unsafe'));
  for (const c of candidates) {
    // A fix whose edits the set already makes (two findings that want the same flag) joins it as is.
    if (!adds(chosen, c.fix)) {
      chosen.push(c);
      continue;
    }
    const clash = c.fix.touches.find((t) => touched.has(t));
    if (clash) {
      refused.push({ ...c, reason: `another fix in the same run writes \`${clash.slice(clash.indexOf(':') + 1)}\`; run again to apply it` });
      continue;
    }
    try {
      applyEdits(analysis.text, editsOf([...chosen, c]));
    } catch {
      refused.push({ ...c, reason: 'its edits overlap those of another fix; run again to apply it' });
      continue;
    }
    chosen.push(c);
    for (const t of c.fix.touches) touched.add(t);
  }
  if (chosen.length === 0) return { edits: [], applied: [], refused };
  const whole = recheck(analysis, input, settings, chosen);
  if (!whole) return { edits: editsOf(chosen), applied: chosen, refused };
  if (chosen.length === 1 || chosen.length > MAX_ONE_BY_ONE) {
    for (const c of chosen) refused.push({ ...c, reason: chosen.length === 1 ? whole : `the fixes together were refused (${whole}), and there are too many to try one by one` });
    return { edits: [], applied: [], refused };
  }
  // One at a time, keeping each fix that the file takes with the ones kept before it.
  const kept: AppliedFix[] = [];
  for (const c of chosen) {
    const reason = recheck(analysis, input, settings, [...kept, c]);
    if (reason) refused.push({ ...c, reason });
    else kept.push(c);
  }
  return { edits: editsOf(kept), applied: kept, refused };
}

/** The edits a set of fixes makes, each once (fixes that want the same edit make it together). */
function editsOf(set: readonly AppliedFix[]): TextEdit[] {
  const out: TextEdit[] = [];
  for (const { fix } of set) for (const e of fix.edits) if (!out.some((x) => sameEdit(x, e))) out.push(e);
  return out;
}

/** Whether the fix has an edit the set does not make already. */
function adds(set: readonly AppliedFix[], fix: Fix): boolean {
  const edits = editsOf(set);
  return fix.edits.some((e) => !edits.some((x) => sameEdit(x, e)));
}

/** Applies a set of fixes and analyses the result: undefined when the file takes it, else the reason. */
function recheck(before: FileAnalysis, input: FileInput, settings: EngineSettings, set: readonly AppliedFix[]): string | undefined {
  let text: string;
  let after: FileAnalysis;
  try {
    text = applyEdits(before.text, editsOf(set));
    after = analyze({ ...input, text }, settings);
  } catch (err) {
    return `it could not be applied (${(err as Error).message})`;
  }
  const was = counts(before.findings);
  const now = counts(after.findings);
  const fresh = (f: Finding): boolean => (now.get(key(f)) ?? 0) > (was.get(key(f)) ?? 0);
  const broken = after.findings.find((f) => f.code === 'parse-error' && fresh(f));
  if (broken) return `the file would no longer parse: ${broken.message}`;
  const twice = after.findings.find((f) => f.code === 'duplicate-key' && fresh(f));
  if (twice) return `it would write a key twice: ${twice.message}`;
  const error = after.findings.find((f) => f.severity === 'error' && fresh(f));
  if (error) return `it would bring a new error: [${error.code}] ${error.message}`;
  const own = new Set(set.map((c) => c.finding.code));
  const again = after.findings.find((f) => own.has(f.code) && fresh(f));
  if (again) return `it would bring a new finding of its own rule: [${again.code}] ${again.message}`;
  const kept = set.find((c) => (now.get(key(c.finding)) ?? 0) >= (was.get(key(c.finding)) ?? 0));
  if (kept) return `it would not remove the finding it fixes: [${kept.finding.code}] ${kept.finding.message}`;
  return undefined;
}

function key(f: Finding): string {
  return `${f.code}\u0000${f.message}`;
}

function counts(findings: readonly Finding[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const f of findings) out.set(key(f), (out.get(key(f)) ?? 0) + 1);
  return out;
}

function sameEdit(a: TextEdit, b: TextEdit): boolean {
  return a.span.start === b.span.start && a.span.end === b.span.end && a.newText === b.newText;
}

/** Rounds of fixes until the file settles (a fix can make another one applicable). */
const MAX_ROUNDS = 5;

/**
 * Fixes a file as far as it goes: rounds of `fixRound` until no fix applies, the text repeats, or
 * after a few rounds. Running it on its own result changes nothing.
 */
export function fixText(input: FileInput, settings: EngineSettings, options: FixOptions = {}): FixResult {
  let text = input.text;
  let analysis = analyze(input, settings);
  const applied: AppliedFix[] = [];
  let refused: RefusedFix[] = [];
  const seen = new Set([text]);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const r = fixRound(analysis, { ...input, text }, settings, options);
    refused = [...refused, ...r.refused];
    if (r.edits.length === 0) break;
    const next = applyEdits(text, r.edits);
    if (seen.has(next)) break;
    seen.add(next);
    applied.push(...r.applied);
    text = next;
    analysis = analyze({ ...input, text }, settings);
  }
  // Report a refusal once, and only while its finding is still there.
  const left = new Set(analysis.findings.map(key));
  const said = new Set<string>();
  refused = refused.filter((r) => left.has(key(r.finding)) && !said.has(key(r.finding)) && said.add(key(r.finding)));
  return { text, analysis, applied, refused };
}
