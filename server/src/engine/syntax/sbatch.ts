/**
 * The `#SBATCH` header of a Slurm batch script: the allocation it asks for, and the variables Slurm
 * sets from it in the job's environment.
 *
 * sbatch reads `#SBATCH` options written at the start of a line, before the first command: it
 * "stops processing further #SBATCH directives once the first non-comment non-whitespace line has
 * been reached" (sbatch(1)). Each line holds options as on sbatch's command line (`--nodes=4`,
 * `--nodes 4`, `-N 4`, `-N4`), and a word starting with `#` begins a comment. `# SBATCH` and
 * `##SBATCH` are comments. Options given to sbatch on its command line override these; the header
 * is what the file says.
 *
 * What is read: `--nodes`/`-N` (a count, or `min-max`: known only when min = max), `--ntasks`/`-n`,
 * `--ntasks-per-node`, `--gpus-per-node`, `--gres=gpu[:type]:N`, `--gpus`/`-G` (total),
 * `--gpus-per-task`, `--constraint`/`-C`, `--partition`/`-p`. A heterogeneous job (`#SBATCH hetjob`
 * or the older `packjob` between components) has several allocations: none of them is taken as the
 * job's, and everything that would follow from it stays unknown.
 */
import type { Span } from '../types';

export interface SbatchValue<T> {
  value: T;
  /** The value as written in its `#SBATCH` line. */
  span: Span;
  /** The option as written (`--nodes`, `-N`). */
  option: string;
  /** The option and its value. */
  whole: Span;
}

export interface SbatchOption {
  /** The long name (`nodes`, `gres`), or the option as written when it has none known here. */
  name: string;
  written: string;
  value?: string;
  span: Span;
  valueSpan: Span;
}

export interface Allocation {
  /** Every option of the header, in order. */
  options: SbatchOption[];
  /** The header's lines, from the first `#SBATCH` to the last. */
  span: Span;
  nodes?: SbatchValue<number>;
  ntasks?: SbatchValue<number>;
  ntasksPerNode?: SbatchValue<number>;
  /** GPUs on each node: `--gpus-per-node`, `--gres=gpu:N`, or `--gpus-per-task` × `--ntasks-per-node`. */
  gpusPerNode?: SbatchValue<number>;
  /** `--gpus`: the job's total. */
  gpus?: SbatchValue<number>;
  gpusPerTask?: SbatchValue<number>;
  constraint?: SbatchValue<string>;
  partition?: SbatchValue<string>;
  /** Options whose values cannot be known here (`--nodes=2-4`), by long name, with why. */
  unknown: Map<string, string>;
  /** Set when the header holds several allocations (a heterogeneous job): none of them is the job's. */
  heterogeneous?: Span;
}

const SHORT: Record<string, string> = { N: 'nodes', n: 'ntasks', G: 'gpus', C: 'constraint', p: 'partition', c: 'cpus-per-task', J: 'job-name', t: 'time', o: 'output', e: 'error', A: 'account', q: 'qos', w: 'nodelist', x: 'exclude', D: 'chdir', d: 'dependency', a: 'array', L: 'licenses', M: 'clusters', i: 'input', k: 'no-kill', m: 'distribution', S: 'core-spec' };
/** Short options that take no value. */
const SHORT_FLAGS = new Set(['H', 'h', 'I', 'O', 'Q', 's', 'u', 'V', 'v', 'W', 'k']);
/** Long options whose value may be given as the next word (the ones read here). */
const VALUED = new Set(['nodes', 'ntasks', 'ntasks-per-node', 'gpus-per-node', 'gres', 'gpus', 'gpus-per-task', 'constraint', 'partition', 'cpus-per-task', 'job-name', 'time', 'output', 'error', 'account', 'qos', 'mem', 'mem-per-cpu', 'mem-per-gpu', 'reservation', 'hint', 'nodelist', 'exclude', 'chdir', 'dependency', 'array', 'cpus-per-gpu', 'signal', 'mail-type', 'mail-user', 'comment', 'begin', 'licenses', 'distribution', 'switches', 'export', 'gpu-bind', 'cpu-bind', 'nice', 'priority', 'wckey', 'tmp', 'threads-per-core', 'cores-per-socket', 'sockets-per-node', 'ntasks-per-socket', 'ntasks-per-core', 'ntasks-per-gpu', 'network', 'clusters', 'cluster-constraint', 'core-spec', 'mcs-label', 'deadline', 'delay-boot', 'profile', 'propagate', 'uid', 'gid', 'open-mode', 'input', 'time-min', 'tres-per-task', 'gpu-freq', 'cpu-freq', 'acctg-freq', 'extra-node-info', 'burst-buffer', 'bb', 'bbf', 'container', 'container-id', 'segment']);
/** The first line of a script that is not blank and not a comment ends the header. */
const MAX_HEADER_LINES = 2000;

/** Words of an `#SBATCH` line, as sbatch splits them: quotes group, an unquoted `#` word starts a comment. */
function words(line: string, at: number): { text: string; span: Span }[] {
  const out: { text: string; span: Span }[] = [];
  let i = 0;
  while (i < line.length) {
    while (i < line.length && /\s/.test(line[i])) i++;
    if (i >= line.length || line[i] === '#') break;
    const start = i;
    let text = '';
    while (i < line.length && !/\s/.test(line[i])) {
      const c = line[i];
      if (c === '"' || c === "'") {
        const close = line.indexOf(c, i + 1);
        const end = close < 0 ? line.length : close;
        text += line.slice(i + 1, end);
        i = close < 0 ? line.length : close + 1;
      } else {
        text += c;
        i++;
      }
    }
    out.push({ text, span: { start: at + start, end: at + i } });
  }
  return out;
}

/** The `#SBATCH` header of a script, or undefined when it has no `#SBATCH` line before its first command. */
export function readSbatch(text: string): Allocation | undefined {
  const options: SbatchOption[] = [];
  let first = -1;
  let last = -1;
  let heterogeneous: Span | undefined;
  let pos = 0;
  for (let n = 0; pos <= text.length && n < MAX_HEADER_LINES; n++) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = text.length;
    const raw = text.slice(pos, end).replace(/\r$/, '');
    const trimmed = raw.trim();
    if (trimmed !== '' && !trimmed.startsWith('#')) break;
    const m = /^#SBATCH(?=\s|$)/.exec(raw);
    if (m) {
      if (first < 0) first = pos;
      last = pos + raw.length;
      const ws = words(raw.slice(m[0].length), pos + m[0].length);
      if (ws.length === 1 && /^(hetjob|packjob)$/.test(ws[0].text)) heterogeneous ??= ws[0].span;
      for (let i = 0; i < ws.length; i++) {
        const w = ws[i];
        const long = /^--([A-Za-z][\w-]*)(=(.*))?$/s.exec(w.text);
        if (long) {
          const name = long[1];
          if (long[2] !== undefined) {
            const off = w.span.start + w.text.indexOf('=') + 1;
            options.push({ name, written: `--${name}`, value: long[3], span: w.span, valueSpan: { start: off, end: w.span.end } });
          } else if (VALUED.has(name) && ws[i + 1] && !ws[i + 1].text.startsWith('-')) {
            const v = ws[++i];
            options.push({ name, written: `--${name}`, value: v.text, span: { start: w.span.start, end: v.span.end }, valueSpan: v.span });
          } else options.push({ name, written: `--${name}`, span: w.span, valueSpan: w.span });
          continue;
        }
        const short = /^-([A-Za-z])(=?)(.*)$/s.exec(w.text);
        if (short) {
          const letter = short[1];
          const name = SHORT[letter] ?? `-${letter}`;
          if (short[3] !== '') {
            const off = w.span.start + 2 + short[2].length;
            options.push({ name, written: `-${letter}`, value: short[3], span: w.span, valueSpan: { start: off, end: w.span.end } });
          } else if (!SHORT_FLAGS.has(letter) && ws[i + 1] && !ws[i + 1].text.startsWith('-')) {
            const v = ws[++i];
            options.push({ name, written: `-${letter}`, value: v.text, span: { start: w.span.start, end: v.span.end }, valueSpan: v.span });
          } else options.push({ name, written: `-${letter}`, span: w.span, valueSpan: w.span });
        }
      }
    }
    pos = end + 1;
  }
  if (first < 0) return undefined;
  const a: Allocation = { options, span: { start: first, end: last }, unknown: new Map() };
  if (heterogeneous) {
    a.heterogeneous = heterogeneous;
    return a;
  }
  // The last of an option repeated wins, as on sbatch's command line.
  const byName = new Map<string, SbatchOption>();
  for (const o of options) byName.set(o.name, o);
  const count = (name: string, parse: (v: string) => number | string | undefined = plainCount): SbatchValue<number> | undefined => {
    const o = byName.get(name);
    if (!o) return undefined;
    const v = o.value === undefined ? `\`${o.written}\` has no value` : parse(o.value);
    if (typeof v === 'number') return { value: v, span: o.valueSpan, option: o.written, whole: o.span };
    a.unknown.set(name, typeof v === 'string' ? v : `\`${o.written}=${o.value}\` is not a count Shardwise can read`);
    return undefined;
  };
  a.nodes = count('nodes', nodeCount);
  a.ntasks = count('ntasks');
  a.ntasksPerNode = count('ntasks-per-node');
  a.gpus = count('gpus', gpuCount);
  a.gpusPerTask = count('gpus-per-task', gpuCount);
  const perNode = count('gpus-per-node', gpuCount);
  const gres = count('gres', gresGpus);
  a.gpusPerNode = perNode ?? gres;
  if (!a.gpusPerNode && a.gpusPerTask && a.ntasksPerNode) {
    a.gpusPerNode = { value: a.gpusPerTask.value * a.ntasksPerNode.value, span: a.gpusPerTask.span, option: `${a.gpusPerTask.option} × ${a.ntasksPerNode.option}`, whole: a.gpusPerTask.whole };
  }
  if (!a.gpusPerNode && a.gpus && a.nodes?.value === 1) a.gpusPerNode = a.gpus;
  for (const name of ['constraint', 'partition'] as const) {
    const o = byName.get(name);
    if (o?.value) a[name] = { value: o.value, span: o.valueSpan, option: o.written, whole: o.span };
  }
  return a;
}

function plainCount(v: string): number | undefined {
  return /^\d+$/.test(v) && Number(v) > 0 && Number(v) <= 1 << 20 ? Number(v) : undefined;
}

/** `4`, `4-4`: a count; `2-4` (min-max) or a list of sizes: how many the scheduler gives is not known. */
function nodeCount(v: string): number | string | undefined {
  const one = plainCount(v);
  if (one !== undefined) return one;
  const range = /^(\d+)-(\d+)$/.exec(v);
  if (range) return range[1] === range[2] ? plainCount(range[1]) : `\`--nodes=${v}\` lets Slurm choose between ${range[1]} and ${range[2]} nodes`;
  return undefined;
}

/** `8` or `h100:8`. */
export function gpuCount(v: string): number | undefined {
  const m = /^(?:[\w.-]+:)?(\d+)$/.exec(v);
  return m ? plainCount(m[1]) : undefined;
}

/** `gpu:8`, `gpu:a100:8`, `gpu` (one), among other resources (`gpu:8,nvme:1`). */
export function gresGpus(v: string): number | string | undefined {
  const items = v.split(',').map((s) => s.trim().replace(/\(.*\)$/, ''));
  const gpu = items.filter((s) => /^gpu(:|$)/.test(s));
  if (gpu.length === 0) return 'the `--gres` line asks for no GPUs';
  if (gpu.length > 1) return undefined;
  const parts = gpu[0].split(':');
  if (parts.length === 1) return 1;
  const lastPart = parts[parts.length - 1];
  if (/^\d+$/.test(lastPart)) return plainCount(lastPart);
  return parts.length === 2 ? 1 : undefined;
}

/** Per-process variables: each task of a step has its own, so the batch script cannot know them for the training processes. */
export const PER_PROCESS_VARS = new Set(['SLURM_NODEID', 'SLURM_PROCID', 'SLURM_LOCALID', 'SLURM_TASK_PID', 'SLURM_STEP_ID', 'SLURM_STEPID']);

/**
 * The variables Slurm sets in the batch script's environment that follow from the header, where the
 * header decides them: `SLURM_NNODES`/`SLURM_JOB_NUM_NODES` (nodes), `SLURM_NTASKS`/`SLURM_NPROCS`,
 * `SLURM_NTASKS_PER_NODE`, `SLURM_GPUS_ON_NODE`, `SLURM_GPUS_PER_NODE`, `SLURM_GPUS`,
 * `SLURM_JOB_PARTITION`. Each carries the span of the `#SBATCH` value it comes from.
 */
export function slurmVars(a: Allocation): Map<string, { value: string; span: Span; from: string }> {
  const out = new Map<string, { value: string; span: Span; from: string }>();
  if (a.heterogeneous) return out;
  const set = (names: string[], v: SbatchValue<number | string> | undefined, value = v ? String(v.value) : '') => {
    if (!v) return;
    for (const n of names) out.set(n, { value, span: v.span, from: `#SBATCH ${v.option}` });
  };
  set(['SLURM_NNODES', 'SLURM_JOB_NUM_NODES'], a.nodes);
  if (a.ntasks) set(['SLURM_NTASKS', 'SLURM_NPROCS'], a.ntasks);
  else if (a.ntasksPerNode && a.nodes) set(['SLURM_NTASKS', 'SLURM_NPROCS'], a.ntasksPerNode, String(a.ntasksPerNode.value * a.nodes.value));
  set(['SLURM_NTASKS_PER_NODE'], a.ntasksPerNode);
  set(['SLURM_GPUS_ON_NODE'], a.gpusPerNode);
  const written = a.options.filter((o) => o.name === 'gpus-per-node').pop();
  if (written?.value && a.gpusPerNode) out.set('SLURM_GPUS_PER_NODE', { value: written.value, span: written.valueSpan, from: '#SBATCH --gpus-per-node' });
  const gpus = a.options.filter((o) => o.name === 'gpus').pop();
  if (gpus?.value && a.gpus) out.set('SLURM_GPUS', { value: gpus.value, span: gpus.valueSpan, from: '#SBATCH --gpus' });
  if (a.partition) out.set('SLURM_JOB_PARTITION', { value: a.partition.value, span: a.partition.span, from: '#SBATCH --partition' });
  return out;
}

/** `4 nodes × 8 GPUs (SBATCH)`, or undefined when the header says neither. */
export function allocationText(a: Allocation): string | undefined {
  if (a.heterogeneous) return 'heterogeneous job (SBATCH): allocation not read';
  const parts: string[] = [];
  if (a.nodes) parts.push(`${a.nodes.value} node${a.nodes.value === 1 ? '' : 's'}`);
  else if (a.unknown.has('nodes')) parts.push('? nodes');
  if (a.gpusPerNode) parts.push(`${a.gpusPerNode.value} GPU${a.gpusPerNode.value === 1 ? '' : 's'}`);
  else if (a.gpus) parts.push(`${a.gpus.value} GPUs in total`);
  if (!parts.length) return undefined;
  return `${parts.join(' × ')} (SBATCH)`;
}
