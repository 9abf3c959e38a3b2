/** Shared checks of the corpus tests: findings against expectations.yaml, in ranges, not terse. */
import assert from 'node:assert/strict';
import type { FileAnalysis } from '../../server/src/engine';

export interface Expectation {
  /** The error-level rule ids the file must produce (all of them, nothing else). */
  errors?: string[];
  /** `code@line` findings (any severity) that must be reported: real mistakes in the upstream file. */
  expect?: string[];
  reason: string;
}

export function checkAgainstExpectations(file: string, text: string, a: FileAnalysis, exp: Expectation | undefined): void {
  const detail = () => a.findings.map((f) => `  ${a.lines.position(f.span.start).line + 1}: ${f.severity} ${f.code} ${f.message}`).join('\n');
  const errors = [...new Set(a.findings.filter((f) => f.severity === 'error').map((f) => f.code))].sort();
  assert.deepEqual(errors, (exp?.errors ?? []).slice().sort(), `${file}: error-level findings differ from expectations.yaml\n${detail()}`);
  for (const want of exp?.expect ?? []) {
    const [code, line] = want.split('@');
    assert.ok(a.findings.some((f) => f.code === code && a.lines.position(f.span.start).line + 1 === Number(line)), `${file}: expected ${want}\n${detail()}`);
  }
  for (const f of a.findings) {
    assert.ok(f.span.start >= 0 && f.span.end <= text.length && f.span.start <= f.span.end, `${file}: range outside the text`);
    assert.ok(f.message.length > 40, `${file}: message too terse: ${f.message}`);
  }
}
