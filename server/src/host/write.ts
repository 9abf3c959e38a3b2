/**
 * Writes a fixed file so that nothing is lost: the new text goes to a file beside it, which then
 * replaces the original in one rename (keeping its mode). A read-only file, a file that changed
 * since it was read, or a failed write leaves the original as it was and says why.
 */
import { chmodSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export class WriteRefused extends Error {}

/**
 * Replaces the file at `path` with `text`, if its content is still `expected` (what the fixes were
 * made from). Throws `WriteRefused` (nothing changed) when it cannot.
 */
export function replaceFile(path: string, text: string, expected: string): void {
  let real: string;
  let mode: number;
  try {
    // Through a symbolic link: the file it points at is replaced, the link stays.
    real = realpathSync(path);
    mode = statSync(real).mode & 0o7777;
  } catch (err) {
    throw new WriteRefused(`cannot read it again: ${(err as Error).message}`);
  }
  if ((mode & 0o222) === 0) throw new WriteRefused('it is read-only');
  let now: string;
  try {
    const bytes = readFileSync(real);
    now = bytes.toString('utf8');
    // Text that is not UTF-8 would be written back with U+FFFD in place of every byte it cannot decode.
    if (!Buffer.from(now, 'utf8').equals(bytes)) throw new WriteRefused('it is not UTF-8 text, and writing it would change bytes no fix touches');
  } catch (err) {
    if (err instanceof WriteRefused) throw err;
    throw new WriteRefused(`cannot read it again: ${(err as Error).message}`);
  }
  if (now !== expected) throw new WriteRefused('it changed since it was read');
  const temp = join(dirname(real), `.${basename(real)}.shardwise-${process.pid}-${Date.now().toString(36)}.tmp`);
  try {
    writeFileSync(temp, text, { flag: 'wx', mode });
    chmodSync(temp, mode);
    renameSync(temp, real);
  } catch (err) {
    try {
      unlinkSync(temp);
    } catch {
      // Never written.
    }
    throw new WriteRefused(`writing failed: ${(err as Error).message}`);
  }
}
