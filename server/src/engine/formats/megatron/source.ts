/**
 * Which Megatron-LM a launch script runs, from what the script itself says: Python puts the entry
 * script's folder first on its path (`$MEGATRON/pretrain_gpt.py` runs the Megatron beside it), then
 * the PYTHONPATH the script exports (`export PYTHONPATH=$PATCH/backends/megatron/Megatron-LM-250328:…`).
 * A Megatron the host can read is a checkout like the one a script lives in: its own parser defines
 * the flags, its `package_info.py` gives the release. One the host cannot read (a submodule not
 * checked out, a path the script is given as an argument, a folder of another machine) is a Megatron
 * whose flags and release are not known: no flag is judged by upstream's, and no release is assumed.
 */
import type { LinkedFile } from '../link';
import type { MegatronCheckout } from '../../settings';
import type { ShellDoc } from '../../syntax/shell';
import { checkoutFrom, packageVersion } from './checkout';
import { normalizePath } from '../../syntax/shell/substitution';

export type MegatronSource =
  /** A Megatron the host read: its parser and release. */
  | { kind: 'read'; checkout: MegatronCheckout }
  /** A Megatron the script runs that the host cannot read: where, in words, and why. */
  | { kind: 'unseen'; where: string; why: string };

const PARSERS = ['megatron/training/arguments.py', 'megatron/arguments.py'];
/** Megatron-LM's own entry scripts, at the root of its checkout. */
export const UPSTREAM_ENTRY = /^pretrain_(gpt|bert|t5|mamba|hybrid|retro|ict|vlm|vision_\w+)\.py$/;
/** Pretraining scripts (Megatron-LM's, or a fork's) sit at the root of its checkout. */
const ROOT_ENTRY = /(^|\/)pretrain_\w+\.py$/;
const MAX_PARSER_CHARS = 2_000_000;

function join(dir: string, rel: string): string {
  return `${dir.replace(/\/+$/, '')}/${rel}`;
}

/** Reads the checkout at `dir`, if the host can: its parser's flags and its release. */
function readCheckout(dir: string, read: (ref: string) => LinkedFile): MegatronCheckout | undefined {
  for (const rel of PARSERS) {
    let f: LinkedFile;
    try {
      f = read(join(dir, rel));
    } catch {
      continue;
    }
    if (f.text === undefined || f.text.length > MAX_PARSER_CHARS) continue;
    let version: string | undefined;
    try {
      const info = read(join(dir, 'megatron/core/package_info.py'));
      version = info.text !== undefined ? packageVersion(info.text) : undefined;
    } catch {
      version = undefined;
    }
    const checkout = checkoutFrom(rel, f.text, version, `\`${dir}\``);
    if (checkout) return checkout;
  }
  return undefined;
}

/**
 * The Megatron the script runs, when the script says where it is (the entry script's folder, an entry
 * of PYTHONPATH that names a Megatron); undefined when it does not, and the checkout the script lives
 * in (if any) is the one.
 */
export function megatronSource(s: ShellDoc, read?: (ref: string) => LinkedFile): MegatronSource | undefined {
  const candidates: { dir?: string; unknown?: string; what: string }[] = [];
  // A relative path is relative to the folder the command starts in: the one a `cd` before it names.
  const cwd = s.workingDir;
  const at = (path: string, what: string): { dir?: string; unknown?: string; what: string } => {
    if (path.startsWith('/') || !cwd) return { dir: path, what };
    if (cwd.unknown) return { unknown: cwd.unknown, what };
    const dir = normalizePath(`${cwd.text}/${path}`);
    return { dir, what: path === '.' ? `\`${dir}\` (the script changes to it before the launch)` : `\`${dir}\` (\`${path}\` from \`${cwd.text}\`, where the script changes to)` };
  };
  const entry = s.entrypoint?.path;
  if (entry && ROOT_ENTRY.test(entry)) {
    const dir = entry.includes('/') ? entry.slice(0, entry.lastIndexOf('/')) : '.';
    // The entry's path as written when a part of it is not known (`$MEGATRON_PATH/pretrain_gpt.py`).
    if (/\$|`/.test(dir)) candidates.push({ unknown: `the script is given its path when it runs (it starts \`${entry}\`)`, what: `\`${dir}\`` });
    else if (entry.includes('/')) candidates.push(at(dir, `\`${dir}\``));
    // `pretrain_gpt.py` with no folder: after a `cd`, Megatron-LM's own script is the checkout there;
    // with no `cd`, the checkout the script lives in.
    else if (cwd && UPSTREAM_ENTRY.test(entry)) candidates.push(at(dir, `\`${dir}\``));
  }
  for (const e of s.pathEntries('PYTHONPATH')) {
    if (e.unknown) candidates.push({ unknown: `the script puts it on PYTHONPATH from a value it is given when it runs (${e.unknown})`, what: 'a folder on PYTHONPATH' });
    else if (e.text && /megatron/i.test(e.text.split('/').pop() ?? '')) candidates.push(at(e.text, `\`${e.text}\``));
  }
  for (const c of candidates) {
    if (c.unknown) return { kind: 'unseen', where: c.what, why: c.unknown };
    if (!read) return { kind: 'unseen', where: c.what, why: 'files beside the script are not read here' };
    const checkout = readCheckout(c.dir!, read);
    if (checkout) return { kind: 'read', checkout };
    return { kind: 'unseen', where: c.what, why: 'it is not in this checkout (a submodule not checked out, or a folder of the machine that runs the script)' };
  }
  return undefined;
}
