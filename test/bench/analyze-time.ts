/**
 * The plain analysis, in process, for `npm run bench`: the engine's `analyze()` on the bench's
 * inputs, alternating the same two states as the didChange measure, with nothing else (no protocol,
 * no fixes). The language server's didChange → diagnostics is compared with it: the difference is
 * what the keystroke path costs beyond analysing the text.
 *
 *   node --import tsx test/bench/analyze-time.ts SPEC.json   →   JSON { name: { median, p95 } } on stdout
 *
 * SPEC.json: { n, warmup, files: [{ name, file, languageId, editLine, editChar, editValues }] }.
 * ENGINE (optional) is the engine folder to load, for a side-by-side with another checkout.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

interface Spec {
  n: number;
  warmup: number;
  files: { name: string; file: string; languageId: string; editLine: number; editChar: number; editValues: [string, string] }[];
}

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8')) as Spec;
const enginePath = resolve(process.env.ENGINE ?? resolve(__dirname, '../../server/src/engine'));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { analyze } = require(enginePath) as { analyze: (input: object, settings?: object, options?: object) => { findings: unknown[] } };

function nearestRank(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const out: Record<string, { median: number; p95: number }> = {};
for (const f of spec.files) {
  const lines = readFileSync(f.file, 'utf8').split('\n');
  const texts = f.editValues.map((v, state) => {
    const copy = [...lines];
    const line = copy[f.editLine];
    copy[f.editLine] = line.slice(0, f.editChar) + v + line.slice(f.editChar + f.editValues[state ^ 1].length);
    return state === 0 ? lines.join('\n') : copy.join('\n');
  });
  const times: number[] = [];
  for (let i = 0; i < spec.warmup + spec.n; i++) {
    const text = texts[i % 2];
    const t0 = performance.now();
    // An older engine re-checked fixes on every analysis unless told not to: this is the analysis alone.
    analyze({ path: f.file, text, languageId: f.languageId }, {}, { verifyFixes: false });
    const dt = performance.now() - t0;
    if (i >= spec.warmup) times.push(dt);
  }
  out[f.name] = { median: nearestRank(times, 50), p95: nearestRank(times, 95) };
}
process.stdout.write(JSON.stringify(out) + '\n');
