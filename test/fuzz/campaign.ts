/**
 * A fuzz campaign: generate and check inputs over a worker pool, count failures per category,
 * keep the first input of every distinct failure, minimise those and write them as reproducers.
 * Shared by the runner (`npm run fuzz`) and the bounded suite in `npm test`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { allocate, generate } from './generate';
import { Pool } from './pool';
import { shrink } from './shrink';
import { CATEGORIES, FAILURE_KINDS, INFORMATIONAL, toJson, type Category, type CheckResult, type Failure, type FailureKind, type FuzzInput, type Scale } from './types';

export interface CategoryStats {
  inputs: number;
  /** Inputs with at least one failure of each kind. */
  kinds: Record<FailureKind, number>;
  slowest: { ms: number; id: string };
}

export interface Distinct extends Failure {
  category: Category;
  variant: string;
  /** The first input that showed it. */
  id: string;
  /** Inputs that showed it. */
  count: number;
}

export interface Summary {
  seed: number;
  scale: Scale;
  n: number;
  ms: number;
  categories: Partial<Record<Category, CategoryStats>>;
  distinct: Distinct[];
}

export interface CampaignOptions {
  n: number;
  seed: number;
  categories?: readonly Category[];
  scale?: Scale;
  pool: Pool;
  onProgress?: (done: number, total: number, failing: number) => void;
}

function emptyKinds(): Record<FailureKind, number> {
  return Object.fromEntries(FAILURE_KINDS.map((k) => [k, 0])) as Record<FailureKind, number>;
}

/** Folds results into per-category counts and distinct failures. */
export class Tally {
  readonly categories: Partial<Record<Category, CategoryStats>> = {};
  readonly distinct = new Map<string, Distinct>();

  add(r: CheckResult): void {
    const s = (this.categories[r.category] ??= { inputs: 0, kinds: emptyKinds(), slowest: { ms: 0, id: '' } });
    s.inputs++;
    if (r.ms > s.slowest.ms) s.slowest = { ms: r.ms, id: r.id };
    for (const kind of new Set(r.failures.map((f) => f.kind))) s.kinds[kind]++;
    for (const f of r.failures) {
      const d = this.distinct.get(f.signature);
      if (d) d.count++;
      else this.distinct.set(f.signature, { ...f, category: r.category, variant: r.variant, id: r.id, count: 1 });
    }
  }

  failing(): number {
    return [...this.distinct.values()].filter((d) => !INFORMATIONAL.includes(d.kind)).length;
  }
}

export async function runCampaign(o: CampaignOptions): Promise<Summary> {
  const started = Date.now();
  const scale = o.scale ?? 'full';
  const counts = allocate(o.n, o.categories ?? CATEGORIES);
  // Interleaved, so that progress (and an interrupted run) covers every category.
  const tasks: { category: Category; index: number }[] = [];
  const most = Math.max(...Object.values(counts));
  for (let i = 0; i < most; i++) for (const c of CATEGORIES) if (i < counts[c]) tasks.push({ category: c, index: i });
  const tally = new Tally();
  let done = 0;
  await Promise.all(
    tasks.map((t) =>
      o.pool.run({ kind: 'gen', category: t.category, index: t.index, seed: o.seed, scale }).then((r) => {
        tally.add(r);
        done++;
        o.onProgress?.(done, tasks.length, tally.failing());
      }),
    ),
  );
  return { seed: o.seed, scale, n: tasks.length, ms: Date.now() - started, categories: tally.categories, distinct: sortDistinct([...tally.distinct.values()]) };
}

function sortDistinct(ds: Distinct[]): Distinct[] {
  return ds.sort((a, b) => FAILURE_KINDS.indexOf(a.kind) - FAILURE_KINDS.indexOf(b.kind) || b.count - a.count || a.signature.localeCompare(b.signature));
}

const COLUMNS: [FailureKind, string][] = [
  ['crash', 'crashes'],
  ['hang', 'hangs'],
  ['range', 'out-of-range'],
  ['completion-range', 'bad completion'],
  ['unsanitised', 'unsanitised'],
  ['fix-breaks-syntax', 'fix breaks syntax'],
  ['fix-all-oscillation', 'fix-all osc.'],
  ['wrote-outside', 'wrote outside'],
  ['bytes-changed', 'bytes changed'],
  ['fix-not-removing', 'fix not removing (info)'],
];

/** The per-category table (counts are inputs with at least one failure of the kind). */
export function table(s: Summary): string {
  const head = ['category', 'inputs', ...COLUMNS.map(([, t]) => t), 'slowest'];
  const rows: string[][] = [];
  const total = { inputs: 0, kinds: emptyKinds(), slowest: { ms: 0, id: '' } };
  for (const c of CATEGORIES) {
    const st = s.categories[c];
    if (!st) continue;
    total.inputs += st.inputs;
    for (const [k] of COLUMNS) total.kinds[k] += st.kinds[k];
    if (st.slowest.ms > total.slowest.ms) total.slowest = st.slowest;
    rows.push([c, String(st.inputs), ...COLUMNS.map(([k]) => String(st.kinds[k])), `${st.slowest.ms.toFixed(0)} ms ${st.slowest.id}`]);
  }
  rows.push(['total', String(total.inputs), ...COLUMNS.map(([k]) => String(total.kinds[k])), `${total.slowest.ms.toFixed(0)} ms ${total.slowest.id}`]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]): string => `| ${cells.map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  return [line(head), `|${widths.map((w, i) => (i === 0 || i === widths.length - 1 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|')}|`, ...rows.map(line)].join('\n');
}

/** The regression-case form of an input (see regressions.ts), text aside. */
export function caseOf(input: FuzzInput): Record<string, unknown> {
  const { id, category, variant, path, languageId, settings, client, project, links, referrers, cursors } = input;
  return { id, category, variant, path, languageId, settings, client, project, links, referrers, cursors };
}

function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 70);
}

function extension(path: string): string {
  const m = /\.(ya?ml|json|sh)$/.exec(path);
  return m ? m[1] : 'txt';
}

export interface Reproducer {
  distinct: Distinct;
  text: string;
  json: string;
  shrunk: boolean;
  originalSize: number;
  size: number;
}

/**
 * Minimises the first input of every distinct failure and writes it to `out` (`NNN-<kind>-<slug>.input.<ext>`
 * with the text, `NNN-<kind>-<slug>.json` beside it with everything else). A hang of a bomb (its size is the
 * failure) is written as generated, with the generator call that makes it.
 */
export async function writeReproducers(s: Summary, out: string, pool: Pool, options: { shrinkMs?: number; onDone?: (r: Reproducer) => void } = {}): Promise<Reproducer[]> {
  mkdirSync(out, { recursive: true });
  const run = (input: FuzzInput): Promise<CheckResult> => pool.run({ kind: 'input', input });
  // As many shrinks at once as the pool has workers: each has a time budget of its own.
  let free = pool.size;
  const waiting: (() => void)[] = [];
  const slot = async (): Promise<void> => {
    if (free > 0) free--;
    else await new Promise<void>((r) => waiting.push(r));
  };
  const release = (): void => {
    const w = waiting.shift();
    if (w) w();
    else free++;
  };
  const reproduce = async (d: Distinct, i: number): Promise<Reproducer> => {
    const index = Number(d.id.slice(d.id.lastIndexOf('-') + 1));
    const original = generate(d.category, index, s.seed, s.scale);
    const sizeIsTheFailure = (d.kind === 'hang' && (d.category === 'bomb' || original.text.length > 200_000)) || (d.kind === 'crash' && d.signature.startsWith('crash:worker') && original.text.length > 200_000);
    let input = original;
    let trials = 0;
    if (!sizeIsTheFailure) ({ input, trials } = await shrink(original, d.signature, run, { maxMs: options.shrinkMs ?? 30_000 }));
    const base = `${String(i + 1).padStart(3, '0')}-${d.kind}-${slug(d.signature.slice(d.kind.length + 1))}`;
    // `.input.` keeps a JSON input apart from its sidecar (and out of the regression loader).
    const textFile = `${base}.input.${extension(input.path)}`;
    writeFileSync(join(out, textFile), input.text);
    const json = join(out, `${base}.json`);
    writeFileSync(
      json,
      toJson({
        name: base,
        failure: { kind: d.kind, signature: d.signature, detail: d.detail, inputs: d.count },
        ...caseOf(input),
        textFile,
        generator: { category: d.category, index, seed: s.seed, scale: s.scale },
        originalSize: original.text.length,
        size: input.text.length,
        shrinkTrials: trials,
        growth: input.growth ? { factor: input.growth.factor, size: input.growth.text.length } : undefined,
      }) + '\n',
    );
    const r: Reproducer = { distinct: d, text: join(out, textFile), json, shrunk: !sizeIsTheFailure, originalSize: original.text.length, size: input.text.length };
    options.onDone?.(r);
    return r;
  };
  const jobs = s.distinct.map(async (d, i): Promise<Reproducer> => {
    await slot();
    try {
      return await reproduce(d, i);
    } finally {
      release();
    }
  });
  return Promise.all(jobs);
}
