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
  /** Every fix offered, with its applicability and edits. */
  fixes: { title: string; applicability: 'safe' | 'unsafe'; edits: { range: JsonFinding['range']; newText: string }[] }[];
}

/**
 * Runs the CLI with `args` in `cwd`; its exit code, stdout, stderr and wall time. The colour
 * variables of the environment the tests run in are dropped (the output is compared as plain
 * text); a test of colour passes `colorEnv`.
 */
export function runCli(args: string[], options: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv; colorEnv?: { NO_COLOR?: string; FORCE_COLOR?: string } } = {}): { code: number; out: string; err: string; ms: number } {
  const t0 = process.hrtime.bigint();
  const env = { ...(options.env ?? process.env) };
  delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  Object.assign(env, options.colorEnv);
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: options.cwd ?? ROOT, encoding: 'utf8', input: options.input ?? '', env });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr, ms: Number(process.hrtime.bigint() - t0) / 1e6 };
}
