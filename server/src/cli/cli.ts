/**
 * `shardwise`: the engine on the command line, for CI and scripts.
 *
 *   shardwise check [paths…] [--output-format text|json|sarif|github] [--hardware ID] [--gpus-per-node N]
 *                   [--nvlink-domain N] [--target TOOL=VERSION] [--fix [--unsafe-fixes]] [--diff]
 *                   [--show-fixes] [--no-config] [--max-file-size SIZE]
 *   shardwise explain <rule-id>
 *   shardwise rules
 *   shardwise docs [--write FILE | --check FILE]
 *
 * Exit status: 0 no error found, 1 an error was found, 2 usage or I/O failure.
 */
import { readdirSync, statSync, writeFileSync, type Dirent } from 'node:fs';
import { createTwoFilesPatch } from 'diff';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { analyze, closest, DEFAULT_MAX_FILE_SIZE, HARDWARE, explain, fixForSet, fixText, layoutText, mergeSettings, RULES, SETTING_LIMITS, rulesMarkdown, syntaxOf, type EngineSettings, type FileAnalysis, type FileInput, type Finding } from '../engine';
import { ProjectConfigs } from '../host/project-config';
import { examine, formatBytes, readBounded } from '../host/read';
import { createResolver, pathKey } from '../host/resolve';
import { replaceFile, WriteRefused } from '../host/write';
import { escapeLines, escapeText, jsonText } from './escape';
import { workflowCommand } from './github';
import { toSarif, type Position } from './sarif';

const VERSION = '0.1.0';
const USAGE = `Usage:
  shardwise check [paths…] [options]   check config files (folders are searched)
  shardwise layout <file> [options]    print the parallel layout a config describes
  shardwise explain <rule-id>          print a rule's documentation
  shardwise rules                      list the rules
  shardwise docs [--write F|--check F] print (write, or compare with F) the rules reference

Options of check:
  --output-format FORMAT     text (default), json, sarif (SARIF 2.1.0, for code scanning) or
                             github (workflow commands: annotations on a pull request);
                             --format is the same option
  --hardware ID              hardware profile (e.g. h100-sxm)
  --gpus-per-node N          GPUs per node
  --nvlink-domain N          GPUs per NVLink domain
  --target TOOL=VERSION      targeted version: accelerate=1.10.0, deepspeed=0.16.4, megatron-core=0.12.0
  --fix                      apply the safe fixes (they keep the run as it is) to the files
  --unsafe-fixes             with --fix or --diff, also the fixes that change a decision
                             (degrees, batch sizes, precision, switches, the number of GPUs)
  --diff                     print the unified diff of what --fix would write; change nothing
                             (exit 1 when there is a diff)
  --show-fixes               list the fixes offered for each finding, safe or unsafe
  --no-config                ignore .shardwise.yaml files
  --max-file-size SIZE       larger files are not read (default 256K for files found in a
                             folder, 1M for files named); SIZE in bytes or with K, M or G
                             (binary: 1MB = 1 MiB = 1048576 bytes), at most 64MB

Only regular files are read: a named device, FIFO or socket is an error; in a folder, such
entries are skipped. Control characters in paths and messages are printed escaped (\\x1b, \\n).

Exit status: 0 no error found, 1 an error found, 2 usage or I/O failure.
`;

class UsageError extends Error {}

/** ` (did you mean x or y?)`, or nothing when no candidate is close. */
function didYouMean(word: string, candidates: readonly string[]): string {
  const near = closest(word, candidates, 2);
  return near.length ? ` (did you mean ${near.join(' or ')}?)` : '';
}

const SUBCOMMANDS = new Set(['check', 'layout', 'explain', 'rules', 'docs']);

const OUTPUT_FORMATS = ['text', 'json', 'sarif', 'github'] as const;
type OutputFormat = (typeof OUTPUT_FORMATS)[number];

const EXTENSIONS = /\.(ya?ml|json|sh|sbatch|slurm)$/i;
const SKIP_DIRS = new Set(['node_modules', '.git', '.hg', '.svn', '__pycache__', '.venv', 'venv', 'dist', 'out']);

interface CheckOptions {
  format: OutputFormat;
  /** Engine settings from the flags; `maxFileSize` (`--max-file-size`) is also the size past which a file is not read. */
  settings: EngineSettings;
  fix: boolean;
  unsafeFixes: boolean;
  diff: boolean;
  showFixes: boolean;
  useConfig: boolean;
  paths: string[];
}

/**
 * Real configs are kilobytes (the largest YAML in Megatron-LM, a CI workflow, is 58 KB); what is
 * larger in a repository is golden values, tokenizers, datasets. Files found in a folder are read up
 * to 256 KiB: each larger JSON costs the engine tens of megabytes while it is analysed, for nothing.
 * A file named on the command line is read up to the engine's own limit.
 */
const DEFAULT_SCAN_LIMIT = 256 * 1024;
const DEFAULT_NAMED_LIMIT = DEFAULT_MAX_FILE_SIZE;
const MAX_MAX_FILE_SIZE = SETTING_LIMITS.maxFileSize;

/** `1048576`, `512K`, `1MB`, `1.5MiB`, `2G`: binary units, case-insensitive. */
function parseSize(flag: string, v: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(?:([kmg])(?:i?b)?|b)?$/i.exec(v.trim());
  const scale = m?.[2] ? 1024 ** ('kmg'.indexOf(m[2].toLowerCase()) + 1) : 1;
  const n = m ? Math.floor(Number(m[1]) * scale) : NaN;
  if (!Number.isFinite(n) || n < 1) throw new UsageError(`${flag} takes a size such as 1048576, 512K or 10MB, not ${JSON.stringify(v)}`);
  if (n > MAX_MAX_FILE_SIZE) throw new UsageError(`${flag} is at most ${formatBytes(MAX_MAX_FILE_SIZE, true)}, not ${JSON.stringify(v)}`);
  return n;
}

/** One line on stderr, escaped: whatever it quotes (a path, a message) cannot drive the terminal. */
function note(line: string): void {
  process.stderr.write(`shardwise: ${escapeText(line)}\n`);
}

function parseCheckArgs(args: string[]): CheckOptions {
  const o: CheckOptions = { format: 'text', settings: { targetVersions: {} }, fix: false, unsafeFixes: false, diff: false, showFixes: false, useConfig: true, paths: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const eq = a.indexOf('=');
    const flag = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    const value = (): string => {
      if (a.startsWith('--') && eq > 0) return a.slice(eq + 1);
      const v = args[++i];
      if (v === undefined) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    const positive = (): number => {
      const v = value();
      if (!/^\d+$/.test(v) || Number(v) < 1) throw new UsageError(`${flag} needs a positive integer, not ${JSON.stringify(v)}`);
      return Number(v);
    };
    switch (flag) {
      case '--output-format':
      case '--format': {
        const v = value();
        if (!(OUTPUT_FORMATS as readonly string[]).includes(v)) throw new UsageError(`${flag} must be ${OUTPUT_FORMATS.slice(0, -1).join(', ')} or ${OUTPUT_FORMATS.at(-1)}, not ${JSON.stringify(v)}`);
        o.format = v as OutputFormat;
        break;
      }
      case '--hardware': {
        const v = value();
        const ids = HARDWARE.map((h) => h.id);
        if (!ids.includes(v)) throw new UsageError(`unknown hardware ${JSON.stringify(v)}${didYouMean(v, ids)}; the profiles are ${ids.join(', ')}`);
        o.settings.hardware = v;
        break;
      }
      case '--gpus-per-node':
        o.settings.gpusPerNode = positive();
        break;
      case '--nvlink-domain':
        o.settings.nvlinkDomain = positive();
        break;
      case '--target': {
        const v = value();
        const m = /^(accelerate|deepspeed|megatron-core)=(\d+(\.\d+)*)$/.exec(v);
        if (!m) throw new UsageError(`--target takes TOOL=VERSION (accelerate, deepspeed or megatron-core), not ${JSON.stringify(v)}`);
        o.settings.targetVersions![m[1] as 'accelerate'] = m[2];
        break;
      }
      case '--fix':
        o.fix = true;
        break;
      case '--unsafe-fixes':
        o.unsafeFixes = true;
        break;
      case '--diff':
        o.diff = true;
        break;
      case '--show-fixes':
        o.showFixes = true;
        break;
      case '--no-config':
        o.useConfig = false;
        break;
      case '--max-file-size':
        o.settings.maxFileSize = parseSize(flag, value());
        break;
      default:
        if (a.startsWith('-') && a !== '-') throw new UsageError(`unknown option ${a}`);
        o.paths.push(a);
    }
  }
  if (o.paths.length === 0) o.paths.push('.');
  if (o.unsafeFixes && !o.fix && !o.diff) throw new UsageError('--unsafe-fixes goes with --fix or --diff');
  return o;
}

/** A file to check: named on the command line (or linked from a checked file), or found in a folder. */
interface Candidate {
  path: string;
  named: boolean;
}

interface Collected {
  files: Candidate[];
  /** Files found in folders that are over the size limit: not read, summed up in one line. */
  oversized: string[];
  /** Folders that could not be listed, with the reason. */
  unlisted: string[];
}

function isCandidateName(name: string): boolean {
  return EXTENSIONS.test(name) && !/^\.shardwise\.ya?ml$/.test(name) && !/package(-lock)?\.json$/.test(name);
}

/**
 * Files to check: named files as they are (a named device, FIFO, socket or symbolic link loop is an
 * error), folders searched for config-looking regular files. Only `stat` is used here, nothing is
 * opened: a folder entry that is not a regular file is skipped, one over the size limit is listed
 * in `oversized`, a folder reached twice through a symbolic link is searched once.
 */
function collect(paths: string[], maxBytes: number): Collected {
  const out: Collected = { files: [], oversized: [], unlisted: [] };
  const seenDirs = new Set<string>();
  const walk = (dir: string, depth: number): void => {
    if (depth > 32) return;
    try {
      const st = statSync(dir);
      const id = `${st.dev}:${st.ino}`;
      if (seenDirs.has(id)) return;
      seenDirs.add(id);
    } catch {
      return;
    }
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      out.unlisted.push(`${dir} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const p = join(dir, e.name);
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      const special = e.isFIFO() || e.isCharacterDevice() || e.isBlockDevice() || e.isSocket();
      if (!isDir && !isFile && !special) {
        // A symbolic link (or a file system that does not give entry types): what it points at.
        try {
          const st = statSync(p);
          isDir = st.isDirectory();
          isFile = st.isFile();
        } catch {
          continue; // A broken link or a link loop.
        }
      }
      if (isDir) {
        if (!SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) walk(p, depth + 1);
        continue;
      }
      if (!isFile || !isCandidateName(e.name)) continue;
      const x = examine(p, maxBytes);
      if (x.ok) out.files.push({ path: p, named: false });
      else if (x.kind === 'too-large') out.oversized.push(p);
    }
  };
  for (const p of paths) {
    const x = examine(p, Number.POSITIVE_INFINITY);
    if (x.ok) out.files.push({ path: p, named: true });
    else if (x.kind === 'directory') walk(p, 0);
    else if (x.kind === 'missing') throw new Error(`${p}: no such file or folder`);
    else throw new Error(`${p} ${x.reason}; only regular files and folders can be checked`);
  }
  return out;
}

/**
 * What the engine needs to read the files a config refers to: a reference is tried as an absolute
 * path, then relative to the file's folder, then relative to the current directory (where
 * `accelerate launch` usually runs).
 */
function linkedInput(file: string, text: string, referrers?: { path: string; text: string }[]): FileInput {
  const path = resolve(file);
  return { path, text, resolve: createResolver({ from: path, bases: [process.cwd()] }), referrers: referrers?.length ? referrers : undefined };
}

/** At most this many referrers are given to one file (the engine reads no more either). */
const MAX_REFERRERS = 20;

/** A linked file's path as the CLI reports it: relative when the referring file's path is. */
function relativeTo(from: string, target: string): string {
  if (isAbsolute(from)) return target;
  const rel = relative(process.cwd(), target);
  return rel.startsWith('..') ? target : rel;
}

/** One finding as every output format needs it, without the analysis (text, trees) it came from. */
interface OutRecord {
  code: string;
  severity: string;
  message: string;
  start: Position;
  end: Position;
  /** It has a fix `--fix` would apply (text output only: `[*]`). */
  safe: boolean;
  fixes?: { title: string; applicability: string }[];
}

/** A checked file's findings, in the order the file was named or found. */
interface Checked {
  index: number;
  file: string;
  findings: OutRecord[];
}

function outRecords(analysis: FileAnalysis, o: CheckOptions): OutRecord[] {
  return analysis.findings.map((f) => {
    const range = analysis.lines.range(f.span);
    return { code: f.code, severity: f.severity, message: f.message, start: range.start, end: range.end, safe: o.format === 'text' && !o.diff && fixForSet(f) !== undefined, ...(o.showFixes ? { fixes: fixesOf(f) } : {}) };
  });
}

function fixesOf(f: Finding): { title: string; applicability: string }[] {
  return f.fixes().map((x) => ({ title: x.title, applicability: x.applicability }));
}

/**
 * `check`: one file at a time. Each analysis is dropped as soon as its file is done; what is kept
 * for the output is the findings' records (file, range, severity, code, message, fix titles), and
 * for a file that links to another one still to be checked, its text (at most MAX_REFERRERS per
 * target, dropped once the target is checked). The memory used does not grow with the number of
 * files, only with the number of findings.
 */
function check(o: CheckOptions): number {
  const scanLimit = o.settings.maxFileSize ?? DEFAULT_SCAN_LIMIT;
  const namedLimit = o.settings.maxFileSize ?? DEFAULT_NAMED_LIMIT;
  const collected = collect(o.paths, scanLimit);
  const configs = new ProjectConfigs();
  const checked: Checked[] = [];
  const oversized = [...collected.oversized];
  let ioFailure = false;
  for (const dir of collected.unlisted) {
    note(`cannot list the folder ${dir}`);
    ioFailure = true;
  }
  const warnedConfig = new Set<string>();
  // Files that may refer to others (YAML, scripts) first; then the JSON files, each with the checked
  // files whose references resolved to it (an Accelerate config gives its DeepSpeed JSON the world size).
  const order = collected.files.map((c, index) => ({ ...c, index, json: syntaxOf({ path: c.path, text: '' }) === 'json' }));
  order.sort((a, b) => Number(a.json) - Number(b.json) || a.index - b.index);
  const referrersOf = new Map<string, { path: string; text: string }[]>();
  const queued = new Set(order.map((c) => pathKey(c.path)));
  const done = new Set<string>();
  const refusals: { file: string; line: number; title: string; reason: string }[] = [];
  let applied = 0;
  let diffs = 0;
  // `order` grows while it is walked: a linked file under another name is appended.
  for (const { path: file, index, named } of order) {
    const key = pathKey(file);
    done.add(key);
    const referrers = referrersOf.get(key)?.filter((r) => pathKey(r.path) !== key);
    referrersOf.delete(key);
    const read = readBounded(file, named ? namedLimit : scanLimit);
    if (!read.ok) {
      if (read.kind === 'too-large' && !named) oversized.push(file);
      else if (read.kind === 'too-large') note(`${file} was not checked: it ${read.reason}; --max-file-size raises the limit`);
      else {
        note(`cannot read ${file}: it ${read.reason}`);
        ioFailure = true;
      }
      continue;
    }
    let text = read.text;
    let settings: EngineSettings = o.useConfig ? {} : configs.located(file);
    if (o.useConfig) {
      const loaded = configs.forFile(file);
      settings = loaded.settings;
      for (const p of loaded.problems) if (!warnedConfig.has(p)) (warnedConfig.add(p), note(p));
    }
    // Command-line flags win over .shardwise.yaml; in-file directives win over both.
    settings = mergeSettings(settings, o.settings);
    const original = text;
    let analysis: FileAnalysis;
    if (o.fix || o.diff) {
      const fixed = fixText(linkedInput(file, text, referrers), settings, { unsafe: o.unsafeFixes });
      analysis = fixed.analysis;
      text = fixed.text;
      for (const r of fixed.refused) refusals.push({ file, line: analysis.lines.position(r.finding.span.start).line + 1, title: r.fix.title, reason: r.reason });
      if (text !== original && o.diff) {
        diffs++;
        // The file names are escaped; the lines are the file's own, so that the patch applies.
        process.stdout.write(createTwoFilesPatch(`a/${escapeText(file)}`, `b/${escapeText(file)}`, original, text, undefined, undefined, { context: 3 }));
      } else if (text !== original) {
        try {
          replaceFile(file, text, original);
          applied += fixed.applied.length;
        } catch (err) {
          if (!(err instanceof WriteRefused)) throw err;
          note(`${file} was not fixed: ${err.message}; the file is unchanged`);
          ioFailure = true;
          // What is reported is the file as it is.
          text = original;
          analysis = analyze(linkedInput(file, text, referrers), settings);
        }
      }
    } else analysis = analyze(linkedInput(file, text, referrers), settings);
    for (const link of analysis.links ?? []) {
      if (!link.target) continue;
      const target = pathKey(link.target);
      // A DeepSpeed JSON saved under another name (`ds_config.conf`) is checked because a config names it.
      if (!queued.has(target) && !EXTENSIONS.test(link.target)) {
        queued.add(target);
        order.push({ path: relativeTo(file, link.target), named: true, index: order.length, json: true });
      }
      // Its text is kept only for a target still to be checked, which gets it as a referrer.
      if (!queued.has(target) || done.has(target)) continue;
      const list = referrersOf.get(target) ?? [];
      if (list.length < MAX_REFERRERS && !list.some((r) => r.path === resolve(file))) list.push({ path: resolve(file), text });
      referrersOf.set(target, list);
    }
    // A file no format claims is reported only when a rule still had something to say (a script not followed).
    if (analysis.docs.some((d) => d.format) || analysis.findings.length > 0) checked.push({ index, file, findings: outRecords(analysis, o) });
  }
  referrersOf.clear();
  checked.sort((a, b) => a.index - b.index);
  if (oversized.length) {
    const shown = oversized.slice(0, 3).join(', ');
    const more = oversized.length > 3 ? ` and ${oversized.length - 3} more` : '';
    note(`${oversized.length} file${oversized.length === 1 ? '' : 's'} over ${formatBytes(scanLimit, true)} ${oversized.length === 1 ? 'was' : 'were'} not checked: ${shown}${more}; --max-file-size raises the limit`);
  }
  if (o.diff) {
    reportRefusals(refusals);
    note(`${diffs} file${diffs === 1 ? '' : 's'} would be changed`);
    return ioFailure ? 2 : diffs > 0 ? 1 : 0;
  }
  const all = checked.flatMap((c) => c.findings.map((f) => ({ file: c.file, f })));
  if (o.format === 'json') {
    const out = all.map(({ file, f }) => ({ file, range: { start: f.start, end: f.end }, severity: f.severity, code: f.code, message: f.message, ...(o.showFixes ? { fixes: f.fixes } : {}) }));
    process.stdout.write(jsonText(out) + '\n');
  } else if (o.format === 'sarif') {
    process.stdout.write(jsonText(toSarif(checked.map((c) => ({ file: c.file, findings: c.findings })), VERSION, process.cwd())) + '\n');
  } else if (o.format === 'github') {
    for (const { file, f } of all) process.stdout.write(workflowCommand(file, f) + '\n');
    reportRefusals(refusals);
  } else {
    let fixable = 0;
    for (const { file, f } of all) {
      if (f.safe) fixable++;
      process.stdout.write(`${escapeText(file)}:${f.start.line + 1}:${f.start.character + 1}: ${f.severity} [${f.code}]${f.safe ? ' [*]' : ''} ${escapeText(f.message)}\n`);
      if (o.showFixes) for (const x of f.fixes ?? []) process.stdout.write(`    fix (${x.applicability}): ${escapeText(x.title)}\n`);
    }
    reportRefusals(refusals);
    const count = (s: string) => all.filter(({ f }) => f.severity === s).length;
    const notes = [o.fix ? `${applied} fix${applied === 1 ? '' : 'es'} applied` : '', fixable ? `${fixable} fixable with --fix ([*])` : ''].filter(Boolean);
    note(`${checked.length} config file${checked.length === 1 ? '' : 's'} checked: ${count('error')} errors, ${count('warning')} warnings, ${count('information') + count('hint')} notes${notes.length ? `; ${notes.join(', ')}` : ''}`);
  }
  if (ioFailure) return 2;
  return all.some(({ f }) => f.severity === 'error') ? 1 : 0;
}

/** Fixes `--fix` or `--diff` left out, each with its reason, on stderr. */
function reportRefusals(refusals: readonly { file: string; line: number; title: string; reason: string }[]): void {
  for (const r of refusals) note(`${r.file}:${r.line}: not fixed: ${r.title}: ${r.reason}`);
}

/** `shardwise layout <file>`: the Plan of each document, with provenance and memory. */
function layout(args: string[]): number {
  const o = parseCheckArgs(args);
  if (o.paths.length !== 1 || o.paths[0] === '.') throw new UsageError('layout takes one config file');
  const file = o.paths[0];
  const read = readBounded(file, o.settings.maxFileSize ?? DEFAULT_NAMED_LIMIT);
  if (!read.ok) {
    note(`cannot read ${file}: it ${read.reason}${read.kind === 'too-large' ? '; --max-file-size raises the limit' : ''}`);
    return 2;
  }
  const text = read.text;
  const settings = mergeSettings(o.useConfig ? new ProjectConfigs().forFile(file).settings : new ProjectConfigs().located(file), o.settings);
  const analysis = analyze(linkedInput(file, text), settings);
  if (o.format === 'json') {
    process.stdout.write(jsonText(analysis.docs.map((d) => d.plan ?? null)) + '\n');
    return 0;
  }
  const out = layoutText(analysis);
  if (!out) {
    note(`${file} does not describe a parallel layout Shardwise knows`);
    return 2;
  }
  process.stdout.write(escapeLines(out) + '\n');
  return 0;
}

export function main(argv: string[]): number {
  const [command, ...rest] = argv;
  // `--help` anywhere after a command is a request for help, never a path or an unknown option.
  if (SUBCOMMANDS.has(command) && rest.some((a) => a === '--help' || a === '-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  try {
    switch (command) {
      case 'check':
        return check(parseCheckArgs(rest));
      case 'layout':
        return layout(rest);
      case 'explain': {
        if (rest.length !== 1) throw new UsageError('explain takes one rule id');
        const text = explain(rest[0]);
        if (!text) {
          note(`unknown rule ${JSON.stringify(rest[0])}${didYouMean(rest[0], RULES.map((r) => r.id))}; \`shardwise rules\` lists them`);
          return 2;
        }
        process.stdout.write(text + '\n');
        return 0;
      }
      case 'rules':
        for (const r of RULES) process.stdout.write(`${r.id.padEnd(44)} ${r.severity.padEnd(12)} ${r.docs.summary}\n`);
        return 0;
      case 'docs': {
        const md = rulesMarkdown();
        if (rest[0] === '--write' && rest[1]) writeFileSync(rest[1], md);
        else if (rest[0] === '--check' && rest[1]) {
          const current = readBounded(rest[1], 64 * 1024 * 1024);
          if (!current.ok || current.text !== md) {
            note(`${rest[1]} is stale; run \`npm run docs\``);
            return 1;
          }
        } else if (rest.length) throw new UsageError('docs takes --write FILE or --check FILE');
        else process.stdout.write(md);
        return 0;
      }
      case '--version':
      case '-v':
        process.stdout.write(`shardwise ${VERSION}\n`);
        return 0;
      case undefined:
      case '--help':
      case '-h':
      case 'help':
        process.stdout.write(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command ${JSON.stringify(command)}`);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`shardwise: ${escapeText(err.message)}\n\n${USAGE}`);
      return 2;
    }
    note((err as Error).message);
    return 2;
  }
}

process.exitCode = main(process.argv.slice(2));
