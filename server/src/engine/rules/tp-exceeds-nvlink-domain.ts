/**
 * tp-exceeds-nvlink-domain: tensor parallelism (or the CP / EP all-to-all groups) outside one
 * NVLink domain.
 */
import { allKnown, divisors, dpWithTp, fieldPath, groupFabrics, knobEdit, modelSize, planMemory, tpFitsShape } from '../plan/layout';
import type { Plan } from '../plan/plan';
import type { PathEdit } from '../syntax/sourcedoc';
import { defineRule, type FixSpec } from './rule';

export default defineRule({
  id: 'tp-exceeds-nvlink-domain',
  severity: 'warning',
  formats: 'all',
  forks: true,
  fixes: {
    'set-tp': { applicability: 'unsafe', changes: 'the layout' },
  },
  verifyFixes: true,
  docs: {
    summary: 'Tensor parallelism spans more GPUs than one NVLink domain (or straddles two); CP or EP all-to-all groups leave the domain.',
    why: 'TP all-reduces (or all-gathers and reduce-scatters) activations twice per layer in forward and twice in backward: it only pays inside the NVLink/NVSwitch domain (900 GB/s per H100, 1.8 TB/s on Blackwell). A TP group that crosses the domain runs those collectives over InfiniBand, an order of magnitude slower, and every layer waits for them. The domain is not the node: 8 GPUs on DGX/HGX systems, 72 on NVL72 racks whose nodes have 4. Choose the hardware with `# shardwise: hardware=<id>` or `.shardwise.yaml`.',
    bad: '# shardwise: hardware=h100-sxm\ndistributed_type: MEGATRON_LM\nnum_processes: 32\nmegatron_lm_config:\n  megatron_lm_tp_degree: 16\n  megatron_lm_pp_degree: 2\n  megatron_lm_context_parallel_size: 1\n  megatron_lm_sequence_parallelism: true\n',
    good: '# shardwise: hardware=h100-sxm\ndistributed_type: MEGATRON_LM\nnum_processes: 32\nmegatron_lm_config:\n  megatron_lm_tp_degree: 8\n  megatron_lm_pp_degree: 2\n  megatron_lm_context_parallel_size: 1\n  megatron_lm_sequence_parallelism: true\n',
    fix: 'Sets TP to the largest divisor of the NVLink domain that still divides the heads, the query groups and the world (and, when the model is known, still fits in memory); DP grows to match.',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nnodes 2 --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 16 --sequence-parallel \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nnodes 2 --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 8 --sequence-parallel \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
  },
  check(ctx) {
    const p = ctx.plan;
    // TP alone decides the first finding: the CP and EP sizes are read only for the groups after it.
    if (!p || !allKnown(p.tp)) return;
    const hw = p.hardware.profile;
    const domain = p.hardware.nvlinkDomain.value;
    const tp = p.tp.value;
    const where = `${hw.id}${p.hardware.from.kind === 'assumed' ? ' (assumed)' : ''}`;
    // Past the domain: the network between nodes, and on a server with more GPUs than one domain
    // (NVLink-bridged PCIe cards) PCIe within the node first.
    const beyond = domain === 1 || hw.gpusPerNode <= domain ? hw.scaleOut : `PCIe within a node and ${hw.scaleOut} between nodes`;
    if (tp > 1 && (tp > domain || (domain % tp !== 0 && straddles(tp, domain, p.world)))) {
      const crossing = tp > domain ? `TP ${tp} > NVLink domain ${domain} of ${where}: every TP collective (twice per layer, forward and backward) crosses ${beyond}` : `TP ${tp} does not divide the NVLink domain ${domain} of ${where}: some TP groups straddle two domains and their collectives cross ${beyond}`;
      ctx.report({
        at: fieldPath(p, p.tp, 'tp'),
        on: 'value',
        // A GPU with no scale-up fabric (L40S) is a domain of one: TP talks over PCIe within a node.
        message:
          domain === 1
            ? `TP ${tp} on ${where}, which has no NVLink: every TP collective (twice per layer, forward and backward) goes over ${hw.scaleOut}. Use TP 1 and scale with PP or DP instead.`
            : `${crossing}. Keep TP within the domain (${divisors(domain).filter((d) => d > 1).join(', ')}) and scale with PP or DP instead.`,
        fixes: tpFixes(p, domain),
      });
      return;
    }
    if (p.cp.value <= 1 && p.ep.value <= 1) return;
    if (!allKnown(p.cp, p.ep, p.etp)) return;
    const groups = groupFabrics(p);
    for (const g of groups) {
      if (g.insideDomain || (g.name !== 'CP' && g.name !== 'EP')) continue;
      // A group within the domain's size that does not divide it: only the groups that straddle a domain boundary cross it.
      const within = g.span <= domain;
      if (within && !straddles(g.span, domain, p.world)) continue;
      const kind = g.name === 'CP' ? 'context-parallel exchange (ring or all-to-all of keys and values)' : 'MoE token all-to-all';
      ctx.report({
        at: fieldPath(p, g.name === 'CP' ? p.cp : p.ep, g.name === 'CP' ? 'cp' : 'ep'),
        on: 'value',
        severity: 'information',
        message: `The ${g.name} group spans ${g.span} ranks (${g.name === 'CP' ? `TP ${tp} × CP ${p.cp.value}` : `expert TP ${p.etp.value} × EP ${p.ep.value}`}), ${within ? `which does not divide the NVLink domain ${domain} of ${where}: the groups that straddle two domains send` : `more than the NVLink domain ${domain} of ${where}: its`} ${kind} ${within ? 'over' : 'crosses'} ${beyond}. Keep ${g.name === 'CP' ? 'TP × CP' : 'expert TP × EP'} ${within ? `a divisor of ${domain}` : `within ${domain} GPUs`} where the layout allows.`,
      });
    }
  },
});

/**
 * Whether a TP group of consecutive ranks (TP is the innermost group) crosses a domain boundary: only
 * when the job has more ranks than a domain holds, and only then can it be told (an unknown world says nothing).
 */
function straddles(tp: number, domain: number, world: Plan['world']): boolean {
  if (!world || !allKnown(world)) return false;
  for (let first = 0; first + tp <= world.value; first += tp) if (Math.floor(first / domain) !== Math.floor((first + tp - 1) / domain)) return true;
  return false;
}

function tpFixes(p: Plan, domain: number): FixSpec[] {
  const world = p.world?.value;
  const hbm = p.hardware.profile.hbmGiB * 2 ** 30;
  // The heads and query groups the arguments write bind TP even when the model is not complete.
  const candidates = divisors(domain)
    .filter((d) => d < p.tp.value && tpFitsShape(p, d))
    .reverse();
  for (const d of candidates) {
    const edits: PathEdit[] = [];
    const tpEdit = knobEdit(p, 'tp', d);
    if (!tpEdit) return [];
    edits.push(tpEdit);
    if (p.style === 'megatron') {
      if (world && world % modelSize(p, d) !== 0) continue;
    } else {
      // A mesh must still multiply to the world: give the freed ranks to dp_shard.
      const grow = (p.dpShard.value * p.tp.value) / d;
      if (!Number.isInteger(grow)) continue;
      const shardEdit = knobEdit(p, 'dpShard', grow);
      if (!shardEdit) continue;
      edits.push(shardEdit);
    }
    const mem = planMemory(p, { tp: d, dp: dpWithTp(p, d) ?? (p.dp?.value ?? 1) * (p.tp.value / d) });
    if (mem && mem.bytes.total > hbm) continue;
    return [{ kind: 'set-tp', title: `Set TP to ${d}`, edits, recommended: true }];
  }
  return [];
}
