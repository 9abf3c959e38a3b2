/**
 * Every config of ../shared/corpus/megatron through the engine: each file is detected as the format
 * it is (Megatron-LM MODEL_ARGS and --yaml-cfg files, Megatron Bridge overrides, NeMo configs; the
 * skill cards and userbuffer tables are none of them), the layout read from it agrees with the
 * parallelism summary SOURCES.md extracted from the same file, and no error-level finding appears
 * except those listed, with the reason, in expectations.yaml. Known real mistakes upstream must be
 * found (`expect` entries).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { analyze } from '../../server/src/engine';
import { corpusSkip, findCorpus } from '../corpus-path';
import { checkAgainstExpectations, type Expectation } from './check';

const CORPUS = findCorpus();
const expectations = (parse(readFileSync(join(__dirname, 'expectations.yaml'), 'utf8')) as Record<string, Record<string, Expectation>>).megatron ?? {};
const dir = join(CORPUS, 'megatron');
const files = existsSync(dir) ? readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort() : [];

/** SOURCES.md: file → the parallelism summary extracted from it upstream. */
function summaries(): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  const sources = join(dir, 'SOURCES.md');
  if (!existsSync(sources)) return out;
  for (const line of readFileSync(sources, 'utf8').split('\n')) {
    const m = /^\| `([^`]+\.ya?ml)` \|.*\| `(\{.*\})` \|\s*$/.exec(line);
    if (!m) continue;
    try {
      out.set(m[1], JSON.parse(m[2]) as Record<string, unknown>);
    } catch {
      // A row whose summary is prose, not JSON.
    }
  }
  return out;
}
const SUMMARY = summaries();

/** The format each corpus file is, from where it lives upstream. */
function expectedFormat(file: string, text: string): string | undefined {
  if (/__skills__|tp_comm_overlap_cfg|__ub_cfg_/.test(file)) return undefined;
  if (file.startsWith('Megatron-Bridge__')) return 'megatron-bridge';
  if (file.startsWith('NeMo')) return 'nemo';
  if (file.startsWith('Megatron-LM')) return /^\s+trainer\./m.test(text) ? 'nemo' : 'megatron-yaml';
  return undefined;
}

test('the Megatron corpus is there, with its SOURCES.md summaries', { skip: corpusSkip() }, () => {
  assert.ok(files.length >= 60, `expected the corpus at ${dir} (set SHARDWISE_CORPUS to its parent)`);
  assert.ok(SUMMARY.size >= 40, `expected the parallelism summaries of ${join(dir, 'SOURCES.md')}`);
});

for (const file of files) {
  test(`corpus megatron/${file}`, () => {
    const text = readFileSync(join(dir, file), 'utf8');
    // The upstream path, so CI test names (`..._1N8G`, `..._gb200`) mean what they mean there.
    const path = file.replace(/@[^_]+/, '').replace(/__/g, '/');
    const a = analyze({ path, text });
    const format = a.docs.map((d) => d.format?.id);
    assert.deepEqual(format, [expectedFormat(file, text)], `${file} detected as ${format.join(',')}`);

    checkAgainstExpectations(file, text, a, expectations[file]);

    // The layout agrees with what SOURCES.md read from the same file.
    const s = SUMMARY.get(file);
    const p = a.docs[0]?.plan;
    if (!s || !p || !format[0]) return;
    const checks: [string, unknown][] = [
      ['tp', p.tp.value],
      ['pp', p.pp.value],
      ['cp', p.cp.value],
      ['ep', p.ep.value],
      ['etp', p.etp.value],
      ['sp', p.sp.value],
      ['vpp_stages', p.vpp?.value],
      ['dist_opt', p.distributedOptimizer?.value],
      ['ogr', p.overlap.gradReduce?.value],
      ['opg', p.overlap.paramGather?.value],
      ['tpco', p.overlap.tpComm?.value],
      ['ub', p.overlap.tpComm?.value],
      ['mbs', p.microBatch?.value],
      ['gbs', p.globalBatch?.value],
      ['layers', p.model?.value.layers],
      ['heads', p.model?.value.heads],
      ['nodes', p.nodes.value],
    ];
    // Hybrid (Mamba) stacks have no transformer shape to model: their layers and heads are not read.
    const hybrid = /hybrid-layer-pattern|is-hybrid-model|hybrid_override_pattern/.test(text);
    for (const [key, actual] of checks) {
      if (!(key in s) || typeof s[key] === 'string') continue;
      if (hybrid && (key === 'layers' || key === 'heads')) {
        assert.equal(actual, undefined, `${file}: a hybrid stack got a transformer shape`);
        continue;
      }
      assert.equal(actual, s[key], `${file}: ${key} is ${String(actual)} in the layout, ${String(s[key])} in SOURCES.md`);
    }
    if (typeof s.devices === 'number' && typeof s.nodes === 'number') assert.equal(p.world?.value, s.devices * s.nodes, `${file}: world size`);
  });
}

test('every Megatron file listed in expectations.yaml exists in the corpus', { skip: corpusSkip() }, () => {
  for (const file of Object.keys(expectations)) assert.ok(files.includes(file), `${file} is listed but not in the corpus`);
});
