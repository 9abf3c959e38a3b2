import { fileURLToPath, pathToFileURL } from 'node:url';

/** Document URIs → file system paths (only `file:` URIs have one), and back. */
export const URI = {
  fsPath(uri: string): string | undefined {
    if (!uri.startsWith('file:')) return undefined;
    try {
      return fileURLToPath(uri);
    } catch {
      return undefined;
    }
  },
  /** The path part of any URI (for format associations of unsaved or remote documents). */
  path(uri: string): string {
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
