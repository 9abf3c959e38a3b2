/**
 * parse-error: the file is not valid YAML or JSON (or is too large or hostile to read).
 */
import { defineRule } from './rule';

export default defineRule({
  id: 'parse-error',
  severity: 'error',
  formats: 'all',
  forks: true,
  docs: {
    summary: 'The file is not valid YAML or JSON.',
    why: 'The launcher parses the file before anything else (PyYAML `safe_load` or `json.load`) and stops at the first syntax error, so nothing else in the file is used. Shardwise keeps reading past the error to report what it can, but everything after it is uncertain.',
    bad: 'distributed_type: MULTI_GPU\nnum_processes: [8\n',
    good: 'distributed_type: MULTI_GPU\nnum_processes: 8\n',
  },
  check(ctx) {
    for (const p of ctx.problems) if (p.code === 'parse-error' && (ctx.format || p.fatal)) ctx.report({ at: p.span, message: p.message, severity: p.severity });
  },
});
