/**
 * The layout picture: six layouts drawn as SVG and compared with their snapshots in test/layout/
 * (SHARDWISE_UPDATE_SNAPSHOTS=1 rewrites them), and every GPU cell checked against the rank order
 * of the framework, computed here from its definition: Megatron's tp-cp-ep-dp-pp (first fastest),
 * `--use-tp-pp-dp-mapping`, the expert grid, accelerate's row-major device mesh; nodes hold
 * consecutive ranks.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze, layoutSvg, type ColourBy, type EngineSettings } from '../../server/src/engine';

const SNAPSHOTS = join(__dirname, '../layout');
const UPDATE = process.env.SHARDWISE_UPDATE_SNAPSHOTS === '1';

interface Cell {
  rank: number;
  node: number;
  local: number;
  data: Record<string, number>;
}

/** The GPU cells of a picture with their data attributes. */
function cells(svg: string): Cell[] {
  return [...svg.matchAll(/<g class="gpu" ([^>]*)>/g)].map((m) => {
    const data = Object.fromEntries([...m[1].matchAll(/data-([a-z-]+)="(\d+)"/g)].map((a) => [a[1], Number(a[2])]));
    return { rank: data.rank, node: data.node, local: data.local, data };
  });
}

function picture(name: string, path: string, text: string, settings: EngineSettings, colourBy: ColourBy = 'tp'): string {
  const plan = analyze({ path, text }, settings).docs.find((d) => d.plan)?.plan;
  assert.ok(plan, `${name}: a layout`);
  const svg = layoutSvg(plan, { colourBy });
  assert.ok(svg, `${name}: a picture`);
  const file = join(SNAPSHOTS, `${name}.svg`);
  if (UPDATE || !existsSync(file)) writeFileSync(file, svg);
  assert.equal(svg, readFileSync(file, 'utf8'), `${name}: the picture differs from test/layout/${name}.svg (SHARDWISE_UPDATE_SNAPSHOTS=1 rewrites it after a deliberate change)`);
  return svg;
}

/** A Megatron launch script on `nodes` × `perNode` GPUs with the given arguments. */
function script(nodes: number, perNode: number, args: string): string {
  return `#!/bin/bash\ntorchrun --nproc_per_node ${perNode} --nnodes ${nodes} pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 --seq-length 4096 --max-position-embeddings 4096 \\\n    --micro-batch-size 1 --global-batch-size 1024 --bf16 --use-distributed-optimizer --vocab-size 32000 \\\n    ${args}\n`;
}

/** Every cell where its rank says: node = rank / GPUs per node, local = rank mod GPUs per node, and the coordinates `expect` gives. */
function checkPlacement(name: string, svg: string, world: number, perNode: number, expect: (rank: number) => Record<string, number>): void {
  const all = cells(svg);
  for (const c of all) {
    assert.equal(c.node, Math.floor(c.rank / perNode), `${name}: rank ${c.rank} node`);
    assert.equal(c.local, c.rank % perNode, `${name}: rank ${c.rank} local rank`);
    for (const [k, v] of Object.entries(expect(c.rank))) assert.equal(c.data[k], v, `${name}: rank ${c.rank} ${k}`);
  }
  if (world <= 1024) assert.deepEqual(all.map((c) => c.rank), [...Array(world).keys()], `${name}: every rank drawn once, in order`);
}

test('8 GPUs, TP 8: one node, one TP group over NVLink', () => {
  const svg = picture('tp8-1node', 'train.sh', script(1, 8, '--tensor-model-parallel-size 8'), { hardware: 'h100-sxm' });
  checkPlacement('tp8', svg, 8, 8, (r) => ({ tp: r, dp: 0, pp: 0 }));
  assert.match(svg, /8 GPUs = TP 8 × CP 1 × DP 1 × PP 1/);
  assert.match(svg, /TP group of rank 0: ranks 0, 1, 2, 3, 4, 5, 6, 7 \(8\) over NVLink/);
  assert.match(svg, /<polyline class="collective" data-fabric="nvlink"/);
});

test('64 GPUs, TP 4 × PP 2 × DP 8: Megatron order, and --use-tp-pp-dp-mapping', () => {
  const args = '--tensor-model-parallel-size 4 --pipeline-model-parallel-size 2';
  const svg = picture('tp4-pp2-dp8', 'train.sh', script(8, 8, args), { hardware: 'h100-sxm' }, 'pp');
  checkPlacement('tp-cp-ep-dp-pp', svg, 64, 8, (r) => ({ tp: r % 4, dp: Math.floor(r / 4) % 8, pp: Math.floor(r / 32) }));
  assert.match(svg, /64 GPUs = TP 4 × CP 1 × DP 8 × PP 2/);
  const mapped = picture('tp4-pp2-dp8-tp-pp-dp', 'train.sh', script(8, 8, `${args} --use-tp-pp-dp-mapping`), { hardware: 'h100-sxm' }, 'pp');
  checkPlacement('tp-cp-ep-pp-dp', mapped, 64, 8, (r) => ({ tp: r % 4, pp: Math.floor(r / 4) % 2, dp: Math.floor(r / 8) }));
  assert.match(mapped, /64 GPUs = TP 4 × CP 1 × PP 2 × DP 8/);
  assert.match(mapped, /PP stage of rank 0: ranks 0, 4 \(2\)/);
});

test('NVL72, TP 16 on 144 GPUs: two rack-wide NVLink domains, and the TP group that straddles them', () => {
  const svg = picture('nvl72-tp16', 'train.sh', script(36, 4, '--tensor-model-parallel-size 16 --num-query-groups 8'), { hardware: 'gb200-nvl72' });
  checkPlacement('nvl72', svg, 144, 4, (r) => ({ tp: r % 16, dp: Math.floor(r / 16) }));
  const domains = [...svg.matchAll(/<rect class="domain" data-domain="(\d+)" x="[\d.]+" y="([\d.]+)" width="[\d.]+" height="([\d.]+)"/g)];
  assert.equal(domains.length, 2, 'one outline per 72-GPU domain');
  assert.equal(Number(domains[0][3]), 18 * 44 - 4 + 4, 'each spans its 18 nodes of 4 GPUs');
  assert.match(svg, /144 GPUs = TP 16 × CP 1 × DP 9 × PP 1/);
  // Ranks 64-79 form a TP group whose first 8 GPUs are in rack 0 and last 8 in rack 1.
  const group = cells(svg).filter((c) => c.data.dp === 4);
  assert.deepEqual([...new Set(group.map((c) => Math.floor(c.rank / 72)))], [0, 1]);
});

test('MoE, EP 8 with TP 2 × PP 2 on 64 GPUs: the dense and the expert grid, both equations true', () => {
  const svg = picture('moe-ep8', 'train.sh', script(8, 8, '--tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 --expert-model-parallel-size 8 --num-experts 8 --moe-router-topk 2'), { hardware: 'h100-sxm' }, 'ep');
  checkPlacement('moe', svg, 64, 8, (r) => ({ tp: r % 2, dp: Math.floor(r / 2) % 16, pp: Math.floor(r / 32), etp: r % 2, ep: Math.floor(r / 2) % 8, edp: Math.floor(r / 16) % 2 }));
  assert.match(svg, /dense layers: 64 GPUs = TP 2 × CP 1 × DP 16 × PP 2/);
  assert.match(svg, /expert layers: 64 GPUs = expert TP 2 × EP 8 × expert DP 2 × PP 2/);
  assert.match(svg, /EP group of rank 0: ranks 0, 2, 4, 6, 8, 10, 12, 14 \(8\) over InfiniBand \(the group spans 2 NVLink domains\)/, "EP 8 over ETP 2 spans 16 ranks: two nodes");
});

test('accelerate FSDP2 device mesh with CP: row-major over dp_replicate, dp_shard, cp, tp', () => {
  const text = 'distributed_type: FSDP\nnum_processes: 16\nnum_machines: 2\nmixed_precision: bf16\nfsdp_config:\n  fsdp_version: 2\nparallelism_config:\n  parallelism_config_dp_replicate_size: 2\n  parallelism_config_dp_shard_size: 2\n  parallelism_config_cp_size: 2\n  parallelism_config_tp_size: 2\n';
  const svg = picture('accelerate-mesh-cp', 'accelerate.yaml', text, { hardware: 'h100-sxm' }, 'dp');
  checkPlacement('mesh', svg, 16, 8, (r) => ({ tp: r % 2, cp: Math.floor(r / 2) % 2, 'dp-shard': Math.floor(r / 4) % 2, 'dp-replicate': Math.floor(r / 8) }));
  assert.match(svg, /16 GPUs = TP 2 × SP 1 × CP 2 × dp_shard 2 × dp_replicate 2/);
});

test('4,096 GPUs: the first nodes and the last one drawn, the rest folded and said', () => {
  const svg = picture('folded-4096', 'train.sh', script(512, 8, '--tensor-model-parallel-size 8 --pipeline-model-parallel-size 8'), { hardware: 'h100-sxm' }, 'dp');
  const drawn = cells(svg);
  assert.equal(drawn.length, 9 * 8, 'eight nodes and the last');
  assert.deepEqual(drawn.slice(-8).map((c) => c.rank), [4088, 4089, 4090, 4091, 4092, 4093, 4094, 4095]);
  checkPlacement('folded', svg, 4096, 8, (r) => ({ tp: r % 8, dp: Math.floor(r / 8) % 64, pp: Math.floor(r / 512) }));
  assert.match(svg, /… 503 nodes folded \(8–510, ranks 64–4087\): the same pattern repeats …/);
  assert.match(svg, /4096 GPUs = TP 8 × CP 1 × DP 64 × PP 8/);
});

test('no picture without a rank grid: degrees that do not divide the world', () => {
  const plan = analyze({ path: 'train.sh', text: script(1, 8, '--tensor-model-parallel-size 3') }, {}).docs[0].plan!;
  assert.equal(layoutSvg(plan), undefined);
});
