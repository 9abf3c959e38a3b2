/**
 * The bounded hostile-input suite, part of `npm test`: a campaign over every category with a fixed
 * seed (bombs at a quarter of their full size), and the kept reproducers of test/fuzz/regressions.
 * No crash, no range outside its document, no completion range without the cursor, no control
 * character in what is shown, no fix that parses worse or fix-all that does not settle, and no hang:
 * an input's checks get 10 s (the worker is killed after 30 s; an input over 10 s while the pool is
 * busy is run again alone, and is a hang only if it is over then too). Time budgets are not asserted here,
 * where the machine may be loaded: `npm run fuzz` holds every input to 2 s and a bomb's time to
 * linear growth. `npm run fuzz -- --scale bounded --seed <SEED> --n <N>` reproduces this campaign
 * and writes minimised reproducers.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze } from '../../server/src/engine';
import { corpusSkip } from '../corpus-path';
import { runCampaign, table, type Distinct } from './campaign';
import { fileInput } from './oracle';
import { Pool } from './pool';
import { regressionCases, regressionInput } from './regressions';
import { hasCorpus } from './sources';
import { INFORMATIONAL } from './types';

const SEED = 20_251_101;
/** Generous: a hang here is a loop that does not end, not a slow machine. */
const TEST_POOL = { watchdogMs: 30_000, oracle: { hangMs: 10_000, growth: false } };
const N = Number(process.env.SHARDWISE_FUZZ_N ?? 2500);

/**
 * A hang seen while the whole pool runs is run again alone: on a machine busy with other work the
 * wall clock of one input can pass the budget without any loop in the engine. A real hang (a loop
 * that does not end, a blow-up) is over the budget alone too, and counts.
 */
async function hangsAlone(d: Distinct): Promise<boolean> {
  const m = /^(.+)-(\d+)$/.exec(d.id);
  if (!m) return false;
  const alone = new Pool({ ...TEST_POOL, size: 1 });
  try {
    const r = await alone.run({ kind: 'gen', category: m[1] as Distinct['category'], index: Number(m[2]), seed: SEED, scale: 'bounded' });
    const again = r.failures.some((f) => f.kind === 'hang');
    if (!again) console.log(`${d.signature}: ${d.detail}; alone it took ${(r.ms / 1000).toFixed(1)} s, within the budget: the machine was busy`);
    return !again;
  } finally {
    await alone.close();
  }
}

function describe(ds: readonly Distinct[]): string {
  return ds.map((d) => `- ${d.signature} (${d.count} inputs, first ${d.id})\n    ${d.detail}`).join('\n');
}

test('the fuzz generators mutate the shared corpus', { skip: corpusSkip() }, () => {
  assert.ok(hasCorpus(), 'the corpus should be among the sources of the fuzz generators');
});

test('the fuzz pool ends a worker stuck in an infinite loop, reports a hang and goes on with a new worker', async () => {
  const pool = new Pool({ size: 1, watchdogMs: 500, script: join(__dirname, '..', 'fuzz', 'stuck-worker.ts') });
  try {
    const results = await Promise.all([0, 1].map((index) => pool.run({ kind: 'gen', category: 'yaml', index, seed: SEED, scale: 'bounded' })));
    for (const r of results) assert.deepEqual(r.failures.map((f) => f.kind), ['hang']);
  } finally {
    await pool.close();
  }
});

test(`hostile inputs: ${N} bounded inputs over every category, seed ${SEED}`, { timeout: 900_000 }, async () => {
  const pool = new Pool(TEST_POOL);
  try {
    const s = await runCampaign({ n: N, seed: SEED, scale: 'bounded', pool });
    console.log(table(s));
    const failing: Distinct[] = [];
    for (const d of s.distinct.filter((d) => !INFORMATIONAL.includes(d.kind))) {
      if (d.kind === 'hang' && (await hangsAlone(d))) continue;
      failing.push(d);
    }
    assert.equal(failing.length, 0, `${table(s)}\n\n${describe(failing)}\n\nReproduce and minimise: npm run fuzz -- --scale bounded --seed ${SEED} --n ${N}`);
  } finally {
    await pool.close();
  }
});

test('hostile inputs: the kept reproducers of test/fuzz/regressions', { timeout: 900_000 }, async (t) => {
  const cases = regressionCases();
  assert.ok(cases.length > 0, 'test/fuzz/regressions holds the kept reproducers');
  const pool = new Pool(TEST_POOL);
  try {
    const results = await Promise.all(cases.map((c) => pool.run({ kind: 'input', input: regressionInput(c) })));
    for (const [i, c] of cases.entries()) {
      await t.test(c.name, () => {
        const failing = results[i].failures.filter((f) => !INFORMATIONAL.includes(f.kind));
        assert.deepEqual(
          failing.map((f) => `${f.signature}: ${f.detail}`),
          [],
          c.description,
        );
        if (c.expect?.codes) {
          const input = regressionInput(c);
          const a = analyze(fileInput(input), input.settings ?? {});
          const codes = new Set(a.findings.map((f) => f.code));
          for (const code of c.expect.codes) assert.ok(codes.has(code), `${c.name}: expected a ${code} finding, got ${[...codes].join(', ') || 'none'}`);
        }
      });
    }
  } finally {
    await pool.close();
  }
});
