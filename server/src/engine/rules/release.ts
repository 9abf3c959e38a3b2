/**
 * Which release of the tool reads a document, and how that is known: named by the user (`--target`,
 * `target_versions`, a `megatron_core=` directive), found in the file's context (the checkout the
 * script runs), hidden by it (a Megatron-LM the script takes from a path the tool cannot read: unknown),
 * or not said at all, in which case the newest release the schemas know is an assumption.
 */
import type { DocAnalysis } from '../result';
import { describeProvenance, type Field } from '../plan/plan';
import type { Tool } from '../settings';
import { exactRelease, specBounds } from '../pins';
import { compareVersions, parseVersion } from '../version';
import type { ReadLog } from './certain';
import { TRANSFORMERS_OLDEST } from '../formats/trainer/releases';

const TOOL_NAMES: Record<Tool, string> = { accelerate: 'Accelerate', deepspeed: 'DeepSpeed', 'megatron-core': 'Megatron Core', transformers: 'Transformers' };
export const SETTING: Record<Tool, string> = { accelerate: 'accelerate', deepspeed: 'deepspeed', 'megatron-core': 'megatron_core', transformers: 'transformers' };

/**
 * The oldest release whose keys the schemas' histories cover (the smallest `x-since`; a test keeps
 * these equal to the schemas): every covered release is at least this one, so a check against an
 * older version needs no assumption about which release runs.
 */
export const OLDEST_COVERED: Record<Tool, string> = { accelerate: '0.2.0', deepspeed: '0.3.1', 'megatron-core': '0.4.0', transformers: TRANSFORMERS_OLDEST };

/** The release that reads a file, and how that is known; a pinned range says which releases it allows. */
export type Release = Field<string | undefined> & { range?: { spec: string; floor?: string }; label?: string };

/**
 * A version above every release below `v` and below `v` itself (`0.14` → `0.13.999999`): the top of
 * a range that excludes `v`, for comparisons with the releases the schemas name.
 */
function justBelow(v: string): string {
  const parts = parseVersion(v);
  const i = parts.map((p) => p !== 0).lastIndexOf(true);
  if (i < 0) return v;
  return [...parts.slice(0, i), parts[i] - 1, 999999, 999999].join('.');
}

/**
 * A pre-release of the release it names (`0.10.0rc0`, `0.10.0a1`, `0.10.0.dev0`): code on its way there.
 * A post-release (`0.10.0.post1`) comes after the release, so it is the release.
 */
const PRE_RELEASE = /^(\d+\.\d+\.\d+)(?:rc|a|b|\.?dev)/;

/** `fork`: the fork that reads the document, when the caller has it already (`FormatSupport.fork`). */
export function releaseOf(da: DocAnalysis, fork: string | undefined = forkOf(da)): Release {
  const tool = da.format?.tool;
  if (!tool) return { value: undefined, from: { kind: 'default', note: 'no tool' } };
  const named = da.settings.targetVersions?.[tool];
  if (named) return { value: named, from: { kind: 'setting', note: `${TOOL_NAMES[tool]} ${named}, as set` } };
  if (da.release) return da.release;
  if (tool === 'megatron-core') {
    const unseen = da.settings.megatronUnseen;
    const tagged = unseen?.release;
    if (tagged) {
      // A submodule at a release tag's commit is that release; a pre-release tag is read as above.
      const pre = PRE_RELEASE.exec(tagged.version)?.[1];
      if (pre) return { value: pre, label: tagged.version, range: { spec: tagged.version, floor: justBelow(pre) }, from: { kind: 'assumed', note: `the Megatron Core ${tagged.version} at ${unseen.where} (${tagged.evidence}; a pre-release) does what ${pre} does, though it may not have all of ${pre} yet` } };
      return { value: tagged.version, from: { kind: 'derived', formula: `Megatron Core ${tagged.version}, the Megatron-LM at ${unseen.where} (${tagged.evidence})` } };
    }
    if (unseen) return { value: undefined, from: { kind: 'unknown', note: `the release of the Megatron-LM at ${unseen.where} is not known (${unseen.why})` } };
    const checkout = da.settings.megatronCheckout;
    const pre = checkout?.version && PRE_RELEASE.exec(checkout.version)?.[1];
    // A pre-release (`0.10.0rc0`) is code on its way to the release: taken as it, which it may not all be yet.
    // Every release below the one it leads to is behind it: what came before is known (no assumption).
    if (checkout?.version && pre) return { value: pre, label: checkout.version, range: { spec: checkout.version, floor: justBelow(pre) }, from: { kind: 'assumed', note: `the checkout's Megatron Core ${checkout.version}${checkout.where ? ` at ${checkout.where}` : ''} (a pre-release, by its megatron/core/package_info.py) does what ${pre} does, though it may not have all of ${pre} yet` } };
    if (checkout?.version) return { value: checkout.version, from: { kind: 'derived', formula: `Megatron Core ${checkout.version}, the release of the checkout${checkout.where ? ` at ${checkout.where}` : ' the file is in'} (its megatron/core/package_info.py)` } };
    // A script that runs a checkout of its own (read or not) does not run the package a file pins.
    if (checkout) return assumedNewest(tool);
    // A file a fork reads (Megatron-DeepSpeed, a Megatron-LM older than every release the histories
    // cover): which release's behaviour its code follows is not known, and no fact by release describes it.
    if (fork) return { value: undefined, from: { kind: 'unknown', note: `this file is read by ${fork}, whose behaviour no Megatron Core release describes` } };
  }
  const pin = da.settings.pins?.[tool];
  if (pin) {
    const said = `${pin.file}: ${pin.package}${pin.spec}`;
    const exact = exactRelease(pin.spec);
    // The megatron-core package holds `megatron.core` only: a launch script's flags and a Megatron-LM
    // YAML are read by the training code of a Megatron-LM checkout, whose release the pin suggests but does not say.
    const training = da.format?.id === 'megatron-args' || da.format?.id === 'megatron-yaml';
    if (exact && training) return { value: exact, label: `${exact} (${said})`, from: { kind: 'assumed', note: `the Megatron-LM that reads this file is the release the repository pins for Megatron Core (${said}); the megatron-core package does not hold Megatron-LM's argument parser, so say which runs with \`# shardwise: megatron_core=<version>\` or \`--target megatron-core=<version>\`` } };
    // A pin beside the file's folders (a `docker/` folder's Dockerfile): the repository's only one, likely what runs it.
    if (exact && pin.elsewhere) return { value: exact, label: `${exact} (${said})`, from: { kind: 'assumed', note: `${TOOL_NAMES[tool]} ${exact} runs this file, the only release the repository pins (${said}, not in a folder above the file; say which runs with \`# shardwise: ${SETTING[tool]}=<version>\` or \`--target ${tool}=<version>\`)` } };
    if (exact) return { value: exact, label: `${exact} (${said})`, from: { kind: 'derived', formula: `${TOOL_NAMES[tool]} ${exact}, as the repository pins it (${said})` } };
    // A range is read at its top; a finding is kept as certain only if every release in it gives it.
    const { floor, top } = specBounds(pin.spec);
    return {
      value: top ? (top.inclusive ? top.version : justBelow(top.version)) : undefined,
      from: { kind: 'assumed', note: `the newest ${TOOL_NAMES[tool]} release the repository allows runs this file (${said}; say which with \`# shardwise: ${SETTING[tool]}=<version>\` or \`--target ${tool}=<version>\`)` },
      range: { spec: pin.spec, floor },
      label: `${pin.package}${pin.spec} (${pin.file})`,
    };
  }
  return assumedNewest(tool);
}

/** The fork of the tool that reads the document (`FormatSupport.fork`); a format that throws names none. */
export function forkOf(da: DocAnalysis): string | undefined {
  try {
    return da.format?.fork?.(da.doc, da.settings);
  } catch {
    return undefined;
  }
}

function assumedNewest(tool: Tool): Release {
  return {
    value: undefined,
    from: { kind: 'assumed', note: `the newest ${TOOL_NAMES[tool]} release runs this file (say which does with \`# shardwise: ${SETTING[tool]}=<version>\` or \`--target ${tool}=<version>\`)` },
  };
}

/**
 * Whether the release is at least `version`; the newest is taken when it is not known. What the
 * answer rests on is recorded in `log`: nothing when every covered release gives the same answer.
 */
export function releaseAtLeast(release: Release, tool: Tool | undefined, version: string, log: ReadLog): boolean {
  // A pre-release of the very release that made the change is code on its way there: whether it
  // has the change yet is not known from its version (a snapshot of main just after the release
  // before it has none of it), so what rests on the answer is not said.
  const pre = preReleaseAt(release, version);
  if (pre) {
    log.record('unknown', pre);
    return true;
  }
  const range = release.range;
  if (range) {
    // Every release the pin allows is at least its floor, and none is above its top: no assumption.
    if (range.floor && compareVersions(version, range.floor) <= 0) return true;
    if (release.value !== undefined && compareVersions(version, release.value) > 0) return false;
    log.recordProvenance(release.from);
    return release.value === undefined || compareVersions(release.value, version) >= 0;
  }
  if (release.value !== undefined) {
    log.recordProvenance(release.from);
    return compareVersions(release.value, version) >= 0;
  }
  const floor = tool ? OLDEST_COVERED[tool] : undefined;
  if (release.from.kind !== 'unknown' && floor && compareVersions(version, floor) <= 0) return true;
  log.recordProvenance(release.from);
  return true;
}

/**
 * Why the answer is open when the release is a pre-release (`0.9.0rc0`, taken as 0.9.0) of exactly
 * `version`, the release a behaviour changed in; undefined otherwise.
 */
export function preReleaseAt(release: Release, version: string): string | undefined {
  const base = release.label !== undefined ? PRE_RELEASE.exec(release.label)?.[1] : undefined;
  if (!base || base !== release.value || compareVersions(base, version) !== 0) return undefined;
  return `${release.label} is a pre-release of ${version}, and whether it already does what ${version} does here is not known from its version`;
}

/** The release the document is checked against, when it is known rather than assumed (a pre-release's range aside): for hover and completion. */
export function knownRelease(da: DocAnalysis): string | undefined {
  const r = releaseOf(da);
  return r.value !== undefined && r.from.kind !== 'assumed' && !r.range ? r.value : undefined;
}

/**
 * What a document is checked against, in words, each with how it is known: the format (why the
 * file was read as it), the release of the tool that reads it, and the hardware of its layout.
 */
export function checkedAgainst(da: DocAnalysis): { format: string; release?: string; hardware?: string } {
  const out: { format: string; release?: string; hardware?: string } = { format: da.detection.reason };
  const tool = da.format?.tool;
  if (tool) {
    const r = releaseOf(da);
    const which = r.range ? `${TOOL_NAMES[tool]} ${r.range.spec}` : r.value !== undefined ? `${TOOL_NAMES[tool]} ${r.value}` : `the newest ${TOOL_NAMES[tool]} release Shardwise knows`;
    out.release = r.from.kind === 'assumed' ? `${which} (${describeProvenance(r.from)})` : describeProvenance(r.from);
  }
  const hw = da.plan?.hardware;
  if (hw) out.hardware = `${hw.profile.id} (${describeProvenance(hw.from)})`;
  return out;
}
