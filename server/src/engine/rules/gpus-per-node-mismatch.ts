/**
 * gpus-per-node-mismatch: the processes started per node do not match the node's GPUs.
 */
import { fieldPath } from '../plan/layout';
import { defineRule } from './rule';

export default defineRule({
  id: 'gpus-per-node-mismatch',
  severity: 'warning',
  formats: 'all',
  forks: true,
  docs: {
    summary: 'The processes started per node differ from the GPUs a node of the chosen hardware has.',
    why: 'Launchers start one process per GPU. More processes than GPUs per node crash on a missing device or share GPUs; fewer leave GPUs idle, which often means `num_processes` was written per node instead of in total (accelerate\'s `num_processes` is the total over all machines). Set the hardware (`# shardwise: hardware=<id>` or `gpus_per_node=`) for this check to be sure.',
    bad: '# shardwise: hardware=h100-sxm\ndistributed_type: MULTI_GPU\nnum_machines: 2\nnum_processes: 32\nmain_process_ip: 10.0.0.1\nmain_process_port: 29500\n',
    good: '# shardwise: hardware=h100-sxm\ndistributed_type: MULTI_GPU\nnum_machines: 2\nnum_processes: 16\nmain_process_ip: 10.0.0.1\nmain_process_port: 29500\n',
  },
  check(ctx) {
    const p = ctx.plan;
    if (!p?.perNode || !p.world) return;
    const per = p.perNode.value;
    const gpus = p.hardware.gpusPerNode.value;
    if (per === gpus) return;
    // GPUs per node from a Slurm allocation: slurm-allocation-mismatch compares the processes with it.
    if (p.allocation && p.hardware.gpusPerNode.from.kind === 'derived') return;
    const assumed = p.hardware.from.kind === 'assumed' && p.hardware.gpusPerNode.from.kind !== 'setting';
    const hw = `${p.hardware.profile.id}${assumed ? ', assumed' : ''}`;
    if (per > gpus) {
      ctx.report({
        at: fieldPath(p, p.world, 'world'),
        on: 'value',
        severity: assumed ? 'information' : 'warning',
        message: assumed
          ? `${per} processes per node (${p.world.value} over ${p.nodes.value} node${p.nodes.value === 1 ? '' : 's'}): on nodes of ${gpus} GPUs (${hw}) the extra processes crash on a missing device or share a GPU, while nodes of ${per} GPUs run it as written (say which with \`# shardwise: gpus_per_node=${per}\` or a hardware profile). Otherwise use ${gpus} processes per node (${gpus * p.nodes.value} in all), or more nodes.`
          : `${per} processes per node (${p.world.value} over ${p.nodes.value} node${p.nodes.value === 1 ? '' : 's'}), but a node has ${gpus} GPUs (${hw}): the extra processes crash on a missing device or share a GPU. Use ${gpus} processes per node (${gpus * p.nodes.value} in all), or more nodes.`,
      });
    } else if (!assumed) {
      ctx.report({
        at: fieldPath(p, p.world, 'world'),
        on: 'value',
        severity: 'information',
        message: `${per} processes per node (${p.world.value} over ${p.nodes.value} node${p.nodes.value === 1 ? '' : 's'}) leave ${gpus - per} of the ${gpus} GPUs of each ${p.hardware.profile.id} node idle.${p.nodes.value > 1 ? ` If ${p.world.value} was meant per node, the total is ${p.world.value * p.nodes.value}.` : ''}`,
      });
    }
  },
});
