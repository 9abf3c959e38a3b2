import assert from 'node:assert/strict';
import { test } from 'node:test';
import { syntaxOf } from '../../server/src/engine/analyze';
import { parseDirectives } from '../../server/src/engine/directives';
import { parseJson } from '../../server/src/engine/syntax/json';
import { resolvePlain } from '../../server/src/engine/syntax/scalars';
import type { PathEdit } from '../../server/src/engine/syntax/sourcedoc';
import { parseYaml } from '../../server/src/engine/syntax/yaml';
import type { Node } from '../../server/src/engine/syntax/tree';
import { applyEdits, LineIndex } from '../../server/src/engine/text';

test('plain scalars resolve as PyYAML (YAML 1.1) resolves them', () => {
  const table: [string, unknown][] = [
    ['no', false], ['NO', false], ['No', false], ['off', false], ['On', true], ['yes', true], ['TRUE', true],
    ['y', 'y'], ['n', 'n'], ['nO', 'nO'],
    ['0', 0], ['010', 8], ['0x1f', 31], ['0b101', 5], ['1_000', 1000], ['1:30', 90], ['-7', -7],
    ['1e8', '1e8'], ['1.0e8', '1.0e8'], ['1.0e+8', 1e8], ['1.5', 1.5], ['.5', 0.5], ['.inf', Infinity], ['-.inf', -Infinity],
    ['~', null], ['null', null], ['NULL', null], ['', null],
    ['0,1', '0,1'], ['MULTI_GPU', 'MULTI_GPU'], ['1.13.0', '1.13.0'],
  ];
  for (const [src, want] of table) assert.deepEqual(resolvePlain(src), want, `plain ${JSON.stringify(src)}`);
  assert.ok(Number.isNaN(resolvePlain('.nan')));
});

test('quoted and tagged scalars keep their type; the tree keeps spans and styles', () => {
  const text = "a: 'no'\nb: \"0\"\nc: !!str 5\nd: !!int '7'\ne: no\n";
  const [doc] = parseYaml(text);
  assert.equal(doc.value(['a']), 'no');
  assert.equal(doc.value(['b']), '0');
  assert.equal(doc.value(['c']), '5');
  assert.equal(doc.value(['d']), 7);
  assert.equal(doc.value(['e']), false);
  const e = doc.node(['e'])!;
  assert.equal(e.kind === 'scalar' && e.style, 'plain');
  assert.equal(text.slice(e.span.start, e.span.end), 'no');
  const a = doc.entry(['a'])!;
  assert.equal(text.slice(a.keySpan.start, a.keySpan.end), 'a');
  assert.equal(doc.node(['a'])!.kind === 'scalar' && (doc.node(['a']) as { style: string }).style, 'single');
});

test('multi-document files: one SourceDoc per document, each with its own span', () => {
  const text = 'a: 1\n---\nb: 2\n---\nc: 3\n';
  const docs = parseYaml(text);
  assert.equal(docs.length, 3);
  assert.deepEqual(docs.map((d) => d.value([])), [{ a: 1 }, { b: 2 }, { c: 3 }]);
  assert.ok(docs[0].span.end <= docs[1].span.start && docs[1].span.end <= docs[2].span.start);
  assert.equal(docs[2].span.end, text.length);
});

test('aliases and merge keys resolve; own keys win over merged ones; reports point at the alias', () => {
  const text = 'base: &b\n  x: 1\n  y: 2\nuse:\n  <<: *b\n  y: 3\nref: *b\n';
  const [doc] = parseYaml(text);
  assert.deepEqual(doc.value(['use']), { x: 1, y: 3 });
  assert.deepEqual(doc.value(['ref']), { x: 1, y: 2 });
  const merged = doc.entry(['use', 'x'])!;
  assert.ok(merged.merged);
  assert.equal(text.slice(merged.keySpan.start, merged.keySpan.end), '*b');
  const own = doc.entry(['use', 'y'])!;
  assert.ok(!own.merged);
  const ref = doc.node(['ref'])!;
  assert.ok(ref.aliased);
  assert.equal(text.slice(ref.span.start, ref.span.end), '*b');
});

test('an alias bomb is cut off with a parse error instead of expanding', () => {
  let text = 'a: &a [x, x, x, x, x, x, x, x, x, x]\n';
  for (let i = 1; i < 9; i++) text += `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill('*' + String.fromCharCode(96 + i)).join(', ')}]\n`;
  const [doc] = parseYaml(text);
  assert.ok(doc.problems.some((p) => p.code === 'parse-error' && /Aliases expand/.test(p.message)));
});

test('an unknown anchor and a duplicate key are reported, not thrown', () => {
  const [doc] = parseYaml('a: *nope\nb: 1\nb: 2\n');
  assert.ok(doc.problems.some((p) => p.code === 'parse-error' && /no anchor/.test(p.message)));
  const dup = doc.problems.find((p) => p.code === 'duplicate-key')!;
  assert.equal(dup.span.start, 9);
  assert.equal(doc.value(['b']), 2);
});

test('nesting deeper than any config is refused before the parser sees it', () => {
  for (const text of ['['.repeat(5000) + ']'.repeat(5000), Array.from({ length: 400 }, (_, i) => ' '.repeat(i) + 'k:').join('\n')]) {
    const [doc] = parseYaml(text);
    assert.equal(doc.root, undefined);
    assert.match(doc.problems[0].message, /nests deeper/);
  }
  const json = parseJson('['.repeat(5000));
  assert.match(json.problems[0].message, /nests deeper/);
});

function edit(text: string, edits: PathEdit[]): string | undefined {
  const [doc] = parseYaml(text);
  const out = doc.edit(edits);
  return out && applyEdits(text, out);
}

test('YAML edits: set keeps the comment and the quoting style', () => {
  assert.equal(edit('a: 1  # one\nb: 2\n', [{ op: 'set', path: ['a'], value: 5 }]), 'a: 5  # one\nb: 2\n');
  assert.equal(edit("a: 'x'\n", [{ op: 'set', path: ['a'], value: 'y' }]), "a: 'y'\n");
  assert.equal(edit('a: x\n', [{ op: 'set', path: ['a'], value: 'NO' }]), "a: 'NO'\n");
  assert.equal(edit('a: x\n', [{ op: 'set', path: ['a'], value: '0,1' }]), 'a: 0,1\n');
  assert.equal(edit('a: [x, y]\n', [{ op: 'set', path: ['a', 0], value: '0,1' }]), "a: ['0,1', y]\n");
  assert.equal(edit('a:\nb: 1\n', [{ op: 'set', path: ['a'], value: true }]), 'a: true\nb: 1\n');
});

test('YAML edits: insert at the indentation of the section, creating parents', () => {
  const text = 'top: 1\nsec:\n    a: 1\n    b: 2  # last\nother: 3\n';
  assert.equal(edit(text, [{ op: 'set', path: ['sec', 'c'], value: 3 }]), 'top: 1\nsec:\n    a: 1\n    b: 2  # last\n    c: 3\nother: 3\n');
  assert.equal(edit(text, [{ op: 'set', path: ['new', 'x'], value: 'y' }]), 'top: 1\nsec:\n    a: 1\n    b: 2  # last\nother: 3\nnew:\n    x: y\n');
  assert.equal(edit('a: 1', [{ op: 'set', path: ['b'], value: 2 }]), 'a: 1\nb: 2');
  assert.equal(edit('s: {}\nt: 1\n', [{ op: 'set', path: ['s', 'k'], value: 1 }]), 's:\n  k: 1\nt: 1\n');
  assert.equal(edit('s: {a: 1}\n', [{ op: 'set', path: ['s', 'k'], value: 1 }]), 's: {a: 1, k: 1}\n');
  assert.equal(edit('s:\nt: 1\n', [{ op: 'set', path: ['s', 'k'], value: 1 }]), 's:\n  k: 1\nt: 1\n');
  assert.equal(edit('', [{ op: 'set', path: ['a'], value: 1 }]), 'a: 1\n');
});

test('YAML edits: remove the whole entry, or leave an explicit empty section', () => {
  const text = 'a: 1\nsec:\n  x: 1  # c\n  y:\n    deep: 2\nb: 2\n';
  assert.equal(edit(text, [{ op: 'remove', path: ['sec', 'x'] }]), 'a: 1\nsec:\n  y:\n    deep: 2\nb: 2\n');
  assert.equal(edit(text, [{ op: 'remove', path: ['sec', 'y'] }]), 'a: 1\nsec:\n  x: 1  # c\nb: 2\n');
  assert.equal(edit(text, [{ op: 'remove', path: ['sec'] }]), 'a: 1\nb: 2\n');
  assert.equal(edit('sec:\n  only: 1\nb: 2\n', [{ op: 'remove', path: ['sec', 'only'] }]), 'sec: {}\nb: 2\n');
  assert.equal(edit('s: {a: 1, b: 2}\n', [{ op: 'remove', path: ['s', 'b'] }]), 's: {a: 1}\n');
  assert.equal(edit('s: {a: 1, b: 2}\n', [{ op: 'remove', path: ['s', 'a'] }]), 's: {b: 2}\n');
});

test('YAML edits: rename keeps the value, comments and position; CRLF stays CRLF', () => {
  assert.equal(edit('a: 1 # c\nb: 2\n', [{ op: 'rename', path: ['a'], key: 'z' }]), 'z: 1 # c\nb: 2\n');
  assert.equal(edit('s:\r\n  a: 1\r\n', [{ op: 'set', path: ['s', 'b'], value: 2 }]), 's:\r\n  a: 1\r\n  b: 2\r\n');
});

test('YAML edits refuse what cannot be done safely (merged keys, aliases)', () => {
  const text = 'base: &b\n  x: 1\nuse:\n  <<: *b\n';
  assert.equal(edit(text, [{ op: 'remove', path: ['use', 'x'] }]), undefined);
  assert.equal(edit(text, [{ op: 'rename', path: ['use', 'x'], key: 'y' }]), undefined);
});

test('JSON edits go through jsonc-parser and keep the file formatting', () => {
  const text = '{\n    "a": 1,\n    "b": {"c": 2}\n}\n';
  const doc = parseJson(text);
  const apply = (e: PathEdit[]) => applyEdits(text, doc.edit(e)!);
  assert.equal(apply([{ op: 'set', path: ['a'], value: 5 }]), '{\n    "a": 5,\n    "b": {"c": 2}\n}\n');
  assert.equal(apply([{ op: 'rename', path: ['a'], key: 'z' }]), '{\n    "z": 1,\n    "b": {"c": 2}\n}\n');
  assert.equal(JSON.parse(apply([{ op: 'remove', path: ['a'] }])).a, undefined);
  assert.equal(JSON.parse(apply([{ op: 'set', path: ['n', 'm'], value: 'x' }])).n.m, 'x');
  assert.equal(doc.edit([{ op: 'remove', path: ['nope'] }]), undefined);
});

test('JSON: syntax errors name the problem; strings, numbers and duplicate keys as json.load sees them', () => {
  const doc = parseJson('{"a": 1, "a": 2, "b": "x" // c\n}');
  assert.ok(doc.problems.some((p) => p.code === 'parse-error' && /no comments/.test(p.message)));
  assert.ok(doc.problems.some((p) => p.code === 'duplicate-key'));
  assert.equal(doc.value(['a']), 2);
  assert.equal(doc.value(['b']), 'x');
});

test('completion sites: key or value, with the path from indentation', () => {
  const text = 'distributed_type: FS\nfsdp_config:\n  fsdp_ve\n  fsdp_version: \n';
  const [doc] = parseYaml(text);
  const valueSite = doc.completionSite(text.indexOf('FS') + 2)!;
  assert.deepEqual([valueSite.kind, valueSite.path, valueSite.typed], ['value', ['distributed_type'], 'FS']);
  assert.equal(text.slice(valueSite.replace.start, valueSite.replace.end), 'FS');
  const keySite = doc.completionSite(text.indexOf('fsdp_ve') + 7)!;
  assert.deepEqual([keySite.kind, keySite.path, keySite.typed], ['key', ['fsdp_config'], 'fsdp_ve']);
  const nested = doc.completionSite(text.indexOf('fsdp_version: ') + 14)!;
  assert.deepEqual([nested.kind, nested.path], ['value', ['fsdp_config', 'fsdp_version']]);
  assert.equal(doc.completionSite(text.length)!.kind, 'key');
});

test('line index: CRLF and LF positions round-trip', () => {
  const idx = new LineIndex('ab\r\ncd\nef');
  assert.deepEqual(idx.position(4), { line: 1, character: 0 });
  assert.equal(idx.offset({ line: 2, character: 1 }), 8);
  assert.equal(idx.lineText(0), 'ab');
  assert.equal(idx.eol, '\r\n');
  assert.deepEqual(idx.position(999), { line: 2, character: 2 });
});

test('directives: settings, next-line, same-line and file-wide suppressions', () => {
  const text = '# shardwise: format=accelerate hardware=gb200-nvl72 gpus_per_node=4\n# shardwise-disable-next-line a, b\n\nx: 1\ny: 2 # shardwise-disable-line c\n# shardwise-disable d\n';
  const d = parseDirectives(new LineIndex(text));
  assert.deepEqual(d.settings.map((s) => [s.key, s.value]), [['format', 'accelerate'], ['hardware', 'gb200-nvl72'], ['gpus_per_node', '4']]);
  assert.deepEqual([...(d.disableLines.get(3) as Set<string>)], ['a', 'b']);
  assert.deepEqual([...(d.disableLines.get(4) as Set<string>)], ['c']);
  assert.deepEqual([...(d.disableFile as Set<string>)], ['d']);
});

test('the syntax of a file: the language id of VS Code, Neovim, Helix or Emacs, else the extension, else the content', () => {
  const script = '#!/bin/bash\ntorchrun pretrain_gpt.py --tensor-model-parallel-size 2\n';
  // A launch script without `.sh`: VS Code says shellscript, Neovim and Emacs sh (or bash), Helix bash.
  for (const languageId of ['shellscript', 'sh', 'bash']) assert.equal(syntaxOf({ path: '/repo/launch/train', text: script, languageId }), 'shell', languageId);
  assert.equal(syntaxOf({ path: '/repo/train.sh', text: script }), 'shell');
  assert.equal(syntaxOf({ path: '/repo/ds.jsonc', text: '{}', languageId: 'jsonc' }), 'json');
  assert.equal(syntaxOf({ path: '/repo/accelerate', text: 'distributed_type: FSDP\n' }), 'yaml');
});

test('JSON: offsets from the parser stay inside the text, and no edit lands inside a comment or past the end', () => {
  // jsonc-parser ends the root one character past the end when an unterminated `/*` holds `\r\n`.
  const unterminated = '{"train_batch_size": 8 /* note\r\n';
  const doc = parseJson(unterminated);
  const ends: number[] = [];
  const walk = (n: Node | undefined): void => {
    if (!n) return;
    ends.push(n.span.end);
    if (n.kind === 'map') n.entries.forEach((e) => (ends.push(e.keySpan.end), walk(e.value)));
    if (n.kind === 'seq') n.items.forEach(walk);
  };
  walk(doc.root);
  for (const p of doc.problems) ends.push(p.span.end);
  assert.ok(Math.max(...ends) <= unterminated.length, `a span ends at ${Math.max(...ends)} of ${unterminated.length}`);
  // Appending to an object the comment swallowed would put the value inside the comment: no edit.
  assert.equal(parseJson('{"a": {"b": 1 /* x\r\n y').edit([{ op: 'set', path: ['zero_optimization'], value: { stage: 2 } }]), undefined);
  // Where the text is open, the edit is made.
  assert.deepEqual(parseJson('{"a": 1}\n').edit([{ op: 'set', path: ['b'], value: 2 }]), [{ span: { start: 7, end: 7 }, newText: ', "b": 2' }]);
});
