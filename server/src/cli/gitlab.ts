/**
 * `--output-format gitlab`: GitLab Code Quality (a subset of the Code Climate issue format), one JSON
 * array of issues that a merge request shows beside the diff:
 *   { description, check_name, fingerprint, severity, location: { path, lines: { begin, end } } }
 *
 * `location.path` is relative to the project's folder ($CI_PROJECT_DIR in a GitLab job, else the
 * working directory), with `/`. The fingerprint is a hash of the rule, the path and the message,
 * not of the line, so a finding keeps its fingerprint when lines are added above it (GitLab tells
 * new findings from fixed ones by it); identical findings in one file are numbered apart.
 */
import { createHash } from 'node:crypto';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { escapeText } from './escape';
import type { Position } from './sarif';

/** Code Climate severities are info, minor, major, critical and blocker. */
const SEVERITY: Record<string, string> = { error: 'major', warning: 'minor', information: 'info', hint: 'info' };

export interface GitlabRecord {
  code: string;
  severity: string;
  message: string;
  start: Position;
  end: Position;
}

/** The path GitLab resolves against the repository: relative to `base` with `/`, or as it is when outside it. */
export function projectPath(file: string, base: string): string {
  const rel = relative(base, resolve(file));
  const outside = rel === '' || rel.startsWith('..') || isAbsolute(rel);
  const path = outside ? file : rel;
  return sep === '/' ? path : path.split(sep).join('/');
}

export function toGitlab(files: readonly { file: string; findings: readonly GitlabRecord[] }[], base: string): object[] {
  const out: object[] = [];
  for (const { file, findings } of files) {
    const path = escapeText(projectPath(file, base));
    const seen = new Map<string, number>();
    for (const f of findings) {
      const key = `${f.code}\u0000${path}\u0000${f.message}`;
      const n = seen.get(key) ?? 0;
      seen.set(key, n + 1);
      out.push({
        description: `${f.code}: ${f.message}`,
        check_name: f.code,
        fingerprint: createHash('sha256').update(`${key}\u0000${n}`).digest('hex'),
        severity: SEVERITY[f.severity] ?? 'minor',
        location: { path, lines: { begin: f.start.line + 1, end: f.end.line + 1 } },
      });
    }
  }
  return out;
}
