/**
 * How a training program reads its command line, from its text: a parser of its own kind (OmegaConf's
 * dotlist, click, Typer, Fire, absl, docopt, tyro, jsonargparse, Hydra) or `sys.argv` itself. A launch
 * script's flags are a format's only where the program hands them to that format's parser; a program
 * that shows another reader and none of the format's reads them itself.
 */
import { importRoot, pythonImports } from '../syntax/python';
import type { ShellDoc } from '../syntax/shell/document';
import { reachedImports } from '../syntax/shell/imports';

const READERS: { test: RegExp; import?: string; name: string }[] = [
  { test: /\bOmegaConf\s*\.\s*from_(cli|dotlist)\s*\(/, name: 'OmegaConf (`from_cli`/`from_dotlist`)' },
  { test: /@\s*click\s*\.\s*(command|group|option|argument)\b/, name: 'click' },
  { test: /\btyper\s*\.\s*(run|Typer)\s*\(/, name: 'Typer' },
  { test: /\bFire\s*\(/, import: 'fire', name: 'Fire' },
  { test: /\b(app\s*\.\s*run|DEFINE_\w+)\s*\(/, import: 'absl', name: 'absl flags' },
  { test: /\bdocopt\s*\(/, import: 'docopt', name: 'docopt' },
  { test: /\btyro\s*\.\s*cli\s*\(|\bcli\s*\(/, import: 'tyro', name: 'tyro' },
  { test: /\b(ArgumentParser|CLI|auto_cli)\s*\(/, import: 'jsonargparse', name: 'jsonargparse' },
  { test: /@\s*hydra\s*\.\s*main\b|@\s*hydra_runner\b/, name: 'Hydra' },
];

/** The parser of another kind the program reads its command line with, as words (`click`), if its text shows one. */
export function otherArgvReader(text: string): string | undefined {
  const t = text.length > 2_000_000 ? text.slice(0, 2_000_000) : text;
  let roots: Set<string> | undefined;
  for (const r of READERS) {
    if (!r.test.test(t)) continue;
    if (r.import) {
      roots ??= new Set(pythonImports(t).map((i) => importRoot(i) ?? ''));
      if (!roots.has(r.import)) continue;
    }
    return r.name;
  }
  return undefined;
}

/** Whether the program reads `sys.argv` itself (`sys.argv[1]`, `sys.argv[2:]`). */
export function readsSysArgv(text: string): boolean {
  return /\bsys\s*\.\s*argv\b|\bfrom\s+sys\s+import\s+[^\n]*\bargv\b/.test(text.length > 2_000_000 ? text.slice(0, 2_000_000) : text);
}

/** How a program shows that it reads its command line apart from a format's parser (see `readsApart`). */
export type ApartReading = { reader: string } | { argv: true } | { nothing: true };

/**
 * How the program a launch script runs (`text`) reads its command line without the format's parser,
 * when it shows that: no local module it reaches (`reachedImports`) hands the command line to that
 * parser or imports its framework (`reaches`), and the program reads it with a parser of another kind
 * (`reader`), or reads `sys.argv` itself (`argv`), or reaches every module it imports (`nothing`).
 * Undefined when it may reach the format's parser through code not read here (a package of the
 * workspace that is not found, a walk cut short).
 */
export function readsApart(s: ShellDoc, text: string, reaches: (text: string) => boolean): ApartReading | undefined {
  const walk = reachedImports(s);
  if (walk.texts.some(reaches)) return undefined;
  const reader = otherArgvReader(text);
  if (reader) return { reader };
  if (walk.unresolved.length) return undefined;
  if (readsSysArgv(text)) return { argv: true };
  return walk.complete ? { nothing: true } : undefined;
}
