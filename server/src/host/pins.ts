/**
 * The releases a file's repository pins (node side: file system). From the file's folder up to the
 * repository's root (a folder with `.git`), the nearest folder whose dependency files name a tool
 * gives that tool's pin (engine/pins.ts reads the files).
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { folderPins, isPinFile, type Pin, type Tool } from '../engine';
import { readBounded } from './read';

/** Dependency files are small; a larger one is not read. */
const MAX_PIN_FILE_BYTES = 2 * 1024 * 1024;
/** At most this many dependency files of one folder are read. */
const MAX_PIN_FILES = 32;

export class RepositoryPins {
  private readonly folders = new Map<string, Partial<Record<Tool, Pin>>>();
  /** What applies in a folder, by folder and root: every analysis of a file asks again (each keystroke in an editor). */
  private readonly applying = new Map<string, Partial<Record<Tool, Pin>> | undefined>();

  clear(): void {
    this.folders.clear();
    this.applying.clear();
  }

  /** What one folder's dependency files pin (cached). */
  private inFolder(dir: string): Partial<Record<Tool, Pin>> {
    const cached = this.folders.get(dir);
    if (cached) return cached;
    let names: string[] = [];
    try {
      names = readdirSync(dir).filter(isPinFile).sort().slice(0, MAX_PIN_FILES);
    } catch {
      // A folder that cannot be listed pins nothing.
    }
    const files: { name: string; text: string }[] = [];
    for (const name of names) {
      const read = readBounded(join(dir, name), MAX_PIN_FILE_BYTES);
      if (read.ok) files.push({ name, text: read.text });
    }
    const pins = folderPins(files);
    this.folders.set(dir, pins);
    return pins;
  }

  /** The pins that apply to a file: per tool, the nearest folder at or above it that pins it, within its repository (or up to `root`). */
  forFile(file: string, root?: string): Partial<Record<Tool, Pin>> | undefined {
    const start = dirname(resolve(file));
    const key = `${start}\0${root ?? ''}`;
    if (this.applying.has(key)) return this.applying.get(key);
    const found = this.walk(start, root);
    this.applying.set(key, found);
    return found;
  }

  private walk(start: string, root: string | undefined): Partial<Record<Tool, Pin>> | undefined {
    const out: Partial<Record<Tool, Pin>> = {};
    let dir = start;
    for (let i = 0; i < 64; i++) {
      for (const [tool, pin] of Object.entries(this.inFolder(dir)) as [Tool, Pin][]) {
        // Named by where it is, from the file's folder, for messages.
        if (!out[tool]) out[tool] = { ...pin, file: pin.file.split(', ').map((f) => relative(start, join(dir, f)).replace(/\\/g, '/')).join(', ') };
      }
      if (existsSync(join(dir, '.git')) || (root !== undefined && resolve(root) === dir)) break;
      const parent = dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
    return Object.keys(out).length ? out : undefined;
  }
}
