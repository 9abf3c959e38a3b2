/**
 * Which Megatron-LM a launch script runs, from what the script itself says: Python puts the entry
 * script's folder first on its path (`$MEGATRON/pretrain_gpt.py` runs the Megatron beside it), then
 * the PYTHONPATH the script exports (`export PYTHONPATH=$PATCH/backends/megatron/Megatron-LM-250328:…`).
 * A Megatron the host can read is a checkout like the one a script lives in: its own parser defines
 * the flags, its `package_info.py` gives the release. One the host cannot read (a submodule not
 * checked out, a path the script is given as an argument, a folder of another machine) is a Megatron
 * whose flags and release are not known: no flag is judged by upstream's, and no release is assumed,
 * except that a submodule pinned at the commit of one of Megatron-LM's release tags is that release
 * (the flags stay unjudged: the repository may still patch its copy or add flags in its entry script).
 */
import type { LinkedFile, Submodule } from '../link';
import type { MegatronCheckout } from '../../settings';
import type { ShellDoc } from '../../syntax/shell';
import { checkoutFrom, packageVersion } from './checkout';
import { normalizePath } from '../../syntax/shell/substitution';
import { pythonImports } from '../../syntax/python';
import { megatronTagRelease } from './tags';

export type MegatronSource =
  /** A Megatron the host read: its parser and release. */
  | { kind: 'read'; checkout: MegatronCheckout }
  /**
   * A Megatron the script runs that the host cannot read: where, in words, and why; and its release
   * when something other than its files says it (a submodule pinned at a release tag's commit).
   */
  | { kind: 'unseen'; where: string; why: string; release?: { version: string; evidence: string }; patched?: boolean };

const PARSERS = ['megatron/training/arguments.py', 'megatron/arguments.py'];
/** Megatron-LM's own entry scripts, at the root of its checkout. */
export const UPSTREAM_ENTRY_NAMES = 'gpt|bert|t5|mamba|hybrid|retro|ict|vlm|vision_\\w+';
export const UPSTREAM_ENTRY = new RegExp(`^pretrain_(${UPSTREAM_ENTRY_NAMES})\\.py$`);
/** Pretraining scripts (Megatron-LM's, or a fork's) sit at the root of its checkout. */
const ROOT_ENTRY = /(^|\/)pretrain_\w+\.py$/;
const MAX_PARSER_CHARS = 2_000_000;

function join(dir: string, rel: string): string {
  return `${dir.replace(/\/+$/, '')}/${rel}`;
}

/**
 * Reads the checkout at `dir`, if the host can: its parser's flags and its release. When it cannot and
 * the host says the folder is a git submodule that is not checked out, that submodule.
 */
function readCheckout(dir: string, read: (ref: string) => LinkedFile): { checkout?: MegatronCheckout; submodule?: Submodule; here?: boolean } {
  let submodule: Submodule | undefined;
  let here = false;
  for (const rel of PARSERS) {
    let f: LinkedFile;
    try {
      f = read(join(dir, rel));
    } catch {
      continue;
    }
    submodule ??= f.submodule;
    // The folder itself is here (the deepest folder that exists is it or inside it): it has no such parser.
    const at = f.tried[0]?.slice(0, -(rel.length + 1));
    if (f.text === undefined && at && f.deepestFolder && f.deepestFolder.startsWith(at) && /^([\\/]|$)/.test(f.deepestFolder.slice(at.length))) here = true;
    if (f.text === undefined || f.text.length > MAX_PARSER_CHARS) continue;
    let version: string | undefined;
    try {
      const info = read(join(dir, 'megatron/core/package_info.py'));
      version = info.text !== undefined ? packageVersion(info.text) : undefined;
    } catch {
      version = undefined;
    }
    const checkout = checkoutFrom(rel, f.text, version, `\`${dir}\``);
    if (checkout) return { checkout };
  }
  return { submodule, here: here && !submodule };
}

/**
 * How a program patches the Megatron it runs, in words, or undefined: it imports a Megatron adaptor
 * or patch module (`from mindspeed_llm import megatron_adaptor`, `import megatron_patch…`), registers
 * replacements of `megatron.…` functions, or swaps a `megatron` module in `sys.modules`.
 */
export function patchesMegatron(text: string): string | undefined {
  const imp = patchImport(text);
  if (imp) return `imports \`${imp.slice(0, 80)}\``;
  const reg = /\bregister\(\s*['"](megatron\.[\w.]+)['"]/.exec(text);
  if (reg) return `registers a replacement of \`${reg[1]}\``;
  if (/\bsys\.modules\[\s*['"]megatron[\w.]*['"]\s*\]\s*=(?!=)/.test(text)) return 'swaps a `megatron` module in `sys.modules`';
  return undefined;
}

const PATCH_MODULE = /megatron_(?:adaptor|adapter|patch)\w*/;

/**
 * The import of a Megatron adaptor or patch module, in any form Python writes it (a bracketed list
 * over several lines, a backslash continuation), as far as the module's name: `from mindspeed_llm
 * import megatron_adaptor`, `from megatron_patch`, `import megatron_patch`.
 */
function patchImport(text: string): string | undefined {
  for (const i of pythonImports(text)) {
    const module = `${'.'.repeat(i.level)}${i.module}`;
    const named = i.names?.find((n) => PATCH_MODULE.exec(n.name)?.index === 0);
    if (named) return `from ${module} import ${named.name}`;
    const m = PATCH_MODULE.exec(module);
    if (m) return `${i.names ? 'from' : 'import'} ${module.slice(0, m.index + m[0].length)}`;
  }
  return undefined;
}

/** What a submodule that is not checked out says of the Megatron-LM it holds: the release its commit is the tag of, if any. */
function unseenSubmodule(where: string, s: Submodule): MegatronSource {
  const short = s.commit.slice(0, 10);
  const version = megatronTagRelease(s.url, s.commit);
  if (version) {
    return { kind: 'unseen', where, why: `it is a git submodule that is not checked out, pinned at commit ${short}`, release: { version, evidence: `a git submodule pinned at commit ${short}, the commit of NVIDIA/Megatron-LM's tag core_v${version}` } };
  }
  const from = /github\.com[:/]NVIDIA\/Megatron-LM/i.test(s.url) ? "a commit of NVIDIA/Megatron-LM that is no release tag's" : `a commit of ${s.url}`;
  return { kind: 'unseen', where, why: `it is a git submodule that is not checked out, pinned at ${from} (${short}), whose release is not known` };
}

/**
 * The Megatron the script runs, when the script says where it is (the entry script's folder, an entry
 * of PYTHONPATH); undefined when it does not, and the checkout the script lives
 * in (if any) is the one.
 */
export function megatronSource(s: ShellDoc, read?: (ref: string) => LinkedFile, root?: string): MegatronSource | undefined {
  // An entry script that patches the Megatron it imports (an adaptor package, a registered
  // replacement of its argument parsing) runs a parser nobody here can see, whatever the checkout.
  const program = s.entryText();
  const patch = program && patchesMegatron(program.text);
  // Only the entry's own imports count: the name of a module some package of the workspace imports
  // (slime's `megatron_patch`, which coalesces gradients) says nothing of Megatron-LM's arguments.
  if (patch) return { kind: 'unseen', patched: true, where: `a patched copy (\`${s.entrypoint?.path.split('/').pop()}\` patches it when it starts)`, why: `the entry script ${patch}, which changes Megatron-LM's arguments (more flags, more values, other meanings) in code that is not read here` };
  const candidates: { dir?: string; unknown?: string; what: string; anyName?: boolean }[] = [];
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
  // Every folder on PYTHONPATH may hold the `megatron` package, whatever its name (a fork such as
  // `/workspace/FlagScale`): one that is here without a parser is passed over below.
  for (const e of s.pathEntries('PYTHONPATH')) {
    if (e.unknown) candidates.push({ unknown: `the script puts it on PYTHONPATH from a value it is given when it runs (${e.unknown})`, what: 'a folder on PYTHONPATH' });
    else if (e.text) candidates.push({ ...at(e.text, `\`${e.text}\``), anyName: !/megatron/i.test(e.text.split('/').pop() ?? '') });
  }
  // Python imports `megatron` from the first folder that has it: a folder that is here without a
  // Megatron parser is passed over for the next; if every one is, the first is reported as before.
  let passed: MegatronSource | undefined;
  for (const c of candidates) {
    if (c.unknown) return passed ?? { kind: 'unseen', where: c.what, why: c.unknown };
    if (!read) return passed ?? { kind: 'unseen', where: c.what, why: 'files beside the script are not read here' };
    const { checkout, submodule, here } = readCheckout(c.dir!, read);
    if (checkout) return { kind: 'read', checkout };
    // A folder of the machine that runs the script (`/mnt/…/MYREPO`) that is this repository's own
    // checkout: the entry script is found under the same tail of the path here.
    const mine = !here && root ? ownCheckout(c.dir!, s.entrypoint?.path, root, read) : undefined;
    if (mine) return { kind: 'read', checkout: mine };
    if (submodule) return unseenSubmodule(c.what, submodule);
    const unseen: MegatronSource = { kind: 'unseen', where: c.what, why: 'it is not in this checkout (a submodule not checked out, or a folder of the machine that runs the script)' };
    if (!here) return passed ?? unseen;
    // A folder here whose name does not say Megatron (the repository's own root) is simply not where
    // `megatron` comes from.
    if (!c.anyName) passed ??= unseen;
  }
  return passed;
}

/**
 * The checkout of this repository that an absolute folder of another machine stands for: the entry
 * script's name is found at the repository root, or under a tail of the folder's path there
 * (`/mnt/u/code/REPO/tools` → `tools`), and a Megatron parser beside it.
 */
function ownCheckout(dir: string, entry: string | undefined, root: string, read: (ref: string) => LinkedFile): MegatronCheckout | undefined {
  if (!dir.startsWith('/') || !entry) return undefined;
  const name = entry.split('/').pop()!;
  const parts = dir.split('/').filter((p) => p && p !== '.');
  const tails = [...parts.map((_, i) => parts.slice(i).join('/')).slice(1), ''];
  for (const tail of tails) {
    const here = tail ? `${root}/${tail}` : root;
    if (read(`${here}/${name}`).text === undefined) continue;
    const found = readCheckout(here, read).checkout;
    if (found) return found;
  }
  return undefined;
}
