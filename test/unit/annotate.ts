/**
 * Annotation-style fixtures: a config with lines of carets under the spans where findings are
 * expected, e.g.
 *
 *     mixed_precision: no
 *     #                ^^ error[yaml-boolean-trap]: Quote it
 *
 * Annotation lines are removed before the config is analysed and refer to the nearest content line
 * above them; caret columns are absolute (write the line without `#` for a span at column 0).
 * The optional text after `:` must appear in the message. The check is exact: every finding must be
 * annotated and every annotation found. The cases are files under test/rules/ (test/rules/load.ts).
 */
import { posix } from 'node:path';
import assert from 'node:assert/strict';
import { analyze, applyEdits, type EngineSettings, type FileAnalysis, type FileInput } from '../../server/src/engine';
import { namedFlags, refusedAt } from '../../server/src/engine/formats/megatron/release-names';
import { versionAtLeast } from '../../server/src/engine/version';

const ANNOTATION = /^(\s*#?\s*?)(\^+)\s+(error|warning|information|hint)\[([a-z0-9-]+)\](?::\s*(.*))?\s*$/;

export interface Expected {
  line: number;
  start: number;
  end: number;
  severity: string;
  code: string;
  text?: string;
}

export function parseAnnotated(src: string): { text: string; expected: Expected[] } {
  const out: string[] = [];
  const expected: Expected[] = [];
  for (const line of src.split('\n')) {
    const m = ANNOTATION.exec(line);
    if (m && out.length > 0) {
      const start = m[1].length;
      expected.push({ line: out.length - 1, start, end: start + m[2].length, severity: m[3], code: m[4], text: m[5]?.trim() || undefined });
    } else out.push(line);
  }
  return { text: out.join('\n'), expected };
}

export interface Case {
  name: string;
  src: string;
  settings?: EngineSettings;
  path?: string;
  /** Files next to this one (a DeepSpeed JSON an Accelerate config points at), found by a host resolver. */
  files?: Record<string, string>;
  /** Files that point at this one (the Accelerate configs using a DeepSpeed JSON). */
  referrers?: Record<string, string>;
  /** Where the case is written, relative to test/rules/, for messages. */
  file?: string;
}

const where = (c: { name: string; file?: string }): string => (c.file ? `${c.name} (test/rules/${c.file})` : c.name);

/**
 * A host's view of the files next to the analysed one (all other names are "not found"): a reference
 * is looked for beside the file, as a host does, so `dir/x.py` from `dir/run.sh` (a path the script
 * builds from `$0`) and `/project/dir/x.py` find `x.py` of the case's files.
 */
export function hostFor(c: { files?: Record<string, string>; referrers?: Record<string, string>; path?: string }): Pick<FileInput, 'resolve' | 'referrers'> {
  const files = c.files;
  const at = c.path?.replace(/^\/project\//, '');
  const dir = at?.includes('/') ? at.slice(0, at.lastIndexOf('/') + 1) : '';
  const name = (ref: string): string => {
    // `../vendor/x` from the case's folder: the path it names from the root of the case's files.
    const r = !ref.startsWith('/') && ref.split('/').includes('..') ? posix.normalize(dir + ref) : ref.replace(/^\/project\//, '');
    return dir && r.startsWith(dir) && !(r in (files ?? {})) ? r.slice(dir.length) : r;
  };
  // The folders that exist, as a host sees them: those of the case's own path and of its files.
  const folders = new Set<string>();
  for (const p of [`/project/${at ?? 'x'}`, ...Object.keys(files ?? {}).map((k) => `/project/${k}`)])
    for (let d = posix.dirname(p); !folders.has(d) && d !== '/'; d = posix.dirname(d)) folders.add(d);
  const deepest = (p: string): string => {
    let d = posix.dirname(p);
    while (!folders.has(d) && d !== '/') d = posix.dirname(d);
    return d;
  };
  return {
    resolve: files ? (ref: string) => ({ ref, path: `/project/${name(ref)}`, text: files[name(ref)], tried: [`/project/${name(ref)}`], deepestFolder: deepest(`/project/${name(ref)}`) }) : undefined,
    referrers: c.referrers ? Object.entries(c.referrers).map(([name, text]) => ({ path: `/project/${name}`, text })) : undefined,
  };
}

function describe(f: { line: number; start: number; end: number; severity: string; code: string }): string {
  return `${f.line + 1}:${f.start}-${f.end} ${f.severity}[${f.code}]`;
}

/** Analyses an annotated case and asserts the findings are exactly the annotated ones. */
export function checkCase(c: Case): FileAnalysis {
  const { text, expected } = parseAnnotated(c.src);
  const a = analyze({ path: c.path ?? 'config.yaml', text, ...hostFor(c) }, c.settings ?? {});
  const actual = a.findings.map((f) => {
    const s = a.lines.position(f.span.start);
    const e = a.lines.position(f.span.end);
    assert.equal(s.line, e.line, `finding spans several lines: ${f.code} ${f.message}`);
    return { line: s.line, start: s.character, end: e.character, severity: f.severity, code: f.code, message: f.message };
  });
  // One refusal reported once: two findings on the same span quoting the same upstream message are
  // the same check made twice (a caret matches both, so the comparison below would not see it).
  const quotes = (m: string) => [...m.matchAll(/\("([^"]{15,})"/g)].map((q) => q[1]);
  for (const [i, y] of actual.entries())
    for (const z of actual.slice(i + 1))
      if (y.line === z.line && y.start === z.start && y.end === z.end && quotes(y.message).some((q) => quotes(z.message).includes(q)))
        assert.fail(`${where(c)}\nthe same refusal is reported twice at ${describe(y)}:\n  ${y.code}: ${y.message}\n  ${z.code}: ${z.message}`);
  const missing = expected.filter((x) => !actual.some((y) => describe(y) === describe(x) && (!x.text || y.message.includes(x.text))));
  const extra = actual.filter((y) => !expected.some((x) => describe(y) === describe(x)));
  const show = (list: { line: number; start: number; end: number; severity: string; code: string; message?: string }[]) => list.map((f) => `  ${describe(f)}${f.message ? ` ${f.message}` : ''}`).join('\n');
  if (missing.length || extra.length) {
    assert.fail(`${where(c)}\nexpected but not found:\n${show(missing) || '  (none)'}\nfound but not expected:\n${show(extra) || '  (none)'}\nall findings:\n${show(actual)}`);
  }
  const outside = namedOutsideRelease(a, text);
  if (outside.length) assert.fail(`${where(c)}\na message names what the release it is checked against does not accept:\n${outside.join('\n')}`);
  return a;
}

/**
 * The Megatron-LM flags and values the findings' messages name that the release the file is checked
 * against does not accept (src/engine/formats/megatron/release-names.ts), where that release is named:
 * a message's advice must be one that release takes. A span the file writes itself is a quote, and a
 * sentence that names a release (`from 0.18`, `Megatron Core 0.9 or later`) says where it holds.
 */
function namedOutsideRelease(a: FileAnalysis, text: string): string[] {
  const da = a.docs[0];
  if (da?.format?.tool !== 'megatron-core') return [];
  // The release set for the check, or the one the file's context names (rules/release.ts releaseOf).
  const context = da.release && da.release.from.kind !== 'assumed' && da.release.from.kind !== 'unknown' ? da.release.value : undefined;
  const version = da.settings.targetVersions?.['megatron-core'] ?? context;
  if (!version) return [];
  const out: string[] = [];
  for (const f of a.findings) {
    for (const n of namedFlags(f.message)) {
      const why = refusedAt(n, (v) => versionAtLeast(version, v));
      if (!why || (text.includes(n.flag) && n.words.every((w) => text.includes(w)))) continue;
      const sentence = f.message.split(/(?<=[.;:])\s/).find((x) => x.includes(`\`${n.text}\``)) ?? '';
      if (/\b0\.\d+/.test(sentence)) continue;
      out.push(`  ${f.code} at ${version}: \`${n.text}\` (${why}): ${f.message}`);
    }
  }
  return out;
}

export interface FixCase {
  name: string;
  before: string;
  code: string;
  /** A substring of the fix title. */
  title: string;
  after: string;
  settings?: EngineSettings;
  path?: string;
  files?: Record<string, string>;
  referrers?: Record<string, string>;
  file?: string;
}

/** Applies a finding's fix and compares the text; the finding must be gone afterwards. */
export function checkFix(c: FixCase): void {
  const input = { path: c.path ?? 'config.yaml', text: c.before, ...hostFor(c) };
  const a = analyze(input, c.settings ?? {});
  const findings = a.findings.filter((f) => f.code === c.code);
  assert.ok(findings.length > 0, `${where(c)}: no ${c.code} finding; got ${a.findings.map((f) => f.code).join(', ') || 'none'}`);
  const fix = findings.flatMap((f) => f.fixes().map((x) => ({ f, x }))).find(({ x }) => x.title.includes(c.title));
  assert.ok(fix, `${where(c)}: no fix titled like "${c.title}"; fixes: ${findings.flatMap((f) => f.fixes().map((x) => x.title)).join(' | ') || 'none'}`);
  const after = applyEdits(c.before, fix.x.edits);
  assert.equal(after, c.after, `${where(c)}: fixed text`);
  const again = analyze({ ...input, text: after }, c.settings ?? {});
  assert.ok(!again.findings.some((f) => f.code === fix.f.code && f.message === fix.f.message), `${where(c)}: the finding is still there after the fix`);
  assert.ok(!again.findings.some((f) => f.code === 'parse-error'), `${where(c)}: the fix broke the syntax`);
}
