/**
 * `shardwise`: the engine on the command line, for CI and scripts.
 *
 *   shardwise check [paths… | -] [options]   (`shardwise check --help` lists them)
 *   shardwise explain <rule-id>
 *   shardwise rules
 *   shardwise docs [--write FILE | --check FILE]
 *
 * Exit status: 0 no error found, 1 an error was found (or more warnings than --max-warnings; 0
 * with --exit-zero), 2 usage, configuration or I/O failure.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createTwoFilesPatch } from 'diff';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { analyze, planLayouts, DEFAULT_MAX_FILE_SIZE, layoutSvg, didYouMean, HARDWARE, hardwareSuggestion, explain, fixText, layoutText, mergeSettings, RULES, ruleIdProblem, selectedRules, SETTING_LIMITS, rulesMarkdown, syntaxOf, type EngineSettings, type FileAnalysis, type FileInput, type RuleSelection, SEVERITIES, type Severity } from '../engine';
import { ProjectConfigs } from '../host/project-config';
import { BACKGROUND_BUDGET_MS, timeBudget } from '../host/budget';
import { formatBytes, readBounded } from '../host/read';
import { absenceCache, type AbsenceCache, createResolver, pathKey } from '../host/resolve';
import { replaceFile, WriteRefused } from '../host/write';
import { notUtf8, readStdin } from './stdin';
import { escapeLines, escapeText, jsonText } from './escape';
import { COLOR_MODES, note, OUTPUT_FORMATS, outRecords, printReport, reportRefusals, type Checked, type FixRun, type OutputFormat, type ReportOptions } from './report';
import { collect, forceExcluded, hasConfigExtension, type Candidate } from './walk';
import { SHARDWISE_VERSION } from '../release';
import { mfuFor, mfuText, parseMfuArgs } from './mfu';
import { modelSource, parsePlanArgs, planJson, planText, workloadFor } from './plan';
import { USAGE, UsageError } from './usage';
import { readOptions, type OptionArg } from './options';
import { parsePictureArgs, pictureHtml, type PictureArgs } from './picture';
import { formatLines, settingsLines } from './verbose';

const VERSION = SHARDWISE_VERSION;


const SUBCOMMANDS = new Set(['check', 'layout', 'plan', 'mfu', 'explain', 'rules', 'docs']);

interface CheckOptions extends ReportOptions {
  /** Engine settings from the flags; `maxFileSize` (`--max-file-size`) is also the size past which a file is not read. */
  settings: EngineSettings;
  unsafeFixes: boolean;
  useConfig: boolean;
  paths: string[];
  /** `--select`, `--extend-select`, `--ignore`: the last layer of rule selection. */
  selection?: RuleSelection;
  exitZero: boolean;
  maxWarnings?: number;
  stdinFilename?: string;
  exclude: string[];
  forceExclude: boolean;
  respectGitignore: boolean;
  /** `--follow`: walk into symbolic links to folders, and to files outside the folders named. */
  follow?: boolean;
  /** `--verbose`: say on stderr which format each file was read as and why, or why not. */
  verbose: boolean;
  /** `--show-settings`: print what each file is checked against (format, release, hardware, configuration files) instead of checking it. */
  showSettings?: boolean;
  /** `--config FILE`: this configuration for every file, instead of the ones found at or above each. */
  configFile?: string;
}

/** The options of check (and layout), for a did-you-mean. */
const CHECK_OPTIONS = ['--show-settings', '--output-format', '--format', '--select', '--extend-select', '--ignore', '--statistics', '--exit-zero', '--max-warnings', '--hardware', '--gpus-per-node', '--nvlink-domain', '--target', '--fix', '--unsafe-fixes', '--diff', '--show-fixes', '--stdin-filename', '--exclude', '--extend-exclude', '--force-exclude', '--respect-gitignore', '--no-respect-gitignore', '--follow', '--no-config', '--max-file-size', '--verbose', '--show-info', '--min-severity', '--quiet', '--color', '--config'];

/** `a,b,{c,d}` → `a`, `b`, `{c,d}`: commas inside braces belong to the pattern. */
function splitPatterns(v: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const c of v) {
    if (c === '{') depth++;
    else if (c === '}') depth = Math.max(0, depth - 1);
    if (c === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out.map((p) => p.trim()).filter(Boolean);
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

/** Rule ids given to an option, comma-separated; every one must name a rule. */
function ruleIds(flag: string, v: string): string[] {
  const ids = v.split(',').map((x) => x.trim()).filter(Boolean);
  if (ids.length === 0) throw new UsageError(`${flag} takes rule ids or prefixes ending in -, comma-separated (\`shardwise rules\` lists them)`);
  for (const id of ids) {
    const problem = ruleIdProblem(id);
    if (problem) throw new UsageError(`${flag}: ${problem}; \`shardwise rules\` lists them`);
  }
  return ids;
}

function parseCheckArgs(args: string[]): CheckOptions {
  const o: CheckOptions = { format: 'text', settings: { targetVersions: {} }, fix: false, unsafeFixes: false, diff: false, showFixes: false, quiet: false, color: 'auto', useConfig: true, paths: [], statistics: false, exitZero: false, exclude: [], forceExclude: false, respectGitignore: true, verbose: false };
  o.paths = readOptions(args, (m) => new UsageError(m), (r) => {
    if (checkOption(o, r.flag, r)) return true;
    if (r.flag.startsWith('-') && r.flag !== '-') throw new UsageError(`unknown option ${r.flag}${didYouMean(r.flag, CHECK_OPTIONS)}`);
    return false;
  });
  if (o.paths.includes('-') && o.paths.length > 1) throw new UsageError('- (read the standard input) takes no other path');
  if (o.stdinFilename !== undefined && o.paths.length > 0 && o.paths[0] !== '-') throw new UsageError('--stdin-filename names the text read from - (the standard input); it takes no other path');
  if (o.stdinFilename !== undefined && o.paths.length === 0) o.paths.push('-');
  if (o.paths.length === 0) o.paths.push('.');
  if (o.unsafeFixes && !o.fix && !o.diff) throw new UsageError('--unsafe-fixes goes with --fix or --diff');
  if (o.statistics && o.format !== 'text' && o.format !== 'json') throw new UsageError('--statistics prints text, or JSON with --output-format json');
  if (o.configFile !== undefined && !o.useConfig) throw new UsageError('--config names the configuration to use and --no-config says to use none: give one of them');
  return o;
}

/** Applies one option of `check`; false when `flag` is not one (a path, or an unknown option). */
function checkOption(o: CheckOptions, flag: string, r: OptionArg): boolean {
  switch (flag) {
    case '--output-format':
    case '--format': {
      const v = r.value();
      if (!(OUTPUT_FORMATS as readonly string[]).includes(v)) throw new UsageError(`${flag} must be ${OUTPUT_FORMATS.slice(0, -1).join(', ')} or ${OUTPUT_FORMATS.at(-1)}, not ${JSON.stringify(v)}${didYouMean(v, OUTPUT_FORMATS)}`);
      o.format = v as OutputFormat;
      return true;
    }
    case '--hardware': {
      const v = r.value();
      if (!HARDWARE.some((h) => h.id === v)) throw new UsageError(`unknown hardware ${JSON.stringify(v)}${hardwareSuggestion(v)}`);
      o.settings.hardware = v;
      return true;
    }
    case '--gpus-per-node':
      o.settings.gpusPerNode = r.positive();
      return true;
    case '--nvlink-domain':
      o.settings.nvlinkDomain = r.positive();
      return true;
    case '--target': {
      const v = r.value();
      // A release as PEP 440 writes it, pre-releases and dev builds included (`0.15.0rc0`, `1.13.0.dev0`).
      const m = /^(accelerate|deepspeed|megatron-core|transformers)=(\d+(?:\.\d+)*(?:(?:a|b|rc)\d+)?(?:\.post\d+)?(?:\.dev\d+)?)$/.exec(v);
      if (!m) throw new UsageError(`--target takes TOOL=VERSION (accelerate, deepspeed, megatron-core or transformers), not ${JSON.stringify(v)}`);
      o.settings.targetVersions![m[1] as 'accelerate'] = m[2];
      return true;
    }
    case '--fix':
      o.fix = true;
      return true;
    case '--unsafe-fixes':
      o.unsafeFixes = true;
      return true;
    case '--diff':
      o.diff = true;
      return true;
    case '--show-fixes':
      o.showFixes = true;
      return true;
    case '--no-config':
      o.useConfig = false;
      return true;
    case '--max-file-size':
      o.settings.maxFileSize = parseSize(flag, r.value());
      return true;
    case '--select':
    case '--extend-select':
    case '--ignore': {
      const ids = ruleIds(flag, r.value());
      const key = flag === '--select' ? 'select' : flag === '--ignore' ? 'ignore' : 'extendSelect';
      o.selection ??= {};
      o.selection[key] = [...(o.selection[key] ?? []), ...ids];
      return true;
    }
    case '--statistics':
      o.statistics = true;
      return true;
    case '--exit-zero':
      o.exitZero = true;
      return true;
    case '--show-info':
      o.minSeverity = 'hint';
      return true;
    case '--min-severity': {
      const v = r.value();
      if (!(SEVERITIES as readonly string[]).includes(v)) throw new UsageError(`--min-severity takes ${SEVERITIES.join(', ')}, not ${JSON.stringify(v)}`);
      o.minSeverity = v as Severity;
      return true;
    }
    case '--max-warnings': {
      const v = r.value();
      if (!/^\d+$/.test(v)) throw new UsageError(`--max-warnings needs a number of warnings (0 or more), not ${JSON.stringify(v)}`);
      o.maxWarnings = Number(v);
      return true;
    }
    case '--stdin-filename':
      o.stdinFilename = r.value();
      if (!o.stdinFilename) throw new UsageError('--stdin-filename needs a path');
      return true;
    case '--exclude':
    case '--extend-exclude':
      o.exclude.push(...splitPatterns(r.value()));
      return true;
    case '--force-exclude':
      o.forceExclude = true;
      return true;
    case '--respect-gitignore':
      o.respectGitignore = true;
      return true;
    case '--no-respect-gitignore':
      o.respectGitignore = false;
      return true;
    case '--follow':
      o.follow = true;
      return true;
    case '--verbose':
      o.verbose = true;
      return true;
    case '--show-settings':
      o.showSettings = true;
      return true;
    case '--quiet':
    case '-q':
      o.quiet = true;
      return true;
    case '--color':
      o.color = r.choice(COLOR_MODES);
      return true;
    case '--config':
      o.configFile = r.value();
      if (!o.configFile) throw new UsageError('--config needs the path of a .shardwise.yaml or pyproject.toml');
      return true;
    default:
      return false;
  }
}

/**
 * What the engine needs to read the files a config refers to: a reference is tried as an absolute
 * path, then relative to the file's folder, then relative to the current directory (where
 * `accelerate launch` usually runs).
 */
function linkedInput(file: string, text: string, referrers?: { path: string; text: string }[], absent?: AbsenceCache): FileInput {
  const path = resolve(file);
  return { path, text, resolve: createResolver({ from: path, bases: [process.cwd()], absent }), referrers: referrers?.length ? referrers : undefined, budget: timeBudget(BACKGROUND_BUDGET_MS, 'one file') };
}

/** At most this many referrers are given to one file (the engine reads no more either). */
const MAX_REFERRERS = 20;

/** A linked file's path as the CLI reports it: relative when the referring file's path is. */
function relativeTo(from: string, target: string): string {
  if (isAbsolute(from)) return target;
  const rel = relative(process.cwd(), target);
  return rel.startsWith('..') ? target : rel;
}

/** Rule levels for --no-config: only the command line's selection. */
function selectionOnly(selection: RuleSelection | undefined): EngineSettings {
  if (!selection) return {};
  const on = selectedRules([selection]);
  return { rules: Object.fromEntries(RULES.filter((r) => !on.has(r.id)).map((r) => [r.id, 'off' as const])) };
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
  const cwd = process.cwd();
  const configs = projectConfigs(o);
  const stdin = o.paths[0] === '-';
  // With `--fix -`, stdout is the fixed text: the report goes to stderr.
  const sink = stdin && o.fix && !o.diff ? { write: (s: string) => void process.stderr.write(s), fd: 2 } : { write: (s: string) => void process.stdout.write(s), fd: 1 };
  const walkOptions = { maxBytes: scanLimit, exclude: o.exclude, forceExclude: o.forceExclude, respectGitignore: o.respectGitignore, follow: !!o.follow, configs: o.useConfig ? configs : undefined, cwd };
  const collected = stdin ? { files: [] as Candidate[], oversized: [], unlisted: [], notices: [] } : collect(o.paths, walkOptions);
  for (const n of collected.notices) note(n);
  /** The standard input as one candidate: its name is --stdin-filename's, or `-`. */
  let stdinText: string | undefined;
  let stdinBytes: Buffer | undefined;
  if (stdin) {
    const name = o.stdinFilename;
    // --force-exclude: an excluded name is passed through untouched, unchecked (as an editor integration expects).
    const skipped = name !== undefined && o.forceExclude && forceExcluded(name, false, walkOptions);
    const read = readStdin(namedLimit);
    if (!read.ok) {
      note(`the standard input ${read.reason}`);
      return 2;
    }
    if (skipped) {
      if (o.fix && !o.diff) process.stdout.write(read.bytes);
      return 0;
    }
    stdinText = read.text;
    stdinBytes = read.bytes;
    collected.files.push({ path: name ?? '-', named: true });
  }
  /** Where a file's configuration is looked up: the standard input without a name is in the working directory. */
  const nameless = stdinText !== undefined && o.stdinFilename === undefined;
  const lookupPath = (c: { path: string }): string => (nameless && c.path === '-' ? join(cwd, '-') : c.path);
  const settingsFor = (at: string): EngineSettings => (o.useConfig ? configs.forFile(at, o.selection).settings : mergeSettings(configs.located(at), selectionOnly(o.selection)));
  // A mistake in a configuration stops the run before anything is checked: said once per mistake.
  if (o.useConfig) {
    // The configurations of the files to check, and of the folders named (one that holds no config file is checked too).
    const at = [...collected.files.map(lookupPath), ...(stdin ? [] : o.paths.filter((p) => !collected.files.some((c) => c.path === p)).map((p) => join(p, '_')))];
    if (!configurationsValid(configs, at)) return 2;
  }
  const checked: Checked[] = [];
  const shown: { index: number; lines: string[] }[] = []; // --show-settings, in the order the files were given
  const oversized = [...collected.oversized];
  const run: FixRun = { refusals: [], applied: 0, diffs: 0, ioFailure: false };
  for (const dir of collected.unlisted) {
    note(`cannot list the folder ${dir}`);
    run.ioFailure = true;
  }
  const warnedConfig = new Set<string>();
  const order = readingOrder(collected.files);
  const referrersOf = new Map<string, { path: string; text: string }[]>();
  // What a file's lookups did not find is not looked for again by the next file of the run.
  const absent = absenceCache();
  const queued = new Set(order.map((c) => pathKey(c.path)));
  const done = new Set<string>();
  // `order` grows while it is walked: a linked file under another name is appended.
  for (const [position, { path: file, index, named }] of order.entries()) {
    const fromStdin = position === 0 && stdinText !== undefined;
    const at = fromStdin ? lookupPath({ path: file }) : file;
    const key = pathKey(file);
    done.add(key);
    const referrers = referrersOf.get(key)?.filter((r) => pathKey(r.path) !== key);
    referrersOf.delete(key);
    let text: string;
    if (fromStdin) text = stdinText!;
    else {
      const read = readBounded(file, named ? namedLimit : scanLimit);
      if (!read.ok) {
        if (read.kind === 'too-large' && !named) oversized.push(file);
        else if (read.kind === 'too-large') note(`${file} was not checked: it ${read.reason}; --max-file-size raises the limit`);
        else {
          note(`cannot read ${file}: it ${read.reason}`);
          run.ioFailure = true;
        }
        continue;
      }
      text = read.text;
    }
    if (o.useConfig) {
      for (const p of configs.forFile(at).problems) if (!warnedConfig.has(p)) (warnedConfig.add(p), note(p));
    }
    // Command-line flags win over .shardwise.yaml; in-file directives win over both.
    const settings = mergeSettings(settingsFor(at), o.settings);
    // Without a name, the standard input's format is told by its content alone (a `#!` line: a script).
    const input: FileInput = fromStdin && nameless ? { text, languageId: /^#!/.test(text) ? 'shellscript' : undefined, resolve: createResolver({ from: at, bases: [cwd] }) } : linkedInput(file, text, referrers, absent);
    const made = o.fix || o.diff ? fixFile(file, fromStdin ? stdinBytes : undefined, input, settings, o, run) : { analysis: analyze(input, settings), text };
    const analysis = made.analysis;
    text = made.text;
    queueLinked(analysis, at, text, { order, queued, done, referrersOf }, referrers);
    if (o.verbose) for (const line of formatLines(file, analysis)) note(line);
    if (o.showSettings && shown.push({ index, lines: settingsLines(file, analysis, o.useConfig ? configs.forFile(at).files : []) })) continue;
    // A file no format claims is reported only when a rule still had something to say (a script not followed).
    if (analysis.docs.some((d) => d.format) || analysis.findings.length > 0) checked.push({ index, file, findings: outRecords(analysis, o, (target) => relativeTo(file, target)) });
  }
  referrersOf.clear();
  const settingsText = shown.sort((a, b) => a.index - b.index).flatMap((s) => s.lines);
  if (o.showSettings) return (settingsText.length && process.stdout.write(`${settingsText.join('\n')}\n`), run.ioFailure ? 2 : 0);
  checked.sort((a, b) => a.index - b.index);
  if (!o.quiet) noteOversized(oversized, scanLimit);
  if (o.diff) {
    reportRefusals(run.refusals, o);
    if (!o.quiet) note(`${run.diffs} file${run.diffs === 1 ? '' : 's'} would be changed`);
    return run.ioFailure ? 2 : o.exitZero ? 0 : run.diffs > 0 ? 1 : 0;
  }
  const { errors, warnings } = printReport(checked, o, run, sink, cwd, VERSION);
  if (run.ioFailure) return 2;
  if (o.exitZero) return 0;
  if (errors > 0) return 1;
  if (o.maxWarnings !== undefined && warnings > o.maxWarnings) {
    note(`${warnings} warnings, more than --max-warnings ${o.maxWarnings} allows`);
    return 1;
  }
  return 0;
}

/** The configurations of a run: the one `--config` names for every file, or those found at or above each. */
function projectConfigs(o: CheckOptions): ProjectConfigs {
  return new ProjectConfigs(undefined, o.configFile === undefined ? undefined : resolve(o.configFile));
}

/** A mistake in a configuration stops the run before anything is checked: said once per mistake. */
function configurationsValid(configs: ProjectConfigs, files: string[]): boolean {
  const invalid = new Set<string>();
  for (const file of files) for (const p of configs.forFile(file).invalid) invalid.add(p);
  if (!invalid.size) return true;
  for (const p of invalid) note(p);
  note(`nothing was checked: correct the configuration (or run with --no-config)`);
  return false;
}

/**
 * The files in the order they are read: the ones that refer to others first, scripts (an `accelerate
 * launch --config_file` gives its Accelerate config the command line), then YAML (an Accelerate config
 * gives its DeepSpeed JSON the world size), then JSON, each with the checked files that refer to it.
 */
function readingOrder(files: readonly { path: string; named: boolean }[]): RunQueue['order'] {
  const RANK: Record<string, number> = { shell: 0, yaml: 1, json: 2 };
  const order = files.map((c, index) => {
    const syntax = syntaxOf({ path: c.path, text: '' });
    return { ...c, index, json: syntax === 'json', rank: RANK[syntax] ?? 1 };
  });
  return order.sort((a, b) => a.rank - b.rank || a.index - b.index);
}

/** The files of a run in the order they are checked, and the referrers each JSON still to be checked gets. */
interface RunQueue {
  order: { path: string; named: boolean; index: number; json: boolean; rank: number }[];
  queued: Set<string>;
  done: Set<string>;
  referrersOf: Map<string, { path: string; text: string }[]>;
}

/**
 * The files a checked file refers to: one under a name the walk skips is queued, and one still to
 * be checked gets this file as a referrer, and the files that refer to this one (`upstream`: the
 * launch script of an Accelerate config is then a referrer of the DeepSpeed JSON the config names).
 */
function queueLinked(analysis: FileAnalysis, at: string, text: string, { order, queued, done, referrersOf }: RunQueue, upstream: readonly { path: string; text: string }[] = []): void {
  for (const link of analysis.links ?? []) {
    if (!link.target) continue;
    const target = pathKey(link.target);
    // A DeepSpeed JSON saved under another name (`ds_config.conf`) is checked because a config names it.
    if (!queued.has(target) && !hasConfigExtension(link.target)) {
      queued.add(target);
      order.push({ path: relativeTo(at, link.target), named: true, index: order.length, json: true, rank: 2 });
    }
    // Its text is kept only for a target still to be checked, which gets it as a referrer.
    if (!queued.has(target) || done.has(target)) continue;
    const list = referrersOf.get(target) ?? [];
    const from = resolve(at);
    if (list.length < MAX_REFERRERS && !list.some((r) => r.path === from)) list.push({ path: from, text });
    for (const r of upstream) if (list.length < MAX_REFERRERS && pathKey(r.path) !== target && !list.some((x) => x.path === r.path)) list.push(r);
    referrersOf.set(target, list);
  }
}

/**
 * Fixes one file (`--fix`, `--diff`): the patch printed, the standard input's fixed text printed,
 * or the file replaced atomically; a file that cannot be written is reported as it is.
 */
function fixFile(file: string, stdinBytes: Buffer | undefined, input: FileInput, settings: EngineSettings, o: CheckOptions, run: FixRun): { analysis: FileAnalysis; text: string } {
  const fromStdin = stdinBytes !== undefined;
  const original = input.text;
  // A fix writes text: bytes that are not UTF-8 would come back as U+FFFD where nothing was fixed.
  let bytes = stdinBytes;
  if (!bytes && original.includes('\uFFFD')) {
    try {
      bytes = readFileSync(file);
    } catch {
      bytes = undefined;
    }
  }
  if (bytes && notUtf8(bytes, original)) {
    note(`${file} was not fixed: it is not UTF-8 text (a Latin-1 byte, say), and writing the fixes would change bytes they do not touch; save it as UTF-8 to fix it`);
    if (fromStdin && !o.diff) process.stdout.write(bytes);
    return { analysis: analyze(input, settings), text: original };
  }
  const fixed = fixText(input, settings, { unsafe: o.unsafeFixes });
  const analysis = fixed.analysis;
  const text = fixed.text;
  for (const r of fixed.refused) run.refusals.push({ file, line: analysis.lines.position(r.finding.span.start).line + 1, title: r.fix.title, reason: r.reason });
  if (text !== original && o.diff) {
    run.diffs++;
    // The file names are escaped; the lines are the file's own, so that the patch applies.
    process.stdout.write(createTwoFilesPatch(`a/${escapeText(file)}`, `b/${escapeText(file)}`, original, text, undefined, undefined, { context: 3 }));
  } else if (fromStdin) {
    if (!o.diff) {
      process.stdout.write(text);
      run.applied += fixed.applied.length;
    }
  } else if (text !== original) {
    try {
      replaceFile(file, text, original);
      run.applied += fixed.applied.length;
    } catch (err) {
      if (!(err instanceof WriteRefused)) throw err;
      note(`${file} was not fixed: ${err.message}; the file is unchanged`);
      run.ioFailure = true;
      // What is reported is the file as it is.
      return { analysis: analyze(input, settings), text: original };
    }
  }
  return { analysis, text };
}

/** Files found in a folder and left out for their size, in one notice. */
function noteOversized(oversized: readonly string[], limit: number): void {
  if (!oversized.length) return;
  const shown = oversized.slice(0, 3).join(', ');
  const more = oversized.length > 3 ? ` and ${oversized.length - 3} more` : '';
  note(`${oversized.length} file${oversized.length === 1 ? '' : 's'} over ${formatBytes(limit, true)} ${oversized.length === 1 ? 'was' : 'were'} not checked: ${shown}${more}; --max-file-size raises the limit`);
}

/** One config file read and analysed as `layout` and `mfu` read it, or the exit code when it cannot be read. */
function analyzeConfig(o: CheckOptions, file: string): FileAnalysis | number {
  const read = readBounded(file, o.settings.maxFileSize ?? DEFAULT_NAMED_LIMIT);
  if (!read.ok) {
    note(`cannot read ${file}: it ${read.reason}${read.kind === 'too-large' ? '; --max-file-size raises the limit' : ''}`);
    return 2;
  }
  return analyzeText(o, file, read.text);
}

/** A config's text analysed with the project configuration at its path and the command line's settings. */
function analyzeText(o: CheckOptions, file: string, text: string): FileAnalysis {
  const configs = projectConfigs(o);
  const settings = mergeSettings(o.useConfig ? configs.forFile(file).settings : configs.located(file), o.settings);
  const analysis = analyze(linkedInput(file, text), settings);
  if (o.verbose) for (const line of formatLines(file, analysis)) note(line);
  return analysis;
}

/** `shardwise layout <file>`: the Plan of each document, with provenance and memory. */
function layout(args: string[]): number {
  const picture = parsePictureArgs(args, (message) => new UsageError(message));
  const o = parseCheckArgs(picture.rest);
  if (o.paths.length !== 1 || o.paths[0] === '.') throw new UsageError('layout takes one config file');
  const file = o.paths[0];
  const analysis = analyzeConfig(o, file);
  if (typeof analysis === 'number') return analysis;
  if (picture.svg !== undefined || picture.html !== undefined) return writePicture(analysis, file, picture);
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

/** `layout --svg/--html`: the picture of the first layout in the file, written where asked. */
function writePicture(analysis: FileAnalysis, file: string, picture: PictureArgs): number {
  const plan = analysis.docs.find((d) => d.plan)?.plan;
  const svg = plan ? layoutSvg(plan, { colourBy: picture.colourBy }) : undefined;
  if (!svg) {
    note(plan ? `${file}: the degrees do not multiply to a known world size, so there is no rank grid to draw (\`shardwise check\` says why)` : `${file} does not describe a parallel layout Shardwise knows`);
    return 2;
  }
  try {
    if (picture.svg !== undefined) writeFileSync(picture.svg, svg + '\n');
    if (picture.html !== undefined) writeFileSync(picture.html, pictureHtml(svg, `Shardwise layout of ${file}`));
  } catch (err) {
    note(`cannot write the picture: ${(err as Error).message}`);
    return 2;
  }
  return 0;
}

/** `shardwise mfu`: the MFU of the config's layout at a given or logged step time. */
function mfu(args: string[]): number {
  const m = parseMfuArgs(args, (message) => new UsageError(message));
  const o = parseCheckArgs(m.rest);
  if (o.paths.length !== 1 || o.paths[0] !== '.') throw new UsageError(`mfu takes its files as --config and --log, not ${JSON.stringify(o.paths[0])}`);
  if (o.format !== 'text' && o.format !== 'json') throw new UsageError('mfu prints text, or JSON with --output-format json');
  const analysis = analyzeConfig(o, m.config);
  if (typeof analysis === 'number') return analysis;
  let logText: string | undefined;
  if (m.log !== undefined) {
    const read = readBounded(m.log, Math.max(o.settings.maxFileSize ?? 0, 64 * 1024 * 1024));
    if (!read.ok) {
      note(`cannot read ${m.log}: it ${read.reason}`);
      return 2;
    }
    logText = read.text;
  }
  const r = mfuFor(analysis, m, logText);
  if ('problem' in r) {
    note(r.problem);
    return 2;
  }
  process.stdout.write(o.format === 'json' ? jsonText({ ...r.mfu, loggedTflops: r.loggedTflops }) + '\n' : escapeLines(mfuText(r)) + '\n');
  return 0;
}

/** `shardwise plan`: the best layouts of a model on given hardware. */
function plan(args: string[]): number {
  const p = parsePlanArgs(args, (message) => new UsageError(message));
  const o = parseCheckArgs(p.rest);
  if (o.paths.length !== 1 || o.paths[0] !== '.') throw new UsageError(`plan takes the model as --model, not ${JSON.stringify(o.paths[0])}`);
  if (o.format !== 'text' && o.format !== 'json') throw new UsageError('plan prints text, or JSON with --output-format json');
  const read = (file: string) => {
    const r = readBounded(file, o.settings.maxFileSize ?? DEFAULT_NAMED_LIMIT);
    return r.ok ? { text: r.text } : { problem: `cannot be read: it ${r.reason}` };
  };
  const src = modelSource(p.model, read, (file, text) => analyzeText(o, file, text));
  const w = 'problem' in src ? src : workloadFor(p, src, { hardware: o.settings.hardware, nvlinkDomain: o.settings.nvlinkDomain, gpusPerNode: o.settings.gpusPerNode });
  if ('problem' in w || 'problem' in src) {
    note('problem' in src ? src.problem : (w as { problem: string }).problem);
    return 2;
  }
  const r = planLayouts({ workload: w.workload, pinned: p.pinned });
  process.stdout.write(o.format === 'json' ? jsonText(planJson(r, w.workload, src.title, w.notes, p.top, p.explain)) + '\n' : escapeLines(planText(r, w.workload, src.title, w.notes, p.top, p.explain)) + '\n');
  return r.empty ? 1 : 0;
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
      case 'plan':
        return plan(rest);
      case 'mfu':
        return mfu(rest);
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
      case '-V':
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
      // One line for the mistake and where the options are listed, not the whole help.
      process.stderr.write(`shardwise: ${escapeText(err.message)}\nRun \`shardwise --help\` for the commands and their options.\n`);
      return 2;
    }
    note((err as Error).message);
    return 2;
  }
}
