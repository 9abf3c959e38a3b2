/**
 * The local modules a training program imports, read through the script's host: where a program
 * keeps its argument parser (`from finetune.schemas import Args`), its own text does not show whose
 * flags it reads, the modules it imports do.
 */
import type { ShellDoc } from '../../syntax/shell/document';
import { importRoot, pythonImports } from '../../syntax/python';
import type { LaunchCommand } from '../format';

/** `a/./b/../c` as `a/c`; leading `..` kept (a folder above the script's). */
function normal(ref: string): string {
  const out: string[] = [];
  for (const part of ref.split('/')) {
    if (part === '.' || part === '') continue;
    if (part === '..' && out.length && out[out.length - 1] !== '..') out.pop();
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

/** A Transformers or TRL import in a Python text. */
function importsHf(text: string): boolean {
  return pythonImports(text).some((i) => HF_PACKAGES.has(importRoot(i) ?? ''));
}
const HF_PACKAGES = new Set(['transformers', 'trl']);
/** A trainer class built: `Trainer(`, `SFTTrainer(`, a repository's `LLaVATrainer(` (a subclass). */
const TRAINER_BUILT = /\b\w*Trainer\s*\(/;
/** An import of a trainer of another framework, whose loop does not read the Transformers placeholders. */
function importsOtherTrainer(text: string): boolean {
  return pythonImports(text).some((i) => {
    const root = importRoot(i) ?? '';
    if (OTHER_TRAINERS.has(root)) return true;
    // Ray Train: `import ray.train`, `from ray.train.torch import …`, `from ray import train`.
    return root === 'ray' && (/^ray\.train(\.|$)/.test(i.module) || (i.module === 'ray' && !!i.names?.some((n) => n.name === 'train')));
  });
}
const OTHER_TRAINERS = new Set(['lightning', 'pytorch_lightning', 'lightning_fabric', 'composer']);

/**
 * Whether the program the script runs builds a Transformers (or TRL) Trainer, in its own text or in
 * the local modules it imports: such a program fills the DeepSpeed config's `"auto"` placeholders
 * before Accelerate reads them. The reason, in words, when it does.
 */
export function buildsTrainer(s: ShellDoc): string | undefined {
  const entry = s.entryText();
  if (!entry) return undefined;
  const name = entry.ref?.split('/').pop() ?? 'the training program';
  const texts = [entry.text.slice(0, 2_000_000), ...importedTexts(s)];
  if (texts.some(importsOtherTrainer)) return undefined;
  const shows = (t: string) => TRAINER_BUILT.test(t) && importsHf(t);
  if (shows(texts[0])) return `\`${name}\` builds a Transformers Trainer`;
  if (texts.slice(1).some(shows)) return `\`${name}\` builds a Transformers Trainer (in the modules it imports)`;
  return undefined;
}

/** The known launches all start a program that builds a Transformers Trainer: why, in words; undefined when one does not, or none is known. */
export function everyLaunchStartsATrainer(launches: readonly LaunchCommand[]): string | undefined {
  if (!launches.length || !launches.every((l) => l.trainer?.())) return undefined;
  return launches.map((l) => `\`${l.path.split(/[\\/]/).pop()}\` starts it, and ${l.trainer!()}`).join('; ');
}

