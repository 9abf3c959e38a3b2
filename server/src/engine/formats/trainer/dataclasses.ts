/**
 * Whose flags a program's HfArgumentParser reads. Transformers' HfArgumentParser defines one flag per
 * field of the dataclasses it is given and fills those dataclasses from the command line
 * (hf_argparser.py@v4.57.6:128-143, 272-346; the same at v5.18.0); TRL's TrlParser is built on it
 * (trl scripts/utils.py@v0.19.0:114, @v1.9.0:234). The flags are TrainingArguments' only when one of
 * the dataclasses is TrainingArguments, a subclass of it (Seq2SeqTrainingArguments,
 * training_args_seq2seq.py@v4.57.6:30; a repository's own), or a TRL trainer config, which subclass it
 * (trl sft_config.py@v0.19.0:23, dpo_config.py@v0.19.0:34, grpo_config.py@v0.19.0:24, …). A parser
 * over the program's own dataclasses only (`HfArgumentParser(ScriptArguments)`) reads its own flags.
 */
import { MODULE_NAME, pythonImports, pythonStatements } from '../../syntax/python';

/** What the dataclasses given to the program's HfArgumentParser (or TrlParser) are. */
export type ParserDataclasses =
  /** One of them is a TrainingArguments (the class named); `alone` when it is the only dataclass the parser is given. */
  | { kind: 'trainer'; cls: string; alone: boolean }
  /** All are the program's own dataclasses (defined in the files read), none a TrainingArguments. */
  | { kind: 'own'; classes: string[] }
  /** Some cannot be told, and none is known to be a TrainingArguments: why, in words. */
  | { kind: 'unknown'; why: string };

/** Transformers' TrainingArguments and its subclasses (training_args_seq2seq.py@v4.57.6:30, training_args_tf.py@v4.57.6:33). */
const TRANSFORMERS_TRAINING_ARGUMENTS = new Set(['TrainingArguments', 'Seq2SeqTrainingArguments', 'TFTrainingArguments']);

/**
 * TRL's trainer configs, each a TrainingArguments subclass in every release that has it (trl
 * trainer/sft_config.py, dpo_config.py, grpo_config.py, … @v0.19.0 and @v1.9.0; the newer ones under
 * trl/experimental/ @v1.9.0, through trainer/base_config.py@v1.9.0:21). `PPOConfig` is not among them:
 * a plain dataclass before v0.12.0 (ppo_config.py@v0.11.4:35), a TrainingArguments from it
 * (ppo_config.py@v0.12.0:22), so its reading depends on the release.
 */
const TRL_TRAINING_ARGUMENTS = new Set([
  'SFTConfig', 'DPOConfig', 'GRPOConfig', 'ORPOConfig', 'KTOConfig', 'RewardConfig', 'CPOConfig', 'BCOConfig',
  'OnlineDPOConfig', 'GKDConfig', 'NashMDConfig', 'XPOConfig', 'RLOOConfig', 'PRMConfig', 'IterativeSFTConfig',
  'OnPolicyConfig', 'PPOv2Config', 'GOLDConfig', 'GFPOConfig', 'MiniLLMConfig', 'PAPOConfig', 'GRPOWithReplayBufferConfig',
  'AsyncGRPOConfig', 'DPPOConfig', 'SDFTConfig', 'SDPOConfig', 'SSDConfig', 'TPOConfig', 'A2POConfig', 'GMPOConfig',
  'IWOPDConfig', 'DistillationConfig', 'ServerDistillationConfig',
]);

/** TRL's own argument dataclasses, none a TrainingArguments (trl scripts/utils.py@v1.9.0:146, trainer/model_config.py@v1.9.0:19, trainer/ddpo_config.py@v0.19.0:26, trainer/alignprop_config.py@v0.19.0:26). */
function trlOwn(name: string): boolean {
  return name === 'ModelConfig' || name === 'DDPOConfig' || name === 'AlignPropConfig' || /ScriptArguments$/.test(name);
}

/** Names that are a TrainingArguments wherever they come from (a repository re-exports or subclasses it under the same name). */
function trainingArgumentsName(name: string): boolean {
  return TRANSFORMERS_TRAINING_ARGUMENTS.has(name) || TRL_TRAINING_ARGUMENTS.has(name);
}

/** `unread`: a class defined in no file read here. */
type Verdict = 'trainer' | 'own' | 'unread' | { unknown: string };

/** The classes, import bindings and list assignments of the program and the modules it imports. */
interface Scope {
  classes: Map<string, string[]>;
  /** Name bound → the dotted path it stands for (`from transformers import TrainingArguments as TA` → TA: transformers.TrainingArguments). */
  bound: Map<string, string>;
  lists: Map<string, string>;
}

const PARSER_NAME = /\b(?:HfArgumentParser|TrlParser)\b/;
const PARSERS = ['HfArgumentParser', 'TrlParser'];

/**
 * The dataclasses the program's HfArgumentParser (or TrlParser) is given, judged through the program
 * and the local modules it imports (`texts`, the program first); undefined when no such parser shows.
 */
export function parserDataclasses(texts: readonly string[]): ParserDataclasses | undefined {
  const statements = texts.flatMap((t) => pythonStatements(t));
  if (!statements.some((s) => PARSER_NAME.test(s))) return undefined;
  const scope = scopeOf(texts, statements);
  const call = parserCall(scope);
  const calls = statements.flatMap((s) => parserArguments(s, call));
  if (!calls.length) return { kind: 'unknown', why: 'its HfArgumentParser is built in a way Shardwise does not read' };
  const own: string[] = [];
  const unread: string[] = [];
  let unknown: string | undefined;
  for (const arg of calls) {
    for (const cls of elements(arg, scope)) {
      const v = MODULE_NAME.test(cls) ? resolve(cls, scope, new Set()) : { unknown: `its HfArgumentParser is given \`${cls}\`, which Shardwise does not read` };
      if (v === 'trainer') return { kind: 'trainer', cls, alone: calls.length === 1 && elements(calls[0], scope).length === 1 };
      if (v === 'own') own.push(cls);
      else if (v === 'unread') unread.push(cls);
      else unknown ??= v.unknown;
    }
  }
  if (unread.length) {
    const names = [...new Set(unread)].map((c) => `\`${c}\``);
    const listed = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}, whose classes are` : `${names[0]}, whose class is`;
    return { kind: 'unknown', why: `its HfArgumentParser is given ${listed} in no file read here` };
  }
  if (unknown) return { kind: 'unknown', why: unknown };
  return own.length ? { kind: 'own', classes: [...new Set(own)] } : { kind: 'unknown', why: 'its HfArgumentParser is given no dataclass Shardwise reads' };
}

function scopeOf(texts: readonly string[], statements: readonly string[]): Scope {
  const scope: Scope = { classes: new Map(), bound: new Map(), lists: new Map() };
  for (const t of texts) {
    for (const i of pythonImports(t)) {
      const module = `${'.'.repeat(i.level)}${i.module}`;
      // `import a.b` binds `a` to the package; `import a.b as c` binds `c` to `a.b`; `from m import x as y` binds `y` to `m.x`.
      const binds: [string, string][] = i.names
        ? i.names.filter((n) => n.name !== '*').map((n) => [n.as, `${module}${i.module ? '.' : ''}${n.name}`])
        : [i.as ? [i.as, i.module] : [i.module.split('.')[0], i.module.split('.')[0]]];
      for (const [name, path] of binds) if (!scope.bound.has(name)) scope.bound.set(name, path);
    }
  }
  for (const s of statements) {
    const c = /^class\s+([A-Za-z_]\w*)\s*/.exec(s);
    if (c) {
      const rest = s.slice(c[0].length);
      const bases = rest.startsWith('(') ? splitTop(inner(rest, 0)) : [];
      if (!scope.classes.has(c[1])) scope.classes.set(c[1], bases.filter((b) => !b.includes('=')).map((b) => b.replace(/\s+/g, '')));
      continue;
    }
    const a = /^([A-Za-z_]\w*)\s*(?::[^=]*)?=\s*([([].*)$/.exec(s);
    if (a && !scope.lists.has(a[1])) scope.lists.set(a[1], a[2]);
  }
  return scope;
}

/** The text inside the bracket opened at `open` (to the end, when it is not closed). */
function inner(s: string, open: number): string {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if ('([{'.includes(s[i])) depth++;
    else if (')]}'.includes(s[i]) && --depth === 0) return s.slice(open + 1, i);
  }
  return s.slice(open + 1);
}

/** The parts of a list split at its top-level commas, trimmed, empty ones dropped. */
function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i <= s.length; i++) {
    const c = s[i];
    if (c && '([{'.includes(c)) depth++;
    else if (c && ')]}'.includes(c)) depth--;
    else if (i === s.length || (c === ',' && depth === 0)) {
      const part = s.slice(start, i).trim();
      if (part) out.push(part);
      start = i + 1;
    }
  }
  return out;
}

/**
 * A call of HfArgumentParser, of TrlParser or of a class of the program that derives from one (a
 * repository's own parser, such as alignment-handbook's H4ArgumentParser): each takes the dataclasses first.
 */
function parserCall(scope: Scope): RegExp {
  const names = new Set(PARSERS);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [cls, bases] of scope.classes) {
      if (!names.has(cls) && bases.some((b) => names.has(b.split('.').pop()!))) grew = !!names.add(cls);
    }
  }
  return new RegExp(`\\b(?:${[...names].join('|')})\\s*\\(`, 'g');
}

/** The dataclass argument of each HfArgumentParser (or TrlParser) call in a statement: its first positional argument or `dataclass_types=`. */
function parserArguments(s: string, call: RegExp): string[] {
  const out: string[] = [];
  // `class TrlParser(HfArgumentParser):` defines a parser; it is not one built.
  if (/^(?:async\s+)?(?:class|def)\b/.test(s)) return out;
  for (const m of s.matchAll(call)) {
    const args = splitTop(inner(s, m.index + m[0].length - 1));
    const named = args.find((a) => /^dataclass_types\s*=/.test(a));
    const first = named ? named.replace(/^dataclass_types\s*=\s*/, '') : args.find((a) => !/^\w+\s*=/.test(a));
    if (first) out.push(first);
  }
  return out;
}

/** The classes a dataclass argument names: the members of a tuple or list, of a list assigned to a name, or the one class. */
function elements(arg: string, scope: Scope): string[] {
  const list = /^[A-Za-z_]\w*$/.test(arg) && !scope.classes.has(arg) && !scope.bound.has(arg) ? scope.lists.get(arg) : undefined;
  const text = list ?? arg;
  return /^[([]/.test(text) ? splitTop(inner(text, 0)).map((e) => e.replace(/\s+/g, '')) : [text.replace(/\s+/g, '')];
}

/** What a dotted class name stands for; `seen`, the local classes whose bases are being read (a class may shadow the one it extends). */
function resolve(name: string, scope: Scope, seen: Set<string>): Verdict {
  const parts = name.split('.');
  const last = parts[parts.length - 1];
  const head = scope.bound.get(parts[0]);
  const path = head ? [head, ...parts.slice(1)].join('.') : name;
  const root = path.split('.')[0];
  // `transformers.TrainingArguments`, or a name imported from Transformers or TRL.
  if ((head || parts.length > 1) && (root === 'transformers' || root === 'trl')) return packaged(root, path.split('.').pop()!, name);
  // A class of the program or of a module it imports, under its own name or the one it was imported as.
  const local = [parts.length === 1 ? name : undefined, last, path.split('.').pop()!].find((n) => n && scope.classes.has(n) && !seen.has(n));
  if (local) return ofClass(local, scope, seen);
  if (trainingArgumentsName(last)) return 'trainer';
  return 'unread';
}

/** A class of Transformers or TRL, by its name. */
function packaged(root: 'transformers' | 'trl', cls: string, name: string): Verdict {
  if (root === 'transformers' ? TRANSFORMERS_TRAINING_ARGUMENTS.has(cls) : TRL_TRAINING_ARGUMENTS.has(cls)) return 'trainer';
  if (root === 'trl' && trlOwn(cls)) return 'own';
  return { unknown: `its HfArgumentParser is given \`${name}\` of ${root === 'trl' ? 'TRL' : 'Transformers'}, which Shardwise does not know to be a TrainingArguments or not${cls === 'PPOConfig' ? ' (TRL\'s PPOConfig is one from TRL 0.12.0 on)' : ''}` };
}

/** A local class: a TrainingArguments when a base is, the program's own when every base is. */
function ofClass(cls: string, scope: Scope, seen: Set<string>): Verdict {
  const inside = new Set(seen).add(cls);
  let unknown: Verdict | undefined;
  for (const base of scope.classes.get(cls) ?? []) {
    if (base === 'object' || !MODULE_NAME.test(base)) {
      if (base !== 'object') unknown ??= { unknown: `\`${cls}\` derives from \`${base}\`, which Shardwise does not read` };
      continue;
    }
    const v = resolve(base, scope, inside);
    if (v === 'trainer') return 'trainer';
    if (v === 'unread') unknown ??= { unknown: `\`${cls}\` derives from \`${base}\`, whose class is in no file read here` };
    else if (v !== 'own') unknown ??= v;
  }
  return unknown ?? 'own';
}
