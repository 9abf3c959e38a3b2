/**
 * Every config of ../shared/corpus/deepspeed through the engine: each is detected as a DeepSpeed
 * config, no error-level finding appears unless expectations.yaml lists it with the reason, and the
 * real mistakes upstream files carry are found (`expect` entries, `code@line`).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { analyze, applyEdits } from '../../server/src/engine';
import { corpusSkip, findCorpus } from '../corpus-path';
import { checkAgainstExpectations, type Expectation } from './check';

const CORPUS = findCorpus();
const expectations = (parse(readFileSync(join(__dirname, 'expectations.yaml'), 'utf8')) as Record<string, Record<string, Expectation>>).deepspeed ?? {};
const dir = join(CORPUS, 'deepspeed');
const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')).sort() : [];

test('the DeepSpeed corpus is there', { skip: corpusSkip() }, () => {
  assert.ok(files.length >= 25, `expected the corpus at ${dir} (set SHARDWISE_CORPUS to its parent)`);
});

for (const file of files) {
  test(`corpus deepspeed/${file}`, () => {
    const text = readFileSync(join(dir, file), 'utf8');
    const a = analyze({ path: file, text });
    assert.deepEqual(a.docs.map((d) => d.format?.id), ['deepspeed']);
    checkAgainstExpectations(file, text, a, expectations[file]);
    // Every fix offered leaves valid JSON behind and removes its finding.
    for (const f of a.findings) {
      for (const fix of f.fixes()) {
        const again = analyze({ path: file, text: applyEdits(text, fix.edits) });
        assert.ok(!again.findings.some((x) => x.code === 'parse-error'), `${file}: "${fix.title}" broke the JSON`);
        assert.ok(!again.findings.some((x) => x.code === f.code && x.message === f.message), `${file}: "${fix.title}" left its finding`);
      }
    }
  });
}

test('every DeepSpeed file listed in expectations.yaml exists in the corpus', { skip: corpusSkip() }, () => {
  for (const file of Object.keys(expectations)) assert.ok(files.includes(file), `${file} is listed but not in the corpus`);
});
