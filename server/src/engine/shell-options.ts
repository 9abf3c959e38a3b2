/**
 * What a launch script's reader may use: the flags' arities, the files it names through the host
 * (its entry program, the files it sources), its own path. Pure: the host's lookups are passed in.
 */
import type { LinkedFile } from './formats/link';
import { flagTakesValue } from './formats/megatron/schema';
import type { FileInput } from './result';
import type { ShellOptions } from './syntax/shell';

type Read = (ref: string) => LinkedFile;

function readText(f: LinkedFile): { text: string; path?: string } | { why: string } {
  return f.text !== undefined ? { text: f.text, path: f.path } : { why: f.problem ? `${f.problem.path} ${f.problem.reason}` : f.tried.length ? `not found (looked at ${f.tried.slice(0, 3).join(', ')})` : 'not found' };
}

/** The analysed script's reader: the host finds what it names from the script's place. */
export function shellOptions(input: FileInput, related: { read: Read }): ShellOptions {
  return { takesValue: flagTakesValue, read: input.resolve ? (ref) => readText(related.read(ref)) : undefined, path: input.path };
}

/**
 * A referrer's reader (a launch script handed to the analysed file): the host looks up what the
 * script names from the script's own folder, since it resolves relative names from the analysed file.
 */
export function referrerShellOptions(path: string, read: Read | undefined): ShellOptions {
  const dir = path.slice(0, Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const absolute = (ref: string) => /^([/\\]|[A-Za-z]:)/.test(ref);
  return { takesValue: flagTakesValue, read: read ? (ref) => readText(read(absolute(ref) ? ref : `${dir}${ref}`)) : undefined, path };
}
