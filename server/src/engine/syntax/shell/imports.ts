/**
 * The local modules the program a launch script runs imports, read through the script's host: a
 * program that keeps its argument parser or its framework in a module beside it (`from finetune.schemas
 * import Args`, `from initialize import initialize` that imports SwissArmyTransformer) does not show in
 * its own text whose flags it reads or which framework it runs; the modules it imports do. Every
 * format that decides by the entry program reads them (the Trainer's, Megatron-LM's).
 */
import type { ShellDoc } from './document';
import { pythonImports } from '../python';

/** `a/./b/../c` as `a/c`; leading `..` kept (a folder above the script's), and the leading `/` of an absolute path. */
function normal(ref: string): string {
  const out: string[] = ref.startsWith('/') ? [''] : [];
  for (const part of ref.split('/')) {
    if (part === '.' || part === '') continue;
    const last = out[out.length - 1];
    // Above the root is the root.
    if (part === '..' && last === '' && out.length === 1) continue;
    if (part === '..' && out.length && last !== '..') out.pop();
    else out.push(part);
  }
  return out.join('/');
}

/**
 * Module names a Python text imports, in any form Python allows (a bracketed list over several lines,
 * backslash continuations, `as`): `from a.b import c` → a/b and a/b/c, `import a.b as d` → a/b,
 * `from .x import y` → ./x and ./x/y, `from . import x` → ./x.
 */
function importedModules(text: string): string[] {
  const out: string[] = [];
  for (const i of pythonImports(text)) {
    // `from . import x` is the program's own folder, each further dot one folder up.
    const base = `${i.level ? `./${'../'.repeat(i.level - 1)}` : ''}${i.module.replace(/\./g, '/')}`;
    if (i.module) out.push(base);
    for (const { name } of i.names ?? []) if (name !== '*') out.push(`${base}${i.module ? '/' : ''}${name}`);
  }
  return [...new Set(out)];
}

/**
 * The texts of the local modules the entry program imports, looked up beside it and up to two folders
 * above it (a package root the program puts on `sys.path`), and of the modules those import in turn
 * (a package's `__init__.py` re-exporting its parser): at most `limit` files. Modules not in the
 * workspace (the standard library, installed packages) are simply not found.
 */
export function importedTexts(s: ShellDoc, limit = 8): string[] {
  // Asked by the format's evidence and again by the Trainer's reading of the same script: read once.
  const known = readOnce.get(s);
  if (known) return known;
  const texts = readImports(s, limit);
  readOnce.set(s, texts);
  return texts;
}
const readOnce = new WeakMap<ShellDoc, string[]>();

function readImports(s: ShellDoc, limit: number): string[] {
  const entry = s.entryText();
  const read = s.options.read;
  if (!entry?.ref || !read) return [];
  const dirOf = (ref: string): string => (ref.includes('/') ? ref.slice(0, ref.lastIndexOf('/') + 1) : '');
  const texts: string[] = [];
  const seen = new Set<string>([entry.ref]);
  const queue: { text: string; dir: string; depth: number }[] = [{ text: entry.text, dir: dirOf(entry.ref), depth: 0 }];
  while (queue.length && texts.length < limit) {
    const { text, dir, depth } = queue.shift()!;
    for (const mod of importedModules(text.slice(0, 200_000))) {
      const roots = mod.startsWith('.') ? [dir] : [dir, `${dir}../`, `${dir}../../`];
      for (const root of roots) {
        const found = [normal(`${root}${mod}.py`), normal(`${root}${mod}/__init__.py`)].find((ref) => {
          if (seen.has(ref) || /\$/.test(ref)) return false;
          seen.add(ref);
          try {
            const f = read(ref);
            if (f.text === undefined) return false;
            texts.push(f.text);
            if (depth < 1) queue.push({ text: f.text, dir: dirOf(ref), depth: depth + 1 });
            return true;
          } catch {
            return false;
          }
        });
        if (found || texts.length >= limit) break;
      }
      if (texts.length >= limit) break;
    }
  }
  return texts;
}
