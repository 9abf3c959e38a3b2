/**
 * A rule's documentation states what upstream does, and from which release: every release its
 * `docs.why` names must be one its code names (the gate it checks, `ctx.atLeast('0.19.3')`, or the
 * release a message states), so that a release dropped from the code, or one written in the
 * documentation and never checked, fails here. A release the schemas record (an `x-strict-since`
 * the rule reads) backs the text too.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { RULES } from '../../server/src/engine';

const RULE_DIR = join(__dirname, '../../server/src/engine/rules');
const SCHEMAS = ['accelerate', 'deepspeed', 'megatron'].map((n) => readFileSync(join(__dirname, `../../schemas/${n}.schema.json`), 'utf8')).join('\n');

/** The releases (`0.19.3`, `1.10`) a text names outside its code spans (examples), quantities (`1.8 TB/s`) aside. */
const releases = (text: string) => [...new Set([...text.replace(/`[^`]*`/g, '').matchAll(/(?<![\w.])(\d+\.\d+(?:\.\d+)?)(?![\w.]*\d)(?!\s*(?:[KMGT]B|x\b|%))/g)].map((m) => m[1]))];
/** A release without its trailing `.0` parts (`1.13.0` and `1.13` are one release). */
const canonical = (v: string) => v.replace(/(\.0)+$/, '');
/** Whether the source names the release (as written or with more `.0` parts, not as part of another). */
const names = (src: string, release: string) => [...src.matchAll(/(?<![\w.])\d+\.\d+(?:\.\d+)*(?![\w.]*\d)/g)].some((m) => canonical(m[0]) === canonical(release));

/** A rule's source without its `docs: { ... }` object (which holds the text under test). */
function codeOf(file: string): string {
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const cut: [number, number][] = [];
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAssignment(node) && node.name.getText(sf) === 'docs') cut.push([node.getStart(sf), node.getEnd()]);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return cut.reduceRight((t, [a, b]) => t.slice(0, a) + t.slice(b), text);
}

/** The releases a rule's `docs.why` names that its source does not. */
function unbacked(why: string, src: string): string[] {
  return releases(why).filter((r) => !names(src, r));
}

test('the check itself: a release only the documentation names is found', () => {
  assert.deepEqual(unbacked('DeepSpeed checks it from 0.19.3 and warns from 0.17.1.', "if (ctx.atLeast('0.19.3')) report();"), ['0.17.1']);
  assert.deepEqual(unbacked('From 0.19.3 on.', "ctx.atLeast('0.19.30')"), ['0.19.3']);
  assert.deepEqual(unbacked('Since 1.13 it is refused.', "const SINCE = '1.13.0';"), []);
  // An example in a code span and a quantity are no claims.
  assert.deepEqual(unbacked('Set `# shardwise: accelerate=1.9.0`; 1.8 TB/s per link.', ''), []);
});

test("every release a rule's docs.why names is named by the rule's code", () => {
  const missing: string[] = [];
  let named = 0;
  for (const rule of RULES) {
    const why = rule.docs?.why ?? '';
    const file = join(RULE_DIR, `${rule.id}.ts`);
    if (!releases(why).length) continue;
    assert.ok(existsSync(file), `${rule.id}: no ${file}`);
    // The rule's code includes the check tables it imports (formats/megatron/yaml-cfg-checks.ts).
    const tables = [...readFileSync(file, 'utf8').matchAll(/from '(\.\.?\/[^']*checks)'/g)].map((m) => join(dirname(file), `${m[1]}.ts`)).filter((f) => existsSync(f));
    const src = [file, ...tables].map(codeOf).join('\n');
    assert.ok(!src.includes(why.slice(0, 40)), `${rule.id}: the docs were not cut from the code read`);
    named += releases(why).length;
    for (const r of unbacked(why, src).filter((v) => !SCHEMAS.includes(`"${v}"`))) missing.push(`${rule.id}: docs.why names ${r}, its code does not`);
  }
  assert.ok(named >= 10, `${named} releases named`);
  assert.deepEqual(missing, []);
});

test('fork-flags-not-checked: `--DDP-impl` left with Megatron Core 0.4.0, not with the first Core release', () => {
  // megatron/arguments.py@23.04 (core 0.1.0) and @23.06 (core 0.2.0) still define '--DDP-impl'; absent @core_v0.4.0.
  // `--data-impl` is upstream's too (megatron/arguments.py@23.04:1075): Megatron-DeepSpeed keeps it, it does not add it.
  const why = RULES.find((r) => r.id === 'fork-flags-not-checked')!.docs.why;
  assert.doesNotMatch(why, /first Core release removed/);
  assert.match(why, /Megatron Core 0\.4\.0 no longer has, such as `--DDP-impl`/);
  assert.doesNotMatch(why, /adds flags \([^)]*--data-impl/);
});
