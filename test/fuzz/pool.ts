/**
 * Worker threads that check inputs in parallel, each under a watchdog: an input that runs longer
 * than `watchdogMs` (a true infinite loop included) has its worker terminated and is recorded as a
 * hang at the stage it was in; a worker that dies (out of memory) is recorded as a crash. Either
 * way a fresh worker takes the next input.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { STAGES, type OracleOptions } from './oracle';
import type { Category, CheckResult, FuzzInput, Scale } from './types';

export type Task = { kind: 'gen'; category: Category; index: number; seed: number; scale: Scale } | { kind: 'input'; input: FuzzInput };

export interface WorkerData {
  stage: SharedArrayBuffer;
  oracle: Partial<Omit<OracleOptions, 'onStage'>>;
}

export interface PoolOptions {
  size?: number;
  /** An input's worker is terminated after this long without a result. */
  watchdogMs?: number;
  oracle?: Partial<Omit<OracleOptions, 'onStage'>>;
  /** Heap limit per worker, in MB. */
  heapMb?: number;
  /** The worker module (the fuzz worker; another one to test the pool itself). */
  script?: string;
}

interface Slot {
  worker: Worker;
  stage: Float64Array;
  ready: boolean;
  job?: { task: Task; resolve: (r: CheckResult) => void; timer?: NodeJS.Timeout; id: string; category: Category; variant: string; started: number };
}

const WORKER = join(__dirname, 'worker.ts');

export function defaultJobs(): number {
  return Math.max(1, availableParallelism());
}

export class Pool {
  private readonly slots: Slot[] = [];
  /** Tasks waiting for a worker, from `head` on (a campaign queues all of its inputs at once). */
  private queue: { task: Task; resolve: (r: CheckResult) => void }[] = [];
  private head = 0;
  private closed = false;
  readonly size: number;
  readonly watchdogMs: number;

  constructor(private readonly options: PoolOptions = {}) {
    this.size = options.size ?? defaultJobs();
    this.watchdogMs = options.watchdogMs ?? 10_000;
    for (let i = 0; i < this.size; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const shared = new SharedArrayBuffer(8 * (STAGES.length + 1));
    const data: WorkerData = { stage: shared, oracle: this.options.oracle ?? {} };
    // tsx is registered inside the worker: a worker does not inherit the loader hooks of `--import tsx`.
    const worker = new Worker(`require(${JSON.stringify(require.resolve('tsx/cjs'))}); require(${JSON.stringify(this.options.script ?? WORKER)});`, {
      eval: true,
      workerData: data,
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb ?? 4096 },
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume();
    worker.stderr.resume();
    const slot: Slot = { worker, stage: new Float64Array(shared), ready: false };
    worker.on('message', (m: { type: string; result?: CheckResult; id?: string; variant?: string }) => {
      if (m.type === 'ready') {
        slot.ready = true;
        this.next(slot);
      } else if (m.type === 'begin' && slot.job) {
        slot.job.id = m.id!;
        slot.job.variant = m.variant!;
      } else if (m.type === 'attempt' && slot.job) this.arm(slot);
      else if (m.type === 'result' && slot.job) {
        const job = slot.job;
        clearTimeout(job.timer);
        slot.job = undefined;
        job.resolve(m.result!);
        this.next(slot);
      }
    });
    worker.on('error', (err) => this.lost(slot, 'crash', `crash:worker:${(err as NodeJS.ErrnoException).code ?? err.name}`, `the worker died: ${err.message}`));
    worker.on('exit', (code) => this.lost(slot, 'crash', `crash:worker-exit`, `the worker exited with code ${code}`));
    return slot;
  }

  private arm(slot: Slot): void {
    const job = slot.job!;
    clearTimeout(job.timer);
    job.timer = setTimeout(() => {
      const stage = STAGES[slot.stage[0]] ?? 'unknown';
      const spent = STAGES.map((s, i) => [s, slot.stage[1 + i]] as const)
        .filter(([, ms]) => ms >= 100)
        .map(([s, ms]) => `${s} ${(ms / 1000).toFixed(1)} s`);
      this.lost(slot, 'hang', `hang:${job.variant}`, `killed by the watchdog after ${this.watchdogMs / 1000} s, in ${stage}${spent.length ? ` (done before: ${spent.join(', ')})` : ''}`);
    }, this.watchdogMs);
  }

  /** The worker is gone (killed or dead): its input gets a result, a new worker takes its place. */
  private lost(slot: Slot, kind: 'hang' | 'crash', signature: string, detail: string): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    const job = slot.job;
    slot.job = undefined;
    this.slots.splice(i, 1);
    if (job) {
      clearTimeout(job.timer);
      job.resolve({ id: job.id, category: job.category, variant: job.variant, failures: [{ kind, signature, detail }], ms: Date.now() - job.started, stages: {} });
    }
    slot.worker.removeAllListeners('exit');
    slot.worker.on('exit', () => undefined);
    void slot.worker.terminate();
    if (!this.closed) this.slots.push(this.spawn());
  }

  private next(slot: Slot): void {
    if (!slot.ready || slot.job || this.closed) return;
    if (this.head >= this.queue.length) return;
    const item = this.queue[this.head++];
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    const { task, resolve } = item;
    const id = task.kind === 'gen' ? `${task.category}-${task.index}` : task.input.id;
    const category = task.kind === 'gen' ? task.category : task.input.category;
    slot.job = { task, resolve, id, category, variant: task.kind === 'input' ? task.input.variant : `${category}:?`, started: Date.now() };
    this.arm(slot);
    slot.worker.postMessage(task);
  }

  run(task: Task): Promise<CheckResult> {
    return new Promise((resolve) => {
      this.queue.push({ task, resolve });
      for (const s of this.slots) this.next(s);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(
      this.slots.map((s) => {
        s.worker.removeAllListeners('exit');
        return s.worker.terminate();
      }),
    );
  }
}
