/**
 * `--output-format junit`: JUnit XML, as CI systems read test reports (GitLab's `junit` report,
 * Jenkins, Azure Pipelines). One `<testsuite>` per checked file; each finding is a `<testcase>`
 * with a `<failure>`, and a file with no finding has one passing `<testcase>`. Every finding is a
 * failure (as ruff and eslint report them); its severity is the failure's `type`.
 *
 * Text from the input (paths, messages) is first escaped as in every output (escape.ts: no control
 * or text-reordering character), then for XML: `& < > " '` as entities, and a character XML 1.0
 * does not allow (U+FFFE, U+FFFF) as `\uHHHH`.
 */
import { escapeText } from './escape';
import type { Position } from './sarif';

export interface JunitRecord {
  code: string;
  severity: string;
  message: string;
  start: Position;
}

const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** `s` as XML character data or an attribute value. */
export function xmlText(s: string): string {
  return escapeText(s)
    .replace(/[&<>"']/g, (c) => ENTITY[c])
    .replace(/[\ufffe\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

export function toJunit(files: readonly { file: string; findings: readonly JunitRecord[] }[]): string {
  const total = files.reduce((n, f) => n + Math.max(1, f.findings.length), 0);
  const failures = files.reduce((n, f) => n + f.findings.length, 0);
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="shardwise" tests="${total}" failures="${failures}" errors="0">`];
  for (const { file, findings } of files) {
    const name = xmlText(file);
    lines.push(`  <testsuite name="${name}" tests="${Math.max(1, findings.length)}" failures="${findings.length}" errors="0" skipped="0">`);
    if (findings.length === 0) lines.push(`    <testcase name="shardwise" classname="${name}" file="${name}"/>`);
    for (const f of findings) {
      const at = `${f.start.line + 1}:${f.start.character + 1}`;
      lines.push(`    <testcase name="${xmlText(f.code)} (${at})" classname="${name}" file="${name}" line="${f.start.line + 1}">`);
      lines.push(`      <failure message="${xmlText(f.message)}" type="${xmlText(f.severity)}">${name}:${at}: ${xmlText(f.severity)} [${xmlText(f.code)}] ${xmlText(f.message)}</failure>`);
      lines.push('    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return lines.join('\n') + '\n';
}
