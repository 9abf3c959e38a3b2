/**
 * The Megatron argument parser of the checkout a launch script lives in (`megatron/arguments.py`,
 * `megatron/training/arguments.py`), which the host finds and reads. Its flags are the ones that
 * checkout's `pretrain_*.py` accepts: a fork (Megatron-DeepSpeed) or an older Megatron-LM keeps flags
 * the schema calls removed and defines flags upstream never had.
 *
 * Only the flag spellings written as string literals in `add_argument(...)` calls are read. A parser
 * may build more flags at run time (from dataclasses, in other modules), so the list only ever adds
 * to what is accepted; it never makes a flag unknown.
 */
import type { MegatronCheckout, RepositoryFlags } from '../../settings';
import { allFlags, megatronIndexes } from './schema';

/** Flag spellings passed as leading string literals to `add_argument(` in a Python file's text. */
export function parserFlags(text: string): string[] {
  const out = new Set<string>();
  const call = /add_argument\s*\(/g;
  const literal = /^\s*(?:[rbuRBU]?)(['"])(-{1,2}[A-Za-z0-9][\w.-]*)\1\s*,?/;
  while (call.exec(text) && out.size < 10_000) {
    const args = text.slice(call.lastIndex, call.lastIndex + 400);
    let rest = args;
    let lit: RegExpExecArray | null;
    const names: string[] = [];
    while ((lit = literal.exec(rest))) {
      names.push(lit[2]);
      rest = rest.slice(lit[0].length);
    }
    for (const n of names) out.add(n);
    // argparse.BooleanOptionalAction adds `--no-x` for every `--x` of the call.
    if (/^[^)]*BooleanOptionalAction/.test(args)) for (const n of names) if (n.startsWith('--')) out.add(`--no-${n.slice(2)}`);
  }
  // Flags a parser builds at run time from a fixed prefix (`f"--sglang-{stem}"`, `"--sglang-" + stem`):
  // any flag of that family may be defined, written `--sglang-*`.
  const family = /(?:\bf(['"])--([A-Za-z0-9][\w.-]*-)\{|(['"])--([A-Za-z0-9][\w.-]*-)\3\s*\+)/g;
  let m: RegExpExecArray | null;
  while ((m = family.exec(text)) && out.size < 10_000) out.add(`--${m[2] ?? m[4]}*`);
  return [...out];
}

/**
 * The checkout of a parser file's text: its flags, what its code says, the release and where it is;
 * undefined when the text defines no flag (not a parser).
 */
export function checkoutFrom(parser: string, text: string, version?: string, where?: string): MegatronCheckout | undefined {
  const flags = parserFlags(text);
  if (!flags.length) return undefined;
  return { parser, flags, code: liveCode(text), ...(version ? { version } : {}), ...(where ? { where } : {}) };
}

/** Python code without comment lines, adjacent string literals joined, white space collapsed. */
function liveCode(text: string): string {
  return text
    .split('\n')
    .filter((l) => !/^\s*#/.test(l))
    .join('\n')
    .replace(/(["'])\s*\n?\s*[rfbuRFBU]{0,2}\1/g, '')
    .replace(/\s+/g, ' ');
}

/**
 * Whether the checkout's parser code has a check that says `quote` (upstream's message, of which the
 * first words are looked for, in the code that is not commented out): a fork or an edited copy may
 * have dropped a check its release has. Undefined when the code was not read.
 */
export function checkoutSays(c: MegatronCheckout | undefined, quote: string): boolean | undefined {
  if (!c?.code) return undefined;
  const words = quote.split(/\s+/).slice(0, 6).join(' ');
  return c.code.includes(words);
}

/** A checkout whose parser defines at least this many flags Megatron-LM never had is another Megatron. */
const OWN_FLAGS_OF_A_FORK = 10;

const judged = new WeakMap<MegatronCheckout, { flags: Set<string>; own: string[] }>();

function facts(c: MegatronCheckout): { flags: Set<string>; own: string[] } {
  let f = judged.get(c);
  if (!f) {
    const known = megatronIndexes().flags;
    const flags = new Set(c.flags);
    f = { flags, own: [...flags].filter((x) => !known.has(x)) };
    judged.set(c, f);
  }
  return f;
}

/** The checkout's parser defines the flag. */
export function checkoutHas(c: MegatronCheckout | undefined, flag: string): boolean {
  return !!c && facts(c).flags.has(flag.replace(/=.*$/, ''));
}

/**
 * The checkout's Megatron, when it is not Megatron-LM as the schema knows it: a fork or a release
 * older than the schema's history, recognised by the flags only its parser has.
 */
export function checkoutFork(c: MegatronCheckout | undefined): string | undefined {
  if (!c) return undefined;
  const own = facts(c).own;
  return own.length >= OWN_FLAGS_OF_A_FORK ? `the Megatron in this checkout (its \`${c.parser}\` defines ${own.length} flags Megatron-LM does not have)` : undefined;
}

/**
 * Flag spellings a Python file writes as string literals anywhere (`patch_if_not_exist(parser,
 * "--patch-size", …)`, `reset_arg(parser, "--lr", …)`, `if "--bf16" in sys.argv`): a program that
 * names a flag handles it, even through a helper that calls `add_argument` with a variable.
 */
export function flagLiterals(text: string): string[] {
  const out = new Set<string>();
  const re = /(['"])(--[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*)\1/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) && out.size < 10_000) out.add(m[2]);
  return [...out];
}

/** The file reads its arguments leniently (`parse_known_args`, `ignore_unknown_args=True`): flags it does not know are dropped, not refused. */
export function readsLeniently(text: string): boolean {
  return /\bparse_known_args\s*\(|ignore_unknown_args\s*=\s*True/.test(text);
}

/**
 * The config paths a Python file assigns to a Hydra/OmegaConf config before it is used
 * (`cfg.model.global_batch_size = …`, `OmegaConf.update(cfg, "model.x", …)`), dotted from `model.` or
 * `trainer.`: a value such code sets is not the one the YAML file holds.
 */
export function configAssignments(text: string): string[] {
  const out = new Set<string>();
  if (!/cfg|OmegaConf/.test(text)) return [];
  const assign = /\b\w*cfg\.((?:model|trainer)(?:\.[A-Za-z_]\w*)+)\s*=(?!=)/g;
  const update = /OmegaConf\.update\(\s*\w+\s*,\s*['"]((?:model|trainer)(?:\.[A-Za-z_]\w*)+)['"]/g;
  for (const re of [assign, update]) {
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) && out.size < 1000) out.add(m[1]);
  }
  return [...out];
}

/**
 * The Megatron arguments a Python file sets on the parsed namespace (`args.use_distributed_optimizer
 * = True` in a framework's own argument code): a program that does so runs a value the launch script
 * may not show. Only plain statements of the form `args.<name> = …` count.
 */
export function argsAssignments(text: string): string[] {
  const out = new Set<string>();
  if (!text.includes('args.')) return [];
  const assign = /^[ \t]*args\.([a-z_][a-z0-9_]*)[ \t]*=(?!=)/gm;
  let m: RegExpExecArray | null;
  while ((m = assign.exec(text)) && out.size < 5000) out.add(m[1]);
  return [...out];
}

/**
 * The config key names a Python file reads from a config object (`self.cfg.get("forward_micro_batch_size")`,
 * `cfg.kto.beta`, `model_cfg["x"]`): a key some code of the repository reads is not a misspelling.
 */
export function configReads(text: string): string[] {
  const out = new Set<string>();
  if (!/cfg|config/i.test(text)) return [];
  const res = [/\b\w*(?:cfg|config)\.get\(\s*['"]([A-Za-z_]\w*)['"]/gi, /\b\w*(?:cfg|config)\[\s*['"]([A-Za-z_]\w*)['"]\s*\]/gi, /\b\w*cfg((?:\.[A-Za-z_]\w*)+)/g];
  for (const re of res) {
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) && out.size < 5000) for (const k of m[1].split('.')) if (k && k !== 'get') out.add(k);
  }
  return [...out];
}

/** The release a checkout's `megatron/core/package_info.py` gives (`MAJOR = 0`, `MINOR = 14`, `PATCH = 0`). */
export function packageVersion(text: string): string | undefined {
  const n = (name: string) => new RegExp(`^${name}\\s*=\\s*(\\d+)\\s*$`, 'm').exec(text)?.[1];
  const [major, minor, patch] = [n('MAJOR'), n('MINOR'), n('PATCH')];
  // `PRE_RELEASE = 'rc0'`: code on its way to the release, which may not have all of it yet.
  const pre = /^PRE_RELEASE\s*=\s*['"]([A-Za-z0-9.]*)['"]\s*$/m.exec(text)?.[1] ?? '';
  return major !== undefined && minor !== undefined && patch !== undefined ? `${Number(major)}.${Number(minor)}.${Number(patch)}${pre}` : undefined;
}

const repositorySets = new WeakMap<RepositoryFlags, Set<string>>();

function repositorySet(r: RepositoryFlags): Set<string> {
  let set = repositorySets.get(r);
  if (!set) repositorySets.set(r, (set = new Set(r.flags)));
  return set;
}

/** Some `add_argument` call of the file's repository defines the flag (`--x=1` is `--x`). */
export function repositoryHas(r: RepositoryFlags | undefined, flag: string): boolean {
  if (!r) return false;
  const bare = flag.replace(/=.*$/, '');
  if (repositorySet(r).has(bare)) return true;
  // A family the repository builds from a prefix (`--sglang-*`).
  for (let i = bare.indexOf('-', 2); i > 0; i = bare.indexOf('-', i + 1)) if (repositorySet(r).has(`${bare.slice(0, i + 1)}*`)) return true;
  return false;
}

/** `12,345`. */
function count(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`;
}

/**
 * What was searched for a flag no parser of the repository defines, after "not a known flag among
 * …": `and no parser in this repository defines it (412 Python files searched, 9 with add_argument
 * calls: \`a/arguments.py\`, …)`, or, when the index stopped at a bound, what it did read and why it stopped.
 */
export function repositorySearched(r: RepositoryFlags): string {
  const shown = (r.parsers ?? []).slice(0, 2);
  const more = r.withParsers - shown.length;
  const names = shown.length ? `: ${shown.map((p) => `\`${p}\``).join(', ')}${more > 0 ? ` and ${plural(more, 'other')}` : ''}` : '';
  const counts = `${plural(r.files, 'Python file')} searched, ${count(r.withParsers)} with add_argument calls${names}`;
  if (!r.complete) return `and no parser Shardwise read in this repository defines it (${counts}; ${r.incomplete ?? 'the search stopped before the end'})`;
  return `and no parser in this repository defines it (${counts})`;
}

const candidateLists = new WeakMap<RepositoryFlags, string[]>();

/** Did-you-mean candidates: Megatron-LM's flags and the repository's (one list per index, so its search index is kept). */
export function flagCandidates(r: RepositoryFlags | undefined): string[] {
  if (!r || r.flags.length === 0) return allFlags();
  let list = candidateLists.get(r);
  if (!list) candidateLists.set(r, (list = [...new Set([...allFlags(), ...r.flags])]));
  return list;
}
