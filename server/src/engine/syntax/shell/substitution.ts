/**
 * The few command substitutions a launch script uses to find its own folder and the checkouts beside
 * it, worked out when every word is known: `$(dirname "$0")`, `$(cd "$(dirname "${BASH_SOURCE[0]}")"
 * && pwd)`, `$(realpath …)`, `$(readlink -f …)`, `$(basename …)`, `$(pwd)` after a `cd`, and
 * `$(echo …)`. Any other command's output is not known. Paths are POSIX paths, worked out as text.
 */

/** `a/b/../c/./d` → `a/c/d`; keeps a leading `/`; `..` above a relative start stays. */
export function normalizePath(p: string): string {
  const abs = p.startsWith('/');
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && out.length && out[out.length - 1] !== '..') out.pop();
    else if (part !== '..' || !abs) out.push(part);
  }
  const joined = out.join('/');
  return abs ? `/${joined}` : joined || '.';
}

export function dirnameOf(p: string): string {
  const t = p.length > 1 ? p.replace(/\/+$/, '') : p;
  const i = t.lastIndexOf('/');
  if (i < 0) return '.';
  if (i === 0) return '/';
  return t.slice(0, i);
}

export function basenameOf(p: string, suffix?: string): string {
  const t = p.length > 1 ? p.replace(/\/+$/, '') : p;
  const b = t.slice(t.lastIndexOf('/') + 1);
  return suffix && b.endsWith(suffix) && b !== suffix ? b.slice(0, -suffix.length) : b;
}

/**
 * Where `cd DIR` (or `pushd DIR`) leaves the script, given the folder it was in (`PWD` as the script
 * set it; absent: the folder it was started in). A relative folder from the start stays relative
 * (to that folder); a folder the script is given when it runs, `cd -`, `cd` alone (home) and `popd`
 * (the stack is not kept) leave it unknown, with why.
 */
export function changedDir(
  head: string,
  args: readonly { text: string; segs: readonly { unknown?: string }[]; passthrough?: boolean }[],
  before: { segs: readonly { text: string }[]; unknown?: string; kind: string } | undefined,
  line: number,
): { dir?: string; why?: string } {
  const operands = args.filter((f) => f.segs.some((x) => x.unknown) || !/^(-[LPe@]+|--)$/.test(f.text));
  const word = head === 'popd' || operands.length !== 1 ? undefined : operands[0];
  const given = word?.segs.find((x) => x.unknown)?.unknown;
  if (!word || word.text === '-' || word.passthrough) return { why: `the folder \`${head}\` on line ${line} changes to is not known` };
  if (given) return { why: `the script changes to a folder it is given when it runs (\`${head}\` on line ${line}: ${given})` };
  if (word.text.startsWith('/')) return { dir: normalizePath(word.text) };
  if (before?.unknown || before?.kind === 'array') return { why: before.unknown ?? `the folder before \`${head}\` on line ${line} is not known` };
  return { dir: normalizePath(before ? `${before.segs.map((x) => x.text).join('')}/${word.text}` : word.text) };
}

function join(dir: string | undefined, p: string): string | undefined {
  if (p.startsWith('/')) return normalizePath(p);
  return dir === undefined ? undefined : normalizePath(`${dir}/${p}`);
}

/**
 * A command of the substitution: its words' texts (undefined where a word is not known) and the
 * operator that follows it (`&&`, `;`, `|`, `||` or the end).
 */
export interface SubCommand {
  words: (string | undefined)[];
  next: string;
}

/**
 * The output of the substitution's commands, when it is evidently a path (or an `echo` of known
 * words): undefined otherwise. The directory the commands start in is the script's `PWD` when a
 * `cd` set it, else not known, so a relative path only resolves once a `cd` has run.
 */
export function substitutionOutput(cmds: readonly SubCommand[], start?: string): string | undefined {
  let cwd: string | undefined = start;
  let output: string | undefined;
  for (const c of cmds) {
    if (c.next === '|' || c.next === '||') return undefined;
    const words = c.words.filter((w) => w === undefined || !/^(\d?>|&>|>>|2>&1|\d?>\/dev\/null)/.test(w));
    if (words.some((w) => w === undefined)) return undefined;
    const [name, ...rest] = words as string[];
    const args = rest.filter((w) => w !== '--');
    const opts = args.filter((w) => /^-[A-Za-z]+$/.test(w));
    const operands = args.filter((w) => !/^-[A-Za-z]+$/.test(w));
    switch (name) {
      case 'cd': {
        if (operands.length !== 1) return undefined;
        cwd = join(cwd, operands[0]);
        if (cwd === undefined) return undefined;
        break;
      }
      case 'pwd':
        if (cwd === undefined) return undefined;
        output = cwd;
        break;
      case 'dirname':
        if (operands.length !== 1) return undefined;
        output = dirnameOf(operands[0]);
        break;
      case 'basename':
        if (operands.length < 1 || operands.length > 2 || opts.length) return undefined;
        output = basenameOf(operands[0], operands[1]);
        break;
      case 'realpath':
      case 'readlink': {
        if (operands.length !== 1 || (name === 'readlink' && !opts.some((o) => /[fem]/.test(o)))) return undefined;
        const abs = join(cwd, operands[0]);
        // A relative path from a directory nobody knows: the text itself is as good as it gets.
        output = abs ?? normalizePath(operands[0]);
        break;
      }
      case 'echo':
        if (opts.length) return undefined;
        output = operands.join(' ');
        break;
      default:
        return undefined;
    }
  }
  return output;
}
