/**
 * Every config of ../shared/corpus/accelerate through the engine: the YAML files are Accelerate
 * configs, the JSON files DeepSpeed configs; no error-level finding except those listed, with the
 * reason, in expectations.yaml.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { analyze } from '../../server/src/engine';
import { corpusSkip, findCorpus } from '../corpus-path';

const CORPUS = findCorpus();
const expectations = parse(readFileSync(join(__dirname, 'expectations.yaml'), 'utf8')) as Record<string, Record<string, { errors: string[]; reason: string }>>;

const dir = join(CORPUS, 'accelerate');
const files = existsSync(dir) ? readdirSync(dir).filter((f) => /\.(ya?ml|json)$/.test(f)).sort() : [];

test('the Accelerate corpus is there', { skip: corpusSkip() }, () => {
  assert.ok(files.length >= 40, `expected the corpus at ${dir} (set SHARDWISE_CORPUS to its parent)`);
});

for (const file of files) {
  test(`corpus accelerate/${file}`, () => {
    const text = readFileSync(join(dir, file), 'utf8');
    const a = analyze({ path: file, text });
    const format = a.docs.map((d) => d.format?.id);
    assert.deepEqual(format, [file.endsWith('.json') ? 'deepspeed' : 'accelerate'], `${file} detected as ${format.join(',')}`);
    const errors = [...new Set(a.findings.filter((f) => f.severity === 'error').map((f) => f.code))].sort();
    const expected = (expectations.accelerate?.[file]?.errors ?? []).slice().sort();
    const detail = a.findings.map((f) => `  ${a.lines.position(f.span.start).line + 1}: ${f.severity} ${f.code} ${f.message}`).join('\n');
    assert.deepEqual(errors, expected, `${file}: error-level findings differ from expectations.yaml\n${detail}`);
    for (const f of a.findings) {
      assert.ok(f.span.start >= 0 && f.span.end <= text.length && f.span.start <= f.span.end, `${file}: range outside the text`);
      assert.ok(f.message.length > 40, `${file}: message too terse: ${f.message}`);
    }
  });
}

test('every file listed in expectations.yaml exists in the corpus', { skip: corpusSkip() }, () => {
  for (const file of Object.keys(expectations.accelerate ?? {})) assert.ok(files.includes(file), `${file} is listed but not in the corpus`);
});
