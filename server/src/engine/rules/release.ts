/**
 * Which release of the tool reads a document, and how that is known: named by the user (`--target`,
 * `target_versions`, a `megatron_core=` directive), found in the file's context (the checkout the
 * script runs), hidden by it (a Megatron-LM the script takes from a path the tool cannot read: unknown),
 * or not said at all, in which case the newest release the schemas know is an assumption.
 */
import type { DocAnalysis } from '../result';
import type { Field } from '../plan/plan';
import type { Tool } from '../settings';
import { compareVersions } from '../version';
import type { ReadLog } from './certain';

const TOOL_NAMES: Record<Tool, string> = { accelerate: 'Accelerate', deepspeed: 'DeepSpeed', 'megatron-core': 'Megatron Core' };
const SETTING: Record<Tool, string> = { accelerate: 'accelerate', deepspeed: 'deepspeed', 'megatron-core': 'megatron_core' };

/**
 * The oldest release whose keys the schemas' histories cover (the smallest `x-since`; a test keeps
 * these equal to the schemas): every covered release is at least this one, so a check against an
 * older version needs no assumption about which release runs.
 */
export const OLDEST_COVERED: Record<Tool, string> = { accelerate: '0.3.0', deepspeed: '0.3.1', 'megatron-core': '0.4.0' };

export function releaseOf(da: DocAnalysis): Field<string | undefined> {
  const tool = da.format?.tool;
  if (!tool) return { value: undefined, from: { kind: 'default', note: 'no tool' } };
  const named = da.settings.targetVersions?.[tool];
  if (named) return { value: named, from: { kind: 'setting', note: `${TOOL_NAMES[tool]} ${named}, as set` } };
  if (da.release) return da.release;
  if (tool === 'megatron-core') {
    const unseen = da.settings.megatronUnseen;
    if (unseen) return { value: undefined, from: { kind: 'unknown', note: `the release of the Megatron-LM at ${unseen.where} is not known (${unseen.why})` } };
    const checkout = da.settings.megatronCheckout;
    if (checkout?.version) return { value: checkout.version, from: { kind: 'derived', formula: `Megatron Core ${checkout.version}, the release of the checkout${checkout.where ? ` at ${checkout.where}` : ' the file is in'} (its megatron/core/package_info.py)` } };
  }
  return {
    value: undefined,
    from: { kind: 'assumed', note: `the newest ${TOOL_NAMES[tool]} release runs this file (say which does with \`# shardwise: ${SETTING[tool]}=<version>\` or \`--target ${tool}=<version>\`)` },
  };
}

/**
 * Whether the release is at least `version`; the newest is taken when it is not known. What the
 * answer rests on is recorded in `log`: nothing when every covered release gives the same answer.
 */
export function releaseAtLeast(release: Field<string | undefined>, tool: Tool | undefined, version: string, log: ReadLog): boolean {
  if (release.value !== undefined) {
    log.recordProvenance(release.from);
    return compareVersions(release.value, version) >= 0;
  }
  const floor = tool ? OLDEST_COVERED[tool] : undefined;
  if (release.from.kind !== 'unknown' && floor && compareVersions(version, floor) <= 0) return true;
  log.recordProvenance(release.from);
  return true;
}
