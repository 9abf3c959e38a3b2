/**
 * Suppression comments in the editor and in `--fix`: completion and hover of rule ids, and
 * `unused-suppression` (a suppression that silences nothing, or an id that names no rule) with
 * its fixes.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { analyze, applyEdits, codeActions, complete, fixText, hover, ruleById, type EngineSettings, type FileAnalysis, type Finding } from '../../server/src/engine';
import { commentStarts } from '../../server/src/engine/directives';
import { ruleDocsUrl } from '../../server/src/engine/docs';

const HEAD = 'distributed_type: MULTI_GPU\nnum_processes: 2\n';

function unused(text: string, settings: EngineSettings = {}, path = 'config.yaml'): Finding[] {
  return analyze({ path, text }, settings).findings.filter((f) => f.code === 'unused-suppression');
}

/** The text after the finding's one fix (the fix titled like `title`, when given). */
function fixed(text: string, f: Finding, title?: string): string {
  const fixes = f.fixes().filter((x) => !title || x.title.includes(title));
  assert.equal(fixes.length, 1, `fixes: ${f.fixes().map((x) => x.title).join(' | ')}`);
  assert.equal(fixes[0].applicability, 'safe');
  return applyEdits(text, fixes[0].edits);
}

function spanText(a: FileAnalysis | string, f: Finding): string {
  return (typeof a === 'string' ? a : a.text).slice(f.span.start, f.span.end);
}

// --- completion ---------------------------------------------------------------------------------

test('completion after `# shardwise-disable-next-line `: every rule id, with its summary, those with a finding on the next line first', () => {
  const text = `${HEAD}# shardwise-disable-next-line \nmixed_precision: no\n`;
  const at = text.indexOf('next-line ') + 'next-line '.length;
  const a = analyze({ path: 'c.yaml', text });
  const items = complete(a, at);
  const trap = items.find((i) => i.label === 'yaml-boolean-trap');
  assert.ok(trap, items.map((i) => i.label).join(', '));
  assert.equal(trap.detail, ruleById('yaml-boolean-trap')!.docs.summary);
  assert.match(trap.documentation!, new RegExp(ruleDocsUrl('yaml-boolean-trap').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  assert.match(trap.documentation!, /Default severity: \*\*error\*\*/);
  assert.deepEqual(trap.replace, { start: at, end: at });
  assert.equal(trap.insertText, 'yaml-boolean-trap');
  // The finding on the next line sorts first; a DeepSpeed rule sorts after the Accelerate ones.
  const sorted = [...items].sort((x, y) => x.sortText.localeCompare(y.sortText));
  assert.equal(sorted[0].label, 'yaml-boolean-trap');
  const rank = (id: string) => sorted.findIndex((i) => i.label === id);
  assert.ok(rank('missing-num-processes') < rank('zero3-init-without-stage3'));
  assert.ok(items.length >= 60);
});

test('completion of a rule id after a comma replaces the word typed and leaves out the ids already listed', () => {
  const text = `${HEAD}mixed_precision: no  # shardwise-disable-line unknown-key, yaml-b\n`;
  const at = text.indexOf('yaml-b') + 'yaml-b'.length;
  const items = complete(analyze({ path: 'c.yaml', text }), at);
  const trap = items.find((i) => i.label === 'yaml-boolean-trap')!;
  assert.deepEqual(trap.replace, { start: at - 'yaml-b'.length, end: at });
  assert.ok(!items.some((i) => i.label === 'unknown-key'), 'unknown-key is listed already');
  // Between the comma and the next id, at the first id, too.
  const mid = text.indexOf('unknown-key') + 3;
  const first = complete(analyze({ path: 'c.yaml', text }), mid);
  assert.deepEqual(first.find((i) => i.label === 'unknown-key')?.replace, { start: mid - 3, end: mid - 3 + 'unknown-key'.length });
});

test('completion of the directive word after `# shardwise-`, and nothing in the reason after ` -- `', () => {
  const text = `${HEAD}# shardwise-dis\nmixed_precision: 'no'  # shardwise-disable-line unknown-key -- reason\n`;
  const a = analyze({ path: 'c.yaml', text });
  const words = complete(a, text.indexOf('# shardwise-dis') + '# shardwise-dis'.length);
  assert.deepEqual(words.map((w) => w.label), ['shardwise-disable-next-line', 'shardwise-disable-line', 'shardwise-disable']);
  assert.equal(text.slice(words[0].replace.start, words[0].replace.end), 'shardwise-dis');
  assert.deepEqual(complete(a, text.indexOf('reason') + 2), []);
  // Right after the directive's word, before any space: no rule ids run into the word.
  assert.deepEqual(complete(a, text.indexOf('-disable-line') + '-disable-line'.length).filter((i) => i.label === 'unknown-key'), []);
});

test('completion of rule ids in a launch script comment', () => {
  const text = '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\n# shardwise-disable \ntorchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 2 --bf16\n';
  const at = text.indexOf('disable ') + 'disable '.length;
  const items = complete(analyze({ path: 'train.sh', text }), at);
  assert.ok(items.some((i) => i.label === 'tp-exceeds-nvlink-domain'));
});

test('JSON has no comments: no rule id completion or hover in a string that looks like one', () => {
  // On its own line: the first line's hover says what the file was read as.
  const text = '{\n  "train_batch_size": 8,\n  "note": "# shardwise-disable-next-line "\n}\n';
  const a = analyze({ path: 'ds.json', text });
  const at = text.indexOf('next-line ') + 'next-line '.length;
  assert.ok(!complete(a, at).some((i) => i.label === 'unknown-key'));
  assert.equal(hover(a, text.indexOf('disable-next')), undefined);
});

// --- hover --------------------------------------------------------------------------------------

test('hover on a rule id in a suppression: its summary, default severity and documentation link', () => {
  const text = `${HEAD}# shardwise-disable-next-line unknown-key, yaml-boolean-trap\nmixed_precision: no\n`;
  const a = analyze({ path: 'c.yaml', text });
  const at = text.indexOf('yaml-boolean-trap') + 4;
  const h = hover(a, at)!;
  assert.ok(h, 'a hover');
  assert.equal(text.slice(h.span.start, h.span.end), 'yaml-boolean-trap');
  assert.ok(h.markdown.startsWith('**yaml-boolean-trap**'), h.markdown);
  assert.ok(h.markdown.includes(ruleById('yaml-boolean-trap')!.docs.summary));
  assert.ok(h.markdown.includes(`(${ruleDocsUrl('yaml-boolean-trap')})`));
  const word = hover(a, text.indexOf('disable-next') + 3)!;
  assert.equal(text.slice(word.span.start, word.span.end), 'shardwise-disable-next-line');
  assert.match(word.markdown, /on the next line/);
});

test('hover on an unknown rule id says so, with the ids it may mean', () => {
  const text = `${HEAD}mixed_precision: 'no'  # shardwise-disable-line yaml-bolean-trap\n`;
  const h = hover(analyze({ path: 'c.yaml', text }), text.indexOf('bolean'))!;
  assert.match(h.markdown, /`yaml-bolean-trap` is not a Shardwise rule id/);
  assert.match(h.markdown, /Did you mean `yaml-boolean-trap`/);
});

// --- unknown rule ids ---------------------------------------------------------------------------

test('an unknown rule id is reported with a did-you-mean, and a safe fix when exactly one id is close', () => {
  const text = `${HEAD}flux_capacitor: 1  # shardwise-disable-line unknown-kye\n`;
  const [f] = unused(text);
  assert.equal(f.severity, 'warning');
  assert.equal(spanText(text, f), 'unknown-kye');
  assert.match(f.message, /`unknown-kye` is not a Shardwise rule id.*Did you mean `unknown-key`\?/);
  const fix = f.fixes()[0];
  assert.ok(fix.recommended && fix.preferred, 'the corrected id silences the finding on its line: fix-all applies it');
  assert.equal(fixed(text, f), text.replace('unknown-kye', 'unknown-key'));
  assert.deepEqual(analyze({ path: 'c.yaml', text: fixed(text, f) }).findings, []);
});

test('an unknown id two rule ids are close to gets no fix; one no id is close to says where a reason goes', () => {
  const text = `${HEAD}# shardwise-disable-next-line fp-config-invalid\nmixed_precision: 'no'  # shardwise-disable-line because it is fine\n`;
  const found = unused(text);
  const two = found.find((f) => spanText(text, f) === 'fp-config-invalid')!;
  assert.match(two.message, /Did you mean `fp8-config-invalid`, `ddp-config-invalid` or `fsdp-config-invalid`\?/);
  assert.deepEqual(two.fixes(), []);
  const words = found.filter((f) => ['because', 'it', 'is', 'fine'].includes(spanText(text, f)));
  assert.equal(words.length, 4);
  assert.match(words[0].message, /a reason for the suppression goes after ` -- `/);
  assert.deepEqual(words[0].fixes(), []);
  // With the reason after ` -- `, nothing is reported about it.
  assert.deepEqual(unused(`${HEAD}mixed_precision: no  # shardwise-disable-line yaml-boolean-trap -- PyYAML reads False, we want it\n`), []);
});

test('a corrected id that would silence nothing either is offered, not applied by fix-all', () => {
  const text = `${HEAD}# shardwise-disable-next-line unknown-kye\nmixed_precision: 'no'\n`;
  const [f] = unused(text);
  const fix = f.fixes()[0];
  assert.equal(fix.title, 'Replace `unknown-kye` with `unknown-key`');
  assert.ok(!fix.recommended && !fix.preferred);
  assert.equal(fixText({ path: 'c.yaml', text }, {}).text, text);
});

test('an id that is no rule id never turns a suppression into one of every rule', () => {
  // `Unknown_Key` used to be dropped as no id at all, leaving "every rule".
  const text = `${HEAD}mixed_precision: no  # shardwise-disable-line Unknown_Key\n`;
  const a = analyze({ path: 'c.yaml', text });
  assert.deepEqual(a.findings.map((f) => f.code).sort(), ['unused-suppression', 'yaml-boolean-trap']);
  assert.match(a.findings.find((f) => f.code === 'unused-suppression')!.message, /Did you mean `unknown-key`/);
});

// --- unused suppressions: each kind, and their fixes ----------------------------------------------

test('unused next-line suppression: the comment line goes, with its line break and nothing else', () => {
  const text = `${HEAD}\n  # shardwise-disable-next-line yaml-boolean-trap\nmixed_precision: 'no'   # keep this comment\n`;
  const [f] = unused(text);
  assert.equal(spanText(text, f), 'yaml-boolean-trap');
  assert.match(f.message, /This suppression of `yaml-boolean-trap` silences nothing: the line after it has no `yaml-boolean-trap` finding\. Remove it/);
  assert.equal(fixed(text, f), `${HEAD}\nmixed_precision: 'no'   # keep this comment\n`);
});

test('unused same-line suppression: only the trailing comment and the blanks before it go', () => {
  const text = `${HEAD}mixed_precision: 'no'  # shardwise-disable-line yaml-boolean-trap\nuse_cpu: false\n`;
  const [f] = unused(text);
  assert.match(f.message, /its line has no `yaml-boolean-trap` finding/);
  assert.equal(fixed(text, f), `${HEAD}mixed_precision: 'no'\nuse_cpu: false\n`);
});

test('unused whole-file suppression, with and without ids, as the last line without a line break', () => {
  const withIds = `${HEAD}# shardwise-disable unknown-key`;
  const [f] = unused(withIds);
  assert.match(f.message, /this file has no `unknown-key` finding/);
  assert.equal(fixed(withIds, f), HEAD.slice(0, -1));
  const all = `# shardwise-disable\n${HEAD}`;
  const [g] = unused(all);
  assert.equal(spanText(all, g), '# shardwise-disable');
  assert.match(g.message, /\(every rule\) silences nothing: this file has no finding/);
  assert.equal(fixed(all, g), HEAD);
});

test('a list with one unused id: only that id is removed, the separator kept', () => {
  const text = `${HEAD}# shardwise-disable-next-line unknown-key, yaml-boolean-trap, missing-num-processes\nmixed_precision: no\n`;
  const found = unused(text);
  assert.equal(found.length, 1);
  assert.equal(spanText(text, found[0]), 'unknown-key, yaml-boolean-trap, missing-num-processes');
  assert.match(found[0].message, /of `unknown-key` and `missing-num-processes` silences nothing/);
  assert.equal(fixed(text, found[0]), text.replace('unknown-key, yaml-boolean-trap, missing-num-processes', 'yaml-boolean-trap'));
  const spaced = `${HEAD}mixed_precision: no  # shardwise-disable-line unknown-key yaml-boolean-trap\n`;
  const [g] = unused(spaced);
  assert.equal(spanText(spaced, g), 'unknown-key');
  assert.equal(fixed(spaced, g), spaced.replace('unknown-key yaml-boolean-trap', 'yaml-boolean-trap'));
});

test('suppressions that silence a finding are not reported, whatever their kind', () => {
  const text = `# shardwise-disable unknown-key\n${HEAD}# shardwise-disable-next-line yaml-boolean-trap\nmixed_precision: no\ngpu_ids: 0  # shardwise-disable-line yaml-boolean-trap\nflux_capacitor: 1\n`;
  assert.deepEqual(analyze({ path: 'c.yaml', text }).findings, []);
  const script = '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\n# shardwise-disable-next-line unknown-key\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --tensor-model-parallel-size 2 \\\n    --tensor-model-paralel-size 2 \\\n    --bf16\n';
  assert.deepEqual(unused(script, {}, 'train.sh'), []);
  assert.ok(!analyze({ path: 'train.sh', text: script }).findings.some((f) => f.code === 'unknown-key'));
});

test('an unused suppression in a launch script is removed; one whose removal would join two lines is not offered', () => {
  const script = '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\n# shardwise-disable-next-line unknown-key\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --tensor-model-parallel-size 2 \\\n    --bf16\n';
  const [f] = unused(script, {}, 'train.sh');
  assert.equal(fixed(script, f), script.replace('# shardwise-disable-next-line unknown-key\n', ''));
  // Under a line that a `\\` continues, the comment line ends the command: removing it would join the next line to it.
  const joined = '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 2 --bf16 \\\n# shardwise-disable-next-line unknown-key\necho done\n';
  const g = unused(joined, {}, 'train.sh');
  assert.equal(g.length, 1, 'reported');
  assert.deepEqual(g[0].fixes(), []);
});

test('a rule turned off in the settings: its suppressions are not reported', () => {
  const text = `${HEAD}# shardwise-disable-next-line yaml-boolean-trap\nmixed_precision: 'no'\n`;
  assert.equal(unused(text).length, 1);
  assert.deepEqual(unused(text, { rules: { 'yaml-boolean-trap': 'off' } }), []);
  // And the rule itself can be turned off, or its severity lowered.
  assert.deepEqual(unused(text, { rules: { 'unused-suppression': 'off' } }), []);
  assert.equal(unused(text, { rules: { 'unused-suppression': 'hint' } })[0].severity, 'hint');
});

test('reports of unused suppressions are silenced by a suppression naming unused-suppression, or of every rule that silenced something, never by an unused one', () => {
  const stale = '# shardwise-disable-next-line yaml-boolean-trap\nmixed_precision: \'no\'\n';
  assert.deepEqual(unused(`# shardwise-disable unused-suppression\n${HEAD}${stale}`), []);
  assert.deepEqual(unused(`${HEAD}# shardwise-disable-next-line yaml-boolean-trap, unused-suppression\nmixed_precision: 'no'\n`), []);
  // A suppression of every rule in the file that silenced a finding silences these reports too.
  assert.deepEqual(analyze({ path: 'c.yaml', text: `# shardwise-disable\n${HEAD}${stale}gpu_ids: 0\n` }).findings, []);
  // One that silenced nothing is itself reported, and silences nothing.
  const both = unused(`# shardwise-disable\n${HEAD}${stale}`);
  assert.equal(both.length, 2);
});

test('no unused report where the rules did not all run: a parse error, no known format, a comment-like text in a string, block scalar or here-document', () => {
  assert.deepEqual(unused(`${HEAD}# shardwise-disable-next-line yaml-boolean-trap\nmixed_precision: 'no'\nbroken: [1, 2\n`).filter((f) => !/not a Shardwise rule id/.test(f.message)), []);
  assert.deepEqual(unused('# shardwise-disable-next-line unknown-kye\nname: ci\non: push\n', {}, 'workflow.yaml'), []);
  const block = `${HEAD}mixed_precision: 'no'\ncommands: |\n  # shardwise-disable-next-line yaml-boolean-trap\n  echo\nnote: "x # shardwise-disable-line unknown-key"\n`;
  assert.deepEqual(unused(block, { rules: { 'unknown-key': 'off' } }), []);
  const heredoc = "#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ncat > accelerate.yaml <<'EOF'\n# shardwise-disable-next-line yaml-boolean-trap\nmixed_precision: 'no'\nEOF\necho \"# shardwise-disable unknown-key\"\ntorchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 2 --bf16\n";
  assert.deepEqual(unused(heredoc, {}, 'train.sh'), []);
  // The same directive outside the here-document is a comment, and reported.
  assert.equal(unused(heredoc.replace("EOF\necho", "EOF\n# shardwise-disable-next-line yaml-boolean-trap\necho"), {}, 'train.sh').length, 1);
});

test('thousands of unknown ids: at most 200 reports, the last saying how many more', () => {
  const text = HEAD + Array.from({ length: 1000 }, (_, i) => `# shardwise-disable rule-${i}, unknown-key\n`).join('') + 'flux_capacitor: 1\n';
  const found = unused(text);
  assert.equal(found.length, 200);
  assert.match(found[found.length - 1].message, /\(800 more unknown rule ids in suppressions in this file are not shown\.\)$/);
});

// --- fix-all and --fix ------------------------------------------------------------------------------

const MESSY = [
  '# Accelerate config for the 2-GPU box',
  'distributed_type: MULTI_GPU',
  '',
  '# shardwise-disable-next-line yaml-boolean-trap',
  'num_processes: 2      # two cards',
  "mixed_precision: 'no'  # shardwise-disable-line yaml-boolean-trap, unknown-key",
  'gpu_ids: all  # shardwise-disable-line unknown-kye',
  '',
].join('\r\n');

const FIXED = ['# Accelerate config for the 2-GPU box', 'distributed_type: MULTI_GPU', '', 'num_processes: 2      # two cards', "mixed_precision: 'no'", 'gpu_ids: all', ''].join('\r\n');

test('fix-all removes every unused suppression, keeps comments, blank lines and CRLF, and the result settles', () => {
  const r = fixText({ path: 'c.yaml', text: MESSY }, {});
  // The slip of `unknown-key` is not corrected onto a line with no unknown-key finding: it is left, reported.
  assert.equal(r.text, FIXED.replace("gpu_ids: all", 'gpu_ids: all  # shardwise-disable-line unknown-kye'));
  assert.deepEqual(r.analysis.findings.map((f) => f.code), ['unused-suppression']);
  assert.equal(fixText({ path: 'c.yaml', text: r.text }, {}).text, r.text);
});

const CLI = join(__dirname, '../../dist/cli/main.js');
const tmp = mkdtempSync(join(tmpdir(), 'shardwise-supp-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

test('`shardwise check --fix` removes an unused suppression and keeps the formatting', () => {
  const file = join(tmp, 'accelerate_config.yaml');
  const text = MESSY.replace('gpu_ids: all  # shardwise-disable-line unknown-kye', 'flux_capacitor: 1  # shardwise-disable-line unknown-kye');
  writeFileSync(file, text);
  const r = spawnSync(process.execPath, [CLI, 'check', file, '--fix'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.equal(readFileSync(file, 'utf8'), FIXED.replace('gpu_ids: all', 'flux_capacitor: 1  # shardwise-disable-line unknown-key'));
});

test('"Disable unused-suppression for this line" adds the id to the suppression itself, which then is not reported', () => {
  const text = `${HEAD}# shardwise-disable-next-line yaml-boolean-trap\nmixed_precision: 'no'\n`;
  const a = analyze({ path: 'c.yaml', text });
  const [f] = a.findings;
  const action = codeActions(a, f.span).find((x) => x.title === 'Disable unused-suppression for this line')!;
  assert.ok(action, codeActions(a, f.span).map((x) => x.title).join(' | '));
  const after = applyEdits(text, action.edits!);
  assert.equal(after, text.replace('yaml-boolean-trap', 'yaml-boolean-trap, unused-suppression'));
  assert.deepEqual(analyze({ path: 'c.yaml', text: after }).findings, []);
  // A suppression of every rule has no list to add it to: only the file-wide action is offered.
  const bare = `# shardwise-disable\n${HEAD}`;
  const b = analyze({ path: 'c.yaml', text: bare });
  const titles = codeActions(b, b.findings[0].span).map((x) => x.title);
  assert.ok(!titles.includes('Disable unused-suppression for this line') && titles.includes('Disable unused-suppression for this file'), titles.join(' | '));
});

test('comments as the reader sees them: not inside YAML strings or block scalars, shell strings, parameter expansions or here-documents', () => {
  const comments = (syntax: 'yaml' | 'shell', t: string) => [...commentStarts(syntax, t)].map((o) => t.slice(o, t.indexOf('\n', o)));
  const sh = `#!/bin/bash\nX=\${Y#a} # c1\ncat <<< "$x" # c2\necho "it's # no" 'a # no' # c3\ncat <<-'EOF' # c4\n\t# no\n\tEOF\n# c5\n`;
  assert.deepEqual(comments('shell', sh), ['#!/bin/bash', '# c1', '# c2', '# c3', '# c4', '# c5']);
  const yaml = 'a: 1 # c1\nb: "x # no"\nc: |\n  # no\n  x\n# c2\nd: [1, # c3\n 2]\ne: \'# no\'\n';
  assert.deepEqual(comments('yaml', yaml), ['# c1', '# c2', '# c3']);
  assert.deepEqual(comments('yaml', yaml.replace(/\n/g, '\r')).length, 3);
});

test('"Disable for this line / file" extends an existing suppression before its reason', () => {
  const text = `# shardwise-disable unknown-key -- legacy keys\n${HEAD}# shardwise-disable-next-line unknown-key -- see the ticket\nmixed_precision: no\n`;
  const a = analyze({ path: 'c.yaml', text });
  const trap = a.findings.find((f) => f.code === 'yaml-boolean-trap')!;
  const actions = codeActions(a, trap.span);
  const line = actions.find((x) => x.title === 'Disable yaml-boolean-trap for this line')!;
  assert.equal(applyEdits(text, line.edits!), text.replace('unknown-key -- see', 'unknown-key, yaml-boolean-trap -- see'));
  const file = actions.find((x) => x.title === 'Disable yaml-boolean-trap for this file')!;
  assert.equal(applyEdits(text, file.edits!), text.replace('unknown-key -- legacy', 'unknown-key, yaml-boolean-trap -- legacy'));
});

test('a word with backticks in a suppression is quoted whole in the message and the hover', () => {
  const text = `${HEAD}mixed_precision: 'no'  # shardwise-disable-line a\`[x](http://example.com)\`\n`;
  const [f] = unused(text);
  assert.ok(f.message.startsWith('`` a`[x](http://example.com)` `` is not a Shardwise rule id'), f.message);
  const h = hover(analyze({ path: 'c.yaml', text }), text.indexOf('[x]'))!;
  assert.ok(h.markdown.startsWith('`` a`[x](http://example.com)` ``'), h.markdown);
});
