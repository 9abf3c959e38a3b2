/**
 * Hardware profiles: the figures layout checks lean on (scale-up domain, GPUs per node, memory),
 * the spellings that name a profile, and a GPU without NVLink as a domain of one.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyze, HARDWARE, hardwareById } from '../../server/src/engine';

const MEGATRON = (hardware: string, world: number, tp: number) =>
  [
    `# shardwise: hardware=${hardware}`,
    'distributed_type: MEGATRON_LM',
    'mixed_precision: bf16',
    `num_machines: ${world / 8}`,
    `num_processes: ${world}`,
    'main_process_ip: 10.0.0.1',
    'main_process_port: 29500',
    'megatron_lm_config:',
    `  megatron_lm_tp_degree: ${tp}`,
    '  megatron_lm_pp_degree: 1',
    '  megatron_lm_context_parallel_size: 1',
    '  megatron_lm_sequence_parallelism: true',
    '',
  ].join('\n');

test('H20 and L40S: scale-up domain, GPUs per node, memory and dense peaks', () => {
  const h20 = hardwareById('h20');
  assert.ok(h20, 'h20 is a profile');
  assert.deepEqual([h20.nvlinkDomain, h20.gpusPerNode, h20.hbmGiB], [8, 8, 96]);
  assert.deepEqual([h20.bf16Tflops, h20.fp8Tflops, h20.sms], [148, 296, 78]);

  const l40s = hardwareById('l40s');
  assert.ok(l40s, 'l40s is a profile');
  // No NVLink: each GPU is its own domain, eight to a PCIe server; 48 GB GDDR6 reports 45 GiB with ECC on.
  assert.deepEqual([l40s.nvlinkDomain, l40s.gpusPerNode, l40s.hbmGiB], [1, 8, 45]);
  assert.deepEqual([l40s.bf16Tflops, l40s.fp8Tflops, l40s.sms], [362, 733, 142]);

  for (const [alias, id] of [['HGX-H20', 'h20'], ['h20-96gb', 'h20'], [' L40S ', 'l40s'], ['l40s-48gb', 'l40s'], ['l40s-pcie', 'l40s']]) {
    assert.equal(hardwareById(alias)?.id, id, alias);
  }
});

test('every profile is self-consistent: ids unique, domains and fractions in range, a source cited', () => {
  const ids = HARDWARE.map((h) => h.id);
  assert.equal(new Set(ids).size, ids.length, 'unique ids');
  for (const h of HARDWARE) {
    assert.ok(Number.isInteger(h.nvlinkDomain) && h.nvlinkDomain >= 1, `${h.id}: domain`);
    assert.ok(h.mamf.bf16 > 0 && h.mamf.bf16 <= 1 && (h.mamf.fp8 ?? 1) > 0 && (h.mamf.fp8 ?? 1) <= 1, `${h.id}: MAMF fractions`);
    assert.ok(!h.fp8Tflops || h.fp8Tflops >= h.bf16Tflops, `${h.id}: FP8 peak below BF16`);
    assert.ok(h.source.length > 0 && h.mamf.source.length > 0, `${h.id}: sources`);
  }
});

test('L40S: TP 2 crosses the scale-up domain of one GPU; on H20 TP 8 stays inside NVLink', () => {
  const l40s = analyze({ path: 'l40s.yaml', text: MEGATRON('l40s', 16, 2) });
  const plan = l40s.docs[0].plan!;
  assert.equal(plan.hardware.profile.id, 'l40s');
  assert.equal(plan.hardware.from.kind === 'assumed', false, 'the directive names the hardware');
  assert.equal(plan.hardware.nvlinkDomain.value, 1);
  const crossing = l40s.findings.filter((f) => f.code === 'tp-exceeds-nvlink-domain');
  assert.equal(crossing.length, 1, l40s.findings.map((f) => `${f.code}: ${f.message}`).join('\n'));
  assert.match(crossing[0].message, /TP 2 on l40s, which has no NVLink: every TP collective .* goes over PCIe Gen4 within the node, RoCE or InfiniBand between nodes\./);

  const h20 = analyze({ path: 'h20.yaml', text: MEGATRON('h20', 16, 8) });
  assert.equal(h20.docs[0].plan!.hardware.profile.id, 'h20');
  assert.ok(!h20.findings.some((f) => f.code === 'tp-exceeds-nvlink-domain'), h20.findings.map((f) => `${f.code}: ${f.message}`).join('\n'));
});
