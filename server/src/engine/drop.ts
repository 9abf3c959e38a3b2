/**
 * Findings dropped because what they conclude cannot happen: past a syntax error the parser guessed,
 * or about a key the targeted release does not have or a section the run does not read.
 */
import type { SourceDoc } from './syntax/sourcedoc';
import type { Finding, Path, Span } from './types';
import type { SchemaNav } from './schema/navigate';
import { unreadBeside } from './schema/vocabulary';
import { versionAtLeast } from './version';

/**
 * Past a syntax error the parser guesses; nothing is concluded from what it guessed. A finding is
 * dropped when a syntax error lies in its span, and, from the first error the parser went on by
 * guessing (where the tool's loader stops reading), when it is at or after that error, when a place
 * it names is, or when it is on a key whose value holds the error (a section with a broken line).
 */
export function withoutGuesses(findings: Finding[], doc: SourceDoc): Finding[] {
  const errors = doc.problems.filter((p) => p.code === 'parse-error');
  if (errors.length === 0) return findings;
  const guessed = errors.flatMap((p) => (p.guessedFrom === undefined ? [] : [p.guessedFrom]));
  const from = guessed.length ? Math.min(...guessed) : undefined;
  const holders = from === undefined ? [] : keysHolding(doc.root, from);
  return findings.filter((f) => {
    if (f.code === 'parse-error') return true;
    if (f.code !== 'duplicate-key' && errors.some((e) => e.span.start >= f.span.start && e.span.start <= f.span.end)) return false;
    if (from === undefined) return true;
    if (f.span.end > from || f.related?.some((r) => !r.path && r.span.end > from)) return false;
    return !holders.some((k) => k.start < f.span.end && f.span.start < k.end);
  });
}

/** The keys of the entries whose text holds `offset`, outermost first. */
function keysHolding(root: SourceDoc['root'], offset: number): Span[] {
  const out: Span[] = [];
  let node = root;
  for (let depth = 0; node && depth < 64; depth++) {
    let next: typeof node | undefined;
    if (node.kind === 'map') {
      const e = node.entries.find((x) => !x.merged && x.span.start <= offset && offset <= x.span.end);
      if (e) {
        out.push(e.keySpan);
        next = e.value;
      }
    } else if (node.kind === 'seq') next = node.items.find((x) => x.span.start <= offset && offset <= x.span.end);
    node = next;
  }
  return out;
}

/** Rules about the text itself, which holds whatever release reads it. */
const TEXT_RULES = new Set(['parse-error', 'duplicate-key', 'version-unsupported-key']);

/**
 * A key the targeted release does not have (`version-unsupported-key` says so: it is refused, or
 * ignored without a word), or a section the run does not read (`irrelevant-section`: an
 * `fsdp_config` under `MULTI_GPU`), is not read there, so what another rule concludes from it or from
 * what it holds (a value it would reject, a deprecated key in it, a conflict with another key) does
 * not happen: a finding that points at such a key or into such a section, or names one beside it, is
 * dropped, and the file gets one answer about the key.
 */
const UNREAD_RULES = new Set(['version-unsupported-key', 'irrelevant-section']);

export function withoutUnsupported(findings: Finding[], at: Map<Finding, Path[]>): Finding[] {
  const unsupported = findings.filter((f) => UNREAD_RULES.has(f.code)).map((f) => at.get(f)?.[0]).filter((p): p is Path => p !== undefined);
  if (!unsupported.length) return findings;
  const under = (p: Path, u: Path): boolean => u.length <= p.length && u.every((seg, i) => seg === p[i]);
  return findings.filter((f) => TEXT_RULES.has(f.code) || UNREAD_RULES.has(f.code) || !(at.get(f) ?? []).some((p) => unsupported.some((u) => under(p, u))));
}

/**
 * A key whose value every known launch replaces on its command line is never read from the file:
 * what a rule concludes from the value written there (a file it names that is missing, a value it
 * would refuse) does not happen. A finding pointing at such a key is dropped; one that only names it
 * beside stays, since the command line supplies the key too.
 */
export function withoutOverridden(findings: Finding[], at: Map<Finding, Path[]>, overridden: (path: Path) => string | undefined): Finding[] {
  return findings.filter((f) => {
    if (TEXT_RULES.has(f.code)) return true;
    const primary = at.get(f)?.[0];
    return !primary || overridden(primary) === undefined;
  });
}

/**
 * A section the release never reads because the file also writes the key that replaces it (schema
 * `x-unread-beside`: DeepSpeed reads the legacy `bfloat16` only when `bf16` is absent): nothing
 * written inside it is looked at, so no finding about a key or value inside it (an unknown key the
 * tool would refuse, a key newer than the release, a value it would reject) happens. A finding on the
 * section itself (that it is not read) stays, and so do the syntax rules.
 */
export function withoutUnreadSections(findings: Finding[], at: Map<Finding, Path[]>, unread: Path[]): Finding[] {
  if (!unread.length) return findings;
  const inside = (p: Path, u: Path): boolean => p.length > u.length && u.every((seg, i) => seg === p[i]);
  return findings.filter((f) => {
    if (f.code === 'parse-error' || f.code === 'duplicate-key') return true;
    const primary = at.get(f)?.[0];
    return !primary || !unread.some((u) => inside(primary, u));
  });
}

/** The top-level sections the release does not read because the file writes their replacement (`x-unread-beside`). */
export function unreadSections(doc: SourceDoc, nav: SchemaNav | undefined, release: string | undefined): Path[] {
  const root = doc.root;
  if (!nav || root?.kind !== 'map') return [];
  const value = doc.value([]);
  const out: Path[] = [];
  for (const e of root.entries) {
    const beside = unreadBeside(nav.at([e.key], value));
    if (!beside || !root.entries.some((x) => x.key === beside.key)) continue;
    if (beside.since && release !== undefined && !versionAtLeast(release, beside.since)) continue;
    out.push([e.key]);
  }
  return out;
}
