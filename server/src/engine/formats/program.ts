/**
 * How a training program reads its command line, from its text: a parser of its own kind (OmegaConf's
 * dotlist, click, Typer, Fire, absl, docopt, tyro, jsonargparse, Hydra) or `sys.argv` itself. A launch
 * script's flags are a format's only where the program hands them to that format's parser; a program
 * that shows another reader and none of the format's reads them itself.
 */
import { importRoot, pythonImports } from '../syntax/python';

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
