/**
 * The standard input of `shardwise check -`, read whole and kept as bytes too: a fix writes text, and
 * bytes that are not UTF-8 must come back as they were.
 */
import { readSync } from 'node:fs';
import { formatBytes } from '../host/read';

/**
 * The standard input, read whole up to `maxBytes` (a pipe may say EAGAIN while its writer is
 * slow: waited for), or why not.
 */
export function readStdin(maxBytes: number): { ok: true; text: string; bytes: Buffer } | { ok: false; reason: string } {
  const chunks: Buffer[] = [];
  let length = 0;
  const buf = Buffer.allocUnsafe(64 * 1024);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    let n: number;
    try {
      n = readSync(0, buf, 0, buf.length, null);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException)?.code;
      if (code === 'EAGAIN') {
        Atomics.wait(pause, 0, 0, 10);
        continue;
      }
      if (code === 'EOF') break;
      return { ok: false, reason: `cannot be read (${code ?? 'error'})` };
    }
    if (n === 0) break;
    length += n;
    if (length > maxBytes) return { ok: false, reason: `is over the ${formatBytes(maxBytes, true)} limit; --max-file-size raises it` };
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  const bytes = Buffer.concat(chunks);
  return { ok: true, text: bytes.toString('utf8'), bytes };
}

/** Bytes that are not UTF-8 text (a Latin-1 `é`): decoded, they would not encode back to themselves. */
export function notUtf8(bytes: Buffer, text: string): boolean {
  return !Buffer.from(text, 'utf8').equals(bytes);
}
