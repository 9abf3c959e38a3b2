/**
 * syntaxes/megatron-flags.injection.json: the TextMate injection grammar that highlights Megatron-LM
 * flags, entry points and launchers in shell scripts.
 *
 * VS Code runs the grammar with Oniguruma inside its shell grammar; here every regex is compiled with
 * JavaScript's RegExp (the grammar keeps to the part of Oniguruma that both accept, and a test checks
 * that) and run by a small scanner that does what vscode-textmate does with a grammar's own rules: at
 * each position the leftmost match wins, the end of the open rule first on a tie, then the rules in
 * order; a begin/end rule stays open across lines; every line is scanned with its '\n'. The host
 * grammar is not simulated: of its rules (`source.shell#...`) only stand-ins for variables and
 * quoted strings are used, and the `-comment -string` selector is checked for presence only, so
 * quoted text and comments are covered by the selector, not by these regexes. (The grammar was also
 * run through vscode-textmate + vscode-oniguruma with VS Code's shell grammar while it was written;
 * those packages are not dependencies of this repository.)
 */
import assert from 'node:assert/strict';
import { checkSync } from 'recheck';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

interface Capture {
  name?: string;
}
interface RawRule {
  include?: string;
  match?: string;
  begin?: string;
  end?: string;
  name?: string;
  comment?: string;
  captures?: Record<string, Capture>;
  beginCaptures?: Record<string, Capture>;
  endCaptures?: Record<string, Capture>;
  patterns?: RawRule[];
}
interface RawGrammar {
  scopeName: string;
  injectionSelector: string;
  patterns: RawRule[];
  repository: Record<string, RawRule>;
}

const GRAMMAR_PATH = join(__dirname, '../../syntaxes/megatron-flags.injection.json');
const grammar = JSON.parse(readFileSync(GRAMMAR_PATH, 'utf8')) as RawGrammar;

const FLAG = 'entity.other.attribute-name.flag.megatron';
const NUMBER = 'constant.numeric.megatron';
const BOOLEAN = 'constant.language.boolean.megatron';
const NULL = 'constant.language.null.megatron';
const ASSIGN = 'keyword.operator.assignment.megatron';
const ENTRY = 'entity.name.function.entry-point.megatron';
const LAUNCHER = 'support.function.launcher.megatron';
const LAUNCH_CMD = 'meta.statement.command.launcher.megatron';

/** Every regex of the grammar, with where it is. */
function allRegexes(): { where: string; source: string }[] {
  const out: { where: string; source: string }[] = [];
  for (const [name, rule] of Object.entries(grammar.repository)) {
    for (const key of ['match', 'begin', 'end'] as const) {
      const source = rule[key];
      if (source !== undefined) out.push({ where: `${name}.${key}`, source });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// A scanner for the grammar's own rules

interface Compiled {
  id: string;
  name?: string;
  match?: RegExp;
  begin?: RegExp;
  end?: RegExp;
  captures: Record<string, Capture>;
  beginCaptures: Record<string, Capture>;
  endCaptures: Record<string, Capture>;
  patterns: Compiled[];
}

const compiled = new Map<string, Compiled>();
function compileRule(id: string): Compiled {
  const hit = compiled.get(id);
  if (hit) return hit;
  const raw = grammar.repository[id];
  assert.ok(raw, `no repository rule ${id}`);
  const re = (s: string | undefined) => (s === undefined ? undefined : new RegExp(s, 'dg'));
  const c: Compiled = {
    id,
    name: raw.name,
    match: re(raw.match),
    begin: re(raw.begin),
    end: re(raw.end),
    captures: raw.captures ?? {},
    beginCaptures: raw.beginCaptures ?? raw.captures ?? {},
    endCaptures: raw.endCaptures ?? raw.captures ?? {},
    patterns: [],
  };
  compiled.set(id, c);
  c.patterns = resolve(raw.patterns ?? []);
  return c;
}
/**
 * Stand-ins for the shell grammar's rules that a launch command includes, for their one effect on
 * structure here: they consume `${...}` and quoted strings whole, so the command does not end at
 * the `{` or `}` inside them. Scopes are not modelled (unnamed).
 */
const HOST_STANDINS: Record<string, string> = {
  'source.shell#variable': '\\$(?:\\{[^}\\n]*\\}|[A-Za-z_][A-Za-z0-9_]*)',
  'source.shell#string': '"(?:[^"\\\\\\n]|\\\\.)*"|\'[^\'\\n]*\'',
};
function hostStandIn(include: string): Compiled {
  const source = HOST_STANDINS[include];
  return { id: include, match: new RegExp(source, 'dg'), captures: {}, beginCaptures: {}, endCaptures: {}, patterns: [] };
}

/** Own includes (`#rule`) resolved; the host's (`source.shell#...`) by a stand-in or left out. */
function resolve(list: RawRule[]): Compiled[] {
  return list.flatMap((p) => {
    assert.ok(p.include, 'the grammar names its rules in the repository and includes them');
    if (p.include.startsWith('#')) return [compileRule(p.include.slice(1))];
    return p.include in HOST_STANDINS ? [hostStandIn(p.include)] : [];
  });
}

interface Token {
  text: string;
  scope: string;
  line: number;
  /** Names of the begin/end rules open around the token. */
  within: string[];
}

function tokenize(text: string): Token[] {
  const top = resolve(grammar.patterns);
  const stack: Compiled[] = [];
  const tokens: Token[] = [];
  text.split('\n').forEach((lineText, line) => {
    const s = `${lineText}\n`;
    const emit = (m: RegExpExecArray, caps: Record<string, Capture>) => {
      for (const [k, cap] of Object.entries(caps)) {
        const span = m.indices?.[Number(k)];
        if (cap.name && span && span[1] > span[0]) tokens.push({ text: s.slice(span[0], span[1]), scope: cap.name, line, within: stack.map((r) => r.name ?? r.id) });
      }
    };
    let pos = 0;
    for (let guard = 0; pos <= s.length; guard++) {
      assert.ok(guard < 10_000, 'the scanner does not advance');
      const open = stack.at(-1);
      let best: { m: RegExpExecArray; rule?: Compiled; kind: 'end' | 'match' | 'begin' } | undefined;
      if (open?.end) {
        open.end.lastIndex = pos;
        const m = open.end.exec(s);
        if (m) best = { m, kind: 'end' };
      }
      for (const rule of open ? open.patterns : top) {
        const re = rule.match ?? rule.begin;
        if (!re) continue;
        re.lastIndex = pos;
        const m = re.exec(s);
        if (m && (!best || m.index < best.m.index)) best = { m, rule, kind: rule.match ? 'match' : 'begin' };
      }
      if (!best) break;
      const { m, rule, kind } = best;
      const end = m.index + m[0].length;
      if (kind === 'end') {
        emit(m, open!.endCaptures);
        stack.pop();
        pos = end;
      } else if (kind === 'begin') {
        emit(m, rule!.beginCaptures);
        stack.push(rule!);
        pos = end;
      } else {
        emit(m, rule!.captures);
        pos = end > m.index ? end : m.index + 1;
      }
    }
  });
  return tokens;
}

/** `[text, scope]` of the grammar's scoped tokens in `text`. */
const scopes = (text: string) => tokenize(text).map((t) => [t.text, t.scope]);
const withScope = (text: string, scope: string) => tokenize(text).filter((t) => t.scope === scope).map((t) => t.text);

// ---------------------------------------------------------------------------------------------
// The grammar's shape

test('the grammar is an injection into source.shell, outside comments and strings, with left priority', () => {
  assert.equal(grammar.scopeName, 'source.shell.megatron-flags');
  const sel = grammar.injectionSelector;
  assert.match(sel, /^L:/, 'left priority: its rules win over the shell grammar rules that start at the same column');
  assert.match(sel, /(^|[\s:])source\.shell(\s|$)/);
  assert.match(sel, /\s-comment(\s|$)/);
  assert.match(sel, /\s-string(\s|$)/);
  for (const p of grammar.patterns) assert.ok(p.include?.startsWith('#') && grammar.repository[p.include.slice(1)], `top-level include ${p.include}`);
  for (const [name, rule] of Object.entries(grammar.repository)) {
    assert.ok(rule.match !== undefined || (rule.begin !== undefined && rule.end !== undefined), `${name}: a match, or a begin and an end`);
    for (const p of rule.patterns ?? []) {
      const inc = p.include ?? '';
      if (inc.startsWith('#')) assert.ok(grammar.repository[inc.slice(1)], `${name} includes the missing rule ${inc}`);
      else assert.match(inc, /^source\.shell#[a-z_]+$/, `${name}: an include of the shell grammar's repository`);
    }
    for (const caps of [rule.captures, rule.beginCaptures, rule.endCaptures]) {
      for (const [k, cap] of Object.entries(caps ?? {})) {
        assert.match(k, /^\d+$/);
        assert.match(cap.name ?? '', /^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+$/, `${name}: scope name ${cap.name}`);
      }
    }
  }
});

/** Constructs Oniguruma has and JavaScript lacks or reads differently. */
function onigurumaOnly(source: string): string[] {
  const found: string[] = [];
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const e = source[i + 1];
      if (/[AGzZhHKRXOyY]/.test(e) || (e === 'p' && !inClass) || e === 'k' || e === 'g') found.push(`\\${e}`);
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      else if (c === '[') found.push('nested or POSIX character class'); // a literal '[' in JavaScript
      else if (c === '&' && source[i + 1] === '&') found.push('&& class intersection');
      continue;
    }
    if (c === '[') {
      inClass = true;
      if (source[i + 1] === '^') i++;
      if (source[i + 1] === ']') i++; // a literal ] first in the class
      continue;
    }
    if ('*+?}'.includes(c) && source[i + 1] === '+') found.push('possessive quantifier');
    if (c === '(' && source[i + 1] === '?') {
      const rest = source.slice(i + 2);
      if (!/^(:|=|!|<=|<!|<[A-Za-z])/.test(rest)) found.push(`group (?${rest.slice(0, 2)}`);
    }
  }
  return found;
}

test('every regex compiles as a JavaScript RegExp and uses no Oniguruma-only construct', () => {
  const list = allRegexes();
  assert.ok(list.length >= 6);
  for (const { where, source } of list) {
    assert.doesNotThrow(() => new RegExp(source, 'dg'), `${where} does not compile in JavaScript`);
    assert.deepEqual(onigurumaOnly(source), [], `${where}: ${source}`);
  }
  // The checker itself sees what it looks for.
  assert.deepEqual(onigurumaOnly('\\Gfoo'), ['\\G']);
  assert.deepEqual(onigurumaOnly('a++'), ['possessive quantifier']);
  assert.deepEqual(onigurumaOnly('(?>a)'), ['group (?>a']);
  assert.deepEqual(onigurumaOnly('[a-z[0-9]]'), ['nested or POSIX character class']);
  assert.deepEqual(onigurumaOnly('(?<![^\\s(])[+*](?:x)'), []);
});

test('no regex can backtrack super-linearly (ReDoS analysis of every match, begin and end)', () => {
  // An editor tokenizes every line with these; a pattern that backtracks polynomially or
  // exponentially on some line would freeze it. recheck decides this from the pattern itself.
  for (const { where, source } of allRegexes()) {
    const r = checkSync(source, '', { timeout: 600_000 }); // the analysis, not a speed check: no deadline under load
    assert.equal(r.status, 'safe', `${where} is ${r.status}${r.status === 'vulnerable' ? ` (${r.complexity.type}; attack ${JSON.stringify(r.attack.pattern)})` : ''}: ${source}`);
  }
  // The analysis itself tells a catastrophic pattern from a safe one.
  assert.equal(checkSync('^(a+)+$', '').status, 'vulnerable');
  assert.equal(checkSync('^a+$', '').status, 'safe');
});

// ---------------------------------------------------------------------------------------------
// Flags and values

test('flags and their plain values in flag arrays', () => {
  const script = [
    'GPT_MODEL_ARGS=(',
    '    --num-layers 96',
    '    --hidden-size 12288',
    '    --lr 6.0e-5',
    '    --min-lr .5',
    '    --adam-eps -1e-08',
    '    --init-method-std 0.006',
    '    --use-mcore-models',
    '    --bf16',
    '    --split 949,50,1',
    '    --data-path "$DATA_PATH"',
    '    --tokenizer-type GPT2BPETokenizer',
    '    --overlap-grad-reduce True',
    '    --log-throughput false',
    '    --load None',
    ')',
  ].join('\n');
  assert.deepEqual(scopes(script), [
    ['--num-layers', FLAG], ['96', NUMBER],
    ['--hidden-size', FLAG], ['12288', NUMBER],
    ['--lr', FLAG], ['6.0e-5', NUMBER],
    ['--min-lr', FLAG], ['.5', NUMBER],
    ['--adam-eps', FLAG], ['-1e-08', NUMBER],
    ['--init-method-std', FLAG], ['0.006', NUMBER],
    ['--use-mcore-models', FLAG],
    ['--bf16', FLAG],
    ['--split', FLAG], // 949,50,1 is a string: left to the shell grammar
    ['--data-path', FLAG],
    ['--tokenizer-type', FLAG],
    ['--overlap-grad-reduce', FLAG], ['True', BOOLEAN],
    ['--log-throughput', FLAG], ['false', BOOLEAN],
    ['--load', FLAG], ['None', NULL],
  ]);
});

test('one-line arrays, snake_case launcher flags, tabs', () => {
  assert.deepEqual(withScope('ARGS=(--bf16 --fp16)', FLAG), ['--bf16', '--fp16']);
  assert.deepEqual(withScope('DISTRIBUTED_ARGS=(--nproc_per_node $GPUS_PER_NODE --nnodes $NUM_NODES --master_port 6000)', FLAG), ['--nproc_per_node', '--nnodes', '--master_port']);
  assert.deepEqual(scopes('\t--tensor-model-parallel-size\t8'), [['--tensor-model-parallel-size', FLAG], ['8', NUMBER]]);
  assert.deepEqual(scopes('--no-load-optim'), [['--no-load-optim', FLAG]]);
});

test('the --flag=value form', () => {
  assert.deepEqual(scopes('    --seq-length=4096'), [['--seq-length', FLAG], ['=', ASSIGN], ['4096', NUMBER]]);
  assert.deepEqual(scopes('  --use-flash-attn=true --load=None'), [
    ['--use-flash-attn', FLAG], ['=', ASSIGN], ['true', BOOLEAN],
    ['--load', FLAG], ['=', ASSIGN], ['None', NULL],
  ]);
  // A value that is not a plain number, boolean or None is left to the shell grammar.
  assert.deepEqual(scopes(' --data-path=${DATA}/my-gpt3_00_text_document --lr=1e-4x --split=949,50,1'), [
    ['--data-path', FLAG], ['=', ASSIGN],
    ['--lr', FLAG], ['=', ASSIGN],
    ['--split', FLAG], ['=', ASSIGN],
  ]);
  assert.deepEqual(scopes('srun --nodes=4 --ntasks-per-node=8 bash train.sh'), [
    ['srun', LAUNCHER],
    ['--nodes', FLAG], ['=', ASSIGN], ['4', NUMBER],
    ['--ntasks-per-node', FLAG], ['=', ASSIGN], ['8', NUMBER],
  ]);
});

test('flags on continuation lines of a launch command', () => {
  const script = [
    'torchrun ${DISTRIBUTED_ARGS[@]} pretrain_gpt.py \\',
    '    ${GPT_MODEL_ARGS[@]} \\',
    '    --save $CHECKPOINT_PATH --log-interval 100 \\',
    '    --eval-iters 10',
    'echo done',
  ].join('\n');
  const toks = tokenize(script);
  assert.deepEqual(
    toks.map((t) => [t.text, t.scope, t.line]),
    [
      ['torchrun', LAUNCHER, 0],
      ['pretrain_gpt.py', ENTRY, 0],
      ['--save', FLAG, 2],
      ['--log-interval', FLAG, 2],
      ['100', NUMBER, 2],
      ['--eval-iters', FLAG, 3],
      ['10', NUMBER, 3],
    ],
  );
  // The command stays open across the backslash-newlines and closes at the end of its last line.
  for (const t of toks.slice(1)) assert.deepEqual(t.within, [LAUNCH_CMD], `${t.text} is inside the launch command`);
  assert.deepEqual(tokenize(`${script}\n--after 1`).filter((t) => t.line === 5).map((t) => t.within), [[], []]);
});

test('not flags: single dashes, dashes inside words, URLs, paths, bare --, more than two dashes', () => {
  const negatives = [
    'ls -x -la',
    'echo a--b',
    'i=$((i--))',
    'X=--foo',
    'curl https://example.com/a--b/--c',
    'cp /data/--weird ./',
    'git log -- path',
    'echo ---x ----',
    'echo --9 --_x --',
    'echo --foo.bar --foo/bar --foo,bar',
    "echo '--quoted' \"--quoted\" x'--y'",
    'a=1--2',
  ];
  for (const line of negatives) assert.deepEqual(withScope(line, FLAG), [], line);
  // Flags end at shell punctuation.
  assert.deepEqual(withScope('run --a;run --b|tee x&& run --c)', FLAG), ['--a', '--b', '--c']);
});

// ---------------------------------------------------------------------------------------------
// Entry points and launchers

test('Megatron-LM entry points, bare or at the end of a path', () => {
  for (const name of ['pretrain_gpt.py', 'pretrain_mamba.py', 'pretrain_bert.py', 'pretrain_t5.py', 'pretrain_vlm.py', 'pretrain_retro.py', 'pretrain_vision_classify.py']) {
    assert.deepEqual(withScope(`python ${name} --bf16`, ENTRY), [name], name);
  }
  assert.deepEqual(withScope('python /opt/Megatron-LM/pretrain_gpt.py', ENTRY), ['pretrain_gpt.py']);
  assert.deepEqual(withScope('python ${MEGATRON_PATH}/pretrain_mamba.py', ENTRY), ['pretrain_mamba.py']);
  assert.deepEqual(withScope('ENTRY=pretrain_t5.py', ENTRY), ['pretrain_t5.py']);
  for (const line of ['python my_pretrain_gpt.py', 'python pretrain_gpt.pyc', 'python pretrain_gpt.py.bak', 'python pretrain_.py', 'python pretrain-gpt.py', 'cat pretrain_gpt.py-log']) {
    assert.deepEqual(withScope(line, ENTRY), [], line);
  }
  // At the start of a line the shell grammar reads a command name: left to it.
  assert.deepEqual(withScope('pretrain_gpt.py --bf16', ENTRY), []);
});

test('launchers: torchrun, srun, deepspeed, python -m torch.distributed.run', () => {
  assert.deepEqual(withScope('torchrun --nproc-per-node 8 pretrain_gpt.py', LAUNCHER), ['torchrun']);
  assert.deepEqual(withScope('    srun --mpi=pmix bash -c "..."', LAUNCHER), ['srun']);
  assert.deepEqual(withScope('deepspeed --num_gpus 8 pretrain_bert.py --deepspeed --deepspeed_config ds.json', LAUNCHER), ['deepspeed']);
  assert.deepEqual(withScope('deepspeed --num_gpus 8 pretrain_bert.py --deepspeed --deepspeed_config ds.json', FLAG), ['--num_gpus', '--deepspeed', '--deepspeed_config']);
  assert.deepEqual(withScope('if true; then torchrun x.py; fi', LAUNCHER), ['torchrun']);
  assert.deepEqual(withScope('OUT=$(srun hostname)', LAUNCHER), ['srun']);
  assert.deepEqual(withScope('srun --nodes 2 torchrun --nproc-per-node 8 pretrain_gpt.py', LAUNCHER), ['srun', 'torchrun']);
  assert.deepEqual(withScope('python -m torch.distributed.run --nproc-per-node 8 pretrain_gpt.py', LAUNCHER), ['torch.distributed.run']);
  assert.deepEqual(withScope('python -m torch.distributed.launch pretrain_gpt.py', LAUNCHER), ['torch.distributed.launch']);
  for (const line of ['torchrunner x', 'cat deepspeed_config.json', 'mysrun x', './srun.sh', 'ls /opt/torchrun/', 'echo xdeepspeed', 'python -m torch.distributed.runner', 'python -m torch.distributed']) {
    assert.deepEqual(withScope(line, LAUNCHER), [], line);
  }
});

test('a launch command ends where a shell statement ends', () => {
  const ends = ['torchrun a.py; echo --x', 'torchrun a.py | tee --x', 'torchrun a.py & wait --x', 'torchrun a.py # --x in a comment', '(torchrun a.py) --x', 'torchrun a.py\n--x'];
  // (In the editor the comment's text is also kept out by the selector's -comment.)
  for (const script of ends) {
    const last = tokenize(script).at(-1);
    assert.equal(last?.text, '--x', script);
    assert.deepEqual(last?.within, [], `${JSON.stringify(script)}: --x is outside the launch command`);
  }
  // A backslash before the newline continues it.
  assert.deepEqual(tokenize('torchrun a.py \\\n--x').at(-1)?.within, [LAUNCH_CMD]);
});
