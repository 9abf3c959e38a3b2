/**
 * Bounded work and safe output: what a hostile or generated file, or a cloned repository's
 * settings, can make the engine do. Each case is one that used to hang, crash or echo raw input.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyze, complete, hover, parseProjectConfig } from '../../server/src/engine';
import { MAX_DOCUMENTS, MAX_LINES_AND_ITEMS, MAX_VALUES } from '../../server/src/engine/analyze';
import { divisors } from '../../server/src/engine/plan/layout';
import { moeLayerCount } from '../../server/src/engine/plan/memory';
import { associationProblem, boundedSettings, DEFAULT_MAX_FILE_SIZE, REPOSITORY_FLAG_LIMITS } from '../../server/src/engine/settings';
import { escapeControls, LineIndex } from '../../server/src/engine/text';

const accelerate = 'distributed_type: MULTI_GPU\nnum_processes: 8\n';

test('a forced format that does not fit the file is a finding at the directive, and nothing throws', () => {
  for (const text of ['# shardwise: format=megatron-args\nfoo\n', '# shardwise: format=megatron-args\n- 1\n- 2\n', '# shardwise: format=megatron-args\nMODEL_ARGS=(--num-layers 2)\n']) {
    const a = analyze({ path: 'x.yaml', text });
    assert.deepEqual(a.findings.map((f) => [f.code, f.severity]), [['parse-error', 'warning']]);
    assert.match(a.findings[0].message, /format=megatron-args` names a format read from shell scripts, but this file is read as YAML/);
    assert.equal(text.slice(a.findings[0].span.start, a.findings[0].span.end), 'format=megatron-args');
    for (let o = 0; o <= text.length; o++) (hover(a, o), complete(a, o));
  }
  const unknown = analyze({ path: 'x.yaml', text: '# shardwise: format=megatorn\n' + accelerate });
  assert.match(unknown.findings[0]?.message ?? '', /names no format Shardwise knows \(accelerate, deepspeed/);
});

test('a claimed file with more values than the work budget gets one finding instead of an analysis', () => {
  const keys = Array.from({ length: MAX_VALUES / 2 + 1 }, (_, i) => `kk${i}: {a: 1}\n`).join('');
  // Thousands of keys Accelerate does not know are not an Accelerate config by content: the directive claims the file.
  const claimed = '# shardwise: format=accelerate\n' + accelerate;
  const a = analyze({ path: 'big.yaml', text: claimed + keys });
  assert.equal(a.findings.length, 1);
  assert.match(a.findings[0].message, new RegExp(`holds more than ${MAX_VALUES.toLocaleString('en-US')} keys, flags and sections; .* is not analysed \\(a work budget`));
  // Just under the budget, it is analysed (the unknown keys are reported, up to the per-rule cap).
  const under = analyze({ path: 'ok.yaml', text: claimed + keys.split('\n').slice(0, 1000).join('\n') + '\n' });
  assert.ok(under.findings.filter((f) => f.code === 'unknown-key').length >= 200);
  // A file no format claims is not ours, however large.
  assert.deepEqual(analyze({ path: 'data.yaml', text: keys }).findings, []);
});

test('aliases of one anchor are resolved in one pass: 15,000 of them are cut by the alias budget, not by time', () => {
  const text = 'a: &x {distributed_type: FSDP, num_processes: 2, mixed_precision: bf16}\nb:\n' + '  - *x\n'.repeat(15_000);
  const a = analyze({ path: 'a.yaml', text });
  assert.equal(a.findings.length, 1);
  assert.match(a.findings[0].message, /Aliases expand this document/);
  // The nearest anchor before an alias is the one it means, as YAML says.
  const b = analyze({ path: 'c.yaml', text: 'num_processes: &n 2\nnum_machines: *n\nmachine_rank: &n 0\nmain_process_port: *n\ndistributed_type: MULTI_GPU\n' });
  assert.deepEqual(b.docs[0].doc.value([]), { num_processes: 2, num_machines: 2, machine_rank: 0, main_process_port: 0, distributed_type: 'MULTI_GPU' });
});

test('a file too large to parse is said to be so in one finding, only when it begins as a config', () => {
  const lines = MAX_LINES_AND_ITEMS + 10;
  const config = accelerate + 'commands:\n' + '  - echo step\n'.repeat(lines);
  const a = analyze({ path: 'pod.yaml', text: config });
  assert.deepEqual(a.findings.map((f) => f.code), ['parse-error']);
  assert.match(a.findings[0].message, /holds more than 20,000 lines and list items; no real config does, so it is not analysed/);
  assert.deepEqual(a.findings[0].span, { start: 0, end: a.lines.lineEnd(0) });
  // The same number of commas on one line.
  const json = analyze({ path: 'ds_config.json', text: `{"train_batch_size": 8, "zero_optimization": {"stage": 3}, "x": [${'1,'.repeat(lines)}1]}` });
  assert.match(json.findings[0]?.message ?? '', /more than 20,000 lines and list items/);
  // Over the size limit: its size and how to raise the limit.
  const long = analyze({ path: 'pod.yaml', text: accelerate + `main_training_function: ${'a'.repeat(DEFAULT_MAX_FILE_SIZE)}\n` });
  assert.match(long.findings[0]?.message ?? '', /^This file is 1\.0 MB; files over 1 MB are not analysed \(`--max-file-size` .* `shardwise\.maxFileSizeKB` setting raise the limit\)/);
  // A large file of data (a tokenizer, golden values) is not a config: nothing is said.
  assert.deepEqual(analyze({ path: 'tokenizer.json', text: `{"model": {"vocab": [${'"t",'.repeat(lines)}"t"]}}` }).findings, []);
  assert.deepEqual(analyze({ path: 'values.yaml', text: '- 1\n'.repeat(lines) }).findings, []);
  // Raised by the user's settings, the limits let the file through: the list is analysed to its end.
  const raised = analyze({ path: 'pod.yaml', text: config + 'mixed_precision: no\n' }, { maxFileSize: 4 * DEFAULT_MAX_FILE_SIZE });
  assert.deepEqual(raised.findings.map((f) => f.code), ['yaml-boolean-trap']);
  // A file's own directives cannot raise it.
  assert.deepEqual(analyze({ path: 'pod.yaml', text: '# shardwise: max_file_size=99999999\n' + config }).findings.map((f) => f.code), ['parse-error']);
});

test('a stream of more documents than the budget is analysed up to it and says so once', () => {
  const text = Array.from({ length: MAX_DOCUMENTS + 5 }, () => accelerate).join('---\n');
  const a = analyze({ path: 's.yaml', text });
  assert.equal(a.docs.length, MAX_DOCUMENTS);
  const notes = a.findings.filter((f) => new RegExp(`YAML documents; the first ${MAX_DOCUMENTS} are analysed`).test(f.message));
  assert.equal(notes.length, 1);
});

test('disable-next-line directives are matched to their lines in one pass', () => {
  const text = accelerate + Array.from({ length: 3000 }, (_, i) => `# shardwise-disable-next-line unknown-key\n# another comment\nk${i}: 1\n`).join('');
  const a = analyze({ path: 'd.yaml', text });
  assert.deepEqual(a.findings.filter((f) => f.code === 'unknown-key'), []);
  assert.equal(a.directives.disableLines.size, 3000);
  assert.ok(a.directives.disableLines.has(2 + 2));
});

test('settings from outside the file are bounded before any estimate uses them', () => {
  const hostile = boundedSettings({ model: { hidden: 1, heads: 99_999_999_999, layers: 2 }, gpusPerNode: 1e12, nvlinkDomain: -1, seqLength: Number.NaN, worldSize: 8, associations: { 'a{1..100000}.yaml': 'accelerate', '*.yaml': 'accelerate' } });
  assert.deepEqual(hostile, { worldSize: 8, associations: { '*.yaml': 'accelerate' } });
  const a = analyze({ path: 'm.yaml', text: 'distributed_type: MEGATRON_LM\nnum_processes: 8\nmegatron_lm_config:\n  megatron_lm_tp_degree: 2\n' }, { model: { hidden: 1, heads: 99_999_999_999, layers: 2 } });
  assert.ok(a.docs[0].plan);
  assert.equal(a.docs[0].plan!.model, undefined);
  const project = parseProjectConfig('gpus_per_node: 100000\nmodel: {layers: 2, hidden: 1, heads: 99999999999}\nassociations:\n  "x{1..100000}.yaml": accelerate\n  "{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}.yaml": nemo\n');
  assert.deepEqual(project.settings.gpusPerNode, undefined);
  assert.deepEqual(project.settings.model, undefined);
  assert.deepEqual(project.settings.associations, {});
  assert.equal(project.problems.length, 4);
  assert.match(project.problems.join('\n'), /`gpus_per_node` must be a positive integer no larger than 1024/);
  assert.match(project.problems.join('\n'), /expands to more than 64 patterns/);
  assert.equal(associationProblem('configs/{a,b}/*.yaml'), undefined);
  assert.match(associationProblem('x'.repeat(600)) ?? '', /longer than 512/);
});

test('an association glob whose matching time would explode is refused with why, and a file name cannot stall the analysis through one', () => {
  // Nested extended globs made matching exponential in the name's length (28 s for 31 characters).
  assert.match(associationProblem('*(*(*)))b') ?? '', /extended glob patterns/);
  assert.match(associationProblem('+(a|b).yaml') ?? '', /extended glob patterns/);
  assert.match(associationProblem('*a*a*a*a*b') ?? '', /5 wildcards/);
  assert.equal(associationProblem('**/configs/*_ds_*.json'), undefined, 'what file associations write stays allowed');
  const project = parseProjectConfig('associations:\n  "*(*(*)))b": accelerate\n  "deep/*.yaml": deepspeed\n');
  assert.deepEqual(project.settings.associations, { 'deep/*.yaml': 'deepspeed' });
  assert.match(project.problems.join('\n'), /\*\(\*\(\*\)\)\)b.*extended glob patterns/);
  // Handed to the engine directly (a client's settings), the pattern matches nothing and costs nothing.
  const name = `${'a'.repeat(40)}.yaml`;
  const started = process.hrtime.bigint();
  const a = analyze({ path: name, text: 'distributed_type: MULTI_GPU\nnum_processes: 2\n' }, { associations: { '*(*(*)))b': 'accelerate', '*a*a*a*a*a*a*a*a*b': 'nemo' } });
  assert.ok(Number(process.hrtime.bigint() - started) / 1e9 < 5, 'the analysis stalled on the pattern');
  assert.equal(a.docs[0].format?.id, 'accelerate', 'read by its content, as without the patterns');
});

test('a repository index as a setting is used only when every part is well-formed and within bounds', () => {
  const good = { flags: ['--my-flag', '-k'], files: 3, withParsers: 1, parsers: ['pkg/args.py'], complete: true, root: '/repo' };
  assert.equal(boundedSettings({ repositoryFlags: good }).repositoryFlags, good);
  const wrong: unknown[] = [
    { ...good, flags: ['--ok', 'not a flag'] },
    { ...good, flags: ['--\u001b[31mred'] },
    { ...good, flags: Array.from({ length: REPOSITORY_FLAG_LIMITS.flags + 1 }, (_, i) => `--f${i}`) },
    { ...good, flags: ['--' + 'a'.repeat(REPOSITORY_FLAG_LIMITS.flagLength)] },
    { ...good, files: -1 },
    { ...good, withParsers: 1.5 },
    { ...good, complete: 'yes' },
    { ...good, parsers: 'pkg/args.py' },
    { ...good, incomplete: 'x'.repeat(REPOSITORY_FLAG_LIMITS.text + 1) },
    ['--my-flag'],
    '--my-flag',
  ];
  for (const r of wrong) assert.equal(boundedSettings({ repositoryFlags: r as never }).repositoryFlags, undefined, JSON.stringify(r).slice(0, 80));
  // Such a setting is ignored: the flag is judged as if no repository had been searched.
  const text = '# shardwise: format=megatron-yaml world_size=1\nMODEL_ARGS:\n  --num-layers: 4\n  --my-flag: 1\n';
  assert.deepEqual(analyze({ path: 'm.yaml', text }, { repositoryFlags: good }).findings.map((f) => f.code), []);
  assert.deepEqual(analyze({ path: 'm.yaml', text }, { repositoryFlags: wrong[0] as never }).findings.map((f) => f.code), ['unknown-key']);
});

test('divisors and MoE layer counts are computed without a loop over the number itself', () => {
  for (let n = 1; n <= 3000; n++) {
    const naive: number[] = [];
    for (let d = 1; d <= n; d++) if (n % d === 0) naive.push(d);
    assert.deepEqual(divisors(n), naive);
  }
  assert.deepEqual(divisors(2 ** 31 - 1), [1, 2 ** 31 - 1]);
  assert.deepEqual(divisors(99_999_999_999), []);
  assert.deepEqual(divisors(0), []);
  for (const [layers, freq, first] of [[61, 1, 3], [48, 2, 0], [10, 3, 4], [1, 1, 0], [5, 1, 9], [24, 4, 1]]) {
    let loop = 0;
    for (let i = 0; i < layers; i++) if (i >= first && i % freq === 0) loop++;
    assert.equal(moeLayerCount(layers, freq, first), loop, `${layers} layers, freq ${freq}, first ${first}`);
  }
  assert.equal(moeLayerCount(1e15, 1, 0), 1e15);
});

test('control characters and escape sequences from a file are escaped in messages and hovers', () => {
  const text = 'distributed_type: MULTI_GPU\nnum_processes: 8\n"\\e[31mred\\u202e\\x9b2J": 1\n';
  const a = analyze({ path: 'e.yaml', text });
  const f = a.findings.find((x) => x.code === 'unknown-key');
  assert.ok(f, 'the hostile key is reported');
  assert.match(f.message, /\\x1b\[31mred\\u202e\\x9b2J/);
  assert.doesNotMatch(f.message, /[\u001b\u009b\u202e]/);
  for (const fix of f.fixes()) assert.doesNotMatch(fix.title, /[\u001b\u009b\u202e]/);
  assert.equal(escapeControls('tab\there\nnew', true), 'tab\\there\nnew');
  assert.equal(escapeControls('emoji 😀 stays'), 'emoji 😀 stays');
  assert.equal(escapeControls('lone \ud800 surrogate'), 'lone \\ud800 surrogate');
});

test('positions never fall inside a line break, and CR-only text keeps its line ends', () => {
  const crlf = new LineIndex('a: 1\r\nb: 2\r\n');
  assert.deepEqual(crlf.position(5), { line: 0, character: 4 });
  assert.deepEqual(crlf.position(6), { line: 1, character: 0 });
  const cr = new LineIndex('a: 1\rb: 2\r');
  assert.equal(cr.lineCount, 3);
  assert.equal(cr.eol, '\r');
  assert.deepEqual(cr.position(7), { line: 1, character: 2 });
  // YAML takes a lone CR as a line break, as PyYAML does: the file is three keys, not a parse error.
  const a = analyze({ path: 'cr.yaml', text: 'distributed_type: FSDP\rnum_processes: 8\rfsdp_config:\r  fsdp_versoin: 2\r' });
  const typo = a.findings.find((f) => f.code === 'unknown-key');
  assert.ok(typo, a.findings.map((f) => f.code).join(', '));
  assert.equal(a.text.slice(typo.span.start, typo.span.end), 'fsdp_versoin');
});

test('a fix at the start of a file with a byte-order mark keeps the mark first and the indentation right', async () => {
  const { applyEdits } = await import('../../server/src/engine');
  const text = '\ufeffmixed_precision: fp8\nnum_processes: 1\n';
  const a = analyze({ path: 'bom.yaml', text });
  const fix = a.findings.find((f) => f.code === 'missing-distributed-type')?.fixes()[0];
  assert.ok(fix, 'a fix is offered');
  const out = applyEdits(text, fix.edits);
  assert.equal(out.charCodeAt(0), 0xfeff);
  assert.deepEqual(analyze({ path: 'bom.yaml', text: out }).findings.filter((f) => f.code === 'parse-error'), []);
  assert.match(out, /\ndistributed_type: /);
});

test('a fix never removes an anchor that an alias left in the file still uses', () => {
  const used = analyze({ path: 'a.yaml', text: 'distributed_type: XLA\nmpirun_config: &defaults\n  mpirun_hostfile: x\nfsdp_config: *defaults\n' });
  const section = used.findings.find((f) => f.code === 'irrelevant-section' && /mpirun_config/.test(f.message));
  assert.ok(section, 'the ignored section is reported');
  assert.deepEqual(section.fixes(), []);
  const unused = analyze({ path: 'b.yaml', text: 'distributed_type: MULTI_GPU\nnum_processes: 2\nmixed_precision: bf16\nfoo: &a 1\nbar: 2\n' });
  assert.equal(unused.findings.find((f) => /`foo`/.test(f.message))?.fixes().length, 1);
});

test('an association applies only to files of a syntax its format reads', () => {
  for (const [path, text] of [['script', 'r'], ['x.yaml', 'foo\n'], ['x.json', '[1]']]) {
    const a = analyze({ path, text }, { associations: { '*': 'megatron-args' } });
    assert.equal(a.docs[0].format, undefined, path);
    for (let o = 0; o <= text.length; o++) (hover(a, o), complete(a, o));
  }
  const sh = analyze({ path: 'run.sh', text: 'torchrun pretrain_gpt.py --tensor-model-parallel-size 2\n' }, { associations: { '*': 'megatron-args' } });
  assert.equal(sh.docs[0].format?.id, 'megatron-args');
});

test('referrers are bounded by their size as well as their number: two huge ones do not make every analysis slow', async () => {
  const { boundedReferrers, REFERRER_LIMITS } = await import('../../server/src/engine/analyze');
  const small = Array.from({ length: 23 }, (_, i) => ({ path: `/p/a${i}.yaml`, text: 'distributed_type: DEEPSPEED\n' }));
  const huge = [{ path: '/p/big1.yaml', text: 'x'.repeat(382_000) }, { path: '/p/big2.yaml', text: 'x'.repeat(300_000) }];
  const kept = boundedReferrers([huge[0], ...small.slice(0, 10), huge[1], ...small.slice(10)]);
  assert.ok(kept.length <= REFERRER_LIMITS.count);
  assert.ok(kept.reduce((n, r) => n + r.text.length, 0) <= REFERRER_LIMITS.chars);
  assert.ok(kept.some((r) => r.path === '/p/big2.yaml') && !kept.some((r) => r.path === '/p/big1.yaml'), 'the smaller ones first, as many as fit');
  assert.deepEqual(boundedReferrers(small.slice(0, 5)), small.slice(0, 5), 'small ones are all kept, in order');
});

test('a host time budget spent mid-analysis stops the rules there and says which did not run; a fresh budget per analysis', () => {
  const text = 'compute_environment: LOCAL_MACHINE\ndistributed_type: MULTI_GPU\nmixed_precision: no\nnum_processes: 2\nfsdp_config:\n  fsdp_versoin: 2\n';
  const full = analyze({ path: 'a.yaml', text });
  assert.ok(full.findings.some((f) => f.code === 'yaml-boolean-trap'));
  // Each analysis asks for its own budget; this one is spent after three rules.
  let budgets = 0;
  const budget = () => {
    budgets++;
    let asked = 0;
    return () => (++asked > 3 ? 'it ran for 10.5 s, past the 10 s budget of the editor' : undefined);
  };
  const cut = analyze({ path: 'a.yaml', text, budget }, {});
  assert.equal(budgets, 1);
  const stopped = cut.findings.find((f) => /^The analysis stopped: it ran for 10\.5 s/.test(f.message));
  assert.ok(stopped, cut.findings.map((f) => f.message).join('\n'));
  assert.equal(stopped.code, 'parse-error');
  assert.equal(stopped.severity, 'warning');
  assert.match(stopped.message, /\d+ rules did not run here \(`[a-z-]+`, .*\), so a mistake they catch may be missing/);
  assert.ok(cut.findings.length - 1 < full.findings.length, 'fewer findings than the whole analysis');
  // A budget never spent changes nothing.
  const ample = analyze({ path: 'a.yaml', text, budget: () => () => undefined }, {});
  assert.deepEqual(ample.findings.map((f) => f.code), full.findings.map((f) => f.code));
});

test('timeBudget: each analysis starts its own clock; the reason names the time spent and whose budget it was', async () => {
  const { timeBudget } = await import('../../server/src/host/budget');
  let t = 1000;
  const budget = timeBudget(10_000, 'the editor', () => t);
  const first = budget();
  t += 9_000;
  assert.equal(first(), undefined);
  t += 1_500;
  assert.equal(first(), 'it ran for 10.5 s, past the 10 s budget of the editor');
  // A later analysis (a fix's check) has the whole budget again.
  const second = budget();
  assert.equal(second(), undefined);
});
