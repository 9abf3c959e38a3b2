/**
 * The local modules the program a launch script runs imports, read through the script's host: a
 * program that keeps its argument parser or its framework in a module beside it (`from finetune.schemas
 * import Args`, `from initialize import initialize` that imports SwissArmyTransformer) does not show in
 * its own text whose flags it reads or which framework it runs; the modules it imports do. Every
 * format that decides by the entry program reads them (the Trainer's, Megatron-LM's).
 */
import type { ShellDoc } from './document';
import { pythonImports } from '../python';
import { normalizePath } from './substitution';

/**
 * The modules a Python text imports, in any form Python allows (a bracketed list over several lines,
 * backslash continuations, `as`), each with the paths it names (`from a.b import c` → a/b and a/b/c,
 * `import a.b as d` → a/b, `from .x import y` → ./x and ./x/y, `from . import x` → ./x).
 */
function importedModules(text: string): { mod: string; forms: string[] }[] {
  const out: { mod: string; forms: string[] }[] = [];
  const seen = new Set<string>();
  const add = (mod: string, forms: string[]): void => {
    const key = forms.join('|');
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ mod, forms });
  };
  for (const i of pythonImports(text)) {
    // `from . import x` is the program's own folder, each further dot one folder up.
    const base = `${i.level ? `./${'../'.repeat(i.level - 1)}` : ''}${i.module.replace(/\./g, '/')}`;
    const names = (i.names ?? []).filter(({ name }) => name !== '*').map(({ name }) => `${base}${i.module ? '/' : ''}${name}`);
    if (!i.module) for (const n of names) add(n, [n]);
    else add(base, [base, ...names]);
  }
  return out;
}

/**
 * The texts of the local modules the entry program imports, looked up beside it and up to two folders
 * above it (a package root the program puts on `sys.path`), or, for a program run as a module, in the
 * folder its package lies in, and of the modules those import in turn
 * (a package's `__init__.py` re-exporting its parser): at most `limit` files. Modules not in the
 * workspace (the standard library, installed packages) are simply not found.
 */
export function importedTexts(s: ShellDoc, limit = 8): string[] {
  // Asked by the format's evidence and again by the Trainer's reading of the same script: read once.
  const known = readOnce.get(s);
  if (known) return known;
  const texts = walkImports(s, limit, 1).texts;
  readOnce.set(s, texts);
  return texts;
}
const readOnce = new WeakMap<ShellDoc, string[]>();

/** What a walk over the program's local imports found. */
export interface ImportWalk {
  /** The texts of the modules read, in the order found (the program's own text not among them). */
  texts: string[];
  /** Every module reached was read: no bound was met before the walk ended. */
  complete: boolean;
  /** The packages the program imports that are neither found in the workspace nor a library every training program uses (`torch`, `os`): where code not read here may be. */
  unresolved: string[];
}

/**
 * The local modules the program reaches (the modules its imports name, those they import in turn, up
 * to four levels and 40 files): for a question the first level does not answer (does any of it hand
 * the command line to HfArgumentParser; does any of it import Megatron). Read once per script.
 */
export function reachedImports(s: ShellDoc): ImportWalk {
  const known = reachedOnce.get(s);
  if (known) return known;
  const walk = walkImports(s, 40, 4);
  reachedOnce.set(s, walk);
  return walk;
}
const reachedOnce = new WeakMap<ShellDoc, ImportWalk>();

/**
 * Packages of the standard library and of the libraries training programs import, which are never the
 * program's own code: not being found in the workspace, they leave nothing unseen.
 */
const LIBRARIES = new Set(['__future__', 'abc', 'argparse', 'ast', 'asyncio', 'base64', 'bisect', 'builtins', 'collections', 'contextlib', 'copy', 'csv', 'ctypes', 'dataclasses', 'datetime', 'enum', 'functools', 'gc', 'glob', 'gzip', 'hashlib', 'heapq', 'importlib', 'inspect', 'io', 'itertools', 'json', 'logging', 'math', 'multiprocessing', 'operator', 'os', 'pathlib', 'pickle', 'platform', 'pprint', 'queue', 'random', 're', 'shutil', 'signal', 'socket', 'string', 'struct', 'subprocess', 'sys', 'tempfile', 'textwrap', 'threading', 'time', 'traceback', 'types', 'typing', 'typing_extensions', 'unittest', 'urllib', 'uuid', 'warnings', 'zipfile', 'numpy', 'torch', 'torchvision', 'torchaudio', 'transformers', 'datasets', 'accelerate', 'deepspeed', 'peft', 'trl', 'tokenizers', 'safetensors', 'sentencepiece', 'huggingface_hub', 'evaluate', 'omegaconf', 'hydra', 'yaml', 'tqdm', 'wandb', 'tensorboard', 'einops', 'scipy', 'sklearn', 'pandas', 'PIL', 'cv2', 'requests', 'packaging', 'rich', 'click', 'typer', 'fire', 'absl', 'docopt', 'tyro', 'jsonargparse', 'simple_parsing', 'boto3', 'fsspec', 'pydantic', 'bitsandbytes', 'flash_attn', 'apex', 'triton', 'jsonlines', 'cached_path', 'msgspec', 'psutil', 'filelock', 'regex', 'tiktoken']);

function walkImports(s: ShellDoc, limit: number, maxDepth: number): ImportWalk {
  const entry = s.entryText();
  const read = s.options.read;
  if (!entry?.ref || !read) return { texts: [], complete: false, unresolved: [] };
  const dirOf = (ref: string): string => (ref.includes('/') ? ref.slice(0, ref.lastIndexOf('/') + 1) : '');
  const texts: string[] = [];
  const seen = new Map<string, boolean>([[entry.ref, true]]);
  const unresolved = new Set<string>();
  const entryDir = dirOf(entry.ref);
  const queue: { text: string; dir: string; depth: number }[] = [{ text: entry.text, dir: entryDir, depth: 0 }];
  // Whether a top-level package is one of the workspace's (seen among the modules read, beside the program).
  const packageHere = (top: string): boolean => [...seen].some(([ref, ok]) => ok && (ref === `${entryDir}${top}.py` || ref.startsWith(`${entryDir}${top}/`) || (entry.root !== undefined && ref.startsWith(`${entry.root}${top}/`))));
  const look = (ref: string, depth: number): boolean => {
    const had = seen.get(ref);
    if (had !== undefined) return had;
    seen.set(ref, false);
    if (/\$/.test(ref)) return false;
    try {
      const f = read(ref);
      if (f.text === undefined) return false;
      seen.set(ref, true);
      texts.push(f.text);
      if (depth < maxDepth) queue.push({ text: f.text, dir: dirOf(ref), depth: depth + 1 });
      return true;
    } catch {
      return false;
    }
  };
  let bounded = false;
  while (queue.length) {
    const { text, dir, depth } = queue.shift()!;
    for (const { mod, forms } of importedModules(text.slice(0, 200_000))) {
      if (texts.length >= limit) {
        bounded = true;
        break;
      }
      const top = mod.startsWith('.') ? undefined : mod.split('/')[0];
      // A program run as a module (`python -m pkg.mod`) imports its package from the folder the package lies in.
      // An absolute import is looked up where Python looks first: the entry program's folder (sys.path[0]),
      // or the folder a module's package lies in; then beside the importing module and up to two folders above it.
      const roots = mod.startsWith('.') ? [dir] : [...new Set([entryDir, ...(entry.root !== undefined ? [entry.root] : []), dir, `${dir}../`, `${dir}../../`])];
      let found = false;
      for (const form of forms) {
        for (const root of roots) {
          if (texts.length >= limit) break;
          if (look(normalizePath(`${root}${form}.py`), depth) || look(normalizePath(`${root}${form}/__init__.py`), depth)) {
            found = true;
            // Python runs the `__init__.py` of each package above the module first (`import a.b.c`
            // runs a/__init__.py and a/b/__init__.py): read where they are (a namespace package has none).
            if (!mod.startsWith('.')) for (let i = form.indexOf('/'); i > 0 && texts.length < limit; i = form.indexOf('/', i + 1)) look(normalizePath(`${root}${form.slice(0, i)}/__init__.py`), depth);
            break;
          }
        }
      }
      // Not found: a package not in the workspace, or, past the program itself, a module of a package
      // that is (the walk then did not see everything it imports).
      if (!found && !(top && LIBRARIES.has(top)) && (depth === 0 || (top !== undefined && packageHere(top)))) unresolved.add(top ?? mod);
    }
    if (bounded) break;
  }
  return { texts, complete: !bounded && !queue.length, unresolved: [...unresolved] };
}
