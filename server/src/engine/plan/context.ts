/**
 * What a Plan takes from outside the file: the hardware profile and, for formats that do not
 * describe the model (Accelerate), the model shape, sequence length and micro-batch size given by a
 * directive (`# shardwise: model=llama-3-70b seq_length=8192`), `.shardwise.yaml` or the settings.
 */
import type { EngineSettings } from '../settings';
import { DEFAULT_HARDWARE, HARDWARE, hardwareById } from './hardware';
import type { ModelShape } from './memory';
import { modelPreset } from './models';
import type { Field, Plan } from './plan';

/**
 * The hardware profile: the setting, else what the file itself says (a CI test named `..._gb200`),
 * else the default.
 */
export function planHardware(settings: EngineSettings, ...hints: (HardwareHint | undefined)[]): Plan['hardware'] {
  // What the file or its place says: evidence first, then what is only assumed; the repository's jobs last in each.
  const all = [...hints, settings.jobHardware].filter((h): h is HardwareHint => !!h && (!!hardwareById(h.id) || !!(h as HardwareHint).unknown));
  const hint = all.find((h) => !h.assumed) ?? all[0];
  const chosen = hardwareById(settings.hardware);
  const hinted = chosen || settings.hardware ? undefined : hardwareById(hint?.id);
  // The file names GPUs no profile describes: the default profile cannot stand for them.
  const unnamed = !chosen && !settings.hardware && !hinted && hint?.unknown ? `${hint.note}, which no hardware profile describes (map it with \`hardware:\` or \`slurm:\` in .shardwise.yaml)` : undefined;
  const profile = chosen ?? hinted ?? hardwareById(DEFAULT_HARDWARE)!;
  const from: Plan['hardware']['from'] = unnamed
    ? { kind: 'unknown' as const, note: `the hardware: ${unnamed}` }
    : chosen
    ? { kind: 'setting' as const, note: `hardware profile \`${profile.id}\`` }
    : hinted && hint!.assumed
    ? { kind: 'assumed' as const, note: `\`${profile.id}\` hardware: ${hint!.note} (set \`# shardwise: hardware=<id>\` or \`hardware:\` in .shardwise.yaml)` }
    : hinted
    ? { kind: 'derived' as const, formula: `\`${profile.id}\`, ${hint!.note} (set \`# shardwise: hardware=<id>\` to override)` }
    : settings.hardware
      ? { kind: 'assumed' as const, note: `\`${profile.id}\` hardware (\`${settings.hardware}\` is not a known profile; known: ${HARDWARE.map((h) => h.id).join(', ')})` }
      : { kind: 'assumed' as const, note: `\`${profile.id}\` hardware, as no hardware is set (set \`# shardwise: hardware=<id>\` or \`hardware:\` in .shardwise.yaml)` };
  const assumedProfile = from.kind === 'assumed' ? from.note : undefined;
  const unknownProfile = from.kind === 'unknown' ? from.note : undefined;
  const gpusPerNode: Field<number> = settings.gpusPerNode
    ? { value: settings.gpusPerNode, from: { kind: 'setting', note: '`gpus_per_node` setting' } }
    : { value: profile.gpusPerNode, from: { kind: 'hardware', note: `${profile.id} has ${profile.gpusPerNode} GPUs per node`, assumed: assumedProfile, unknown: unknownProfile } };
  const nvlinkDomain: Field<number> = settings.nvlinkDomain
    ? { value: settings.nvlinkDomain, from: { kind: 'setting', note: '`nvlink_domain` setting' } }
    : { value: profile.nvlinkDomain, from: { kind: 'hardware', note: `${profile.id} links ${profile.nvlinkDomain} GPUs by ${profile.scaleUp}`, assumed: assumedProfile, unknown: unknownProfile } };
  return { profile, from, gpusPerNode, nvlinkDomain };
}

/**
 * Hardware a file or its repository names: `assumed` when it is likely, not evidence; `unknown` when
 * the file names GPUs that no profile describes (`id` is then empty and `note` says what it names).
 */
export interface HardwareHint {
  id: string;
  note: string;
  assumed?: boolean;
  unknown?: boolean;
}

/** The model shape from the settings (a preset id, or explicit dimensions), if any. */
export function planModel(settings: EngineSettings): Field<ModelShape> | undefined {
  const m = settings.model;
  if (!m) return undefined;
  if (typeof m === 'string') {
    const preset = modelPreset(m);
    return preset ? { value: preset.shape, from: { kind: 'setting', note: `model preset \`${preset.id}\` (${preset.title})` } } : undefined;
  }
  if (!m.layers || !m.hidden || !m.heads) return undefined;
  return { value: m, from: { kind: 'setting', note: 'model dimensions given by a directive or the settings' } };
}
