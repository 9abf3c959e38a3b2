/**
 * Kept reproducers (test/fuzz/regressions/*.json), run by the bounded suite. One JSON file per case:
 *
 *   { "name", "description", "category", "path",
 *     "text": "..."                                 the text itself, or
 *     "textFile": "x.input.yaml"                    a file beside the JSON (`.input.` in its name), or
 *     "textFrom": "examples/accelerate/x.yaml"      a file of the repository, optionally with
 *     "eol": "cr" | "crlf-bom" | "tabs" | ...       a line-ending variant applied, or
 *     "generate": { "bomb": "aliases-block", "n": 100000 }              a bomb at a size, or
 *     "generate": { "head": "...", "repeat": "k${i}: 1\n", "times": 100000, "tail": "..." },
 *     "languageId", "settings", "client", "project", "links", "referrers", "cursors",
 *     "expect": { "codes": ["unknown-key"] } }      rule ids the analysis must report (optional)
 *
 * Every case must pass the whole oracle (informational kinds aside). A runner reproducer's `.json`
 * (with its `textFile` copied beside it) is a regression case as it is.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BOMBS } from './gen/bombs';
import { EOL_VARIANTS, eolVariant } from './gen/hostile';
import { Rng } from './rng';
import { ROOT } from './sources';
import { fromJson, type Category, type FuzzInput } from './types';

export const REGRESSIONS = join(__dirname, 'regressions');

export interface RegressionCase {
  name: string;
  description?: string;
  category?: Category;
  path: string;
  text?: string;
  textFile?: string;
  textFrom?: string;
  eol?: (typeof EOL_VARIANTS)[number];
  generate?: { bomb: string; n?: number; growth?: boolean } | { head?: string; repeat: string; times: number; tail?: string };
  languageId?: string;
  settings?: FuzzInput['settings'];
  client?: unknown;
  project?: string;
  links?: FuzzInput['links'];
  referrers?: FuzzInput['referrers'];
  cursors?: number[];
  expect?: { codes?: string[] };
}

/** The input a case describes. */
export function regressionInput(c: RegressionCase, dir = REGRESSIONS): FuzzInput {
  let text: string;
  let growth: FuzzInput['growth'];
  if (c.text !== undefined) text = c.text;
  else if (c.textFile) text = readFileSync(join(dir, c.textFile), 'utf8');
  else if (c.textFrom) text = readFileSync(join(ROOT, c.textFrom), 'utf8');
  else if (c.generate && 'bomb' in c.generate) {
    const g = c.generate;
    const spec = BOMBS.find((b) => b.name === g.bomb);
    if (!spec) throw new Error(`${c.name}: no bomb named ${g.bomb}`);
    const n = g.n ?? spec.size;
    text = spec.make(n);
    if (g.growth) growth = { text: spec.make(Math.max(1, Math.floor(n / 4))), factor: 4 };
  } else if (c.generate) {
    const g = c.generate;
    const parts: string[] = new Array(g.times);
    for (let i = 0; i < g.times; i++) parts[i] = g.repeat.replace(/\$\{i\}/g, String(i));
    text = (g.head ?? '') + parts.join('') + (g.tail ?? '');
  } else throw new Error(`${c.name}: no text, textFile, textFrom or generate`);
  if (c.eol) text = eolVariant(text, c.eol, new Rng(0));
  return {
    id: `regression-${c.name}`,
    category: c.category ?? 'mutation',
    variant: `regression:${c.name}`,
    path: c.path,
    text,
    languageId: c.languageId,
    settings: c.settings,
    client: c.client,
    project: c.project,
    links: c.links,
    referrers: c.referrers,
    cursors: c.cursors,
    growth,
  };
}

export function regressionCases(dir = REGRESSIONS): RegressionCase[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') && !f.includes('.input.'))
    .sort()
    .map((f) => ({ name: f.replace(/\.json$/, ''), ...fromJson<Omit<RegressionCase, 'name'> & { name?: string }>(readFileSync(join(dir, f), 'utf8')) }) as RegressionCase);
}
