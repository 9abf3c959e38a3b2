/**
 * Suppression comments applied to a file's findings, and the ones that suppress nothing.
 *
 * The order is a fixed point reached in one pass: the rules' findings are computed; each
 * suppression records which of them it silences; then a suppression that silenced nothing, or an
 * id in it that names no rule, is reported (`unused-suppression`). Those reports are silenced only
 * by a suppression that names `unused-suppression` (its own, or another covering its line) or by a
 * whole-file or line suppression of every rule that silenced a finding of the first pass: never by
 * one that is itself unused, so no report depends on another report.
 */
import { continues, commentStarts, type Directives, type Suppression } from './directives';
import { RULE_ALIASES, RULES, ruleById } from './rules';
import type { EngineSettings } from './settings';
import { closest, onlySlip } from './suggest';
import type { Syntax } from './syntax/sourcedoc';
import type { LineIndex } from './text';
import type { Finding, Fix, Severity, Span, TextEdit } from './types';

export const UNUSED_SUPPRESSION = 'unused-suppression';

/** Every rule id a suppression may name (old ids kept as aliases included). */
export const RULE_IDS: readonly string[] = [...RULES.map((r) => r.id), ...Object.keys(RULE_ALIASES)];

interface Use {
  s: Suppression;
  /** The rules of the findings on its lines (the file's, for a whole-file one), silenced or not. */
  seen: Set<string>;
  /** Indexes of its ids that silenced a finding; -1: it silenced one as a suppression of every rule. */
  used: Set<number>;
}

/** The rule an id names, if any. */
function canonical(id: string): string | undefined {
  return ruleById(id)?.id;
}

export interface UnusedOptions {
  syntax: Syntax;
  settings: EngineSettings;
  /**
   * Whether every document of the file was analysed whole by its format's rules: only then does a
   * suppression that silenced nothing suppress nothing (a document with a parse error, one past the
   * work budget or of no known format had rules that did not run).
   */
  complete: boolean;
  /** Whether some document is a config of a known format: ids that name no rule are reported only there. */
  claimed: boolean;
  /** Reports of each kind per file, at most; the last says how many more there are. */
  limit: number;
}

export class SuppressionLedger {
  private readonly uses: Use[];
  private readonly file: Use[] = [];
  private readonly byLine = new Map<number, Use[]>();
  /** Findings seen per rule (a rule that reached its limit of findings may have had more). */
  private readonly counts = new Map<string, number>();

  constructor(
    directives: Directives,
    private readonly lines: LineIndex,
  ) {
    this.uses = directives.suppressions.map((s) => ({ s, seen: (s.found = new Set<string>()), used: new Set<number>() }));
    for (const u of this.uses) {
      if (u.s.kind === 'file') this.file.push(u);
      else
        for (const t of u.s.targets) {
          const at = this.byLine.get(t);
          if (at) at.push(u);
          else this.byLine.set(t, [u]);
        }
    }
  }

  /** Whether a suppression silences the finding; each one that does is recorded as used. */
  silences(f: Finding): boolean {
    this.counts.set(f.code, (this.counts.get(f.code) ?? 0) + 1);
    if (this.uses.length === 0) return false;
    const on = this.byLine.get(this.lines.position(f.span.start).line);
    let silenced = false;
    for (const list of on ? [this.file, on] : [this.file]) {
      for (const u of list) {
        u.seen.add(f.code);
        if (u.s.ids.length === 0) {
          u.used.add(-1);
          silenced = true;
          continue;
        }
        for (let i = 0; i < u.s.ids.length; i++) {
          const id = u.s.ids[i].id;
          if (id === f.code || canonical(id) === f.code) {
            u.used.add(i);
            silenced = true;
          }
        }
      }
    }
    return silenced;
  }

  /** The reports of suppressions that silence nothing and of ids that name no rule (see the header). */
  unused(o: UnusedOptions): Finding[] {
    if (this.uses.length === 0 || !o.claimed || o.syntax === 'json') return [];
    if (o.settings.rules?.[UNUSED_SUPPRESSION] === 'off') return [];
    const off = (id: string): boolean => o.settings.rules?.[id] === 'off' || Object.entries(RULE_ALIASES).some(([old, now]) => now === id && o.settings.rules?.[old] === 'off');
    const saturated = (id: string): boolean => (this.counts.get(id) ?? 0) >= o.limit;
    const anySaturated = [...this.counts.values()].some((n) => n >= o.limit);
    const unknown: { u: Use; i: number }[] = [];
    const unused: { u: Use; idx: number[] }[] = [];
    for (const u of this.uses) {
      u.s.ids.forEach((x, i) => {
        if (!canonical(x.id)) unknown.push({ u, i });
      });
      if (!o.complete) continue;
      if (u.s.ids.length === 0) {
        if (!u.used.has(-1) && !anySaturated) unused.push({ u, idx: [] });
        continue;
      }
      const idx = u.s.ids.flatMap((x, i) => {
        const id = canonical(x.id);
        return id && id !== UNUSED_SUPPRESSION && !u.used.has(i) && !off(id) && !saturated(id) ? [i] : [];
      });
      if (idx.length) unused.push({ u, idx });
    }
    if (unknown.length === 0 && unused.length === 0) return [];
    // Only comments are suppressions to report and edit: not a look-alike in a string or a here-document.
    const comments = commentStarts(o.syntax, this.lines.text);
    const comment = (x: { u: Use }): boolean => comments.has(x.u.s.span.start);
    const names = (v: Use): boolean => v.s.ids.some((x) => canonical(x.id) === UNUSED_SUPPRESSION);
    const silencer = (v: Use): boolean => names(v) || (v.s.ids.length === 0 && v.used.has(-1));
    const wholeFile = this.file.some(silencer);
    const silenced = (u: Use): boolean => wholeFile || names(u) || (this.byLine.get(u.s.line) ?? []).some(silencer);
    const out: Finding[] = [];
    // At most `limit` of each kind; suggestions are looked for in the reports shown only.
    const shown = <T>(list: T[], make: (x: T) => Finding, what: string): void => {
      const kept = list.filter((x) => comment(x as { u: Use }) && !silenced((x as { u: Use }).u));
      const made = kept.slice(0, o.limit).map(make);
      if (kept.length > o.limit) made[made.length - 1].message += ` (${kept.length - o.limit} more ${what} in this file are not shown.)`;
      out.push(...made);
    };
    shown(unused, (x) => this.unusedFinding(x.u, x.idx), 'suppressions that silence nothing');
    shown(unknown, (x) => this.unknownFinding(x.u, x.i), 'unknown rule ids in suppressions');
    return out;
  }

  private unusedFinding(u: Use, idx: number[]): Finding {
    const s = u.s;
    const where = s.kind === 'file' ? 'this file has' : s.kind === 'line' ? 'its line has' : 'the line after it has';
    const whole = idx.length === s.ids.length;
    let span: Span;
    let message: string;
    let title: string;
    if (s.ids.length === 0) {
      span = { start: s.span.start, end: s.keywordSpan.end };
      message = `This \`# ${s.keyword}\` (every rule) silences nothing: ${where} no finding. Remove it, so that it does not hide a finding that comes later.`;
      title = 'Remove the suppression that silences nothing';
    } else {
      const names = idx.map((i) => `\`${s.ids[i].id}\``);
      span = { start: s.ids[idx[0]].span.start, end: s.ids[idx[idx.length - 1]].span.end };
      message = `This suppression of ${and(names)} silences nothing: ${where} no ${or(names)} finding. ${whole ? 'Remove it' : `Remove ${and(names)} from it`}, so that it does not hide a finding that comes later.`;
      title = whole ? 'Remove the suppression that silences nothing' : `Remove ${and(names)} from the suppression`;
    }
    const finding: Finding = {
      code: UNUSED_SUPPRESSION,
      severity: 'warning',
      message,
      span,
      // Shown faded where the editor can: the comment has no effect.
      tags: ['unnecessary'],
      fixes: () => {
        const edit = whole ? removeDirective(s, this.lines) : removeIds(s, idx, this.lines.text);
        return edit ? [fixOf(finding.severity, title, 'remove', [edit], s, true)] : [];
      },
    };
    return finding;
  }

  private unknownFinding(u: Use, i: number): Finding {
    const s = u.s;
    const { id, span } = s.ids[i];
    const near = closest(id, RULE_IDS, 3);
    const slip = onlySlip(id.toLowerCase(), RULE_IDS);
    const listed = slip !== undefined && s.ids.some((x) => canonical(x.id) === canonical(slip));
    const message = `${inlineCode(id)} is not a Shardwise rule id, so it silences nothing here. ${
      near.length ? `Did you mean ${or(near.map((n) => `\`${n}\``))}?` : 'Write a rule id (the rules reference lists them); a reason for the suppression goes after ` -- `.'
    }`;
    const finding: Finding = {
      code: UNUSED_SUPPRESSION,
      severity: 'warning',
      message,
      span,
      fixes: () => {
        if (!slip || listed) return [];
        // Applied by fix-all only when the rule it names has a finding there to silence; otherwise
        // the corrected suppression would silence nothing either, and is left to be decided by hand.
        const wanted = u.seen.has(canonical(slip)!);
        return [fixOf(finding.severity, `Replace ${inlineCode(id)} with \`${slip}\``, 'replace', [{ span, newText: slip }], s, wanted)];
      },
    };
    return finding;
  }
}

function fixOf(severity: Severity, title: string, kind: string, edits: TextEdit[], s: Suppression, recommended: boolean): Fix {
  return {
    title,
    edits,
    kind,
    applicability: 'safe',
    recommended,
    preferred: recommended && (severity === 'error' || severity === 'warning'),
    touches: [`${s.span.start}:# ${s.keyword}`],
  };
}

/**
 * Removes a suppression comment: its whole line (with the line break) when the line holds nothing
 * else, else the comment and the blanks before it. Undefined when that would join two lines of a
 * command (a `\` at the end of what is left, or of the line before).
 */
export function removeDirective(s: Suppression, lines: LineIndex): TextEdit | undefined {
  const text = lines.text;
  const start = lines.lineStart(s.line);
  if (/^[ \t\ufeff]*$/.test(text.slice(start, s.span.start))) {
    if (s.line > 0 && continues(lines.lineText(s.line - 1))) return undefined;
    const bom = start === 0 && text.charCodeAt(0) === 0xfeff ? 1 : 0;
    if (s.line + 1 < lines.lineCount) return { span: { start: start + bom, end: lines.lineStart(s.line + 1) }, newText: '' };
    if (s.line > 0) return { span: { start: lines.lineEnd(s.line - 1), end: lines.lineEnd(s.line) }, newText: '' };
    return { span: { start: start + bom, end: lines.lineEnd(s.line) }, newText: '' };
  }
  let from = s.span.start;
  while (from > start && (text[from - 1] === ' ' || text[from - 1] === '\t')) from--;
  if (continues(text.slice(start, from))) return undefined;
  return { span: { start: from, end: s.span.end }, newText: '' };
}

/** Rewrites the id list without the ids at `drop`, keeping its separator (`, ` or a space). */
function removeIds(s: Suppression, drop: number[], text: string): TextEdit {
  const ids = s.ids;
  const between = ids.length > 1 ? text.slice(ids[0].span.end, ids[1].span.start) : ', ';
  const sep = between.includes(',') ? `,${/,\s/.test(between) ? ' ' : ''}` : ' ';
  const kept = ids.filter((_, i) => !drop.includes(i)).map((x) => x.id);
  return { span: { start: ids[0].span.start, end: ids[ids.length - 1].span.end }, newText: kept.join(sep) };
}

/** Text as a Markdown code span, whatever backticks it holds (a word from the file may hold some). */
export function inlineCode(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  return longest ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`;
}

function and(items: string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function or(items: string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}
