/**
 * A fix called safe never changes what runs. Over every file the fix tests use (fix-samples.ts),
 * every safe fix of every finding is applied on its own, and:
 * - for a finding that is an error (upstream refuses the file as written, every input known), the
 *   fix may change the file's meaning: the file could not run before;
 * - for any other finding (the file runs as written), what upstream reads (upstream-reading.ts: the
 *   keys the release reads, under the names it reads them by, with the values the run gets) is the
 *   same before and after.
 * Every kind of fix a rule declares safe is produced as a safe fix by some sample, so no kind escapes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze, applyEdits, ruleById, RULES, type EngineSettings, type FileAnalysis, type Fix } from '../../server/src/engine';
import { OLDEST_COVERED } from '../../server/src/engine/rules/release';
import { ROOT, samples, type Sample } from './fix-samples';
import { upstreamReading, type Reading } from './upstream-reading';

function readings(a: FileAnalysis): Reading[] {
  return a.docs.map((d) => upstreamReading(d));
}

function differences(before: Reading[], after: Reading[]): string[] {
  if (before.length !== after.length) return [`${before.length} document(s) before, ${after.length} after`];
  const out: string[] = [];
  before.forEach((b, i) => {
    const a = after[i];
    for (const key of new Set([...b.keys(), ...a.keys()])) {
      const x = JSON.stringify(b.get(key));
      const y = JSON.stringify(a.get(key));
      if (x !== y) out.push(`document ${i}: \`${key}\` ${x ?? '(not read)'} → ${y ?? '(not read)'}`);
    }
  });
  return out;
}

interface Tried {
  /** Safe fixes of errors: the file could not run as written. */
  refused: Set<string>;
  /** Safe fixes of other findings in files that run, whose reading was compared. */
  compared: Set<string>;
  changed: string[];
}

/** The releases a tool's schema names (where its behaviour changes), and its oldest covered one. */
function releasesOf(tool: string): string[] {
  const file = { accelerate: 'accelerate', deepspeed: 'deepspeed', 'megatron-core': 'megatron' }[tool];
  if (!file) return [];
  const text = readFileSync(join(ROOT, 'schemas', `${file}.schema.json`), 'utf8');
  return [...new Set([OLDEST_COVERED[tool as keyof typeof OLDEST_COVERED], ...(text.match(/"\d+\.\d+\.\d+"/g) ?? []).map((v) => v.slice(1, -1))])];
}

/** What applying the fix changes in what upstream reads, at the settings given; nothing when the file does not run there. */
function changes(s: Sample, settings: EngineSettings, fix: Fix): string[] {
  const before = analyze(s.input, settings);
  if (before.findings.some((f) => f.severity === 'error')) return [];
  const after = analyze({ ...s.input, text: applyEdits(before.text, fix.edits) }, settings);
  return differences(readings(before), readings(after));
}

function tryFixes(s: Sample, tried: Tried): void {
  const before = analyze(s.input, s.settings);
  // A file with an error does not run as written: only the errors' own fixes are judged, by that.
  const runs = !before.findings.some((f) => f.severity === 'error');
  for (const f of before.findings) {
    for (const fix of f.fixes()) {
      if (fix.applicability !== 'safe' || fix.otherFiles) continue;
      const kind = `${f.code}/${fix.kind}`;
      if (f.severity === 'error') tried.refused.add(kind);
      if (!runs) continue;
      tried.compared.add(kind);
      const unconditional = ruleById(f.code)?.fixes?.[fix.kind]?.unconditional;
      const tool = before.docs[0]?.format?.tool;
      const where = (v?: string) => `${s.name}${v ? ` at ${v}` : ''}: ${kind} "${fix.title}" (${f.severity}: ${f.message.slice(0, 90)}…) changes `;
      // A kind safe whatever release runs the file is held to that, at every release where the file
      // runs; any other at the release the analysis took.
      if (!unconditional || !tool || s.settings.targetVersions?.[tool]) {
        const diff = changes(s, s.settings, fix);
        if (diff.length) tried.changed.push(where() + diff.join('; '));
        continue;
      }
      for (const v of releasesOf(tool)) {
        const at = changes(s, { ...s.settings, targetVersions: { ...s.settings.targetVersions, [tool]: v } }, fix);
        if (at.length) tried.changed.push(where(v) + at.join('; '));
      }
    }
  }
}

const tried: Tried = { refused: new Set(), compared: new Set(), changed: [] };
for (const s of samples) tryFixes(s, tried);

test('a safe fix of a file that runs as written leaves what upstream reads unchanged', () => {
  assert.deepEqual(tried.changed, []);
});

test('every kind of fix a rule declares safe is applied by some sample, to a file that runs or to one upstream refuses', () => {
  const declared = RULES.flatMap((r) => Object.entries(r.fixes ?? {}).filter(([, k]) => k.applicability === 'safe').map(([kind]) => `${r.id}/${kind}`));
  const missing = declared.filter((k) => !tried.refused.has(k) && !tried.compared.has(k));
  assert.deepEqual(missing, [], `safe kinds no sample produces as safe: ${missing.join(', ')}`);
});
