/**
 * The fixes that move a DeepSpeed key to another name, enumerated from the schema rather than from
 * hand-picked samples: every deprecated key with a replacement (deprecated-key's rename and replace,
 * the legacy `bfloat16` section, the top-level `allgather_size` of the boolean `zero_optimization`)
 * and a one-character slip of every key of every section (unknown-key's did-you-mean). Each is placed
 * in the contexts that decide whether DeepSpeed reads it (no ZeRO section, the boolean form, each
 * stage, the replacement written beside it, `bf16` beside `bfloat16`) and checked at the releases its
 * facts name. A fix offered as safe must fix a file DeepSpeed refuses (an error) or leave what
 * DeepSpeed reads unchanged (upstream-reading.ts): a key DeepSpeed ignores where it stands must not be
 * moved to where it counts under a safe label.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze, applyEdits, type FileAnalysis } from '../../server/src/engine';
import type { Deprecation, JsonSchema } from '../../server/src/engine/schema/types';
import { defaultAt } from '../../server/src/engine/schema/vocabulary';
import { OLDEST_COVERED } from '../../server/src/engine/rules/release';
import { upstreamReading, type Reading } from './upstream-reading';

const ROOT = JSON.parse(readFileSync(join(__dirname, '../../schemas/deepspeed.schema.json'), 'utf8')) as JsonSchema;
const NEWEST = '0.19.5';

function resolve(s: JsonSchema | undefined): JsonSchema | undefined {
  if (!s?.$ref) return s;
  let out: unknown = ROOT;
  for (const part of s.$ref.replace(/^#\//, '').split('/')) out = (out as Record<string, unknown> | undefined)?.[part];
  return out as JsonSchema | undefined;
}

/** The properties reachable from the root through `properties` alone, with their paths. */
function properties(): { path: string[]; schema: JsonSchema; parent: JsonSchema }[] {
  const out: { path: string[]; schema: JsonSchema; parent: JsonSchema }[] = [];
  const visit = (section: JsonSchema, path: string[]): void => {
    for (const [key, raw] of Object.entries(section.properties ?? {})) {
      const schema = resolve(raw);
      if (!schema) continue;
      out.push({ path: [...path, key], schema, parent: section });
      if (schema.properties && path.length < 4) visit(schema, [...path, key]);
    }
  };
  visit(ROOT, []);
  return out;
}

/** A value of the key other than its default, of the type it takes; undefined where none is simple. */
function sample(schema: JsonSchema): unknown {
  const types = ([] as unknown[]).concat(schema.type ?? []);
  const dflt = defaultAt(schema, undefined);
  const other = schema.enum?.find((v) => v !== dflt && v !== 'auto');
  if (other !== undefined) return other;
  if (types.includes('boolean')) return dflt !== true;
  if (types.includes('integer')) return typeof dflt === 'number' ? dflt + 2 : 2;
  if (types.includes('number')) return typeof dflt === 'number' ? dflt + 0.5 : 0.5;
  if (types.includes('string') && !schema.enum) return 'slip';
  if (types.includes('object') && schema.properties?.enabled) return { enabled: true };
  return undefined;
}

function setAt(doc: Record<string, unknown>, path: string[], value: unknown): void {
  let at = doc;
  for (const key of path.slice(0, -1)) {
    if (!at[key] || typeof at[key] !== 'object') at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
  at[path[path.length - 1]] = value;
}

/** The ZeRO sections a key is tried under: none, the legacy booleans, and each stage. */
const ZERO: (unknown | undefined)[] = [undefined, true, false, { stage: 0 }, { stage: 1 }, { stage: 2 }, { stage: 3 }];

/** The documents the key at `path` is tried in, with `value`. */
function documents(path: string[], value: unknown, replacement: string[] | undefined): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const zero of ZERO) {
    // A key inside zero_optimization needs the section as a mapping.
    if (path[0] === 'zero_optimization' && (zero === undefined || typeof zero !== 'object')) continue;
    for (const beside of [false, true]) {
      if (beside && !replacement) continue;
      for (const bf16 of [false, true]) {
        const doc: Record<string, unknown> = { train_micro_batch_size_per_gpu: 1 };
        if (zero !== undefined) doc.zero_optimization = typeof zero === 'object' ? { ...(zero as object) } : zero;
        if (bf16) doc.bf16 = { enabled: false };
        setAt(doc, path, value);
        if (beside && replacement && typeof doc.zero_optimization !== 'boolean') setAt(doc, replacement, value);
        out.push(doc);
      }
    }
  }
  return out;
}

function differences(before: Reading, after: Reading): string[] {
  const out: string[] = [];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const x = JSON.stringify(before.get(key));
    const y = JSON.stringify(after.get(key));
    if (x !== y) out.push(`\`${key}\` ${x ?? '(not read)'} → ${y ?? '(not read)'}`);
  }
  return out;
}

interface Tally {
  /** Safe fixes of these rules applied to a file that runs, and compared. */
  compared: number;
  /** Fixes of these rules seen at all. */
  offered: number;
  changed: string[];
}

const RULES = new Set(['deprecated-key', 'unknown-key']);

/** Applies every safe fix of the two rules to a file that runs, and records what it changes in DeepSpeed's reading. */
function tryDocument(doc: Record<string, unknown>, release: string, tally: Tally): void {
  const text = JSON.stringify(doc, null, 2) + '\n';
  const settings = { targetVersions: { deepspeed: release } };
  const before: FileAnalysis = analyze({ path: 'ds_config.json', text }, settings);
  const runs = !before.findings.some((f) => f.severity === 'error');
  for (const f of before.findings) {
    if (!RULES.has(f.code)) continue;
    for (const fix of f.fixes()) {
      tally.offered++;
      if (fix.applicability !== 'safe' || !runs) continue;
      tally.compared++;
      const after = analyze({ path: 'ds_config.json', text: applyEdits(text, fix.edits) }, settings);
      const diff = differences(upstreamReading(before.docs[0]), upstreamReading(after.docs[0]));
      if (diff.length) tally.changed.push(`${release} ${JSON.stringify(doc)}: ${f.code} "${fix.title}" changes ${diff.join('; ')}`);
    }
  }
}

/** The releases a deprecation's facts name, with the oldest covered and the newest. */
function releasesOf(dep: Deprecation, ...schemas: (JsonSchema | undefined)[]): string[] {
  const named = [dep.since, dep.refusedWithReplacementSince, ...(dep.earlier ?? []).map((e) => e.since), ...(dep.replacementDiffers ?? []).flatMap((r) => [r.since, r.until]), ...schemas.map((s) => s?.['x-since'])];
  return [...new Set([OLDEST_COVERED.deepspeed, ...named.filter((v): v is string => typeof v === 'string'), NEWEST])];
}

const moves = properties().filter((p) => p.schema['x-deprecated']?.replacement);

test('the deprecated DeepSpeed keys with a replacement are all enumerated, allgather_size and bfloat16 among them', () => {
  const names = moves.map((m) => m.path.join('.'));
  for (const expected of ['allgather_size', 'bfloat16', 'zero_optimization.cpu_offload', 'zero_optimization.stage3_gather_fp16_weights_on_model_save']) assert.ok(names.includes(expected), names.join(', '));
});

test('a safe deprecated-key move of a DeepSpeed key leaves what DeepSpeed reads unchanged, in every context that decides whether the old key is read', () => {
  const tally: Tally = { compared: 0, offered: 0, changed: [] };
  for (const { path, schema } of moves) {
    const dep = schema['x-deprecated'] as Deprecation;
    const replacement = dep.replacement!.startsWith('/') ? dep.replacement!.slice(1).split('.') : dep.replacement!.includes('.') ? dep.replacement!.split('.') : [...path.slice(0, -1), dep.replacement!];
    const values = [sample(schema), defaultAt(schema, undefined)].filter((v) => v !== undefined);
    for (const release of releasesOf(dep, schema)) for (const value of values) for (const doc of documents(path, value, replacement)) tryDocument(doc, release, tally);
  }
  assert.deepEqual(tally.changed, []);
  // The enumeration did work: fixes were offered, and some safe ones applied and compared.
  assert.ok(tally.offered > 50 && tally.compared > 10, `${tally.offered} offered, ${tally.compared} compared`);
});

test('allgather_size is moved under a safe label only where DeepSpeed ignores it and its value is the bucket size that runs anyway', () => {
  const fixesOf = (doc: Record<string, unknown>) =>
    analyze({ path: 'ds_config.json', text: JSON.stringify(doc) }, { targetVersions: { deepspeed: NEWEST } })
      .findings.filter((f) => f.code === 'deprecated-key' && f.message.startsWith("`allgather_size`"))
      .map((f) => ({ severity: f.severity, fixes: f.fixes().map((x) => x.applicability) }));
  // runtime/zero/config.py@v0.19.5:60-64,71-75: read only when zero_optimization is a bool; the object form never reads it.
  assert.deepEqual(fixesOf({ train_micro_batch_size_per_gpu: 1, zero_optimization: { stage: 2 }, allgather_size: 1000 }), [{ severity: 'warning', fixes: ['unsafe'] }]);
  assert.deepEqual(fixesOf({ train_micro_batch_size_per_gpu: 1, allgather_size: 1000 }), [{ severity: 'warning', fixes: ['unsafe'] }]);
  // Its own default, 5e8, is allgather_bucket_size's default too (zero/config.py@v0.19.5 `Field(pp_int(5e8)…)`): nothing changes.
  assert.deepEqual(fixesOf({ train_micro_batch_size_per_gpu: 1, zero_optimization: { stage: 2 }, allgather_size: 500000000 }), [{ severity: 'information', fixes: ['safe'] }]);
  // With the boolean form it is read, as the bucket size of stage 1.
  assert.deepEqual(fixesOf({ train_micro_batch_size_per_gpu: 1, zero_optimization: true, allgather_size: 1000 }), [{ severity: 'information', fixes: [] }]);
});

/** A slip of the keyboard: the key with one letter doubled, the only known key one edit away. */
const slip = (key: string) => key.replace(/([a-z])(?!.*[a-z])/, '$1$1');

test('a safe unknown-key rename of a slip in a DeepSpeed section is offered only where DeepSpeed refuses the slip', () => {
  const tally: Tally = { compared: 0, offered: 0, changed: [] };
  const sections = new Map<string, { path: string[]; schema: JsonSchema }[]>();
  for (const p of properties()) {
    if (p.path.length > 3) continue;
    const section = p.path.slice(0, -1).join('.');
    sections.set(section, [...(sections.get(section) ?? []), p]);
  }
  for (const keys of sections.values()) {
    const pick = keys.find((k) => !k.schema['x-deprecated'] && sample(k.schema) !== undefined && typeof sample(k.schema) !== 'object');
    if (!pick) continue;
    const path = [...pick.path.slice(0, -1), slip(String(pick.path.at(-1)))];
    for (const release of ['0.3.16', '0.6.7', '0.7.0', '0.10.0', '0.17.1', NEWEST]) {
      const doc: Record<string, unknown> = { train_micro_batch_size_per_gpu: 1, zero_optimization: { stage: 2 } };
      setAt(doc, path, sample(pick.schema));
      tryDocument(doc, release, tally);
    }
  }
  assert.deepEqual(tally.changed, []);
  assert.ok(tally.offered > 100, `${tally.offered} offered`);
});

test('max_grad_norm moved to gradient_clipping is safe only where the file shows DeepSpeed builds the optimizer', () => {
  // runtime/engine.py@v0.19.5:1982-1993: a client optimizer replaces the section, whose params are then never read;
  // :2046-2049: DeepSpeed's own build refuses max_grad_norm. The file alone does not say which runs.
  const text = JSON.stringify({ train_micro_batch_size_per_gpu: 1, optimizer: { type: 'AdamW', params: { lr: 0.001, max_grad_norm: 1.0 } } });
  const f = analyze({ path: 'ds_config.json', text }, { targetVersions: { deepspeed: NEWEST } }).findings.find((x) => x.code === 'deprecated-key')!;
  assert.equal(f.severity, 'information');
  assert.deepEqual(f.fixes().map((x) => [x.title.startsWith('Replace with `gradient_clipping: 1`'), x.applicability]), [[true, 'unsafe']]);
});
