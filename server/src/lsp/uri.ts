import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Document URIs → file system paths (only `file:` URIs have one), and back. Any string is accepted:
 * a URI that names no local file (`untitled:`, `git:`, a remote host, a malformed one) has no path.
 */
export const URI = {
  fsPath(uri: unknown): string | undefined {
    if (typeof uri !== 'string' || !/^file:/i.test(uri)) return undefined;
    try {
      // A `%` that starts no escape is a literal `%` (as editors read it), not a reason to fail.
      return fileURLToPath(uri.replace(/%(?![0-9a-fA-F]{2})/g, '%25'));
    } catch {
      return undefined;
    }
  },
  /** The path part of any URI (for format associations of unsaved or remote documents). */
  path(uri: unknown): string {
    if (typeof uri !== 'string') return '';
    const m = /^[a-z][\w+.-]*:(?:\/\/[^/]*)?([^?#]*)/i.exec(uri);
    try {
      return decodeURIComponent(m?.[1] ?? uri);
    } catch {
      return m?.[1] ?? uri;
    }
  },
  /** The `file:` URI of an absolute path. */
  file(path: string): string {
    return pathToFileURL(path).href;
  },
};
