/**
 * The rules against their cases: every file under test/rules/<rule-id>/ (test/rules/README.md) is
 * analysed and its findings compared with its annotations, or its fix applied and the text compared
 * with the fixed one. The cases of a folder are grouped under its rule id, so one rule's cases run with
 *   node --import tsx --test --test-name-pattern='^<rule-id>$' test/unit/rules.test.ts
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { analyze, RULES } from '../../server/src/engine';
import { cases, fixes, folders } from '../rules/load';
import { checkCase, checkFix, parseAnnotated } from './annotate';

for (const rule of folders) {
  describe(rule, () => {
    for (const c of cases.filter((x) => x.rule === rule)) test(`findings: ${c.name}`, () => void checkCase(c));
    for (const f of fixes.filter((x) => x.rule === rule)) test(`fix: ${f.name}`, () => checkFix(f));
  });
}

test('every rule has a folder of cases under test/rules/, and every folder there is a rule', () => {
  const ids = RULES.map((r) => r.id).sort();
  assert.deepEqual(ids.filter((id) => !folders.includes(id)), [], 'rules without a folder under test/rules/');
  assert.deepEqual(folders.filter((f) => !ids.includes(f)), [], 'folders under test/rules/ that are not rule ids');
});

test("each rule's folder shows the rule firing: a case annotating it, or a fix case for it", () => {
  // A case annotating several rules lives in one folder; a rule whose only annotated case is in
  // another folder is shown here by a fix case, which fails unless the rule reports the finding.
  const lacking = folders.filter(
    (rule) => !cases.some((c) => c.rule === rule && parseAnnotated(c.src).expected.some((e) => e.code === rule)) && !fixes.some((f) => f.rule === rule && f.code === rule),
  );
  assert.deepEqual(lacking, [], `folders with no case of their own rule: ${lacking.join(', ')}`);
});

test('case names are unique (they are the test names)', () => {
  const names = [...cases, ...fixes].map((c) => c.name);
  assert.deepEqual(names.filter((n, i) => names.indexOf(n) !== i), []);
});

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
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !['index.ts', 'rule.ts', 'helpers.ts', 'certain.ts', 'release.ts', 'run.ts'].includes(f)).map((f) => f.replace(/\.ts$/, '')).sort();
  assert.deepEqual(RULES.map((r) => r.id).sort(), files);
  for (const r of RULES) assert.match(r.id, /^[a-z0-9]+(-[a-z0-9]+)*$/, `${r.id} is not kebab-case`);
});

test("each rule's documented bad example triggers it and its good example does not", () => {
  for (const r of RULES) {
    // The files an example refers to, as a host would find them next to it.
    const files = r.docs.files;
    const resolve = files ? (ref: string) => ({ ref, path: `/examples/${ref}`, text: files[ref], tried: [`/examples/${ref}`] }) : undefined;
    const path = /^\s*[{[]/.test(r.docs.bad) ? 'example.json' : /^#!|^\s*(torchrun|srun|python)\b/m.test(r.docs.bad) ? 'example.sh' : 'example.yaml';
    const referrers = r.docs.referrers ? Object.entries(r.docs.referrers).map(([name, text]) => ({ path: `/examples/${name}`, text })) : undefined;
    const bad = analyze({ path: `/examples/${path}`, text: r.docs.bad, resolve, referrers }).findings.map((f) => f.code);
    const goodAnalysis = analyze({ path: `/examples/${path}`, text: r.docs.good, resolve, referrers });
    const good = goodAnalysis.findings.map((f) => f.code);
    assert.ok(bad.includes(r.id), `${r.id}: the bad example does not trigger it (found: ${bad.join(', ') || 'nothing'})`);
    assert.ok(!good.includes(r.id), `${r.id}: the good example triggers it`);
    assert.ok(!goodAnalysis.findings.some((f) => f.severity === 'error'), `${r.id}: the good example has errors: ${good.join(', ')}`);
  }
});

test("each rule's launch-script example triggers it, and its good one does not", () => {
  for (const r of RULES.filter((rule) => rule.docs.shell)) {
    const { bad, good } = r.docs.shell!;
    assert.match(bad, /^#!\/bin\/bash\n/, `${r.id}: a launch script`);
    const found = analyze({ path: 'example.sh', text: bad }).findings.map((f) => f.code);
    assert.ok(found.includes(r.id), `${r.id}: the launch-script example does not trigger it (found: ${found.join(', ') || 'nothing'})`);
    const fixed = analyze({ path: 'example.sh', text: good }).findings;
    assert.ok(!fixed.some((f) => f.code === r.id), `${r.id}: the good launch script triggers it`);
    assert.ok(!fixed.some((f) => f.severity === 'error'), `${r.id}: the good launch script has errors: ${fixed.map((f) => f.code).join(', ')}`);
  }
});

test("a rule's upstream links point at source lines of a release tag, never a branch", () => {
  for (const r of RULES) {
    for (const u of r.docs.upstream ?? []) {
      const m = /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+\/blob\/([^/]+)\/\S+#L\d+(-L\d+)?$/.exec(u.url);
      assert.ok(m, `${r.id}: ${u.url} is not a link to lines of a file on GitHub`);
      assert.match(m[1], /^(v?\d+\.\d+\.\d+[\w.]*|core_v\d+\.\d+\.\d+[\w.]*|core_r\d+\.\d+\.\d+|[0-9a-f]{40})$/, `${r.id}: ${u.url} is not at a release tag or a commit`);
      assert.ok(u.label.trim().length > 0, `${r.id}: a link needs a label`);
    }
  }
});
