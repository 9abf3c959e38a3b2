/**
 * Certainty is a property of the engine, not a habit of each rule. Every rule case under test/rules/
 * is analysed again with a probe that makes every value a rule reads through its context unknown,
 * then assumed:
 * - unknown: every finding must disappear, except those of rules whose findings are about the text
 *   itself or about what cannot be seen (`about`). A finding that stays was drawn from a value the
 *   rule read around the certainty-aware context.
 * - assumed: no finding may be an error, and every warning says what it assumes.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { analyze, RULES } from '../../server/src/engine';
import { runRules } from '../../server/src/engine/analyze';
import { defineRule } from '../../server/src/engine/rules/rule';
import { setCertaintyProbe } from '../../server/src/engine/rules/certain';
import { cases } from '../rules/load';
import { hostFor, parseAnnotated } from './annotate';

after(() => setCertaintyProbe(undefined));

const about = new Map(RULES.map((r) => [r.id, r.about]));

function run(c: (typeof cases)[number]) {
  const { text } = parseAnnotated(c.src);
  return analyze({ path: c.path ?? 'config.yaml', text, ...hostFor(c) }, c.settings ?? {}).findings;
}

test('an unknown input silences every finding drawn from it: no rule reads around the context', () => {
  const leaks: string[] = [];
  let checked = 0;
  try {
    setCertaintyProbe('unknown');
    for (const c of cases) {
      for (const f of run(c)) {
        if (!RULES.some((r) => r.id === f.code) || about.get(f.code)) continue;
        leaks.push(`${c.file}: ${f.severity}[${f.code}] ${f.message.slice(0, 100)}`);
      }
      checked++;
    }
  } finally {
    setCertaintyProbe(undefined);
  }
  assert.ok(checked > 100, `only ${checked} cases`);
  assert.deepEqual(leaks, []);
});

test('an assumed input makes no error, and every warning drawn from it says what it assumes', () => {
  const bad: string[] = [];
  try {
    setCertaintyProbe('assumed');
    for (const c of cases) {
      for (const f of run(c)) {
        if (about.get(f.code) || !RULES.some((r) => r.id === f.code)) continue;
        if (f.severity === 'error') bad.push(`${c.file}: error[${f.code}] ${f.message.slice(0, 100)}`);
        else if (f.severity === 'warning' && !/This assumes every value is taken as assumed/.test(f.message)) bad.push(`${c.file}: warning[${f.code}] does not say what it assumes`);
      }
    }
  } finally {
    setCertaintyProbe(undefined);
  }
  assert.deepEqual(bad, []);
});

test('the same holds with the rules set to error: a user setting cannot make an error of an assumption', () => {
  const bad: string[] = [];
  const all = Object.fromEntries(RULES.map((r) => [r.id, 'error' as const]));
  try {
    setCertaintyProbe('assumed');
    for (const c of cases.slice(0, 200)) {
      const { text } = parseAnnotated(c.src);
      for (const f of analyze({ path: c.path ?? 'config.yaml', text, ...hostFor(c) }, { ...(c.settings ?? {}), rules: all }).findings) {
        if (!about.get(f.code) && f.severity === 'error' && RULES.some((r) => r.id === f.code)) bad.push(`${c.file}: ${f.code}`);
      }
    }
  } finally {
    setCertaintyProbe(undefined);
  }
  assert.deepEqual(bad, []);
});

test('the probe catches a rule that reads around the context (the test above can fail)', () => {
  // A rule that takes its input from outside the context it is given: a value captured here.
  const outside = { tp: 16, world: 8 };
  const leaky = defineRule({
    id: 'world-size-mismatch',
    severity: 'error',
    formats: 'all',
    docs: { summary: '', why: '', bad: '', good: '' },
    check(ctx) {
      if (outside.world % outside.tp !== 0) ctx.report({ at: [], message: 'TP does not divide the world' });
    },
  });
  // Reading the same through the context: silenced by the probe.
  const honest = defineRule({
    ...leaky,
    check(ctx) {
      const p = ctx.plan;
      if (p?.world && p.world.value % p.tp.value !== 0) ctx.report({ at: [], message: 'TP does not divide the world' });
    },
  });
  const text = '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --tensor-model-parallel-size: 16\n';
  const da = analyze({ path: 'model_config.yaml', text }).docs[0];
  try {
    setCertaintyProbe('unknown');
    assert.equal(runRules(da, [leaky]).length, 1, 'a value read around the context is not silenced');
    assert.equal(runRules(da, [honest]).length, 0);
  } finally {
    setCertaintyProbe(undefined);
  }
  assert.equal(runRules(da, [honest]).length, 1);
});

test('a finding made after the reads that decided it (deprecated-key gathers a section\'s keys and reports them together) still rests on them: a release nobody named is said', () => {
  const text = 'compute_environment: LOCAL_MACHINE\ndistributed_type: FSDP\nfsdp_config:\n  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP\n  fsdp_backward_prefetch_policy: BACKWARD_PRE\nnum_machines: 1\nnum_processes: 4\n';
  const unnamed = analyze({ path: 'fsdp.yaml', text }).findings.filter((f) => f.code === 'deprecated-key');
  assert.equal(unnamed.length, 1);
  assert.equal(unnamed[0].severity, 'warning');
  assert.match(unnamed[0].message, /This assumes the newest Accelerate release runs this file/);
  // Named, the release is no assumption, and 0.33 still copies the old key (utils/launch.py@v0.33.0:252-258): a note.
  const named = analyze({ path: 'fsdp.yaml', text }, { targetVersions: { accelerate: '0.33.0' } }).findings.filter((f) => f.code === 'deprecated-key');
  assert.equal(named[0].severity, 'information');
  assert.doesNotMatch(named[0].message, /This assumes/);
});
