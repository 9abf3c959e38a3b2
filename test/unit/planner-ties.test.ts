/**
 * Ties: layouts whose priced steps differ by less than the step model's measured error are ordered
 * by the practitioners' rules (Megatron-Core's MoE guide, Narayanan et al. 2021), one after
 * another, and by time only after them; `plan` says which rule decided a rank.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planLayouts, PREFERENCE_RULES, TIE_BAND, type Layout, type Workload } from '../../server/src/engine';
import { decidingRule, orderTies, preferenceKey, tieLimit } from '../../server/src/engine/plan/preference';
import { planText } from '../../server/src/cli/plan';
import { workload } from '../planner/fixtures';

type Degrees = Pick<Layout, 'tp' | 'pp' | 'cp' | 'ep' | 'etp' | 'recompute'>;
const at = (seconds: number, d: Partial<Degrees>) => ({ layout: { tp: 8, pp: 1, cp: 1, ep: 1, etp: 8, recompute: 'none' as const, ...d }, step: { seconds } });

test('the rules are ordered as a key, each with its source', () => {
  assert.deepEqual(
    PREFERENCE_RULES.map((r) => r.id),
    ['ep-in-nvlink', 'cp-long-sequences', 'ep-over-tp', 'distributed-optimizer', 'no-recompute', 'least-model-parallel', 'moe-stages-over-tp', 'fewer-stages', 'fewest-local-experts'],
  );
  for (const r of PREFERENCE_RULES) assert.match(r.source, /Megatron-Core MoE guide, megatron\/core\/transformer\/moe\/README\.md @ d98e8a6|Narayanan et al\. 2021/, r.id);
  const w = workload('mixtral-8x7b', 64, 'h100-sxm', 4096, 256);
  // EP 16 × expert TP 1 spans two NVLink domains of 8; CP 2 at 4K; expert TP 2 where EP 8 could hold the 8 experts; Megatron-FSDP.
  assert.deepEqual(preferenceKey(w, { tp: 1, pp: 1, cp: 1, ep: 16, etp: 1, recompute: 'none' }), [1, 0, 0, 0, 0, 1, 1, 1, 0.5]);
  assert.deepEqual(preferenceKey(w, { tp: 2, pp: 2, cp: 2, ep: 4, etp: 2, recompute: 'full', fsdp: 'optim_grads' }), [0, 1, 1, 1, 1, 8, 2, 2, 2]);
  // A mixture of experts at the same model-parallel size: pipeline stages before dense TP; a dense model: TP inside the node first.
  const moeTp = preferenceKey(w, { tp: 2, pp: 1, cp: 1, ep: 8, etp: 1, recompute: 'none' });
  const moePp = preferenceKey(w, { tp: 1, pp: 2, cp: 1, ep: 8, etp: 1, recompute: 'none' });
  assert.equal(decidingRule(moePp, moeTp)?.rule.id, 'moe-stages-over-tp');
  assert.equal(decidingRule(moePp, moeTp)?.sign, -1);
  const dense = workload('llama-3-70b', 64, 'h100-sxm', 4096, 1024);
  const denseTp = preferenceKey(dense, { tp: 2, pp: 1, cp: 1, ep: 1, etp: 2, recompute: 'none' });
  const densePp = preferenceKey(dense, { tp: 1, pp: 2, cp: 1, ep: 1, etp: 1, recompute: 'none' });
  assert.equal(decidingRule(denseTp, densePp)?.rule.id, 'fewer-stages');
  assert.equal(decidingRule(denseTp, densePp)?.sign, -1);
  // With EP at the 8 experts, expert TP is the only way left to split them: no cost.
  assert.deepEqual(preferenceKey(w, { tp: 4, pp: 1, cp: 1, ep: 8, etp: 4, recompute: 'none' }).slice(0, 3), [1, 0, 0]);
  assert.deepEqual(preferenceKey({ ...w, nvlinkDomain: 72 }, { tp: 4, pp: 1, cp: 1, ep: 8, etp: 4, recompute: 'none' }).slice(0, 3), [0, 0, 0]);
});

test('within the band a rule outranks a shorter step; outside it time decides, whatever the rules say', () => {
  const w: Workload = workload('llama-3-70b', 64, 'h100-sxm', 4096, 1024);
  const band = Math.exp(TIE_BAND.value);
  const cp2 = at(1, { cp: 2 });
  const cp1 = at(1 + (band - 1) / 2, {});
  const pp8 = at(band * 1.01, { tp: 1, pp: 8 });
  const out = orderTies(w, [cp2, cp1, pp8]);
  assert.deepEqual(out.map((x) => x.layout.cp), [1, 2, 1], 'CP 1 above the faster CP 2 at a 4K sequence');
  assert.equal(out[0].order.above?.rule.id, 'cp-long-sequences');
  assert.equal(out[0].order.above?.rank, 2);
  assert.equal(out[1].order.below?.rule.id, 'cp-long-sequences');
  assert.deepEqual(out[2].order, { tied: false }, 'beyond the band: by time, no rule');
  assert.ok(tieLimit(1) < pp8.step.seconds);
  // At 8K the CP rule holds for both and TP 4 × CP 2 is as much model parallelism as TP 8: time decides.
  const tp4cp2 = at(1, { tp: 4, etp: 4, cp: 2 });
  const long = orderTies({ ...w, seqLength: 8192 }, [tp4cp2, cp1]);
  assert.deepEqual(long.map((x) => x.layout.cp), [2, 1]);
  assert.equal(long[0].order.above, undefined);
});

test('plan names the rule that decided a rank and the tie band it applies in; --explain says when #1 is not the fastest', () => {
  const w = workload('llama-3-70b', 64, 'h100-sxm', 4096, 1024);
  const r = planLayouts({ workload: w });
  const moved = r.layouts.findIndex((x) => x.order?.above);
  assert.ok(moved >= 0 && moved < 5, 'some layout of the first five is ranked by a rule');
  const x = r.layouts[moved];
  const faster = r.layouts[x.order!.above!.rank - 1];
  assert.ok(faster.step.seconds < x.step.seconds && x.step.seconds <= tieLimit(faster.step.seconds));
  const text = planText(r, w, 'Llama 3 70B', [], 5, true);
  const band = ((Math.exp(TIE_BAND.value) - 1) * 100).toFixed(1);
  assert.ok(text.includes(`Ranked by the tie order, not by time (steps within ${band} % of the fastest are ties`), text);
  assert.ok(text.includes(`#${moved + 1} above #${x.order!.above!.rank}, whose step is`), text);
  assert.ok(text.includes(`[${x.order!.above!.rule.id}] ${x.order!.above!.rule.source}`));
  if (r.layouts[0].order?.above) assert.match(text, /^#1 is not the fastest layout: #\d+ .* within the model's measured error/m);
});
