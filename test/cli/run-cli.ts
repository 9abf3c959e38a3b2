/** The built `shardwise` CLI as the CLI tests run it (`npm run build` first), and its JSON findings. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(__dirname, '../..');
export const CLI = join(ROOT, 'dist/cli/main.js');

/** One finding of `--output-format json`. */
export interface JsonFinding {
  file: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity: string;
  code: string;
  message: string;
}

/** Runs the CLI with `args` in `cwd`; its exit code, stdout, stderr and wall time. */
export function runCli(args: string[], options: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {}): { code: number; out: string; err: string; ms: number } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: options.cwd ?? ROOT, encoding: 'utf8', input: options.input ?? '', env: options.env ?? process.env });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr, ms: Number(process.hrtime.bigint() - t0) / 1e6 };
}
