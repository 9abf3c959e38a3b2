/**
 * Analyses too heavy for the thread that answers requests. A document past HEAVY_CHARS that the
 * size limit lets through, or one whose analysis took longer than SLOW_MS twice in a row, is analysed in a worker thread of its own (this bundle
 * again, see main.ts), so that a hover or a completion in another document is answered meanwhile.
 * The worker reads the linked files itself (the open documents' texts are handed to it, as the
 * resolver would read them) and sends back what the editor shows: the diagnostics, plus the files
 * the analysis looked at and linked to, for the dependency graph. A newer version of the document
 * ends the worker of the older one.
 *
 * Hover, completion and fixes need the analysis itself, which cannot cross threads: for a heavy
 * document they are off, and a note on its first line says so and why.
 */
import { performance } from 'node:perf_hooks';
import { Worker, workerData, parentPort } from 'node:worker_threads';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver/node';
import { analyze, DEFAULT_MAX_FILE_SIZE, type EngineSettings } from '../engine';
import { BACKGROUND_BUDGET_MS, timeBudget } from '../host/budget';
import { createResolver, pathKey } from '../host/resolve';
import { toDiagnostic, type DiagnosticSupport } from './convert';
import { URI } from './uri';

/**
 * A document longer than this (in UTF-16 code units) is analysed in a worker thread: the default
 * size limit, past which only a raised `shardwise.maxFileSizeKB` has a document analysed at all.
 */
export const HEAVY_CHARS = DEFAULT_MAX_FILE_SIZE;
/** Two analyses in a row on the request thread that took longer than this send the document's later versions to a worker. */
export const SLOW_MS = 1000;

/** Everything one analysis needs, as data a worker can receive. */
export interface HeavyJob {
  uri: string;
  path?: string;
  text: string;
  languageId: string;
  settings: EngineSettings;
  /** Folders a relative reference is tried against after the file's own. */
  roots: string[];
  /** The open documents' texts by path key (unsaved edits win over the disk). */
  open: [string, string][];
  /** The open documents' URIs by path key, for related places in them. */
  uris: [string, string][];
  referrers?: { path: string; text: string }[];
  client: DiagnosticSupport;
}

/** What a worker sends back. */
export type HeavyResult = { diagnostics: Diagnostic[]; ms: number; targets: string[]; watched: string[] } | { error: string };

/** Marks the message a heavy analysis's worker was started with. */
const JOB = 'shardwiseHeavyAnalysis';

/** Whether this thread is the worker of a heavy analysis (main.ts runs `heavyWorker` then). */
export function isHeavyWorker(): boolean {
  return !!workerData && typeof workerData === 'object' && JOB in workerData;
}

/** Starts the analysis of `job` in a worker thread of its own; `cancel` ends it (its promise then says so). */
export function runHeavy(job: HeavyJob): { promise: Promise<HeavyResult>; cancel(): void } {
  let worker: Worker | undefined;
  let settle: (r: HeavyResult) => void = () => undefined;
  const promise = new Promise<HeavyResult>((resolve) => {
    settle = resolve;
    try {
      worker = new Worker(__filename, { workerData: { [JOB]: job }, stdout: true, stderr: true });
    } catch (err) {
      resolve({ error: `the analysis thread did not start: ${(err as Error)?.message ?? err}` });
      return;
    }
    worker.once('message', (m: HeavyResult) => resolve(m));
    worker.once('error', (err) => resolve({ error: `the analysis stopped: ${(err as Error)?.message ?? err}` }));
    worker.once('exit', () => resolve({ error: 'the analysis was stopped' }));
  });
  return {
    promise,
    cancel() {
      settle({ error: 'the analysis was stopped' });
      void worker?.terminate();
    },
  };
}

/** The worker's side: analyses the job it was given, sends the result, and ends. */
export function heavyWorker(): void {
  const job = (workerData as Record<string, HeavyJob>)[JOB];
  const started = performance.now();
  let result: HeavyResult;
  try {
    const open = new Map(job.open);
    const uris = new Map(job.uris);
    const tried = new Set<string>();
    const analysis = analyze(
      {
        path: job.path ?? URI.path(job.uri),
        text: job.text,
        languageId: job.languageId,
        resolve: createResolver({ from: job.path, bases: job.roots, openText: (p) => open.get(pathKey(p)), onTry: (p) => tried.add(pathKey(p)) }),
        referrers: job.referrers,
        budget: timeBudget(BACKGROUND_BUDGET_MS, 'a large file'),
      },
      job.settings,
    );
    const diagnostics = analysis.findings.map((f) => toDiagnostic(job.uri, analysis, f, job.client, (p) => uris.get(pathKey(p)) ?? URI.file(p)));
    const targets = (analysis.links ?? []).flatMap((l) => (l.target ? [pathKey(l.target)] : []));
    result = { diagnostics, ms: performance.now() - started, targets, watched: [...tried, ...(analysis.dependencies ?? []).map(pathKey)] };
  } catch (err) {
    result = { error: `analysing it failed: ${(err as Error)?.stack ?? err}` };
  }
  parentPort?.postMessage(result);
}

/** The note on a heavy document's first line: why hover, completion and fixes are off for it. */
export function heavyNote(result: HeavyResult, chars: number): Diagnostic {
  const size = `${(chars / 1024 / 1024).toFixed(1)} MB`;
  const took = 'ms' in result ? `, took ${(result.ms / 1000).toFixed(1)} s to analyse` : '';
  const why = 'error' in result ? ` The analysis did not finish: ${result.error}.` : '';
  return {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: DiagnosticSeverity.Information,
    source: 'shardwise',
    message: `This file (${size}${took}) is analysed apart from the editor, so that the editor stays responsive: its findings are shown, but hover, completion and fixes are off for it while it is this large or slow.${why}`,
  };
}
