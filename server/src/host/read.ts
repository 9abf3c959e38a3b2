/**
 * Reads a file that a user or a config names, without ever blocking or reading without bound.
 *
 * Only regular files are read. The path is examined with `stat` before anything is opened, so a
 * device is never opened (opening some has side effects) and a FIFO or a directory is refused
 * without a read; the file is then opened with O_NONBLOCK (a FIFO swapped in after the `stat` cannot
 * block the open), checked again with `fstat` on the descriptor, and read through it with a bound:
 * a file that grows past the limit between the `stat` and the read is refused, not read whole.
 * Every refusal carries a reason that reads after the path ("is a directory", "is a symbolic link
 * loop", "is 2.0 GiB, over the 8 MiB limit"), for messages. Nothing here throws.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';

/** `missing`: nothing at all at that path; the others: something is there but cannot be read. */
export type ReadRefusal = 'missing' | 'broken-link' | 'directory' | 'special' | 'too-large' | 'loop' | 'unreadable';

export type ReadResult = { ok: true; text: string; size: number } | { ok: false; kind: ReadRefusal; reason: string; size?: number };

/** O_NONBLOCK where the platform has it (not on Windows, which has no FIFOs to block on). */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** A byte count for a message: `512 bytes`, `3.2 MiB`, `2.0 GiB`; a limit (`whole`) exactly: `1 MiB`, `2000 bytes`. */
export function formatBytes(n: number, whole = false): string {
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  if (n < 1024) return `${n} byte${n === 1 ? '' : 's'}`;
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  if (whole) return Number.isInteger(v) ? `${v} ${units[u]}` : `${n} bytes`;
  return `${v.toFixed(1)} ${units[u]}`;
}

/** What a non-regular file is, after "is ". */
function kindOf(st: Stats): { kind: ReadRefusal; reason: string } | undefined {
  if (st.isFile()) return undefined;
  if (st.isDirectory()) return { kind: 'directory', reason: 'is a directory' };
  if (st.isFIFO()) return { kind: 'special', reason: 'is not a regular file (a FIFO)' };
  if (st.isCharacterDevice() || st.isBlockDevice()) return { kind: 'special', reason: 'is a device, not a regular file' };
  if (st.isSocket()) return { kind: 'special', reason: 'is not a regular file (a socket)' };
  return { kind: 'special', reason: 'is not a regular file' };
}

function refusalOf(err: unknown, path: string): { ok: false; kind: ReadRefusal; reason: string } {
  const code = (err as NodeJS.ErrnoException)?.code;
  switch (code) {
    case 'ELOOP':
      return { ok: false, kind: 'loop', reason: 'is a symbolic link loop' };
    case 'ENOENT':
    case 'ENOTDIR': {
      // A link whose target is missing is there, but cannot be used.
      try {
        if (lstatSync(path).isSymbolicLink()) return { ok: false, kind: 'broken-link', reason: 'is a symbolic link to a file that does not exist' };
      } catch {
        // Not there at all.
      }
      return { ok: false, kind: 'missing', reason: 'does not exist' };
    }
    case 'EACCES':
    case 'EPERM':
      return { ok: false, kind: 'unreadable', reason: 'cannot be read (permission denied)' };
    case 'EISDIR':
      return { ok: false, kind: 'directory', reason: 'is a directory' };
    case 'ENAMETOOLONG':
      return { ok: false, kind: 'missing', reason: 'is a path too long for the file system' };
    default:
      return { ok: false, kind: 'unreadable', reason: `cannot be read${code ? ` (${code})` : ''}` };
  }
}

function tooLarge(size: number, maxBytes: number): { ok: false; kind: 'too-large'; reason: string; size: number } {
  return { ok: false, kind: 'too-large', reason: `is ${formatBytes(size)}, over the ${formatBytes(maxBytes, true)} limit`, size };
}

/** What `path` is, without opening it: a regular file's size, or why it cannot be read. */
export function examine(path: string, maxBytes: number): { ok: true; size: number } | { ok: false; kind: ReadRefusal; reason: string; size?: number } {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (err) {
    return refusalOf(err, path);
  }
  const other = kindOf(st);
  if (other) return { ok: false, ...other };
  if (st.size > maxBytes) return tooLarge(st.size, maxBytes);
  return { ok: true, size: st.size };
}

/** Reads a regular file of at most `maxBytes` bytes as UTF-8 text, or says why not. */
export function readBounded(path: string, maxBytes: number): ReadResult {
  if (typeof path !== 'string' || path.length === 0 || path.includes('\u0000')) return { ok: false, kind: 'missing', reason: 'is not a usable path' };
  const first = examine(path, maxBytes);
  if (!first.ok) return first;
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (err) {
    return refusalOf(err, path);
  }
  try {
    const st = fstatSync(fd);
    // Swapped for something else since the stat: judged again on what was opened.
    const other = kindOf(st);
    if (other) return { ok: false, ...other };
    if (st.size > maxBytes) return tooLarge(st.size, maxBytes);
    // One byte beyond the limit tells a file that grew past it from one that is exactly at it.
    let buf = Buffer.allocUnsafe(Math.min(maxBytes + 1, Math.max(st.size + 1, 4096)));
    let length = 0;
    for (;;) {
      if (length === buf.length) {
        if (buf.length > maxBytes) break;
        const bigger = Buffer.allocUnsafe(Math.min(maxBytes + 1, buf.length * 2));
        buf.copy(bigger, 0, 0, length);
        buf = bigger;
      }
      let n: number;
      try {
        n = readSync(fd, buf, length, buf.length - length, null);
      } catch (err) {
        if ((err as NodeJS.ErrnoException)?.code === 'EAGAIN') return { ok: false, kind: 'special', reason: 'is not a regular file' };
        throw err;
      }
      if (n === 0) break;
      length += n;
    }
    if (length > maxBytes) return { ok: false, kind: 'too-large', reason: `grew past the ${formatBytes(maxBytes, true)} limit while it was read`, size: length };
    return { ok: true, text: buf.toString('utf8', 0, length), size: length };
  } catch (err) {
    return refusalOf(err, path);
  } finally {
    try {
      closeSync(fd);
    } catch {
      // Already closed.
    }
  }
}

/** A stamp that changes when the regular file at `path` changes (modification time and size); undefined when it is not one. */
export function fileStamp(path: string): string | undefined {
  try {
    const st = statSync(path);
    return st.isFile() ? `${st.mtimeMs}:${st.size}` : undefined;
  } catch {
    return undefined;
  }
}
