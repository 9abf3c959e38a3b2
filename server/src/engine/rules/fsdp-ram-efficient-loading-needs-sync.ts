/**
 * fsdp-ram-efficient-loading-needs-sync: CPU-RAM-efficient loading with module-state sync off.
 */
import type { AccelerateModel } from '../formats/accelerate/model';
import { ramEfficientLoading, src } from '../formats/accelerate/helpers';
import { defineRule } from './rule';

export default defineRule<AccelerateModel>({
  id: 'fsdp-ram-efficient-loading-needs-sync',
  severity: 'error',
  formats: ['accelerate'],
  fixes: {
    'turn-on-sync': { applicability: 'unsafe', changes: 'how the weights are loaded' },
    'turn-off-ram-efficient-loading': { applicability: 'unsafe', changes: 'how the weights are loaded' },
  },
  docs: {
    summary: '`fsdp_cpu_ram_efficient_loading` on while `fsdp_sync_module_states` is false.',
    why: 'With CPU-RAM-efficient loading only rank 0 loads the weights; the other ranks get them through the module-state broadcast. The launcher refuses the combination ("When using `--fsdp_cpu_ram_efficient_loading` set `--fsdp_sync_module_states` to `True`"), and it applies to FSDP2 too, whose launcher default for efficient loading is on.',
    bad: 'distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_cpu_ram_efficient_loading: true\n  fsdp_sync_module_states: false\n',
    good: 'distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_cpu_ram_efficient_loading: true\n  fsdp_sync_module_states: true\n',
    fix: 'Sets `fsdp_sync_module_states: true`, or turns efficient loading off.',
  },
  check(ctx) {
    const m = ctx.model;
    if (m.distributedType !== 'FSDP' || m.view.bool(['fsdp_config', 'fsdp_sync_module_states']) !== false || !ramEfficientLoading(m)) return;
    // utils/launch.py@v0.24.0: CPU-RAM-efficient loading, and this refusal, first appear in Accelerate 0.24.0.
    if (!ctx.atLeast('0.24.0')) return;
    const syncAt = src(m, ['fsdp_config', 'fsdp_sync_module_states']);
    const explicit = m.view.has(['fsdp_config', 'fsdp_cpu_ram_efficient_loading']);
    ctx.report({
      at: syncAt,
      on: 'value',
      related: [{ at: src(m, ['fsdp_config', 'fsdp_cpu_ram_efficient_loading']), on: 'entry', message: 'CPU-RAM-efficient loading is turned on here' }],
      message: `\`fsdp_sync_module_states: false\` with CPU-RAM-efficient loading ${explicit ? 'on' : 'on by default'}: only rank 0 loads the weights and nothing would send them to the others, so \`accelerate launch\` refuses to start. Set \`fsdp_sync_module_states: true\`${explicit ? '' : ', or set `fsdp_cpu_ram_efficient_loading: false`'}.`,
      fixes: [
        { kind: 'turn-on-sync', title: 'Set `fsdp_sync_module_states: true`', edits: [{ op: 'set', path: syncAt, value: true }], recommended: true },
        { kind: 'turn-off-ram-efficient-loading', title: 'Set `fsdp_cpu_ram_efficient_loading: false`', edits: [{ op: 'set', path: src(m, ['fsdp_config', 'fsdp_cpu_ram_efficient_loading']), value: false }] },
      ],
    });
  },
});
