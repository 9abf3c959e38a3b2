/**
 * The command line under hostile input: each `cli` input is written into a fresh folder as a user's
 * repository would hold it (the config in one of four encodings, the files it links to, a
 * `.shardwise.yaml`, the configs that refer to it) next to a folder outside it that a directory
 * symlink inside points at, and `shardwise check <folder> --fix` runs in-process. It must:
 *
 * (`afterFix` runs after the `--fix` run: the oracle's own test uses it to stand for a CLI that writes
 * where it must not, and shows each such write is caught.)
 *
 * - exit 0 or 1 and print JSON that parses, with no control or bidi characters in the text report;
 * - write nothing but the config itself (not the linked files, not through the symlink);
 * - leave a file that is not UTF-8 byte for byte as it was (it cannot be fixed without losing bytes);
 * - change only lines that a safe fix of the unfixed file touches, keep a byte-order mark and CRLF
 *   line ends, and reach a fixed point: a second `--fix` changes nothing.
 */
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isUtf8 } from 'node:buffer';
import { dirname, join, relative } from 'node:path';
import { diffArrays } from 'diff';
import { main } from '../../server/src/cli/cli';
import type { Rng } from './rng';
import type { FuzzInput } from './types';

export const ENCODINGS = ['utf8', 'bom', 'crlf', 'latin1'] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** Where the input's config goes in the folder: its path without `..`, absolute parts or empty segments (format detection reads the path). */
export function safeRelative(path: string): string | undefined {
  const parts = path.split(/[\\/]+/).filter((p) => p && p !== '.' && p !== '..');
  if (!parts.length || parts.length > 8 || parts.some((p) => p.length > 100 || /[\u0000-\u001f]/.test(p))) return undefined;
  return parts.join('/');
}

/** The config's bytes as a user's editor may have saved them. */
export function encode(text: string, enc: Encoding): Buffer {
  switch (enc) {
    case 'utf8':
      return Buffer.from(text, 'utf8');
    case 'bom':
      return Buffer.from(`\ufeff${text.replace(/^\ufeff/, '')}`, 'utf8');
    case 'crlf':
      return Buffer.from(text.replace(/\r?\n/g, '\r\n'), 'utf8');
    case 'latin1':
      // A comment saved in ISO-8859-1 (`# résumé`): one byte that is not UTF-8.
      return Buffer.concat([Buffer.from(`${text}${text.endsWith('\n') ? '' : '\n'}# r`, 'utf8'), Buffer.from([0xe9]), Buffer.from('sum\n', 'utf8')]);
  }
}

export function pickEncoding(r: Rng): Encoding {
  return r.pick(ENCODINGS);
}

/** Every regular file under `root`, without following symlinks, with its bytes. */
function snapshot(root: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (dir: string, depth: number): void => {
    if (depth > 12) return;
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      const st = lstatSync(p);
      if (st.isDirectory()) walk(p, depth + 1);
      else if (st.isFile()) out.set(relative(root, p), readFileSync(p));
    }
  };
  walk(root, 0);
  return out;
}

/** Runs the CLI in-process with its output captured. */
function runCli(argv: string[]): { code: number | undefined; stdout: string; stderr: string; error?: unknown } {
  let stdout = '';
  let stderr = '';
  const out = process.stdout.write;
  const err = process.stderr.write;
  // The CLI may set the process's exit code; the process running the oracle keeps its own.
  const exitCode = process.exitCode;
  process.stdout.write = ((s: string | Uint8Array) => ((stdout += typeof s === 'string' ? s : Buffer.from(s).toString()), true)) as typeof process.stdout.write;
  process.stderr.write = ((s: string | Uint8Array) => ((stderr += typeof s === 'string' ? s : Buffer.from(s).toString()), true)) as typeof process.stderr.write;
  try {
    return { code: main(argv), stdout, stderr };
  } catch (error) {
    return { code: undefined, stdout, stderr, error };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
    process.exitCode = exitCode;
  }
}

/** The 0-based lines each safe fix of the report edits, per file. */
function safeLines(json: unknown): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  if (!Array.isArray(json)) return out;
  for (const f of json as { file: string; fixes?: { applicability: string; edits: { range: { start: { line: number }; end: { line: number } } }[] }[] }[]) {
    for (const fix of f.fixes ?? []) {
      if (fix.applicability !== 'safe') continue;
      const lines = out.get(f.file) ?? new Set<number>();
      for (const e of fix.edits) for (let l = e.range.start.line; l <= e.range.end.line; l++) lines.add(l);
      out.set(f.file, lines);
    }
  }
  return out;
}

/** Characters a report must not hold (C0 but tab and newline, DEL, C1, bidi controls). */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

export type Report = (kind: 'crash' | 'unsanitised' | 'wrote-outside' | 'bytes-changed' | 'fix-all-oscillation', signature: string, detail: string) => void;

/** The lines safe fixes may touch in one file of the report (its path as the CLI prints it: relative to the working folder). */
function allowedLines(json: unknown, abs: string, file: string): Set<number> {
  const lines = safeLines(json);
  return lines.get(relative(process.cwd(), abs)) ?? lines.get(abs) ?? [...lines.entries()].find(([f]) => f.endsWith(`/${file}`))?.[1] ?? new Set<number>();
}

/** What `--fix` may do to a file: leave a non-UTF-8 one alone, keep its BOM and CRLF, and change only lines a safe fix edits. */
function changedOnlyBySafeFixes(was: Buffer, now: Buffer, enc: Encoding, allowed: Set<number>, fail: (signature: string, detail: string) => void): void {
  if (enc === 'latin1' || !isUtf8(was)) return fail('cli:not-utf8', '`check --fix` rewrote a file that is not UTF-8');
  const wasText = was.toString('utf8');
  const nowText = now.toString('utf8');
  if (wasText.startsWith('\ufeff') && !nowText.startsWith('\ufeff')) fail('cli:bom-lost', '`check --fix` dropped the byte-order mark');
  if (!/(^|[^\r])\n/.test(wasText) && /\r\n/.test(wasText) && /(^|[^\r])\n/.test(nowText)) fail('cli:crlf-lost', '`check --fix` wrote a bare LF into a CRLF file');
  const a = wasText.replace(/^\ufeff/, '').split(/\r\n|\r|\n/);
  const b = nowText.replace(/^\ufeff/, '').split(/\r\n|\r|\n/);
  // Each removed line, and each place lines were added, must be one a safe fix edits (the report's lines are 0-based).
  let line = 0;
  for (const part of diffArrays(a, b)) {
    const n = part.count ?? part.value.length;
    if (part.added) {
      if (!allowed.has(line) && !allowed.has(line - 1)) return fail('cli:outside-safe-fixes', `\`check --fix\` added lines after line ${line}, where no safe fix of the report edits`);
      continue;
    }
    if (part.removed) {
      const off = [...Array(n).keys()].map((k) => line + k).find((l) => !allowed.has(l));
      if (off !== undefined) return fail('cli:outside-safe-fixes', `\`check --fix\` changed line ${off + 1}, which no safe fix of the report touches`);
    }
    line += n;
  }
}

/** Lays the input out as a repository, runs the CLI over it and reports what it broke. */
export function checkCli(input: FuzzInput, enc: Encoding, report: Report, stage: <T>(name: string, f: () => T) => T | undefined, afterFix?: (root: string) => void): void {
  const rel = safeRelative(input.path) ?? 'config.yaml';
  const root = mkdtempSync(join(tmpdir(), 'shardwise-fuzz-cli-'));
  try {
    const repo = join(root, 'repo');
    const outside = join(root, 'outside');
    mkdirSync(outside, { recursive: true });
    mkdirSync(dirname(join(repo, rel)), { recursive: true });
    const bytes = encode(input.text, enc);
    writeFileSync(join(repo, rel), bytes);
    // A config outside the folder, reachable only through a directory symlink inside it.
    writeFileSync(join(outside, rel.split('/').pop()!), bytes);
    symlinkSync(outside, join(repo, 'ext'), 'dir');
    for (const [ref, target] of Object.entries(input.links ?? {})) {
      const p = typeof target === 'string' ? safeRelative(ref) : undefined;
      if (p && p !== rel && !p.startsWith('ext/') && p !== 'ext') {
        try {
          mkdirSync(dirname(join(dirname(join(repo, rel)), p)), { recursive: true });
          writeFileSync(join(dirname(join(repo, rel)), p), target as string);
        } catch {
          // A link that cannot be a file here (a folder of the same name): left out.
        }
      }
    }
    if (input.project !== undefined) writeFileSync(join(repo, '.shardwise.yaml'), input.project);
    for (const [i, r] of (input.referrers ?? []).entries()) {
      const p = safeRelative(r.path);
      if (p && p !== rel && !p.startsWith('ext')) {
        try {
          mkdirSync(dirname(join(repo, 'referrers', String(i), p)), { recursive: true });
          writeFileSync(join(repo, 'referrers', String(i), p), r.text);
        } catch {
          // As above.
        }
      }
    }
    const before = snapshot(root);
    const where = `${input.variant}:${enc}`;

    // The report without fixing: its JSON parses, and it says which lines safe fixes may touch.
    const plain = stage('cli-check', () => runCli(['check', repo, '--output-format', 'json', '--show-info']));
    if (!plain) return;
    // A `.shardwise.yaml` that cannot be read stops the run before any file (exit 2), as documented.
    if (plain.code === 2 && input.project !== undefined && /\.shardwise\.yaml/.test(plain.stderr) && !plain.stdout.trim()) return;
    if (plain.error !== undefined || (plain.code !== 0 && plain.code !== 1)) {
      report('crash', `cli:check:${plain.code ?? 'threw'}`, `\`shardwise check\` ${plain.error !== undefined ? `threw ${String((plain.error as Error)?.stack ?? plain.error).slice(0, 300)}` : `exited ${plain.code}: ${plain.stderr.slice(0, 300)}`} (${where})`);
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(plain.stdout);
    } catch (err) {
      report('crash', 'cli:json', `\`check --output-format json\` printed what is not JSON (${(err as Error).message}; ${where})`);
      return;
    }
    const text = stage('cli-text', () => runCli(['check', repo, '--show-info', '--color', 'never']));
    const bad = text && (text.stdout + text.stderr).match(UNSAFE);
    if (bad) report('unsanitised', `cli:text:U+${bad[0].codePointAt(0)!.toString(16)}`, `the text report holds U+${bad[0].codePointAt(0)!.toString(16).padStart(4, '0')} (${where})`);

    const fixed = stage('cli-fix', () => runCli(['check', repo, '--fix', '--output-format', 'json']));
    if (!fixed) return;
    if (fixed.error !== undefined || (fixed.code !== 0 && fixed.code !== 1)) {
      report('crash', `cli:fix:${fixed.code ?? 'threw'}`, `\`shardwise check --fix\` ${fixed.error !== undefined ? `threw ${String((fixed.error as Error)?.stack ?? fixed.error).slice(0, 300)}` : `exited ${fixed.code}: ${fixed.stderr.slice(0, 300)}`} (${where})`);
      return;
    }
    afterFix?.(root);
    const after = snapshot(root);
    for (const [p, b] of before) {
      const now = after.get(p);
      if (p.startsWith('outside')) {
        if (!now || !now.equals(b)) report('wrote-outside', 'cli:symlink', `\`check --fix\` ${now ? 'changed' : 'removed'} ${p}, outside the folder it was given (through a directory symlink; ${where})`);
        continue;
      }
      // Every config in the folder may be fixed, but only where a safe fix edits it.
      const file = p.slice('repo/'.length);
      if (!now) report('bytes-changed', 'cli:file-removed', `\`check --fix\` removed ${file} (${where})`);
      else if (!now.equals(b)) changedOnlyBySafeFixes(b, now, file === rel ? enc : 'utf8', allowedLines(json, join(repo, file), file), (sig, detail) => report('bytes-changed', sig, `${detail} (${file}, ${where})`));
    }
    for (const p of after.keys()) if (!before.has(p)) report('wrote-outside', 'cli:new-file', `\`check --fix\` left a new file ${p} (${where})`);
    const target = join('repo', rel);
    const now = after.get(target);
    if (!now || enc === 'latin1' || now.equals(before.get(target)!)) return;
    // A fixed point: fixing the fixed file again changes nothing.
    const again = stage('cli-fix-again', () => runCli(['check', repo, '--fix', '--output-format', 'json']));
    const third = snapshot(root).get(target);
    if (again && third && !third.equals(now)) report('fix-all-oscillation', 'cli:second-fix', `a second \`check --fix\` changed the fixed config again (${where})`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
