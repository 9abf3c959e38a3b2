/** Launcher detection: `torchrun`, `python -m torch.distributed.run|launch`, `python`, `srun`, `deepspeed`, `mpirun`, chained, with their options. */
import type { Span } from '../../types';
import type { ExpandedWord, Launcher, LauncherArg, LauncherKind } from './types';
import { baseName, commandName, isFlagText, LAUNCHER_NAME, locateRange, textOf, typedValue } from './expansion';
import { MODULE_NAME } from '../python';

/** The modules `python -m` runs that launch processes. */
export const TORCH_LAUNCH_MODULE = /^torch\.distributed\.(run|launch)$/;

/**
 * The first word is a Python interpreter whose path is not known (`"${PY}"`), as the caller found: its
 * value is one word (written in double quotes), and the `-m torch.distributed.run` after it shows that
 * the program it names runs a module. An unquoted one may split into more words (`srun -N 2 python`).
 */
function unknownInterpreter(fields: readonly ExpandedWord[]): boolean {
  const f = fields[0];
  return !!f && commandName(f) === '' && f.segs.some((s) => s.unknown) && fields[1]?.text === '-m' && TORCH_LAUNCH_MODULE.test(fields[2]?.text ?? '');
}

/**
 * The launchers of a command, outermost first (`srun … torchrun …`), each with its own options;
 * `interpreter`: the first word is one quoted word whose text is not known (see unknownInterpreter).
 */
export function launcherChain(fields: ExpandedWord[], interpreter = false): Launcher | undefined {
  const starts: number[] = [];
  const python = interpreter && unknownInterpreter(fields);
  fields.forEach((f, i) => {
    if (LAUNCHER_NAME.test(commandName(f)) || (i === 0 && python)) starts.push(i);
  });
  let outer: Launcher | undefined;
  let last: Launcher | undefined;
  starts.forEach((s, n) => {
    const seg = fields.slice(s, n + 1 < starts.length ? starts[n + 1] : fields.length);
    const l = readLauncher(seg, s === 0 && python);
    const open = openOption(seg.slice(1), VALUELESS[l.kind]);
    if (open) l.open = open;
    if (!outer) outer = l;
    else last!.inner = l;
    last = l;
  });
  return outer;
}

function readLauncher(seg: ExpandedWord[], interpreter: boolean): Launcher {
  const head = seg[0];
  const name = commandName(head);
  const headSpan = locateRange(head, 0, head.text.length).span;
  if (name.startsWith('python') || interpreter) {
    for (let i = 1; i < seg.length; i++) {
      const t = seg[i].text;
      if (t === '-m' && seg[i + 1]) {
        const mod = seg[i + 1].text;
        if (mod === 'torch.distributed.run' || mod === 'torch.distributed.launch') {
          const modSpan = locateRange(seg[i + 1], 0, mod.length).span;
          return { kind: mod, args: launcherOptions(seg.slice(i + 2)), span: { start: headSpan.start, end: Math.max(headSpan.end, modSpan.end) } };
        }
        break;
      }
      if (!t.startsWith('-')) break;
    }
    return { kind: 'python', args: launcherOptions(seg.slice(1)), span: headSpan };
  }
  const kind: LauncherKind = name === 'mpiexec' ? 'mpirun' : (name as LauncherKind);
  return { kind, args: launcherOptions(seg.slice(1)), span: headSpan };
}

/**
 * Modules `python -m` runs that run another program (a launcher, a profiler or debugger, whose own
 * `.py` argument is the program) or are tools that train nothing: no module entry.
 */
const NOT_A_PROGRAM = /^(torch\.distributed\.(run|launch)|deepspeed(\.launcher\.(runner|launch))?|accelerate(\.commands\.(launch|accelerate_cli))?|cProfile|profile|pdb|trace|debugpy|memray|scalene|viztracer|torch\.utils\.(bottleneck|collect_env)|pip\d*|venv|virtualenv|ensurepip|pytest|unittest|doctest|http\.server|json\.tool|site|build|twine|ipykernel|jupyter|notebook|nltk\.downloader|spacy|huggingface_hub(\.\w+)*)$/;

/** Options of a launcher that take no value (`accelerate launch`'s store_true switches, commands/launch.py). */
const VALUELESS: Partial<Record<LauncherKind, ReadonlySet<string>>> = {
  accelerate: new Set(['--cpu', '--debug', '--dynamo_use_dynamic', '--dynamo_use_fullgraph', '--dynamo_use_regional_compilation', '--enable_cpu_affinity', '--module', '-m', '--multi_gpu', '--no_python', '--quiet', '-q', '--same_network', '--tpu', '--tpu_cluster', '--tpu_use_sudo', '--use_deepspeed', '--use_fsdp', '--use_megatron_lm', '--use_parallelism_config']),
};

/** The switch that makes a launcher's program a module, and its options that take no value (the rest take one). */
const MODULE_LAUNCHERS: Partial<Record<LauncherKind, { module: RegExp; switches: ReadonlySet<string> }>> = {
  // torch/distributed/run.py: `-m/--module` (store_true), `--standalone`, `--no-python`, `--run-path`.
  torchrun: { module: /^(-m|--module)$/, switches: new Set(['-m', '--module', '--standalone', '--no-python', '--no_python', '--run-path', '--run_path']) },
  // deepspeed/launcher/runner.py@v0.19.5: `--module` and the other store_true switches.
  deepspeed: { module: /^--module$/, switches: new Set(['--module', '--no_python', '--no_local_rank', '--no_ssh', '--no_ssh_check', '--force_multi', '--save_pid', '--elastic_training', '--bind_cores_to_rank', '-q', '--quiet']) },
  // accelerate/commands/launch.py@v1.14.0:350-355: `-m/--module`.
  accelerate: { module: /^(-m|--module)$/, switches: VALUELESS.accelerate! },
};

/**
 * The index of the word a launch runs as a module, if it runs one: `python -m pkg.mod`, `torchrun -m
 * pkg.mod` (its `-m` is a switch: the module is its first word that is no option or option value),
 * `python -m torch.distributed.run --module pkg.mod`, `deepspeed --module pkg.mod`, `accelerate launch
 * -m pkg.mod`, after `srun`/`mpirun` too. -1 when the program is a file, or a word is not known.
 */
export function moduleEntryIndex(fields: readonly ExpandedWord[], names: readonly string[], p: number): number {
  let kind: LauncherKind | undefined;
  let on = false;
  const end = Math.min(fields.length, p + 256);
  for (let k = p; k < end; k++) {
    const name = names[k];
    const t = fields[k].text;
    if (kind === undefined || kind === 'srun' || kind === 'mpirun') {
      // `srun`'s and `mpirun`'s own options are passed over up to the launcher they start.
      if (LAUNCHER_NAME.test(name)) {
        kind = name.startsWith('python') ? 'python' : name === 'mpiexec' ? 'mpirun' : (name as LauncherKind);
        on = false;
        if (kind === 'accelerate' && fields[k + 1]?.text === 'launch') k++;
      } else if (kind === undefined) return -1;
      continue;
    }
    if (fields[k].passthrough || fields[k].segs.some((s) => s.unknown)) return -1;
    if (kind === 'python') {
      if (t === '-m') {
        const mod = fields[k + 1];
        if (!mod || mod.passthrough || mod.segs.some((s) => s.unknown)) return -1;
        if (TORCH_LAUNCH_MODULE.test(mod.text)) {
          kind = 'torchrun';
          k++;
          continue;
        }
        return MODULE_NAME.test(mod.text) && !NOT_A_PROGRAM.test(mod.text) ? k + 1 : -1;
      }
      if (t === '-c' || !t.startsWith('-')) return -1;
      if (t === '-W' || t === '-X') k++;
      continue;
    }
    const l = MODULE_LAUNCHERS[kind];
    if (!l) return -1;
    if (t.startsWith('-')) {
      if (l.module.test(t)) on = true;
      if (!t.includes('=') && !l.switches.has(t) && fields[k + 1] && !fields[k + 1].text.startsWith('-')) k++;
      continue;
    }
    // The launcher's first word that is no option: the program.
    return on && MODULE_NAME.test(t) && !NOT_A_PROGRAM.test(t) ? k : -1;
  }
  return -1;
}

/**
 * Why a launcher's options may hold more than is read, when they may: a word whose text is not
 * known (`$EXTRA_ARGS`) that is no option's value.
 */
function openOption(fields: ExpandedWord[], valueless: ReadonlySet<string> = new Set()): string | undefined {
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    if (!f.passthrough && !f.segs.some((g) => g.unknown)) continue;
    const prev = fields[i - 1];
    // The value of the option before it (`--main_process_ip $MASTER_ADDR`), not an option of its own;
    // after a switch that takes no value (`--multi_gpu $EXTRA`) it is words of its own.
    if (prev && !prev.passthrough && isFlagText(prev.text) && !prev.text.includes('=') && !valueless.has(prev.text) && !f.passthrough) continue;
    return f.segs.find((g) => g.unknown)?.unknown ?? `\`${f.text}\` is not known`;
  }
  return undefined;
}

/** A launcher's options as written: `--opt value`, `--opt=value`, or a bare `--opt`. */
function launcherOptions(fields: ExpandedWord[]): Map<string, LauncherArg> {
  const map = new Map<string, LauncherArg>();
  const val = (f: ExpandedWord, a: number, b: number): { value: string | number; unknown?: string; assumed?: string; span: Span } => {
    const loc = locateRange(f, a, b);
    const text = f.text.slice(a, b);
    if (loc.unknown) return { value: text, unknown: loc.unknown, span: loc.span };
    return loc.assumed ? { value: typedValue(text), assumed: loc.assumed, span: loc.span } : { value: typedValue(text), span: loc.span };
  };
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    if (f.passthrough || !isFlagText(f.text)) continue;
    const eq = f.text.indexOf('=');
    if (eq > 0) {
      const v = val(f, eq + 1, f.text.length);
      map.set(f.text.slice(0, eq), { ...v, keySpan: locateRange(f, 0, eq).span });
      continue;
    }
    const keySpan = locateRange(f, 0, f.text.length).span;
    const n = fields[i + 1];
    if (n && !n.passthrough && !isFlagText(n.text)) {
      map.set(f.text, { ...val(n, 0, n.text.length), keySpan });
      i++;
    } else map.set(f.text, { value: undefined, span: keySpan, keySpan });
  }
  return map;
}

/**
 * Whether a word before the entry point stands for the launcher: one unknown word (`$LAUNCHER`), or an
 * array the arms of an undecided branch set differently whose every arm ends in a launcher and its
 * options (`bindpcie -- python -u` / `python -u`), so that the next word is what the launcher runs.
 */
export function launcherWords(f: ExpandedWord): boolean {
  if (!f.passthrough) return f.segs.some((s) => s.unknown);
  const arms = f.segs.length === 1 ? f.segs[0].choice?.arms : undefined;
  return !!arms?.length && arms.every((words) => {
    const names = words.map((w) => (w.some((s) => s.unknown) ? '' : baseName(textOf(w))));
    const last = names.reduce((at, n, i) => (LAUNCHER_NAME.test(n) ? i : at), -1);
    return last >= 0 && names.slice(last + 1).every((n) => n.startsWith('-'));
  });
}

/**
 * After the words that stand for the launcher (from `q`), the entry point: directly (`$LAUNCHER
 * train.py`), after an interpreter's options (`"$PY" -u train.py`), or after `-m torch.distributed.run`
 * and its options, read as they are after `python`. `interpreter`: the first word is one word written
 * in double quotes (`"${PY}"`), one program, so the module's options are its (see launcherChain).
 */
export function entryAfterInterpreter(fields: readonly ExpandedWord[], q: number, isEntry: (f: ExpandedWord) => boolean, src: string): { entry: number; interpreter: boolean } | undefined {
  while (q < fields.length && /^-[A-Za-z]$/.test(fields[q].text) && !/^-[mc]$/.test(fields[q].text)) q++;
  if (fields[q]?.text === '-m' && TORCH_LAUNCH_MODULE.test(fields[q + 1]?.text ?? '')) {
    const one = q === 1 && /^"[^"\s]*"$/.test(src.slice(fields[0].outer.span.start, fields[0].outer.span.end));
    for (let e = q + 2; e < fields.length; e++) if (isEntry(fields[e])) return { entry: e, interpreter: one };
    return undefined;
  }
  return q < fields.length && isEntry(fields[q]) ? { entry: q, interpreter: false } : undefined;
}

/**
 * `eval $cmd`: eval joins its words with spaces and reads the result as one command line, where a
 * word that starts with `#` begins a comment to the end (the newlines of the value went with the
 * word splitting): the words from there on are not part of the command.
 */
export function evalCommandWords(fields: ExpandedWord[]): ExpandedWord[] {
  if (fields.length <= 2 || baseName(fields[0].text) !== 'eval') return fields;
  const k = fields.findIndex((f, i) => i > 0 && f.text.startsWith('#'));
  return k > 0 ? fields.slice(0, k) : fields;
}

/**
 * A command started with a plain `python` after a distributed launch (torchrun, deepspeed, accelerate
 * launch, srun, mpirun, `python -m torch.distributed.run`): the evaluation, merge or conversion step
 * that follows training, not the training command.
 */
export function laterStep(training: Launcher | undefined, next: Launcher | undefined): boolean {
  const distributed = (l: Launcher | undefined): boolean => {
    for (let x = l; x; x = x.inner) if (x.kind !== 'python') return true;
    return false;
  };
  return distributed(training) && !distributed(next);
}

/**
 * A module whose name says it evaluates, generates, serves or converts (`evaluation.eval_mmlu`,
 * `pkg.inference`): run after a training command, it is a later step, not the training.
 */
export function laterModule(name: string): boolean {
  return name.split('.').some((part) => /^(eval|evaluat|infer|generat|predict|test|serv|export|convert|merge|quantiz|bench)/i.test(part));
}
