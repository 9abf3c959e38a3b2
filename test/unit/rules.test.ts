import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze, RULES } from '../../server/src/engine';
import { checkCase, checkFix, parseAnnotated } from './annotate';
import * as accelerate from './fixtures/accelerate';
import * as generic from './fixtures/generic';
import * as deepspeed from './fixtures/deepspeed';
import * as megatron from './fixtures/megatron';
import * as plan from './fixtures/plan';
import * as slurm from './fixtures/slurm';

const cases = [...generic.cases, ...accelerate.cases, ...plan.cases, ...megatron.cases, ...deepspeed.cases, ...slurm.cases];
const fixes = [...generic.fixes, ...accelerate.fixes, ...plan.fixes, ...megatron.fixes, ...deepspeed.fixes];

for (const c of cases) test(`findings: ${c.name}`, () => void checkCase(c));
for (const f of fixes) test(`fix: ${f.name}`, () => checkFix(f));

test('every rule has an annotated positive case', () => {
  const annotated = new Set(cases.flatMap((c) => parseAnnotated(c.src).expected.map((e) => e.code)));
  const missing = RULES.map((r) => r.id).filter((id) => !annotated.has(id));
  assert.deepEqual(missing, [], `rules without a positive fixture: ${missing.join(', ')}`);
});

test('every rule that documents a quick fix has a before/after fix case', () => {
  const fixed = new Set(fixes.map((f) => f.code));
  const missing = RULES.filter((r) => r.docs.fix).map((r) => r.id).filter((id) => !fixed.has(id));
  assert.deepEqual(missing, [], `rules without a fix case: ${missing.join(', ')}`);
});

test('each rule file is registered and named by its rule id', () => {
  const dir = join(__dirname, '../../server/src/engine/rules');
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !['index.ts', 'rule.ts', 'helpers.ts'].includes(f)).map((f) => f.replace(/\.ts$/, '')).sort();
  assert.deepEqual(RULES.map((r) => r.id).sort(), files);
  for (const r of RULES) assert.match(r.id, /^[a-z0-9]+(-[a-z0-9]+)*$/, `${r.id} is not kebab-case`);
});

test("each rule's documented bad example triggers it and its good example does not", () => {
  for (const r of RULES) {
    // The files an example refers to, as a host would find them next to it.
    const files = r.docs.files;
    const resolve = files ? (ref: string) => ({ ref, path: `/examples/${ref}`, text: files[ref], tried: [`/examples/${ref}`] }) : undefined;
    const path = /^\s*[{[]/.test(r.docs.bad) ? 'example.json' : /^#!|^\s*(torchrun|srun|python)\b/m.test(r.docs.bad) ? 'example.sh' : 'example.yaml';
    const bad = analyze({ path, text: r.docs.bad, resolve }).findings.map((f) => f.code);
    const goodAnalysis = analyze({ path, text: r.docs.good, resolve });
    const good = goodAnalysis.findings.map((f) => f.code);
    assert.ok(bad.includes(r.id), `${r.id}: the bad example does not trigger it (found: ${bad.join(', ') || 'nothing'})`);
    assert.ok(!good.includes(r.id), `${r.id}: the good example triggers it`);
    assert.ok(!goodAnalysis.findings.some((f) => f.severity === 'error'), `${r.id}: the good example has errors: ${good.join(', ')}`);
  }
});
