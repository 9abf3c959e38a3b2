/**
 * `shardwise`: the engine on the command line, for CI and scripts.
 *
 *   shardwise check [paths…] [--format text|json|sarif] [--hardware ID] [--gpus-per-node N]
 *                   [--nvlink-domain N] [--target TOOL=VERSION] [--fix [--unsafe-fixes]] [--diff]
 *                   [--show-fixes] [--no-config]
 *   shardwise explain <rule-id>
 *   shardwise rules
 *   shardwise docs [--write FILE | --check FILE]
 *
 * Exit status: 0 no error found, 1 an error was found, 2 usage or I/O failure.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createTwoFilesPatch } from 'diff';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { analyze, explain, fixForSet, fixText, layoutText, mergeSettings, RULES, rulesMarkdown, syntaxOf, type EngineSettings, type FileAnalysis, type FileInput, type Finding, type RefusedFix } from '../engine';
import { ProjectConfigs } from '../host/project-config';
import { createResolver, pathKey } from '../host/resolve';
import { replaceFile, WriteRefused } from '../host/write';
import { toSarif } from './sarif';

const VERSION = '0.1.0';
const USAGE = `Usage:
  shardwise check [paths…] [options]   check config files (folders are searched)
  shardwise layout <file> [options]    print the parallel layout a config describes
  shardwise explain <rule-id>          print a rule's documentation
  shardwise rules                      list the rules
  shardwise docs [--write F|--check F] print (write, or compare with F) the rules reference

Options of check:
  --format text|json|sarif   output format (default text)
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

Exit status: 0 no error found, 1 an error found, 2 usage or I/O failure.
`;

class UsageError extends Error {}

const EXTENSIONS = /\.(ya?ml|json|sh)$/i;
const SKIP_DIRS = new Set(['node_modules', '.git', '.hg', '.svn', '__pycache__', '.venv', 'venv', 'dist', 'out']);

interface CheckOptions {
  format: 'text' | 'json' | 'sarif';
  settings: EngineSettings;
  fix: boolean;
  unsafeFixes: boolean;
  diff: boolean;
  showFixes: boolean;
  useConfig: boolean;
  paths: string[];
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
      case '--format': {
        const v = value();
        if (v !== 'text' && v !== 'json' && v !== 'sarif') throw new UsageError(`--format must be text, json or sarif, not ${JSON.stringify(v)}`);
        o.format = v;
        break;
      }
      case '--hardware':
        o.settings.hardware = value();
        break;
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
      default:
        if (a.startsWith('-') && a !== '-') throw new UsageError(`unknown option ${a}`);
        o.paths.push(a);
    }
  }
  if (o.paths.length === 0) o.paths.push('.');
  if (o.unsafeFixes && !o.fix && !o.diff) throw new UsageError('--unsafe-fixes goes with --fix or --diff');
  return o;
}

/** Files to check: named files as they are, folders searched for config-looking files. */
function collect(paths: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string, depth: number): void => {
    if (depth > 32) return;
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      let st;
      try {
        st = statSync(p);
      } catch {
        continue;
      }
      if (st.isDirectory()) {
        if (!SKIP_DIRS.has(name) && !name.startsWith('.')) walk(p, depth + 1);
      } else if (st.isFile() && EXTENSIONS.test(name) && !/^\.shardwise\.ya?ml$/.test(name) && !/package(-lock)?\.json$/.test(name)) out.push(p);
    }
  };
  for (const p of paths) {
    let st;
    try {
      st = statSync(p);
    } catch {
      throw new Error(`${p}: no such file or folder`);
    }
    if (st.isDirectory()) walk(p, 0);
    else out.push(p);
  }
  return out;
}

interface Result {
  file: string;
  analysis: FileAnalysis;
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

function check(o: CheckOptions): number {
  const files = collect(o.paths);
  const configs = new ProjectConfigs();
  const results: (Result & { index: number })[] = [];
  let ioFailure = false;
  const warnedConfig = new Set<string>();
  // Files that may refer to others (YAML, scripts) first; then the JSON files, each with the checked
  // files whose references resolved to it (an Accelerate config gives its DeepSpeed JSON the world size).
  const order = files.map((file, index) => ({ file, index, json: syntaxOf({ path: file, text: '' }) === 'json' }));
  order.sort((a, b) => Number(a.json) - Number(b.json) || a.index - b.index);
  const referrersOf = new Map<string, { path: string; text: string }[]>();
  const queued = new Set(files.map((f) => pathKey(f)));
  const refusals: { file: string; analysis: FileAnalysis; refused: RefusedFix }[] = [];
  let applied = 0;
  let diffs = 0;
  for (const { file, index } of order) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      process.stderr.write(`shardwise: cannot read ${file}: ${(err as Error).message}\n`);
      ioFailure = true;
      continue;
    }
    let settings: EngineSettings = o.useConfig ? {} : configs.located(file);
    if (o.useConfig) {
      const loaded = configs.forFile(file);
      settings = loaded.settings;
      for (const p of loaded.problems) if (!warnedConfig.has(p)) (warnedConfig.add(p), process.stderr.write(`shardwise: ${p}\n`));
    }
    // Command-line flags win over .shardwise.yaml; in-file directives win over both.
    settings = mergeSettings(settings, o.settings);
    const original = text;
    const referrers = referrersOf.get(pathKey(file))?.filter((r) => pathKey(r.path) !== pathKey(file));
    let analysis: FileAnalysis;
    if (o.fix || o.diff) {
      const fixed = fixText(linkedInput(file, text, referrers), settings, { unsafe: o.unsafeFixes });
      analysis = fixed.analysis;
      text = fixed.text;
      for (const r of fixed.refused) refusals.push({ file, analysis, refused: r });
      if (text !== original && o.diff) {
        diffs++;
        process.stdout.write(createTwoFilesPatch(`a/${file}`, `b/${file}`, original, text, undefined, undefined, { context: 3 }));
      } else if (text !== original) {
        try {
          replaceFile(file, text, original);
          applied += fixed.applied.length;
        } catch (err) {
          if (!(err instanceof WriteRefused)) throw err;
          process.stderr.write(`shardwise: ${file} was not fixed: ${err.message}; the file is unchanged\n`);
          ioFailure = true;
          // What is reported is the file as it is.
          text = original;
          analysis = analyze(linkedInput(file, text, referrers), settings);
        }
      }
    } else analysis = analyze(linkedInput(file, text, referrers), settings);
    for (const link of analysis.links ?? []) {
      if (!link.target) continue;
      const list = referrersOf.get(pathKey(link.target)) ?? [];
      if (list.length < MAX_REFERRERS && !list.some((r) => r.path === resolve(file))) list.push({ path: resolve(file), text });
      referrersOf.set(pathKey(link.target), list);
      // A DeepSpeed JSON saved under another name (`ds_config.conf`) is checked because a config names it.
      const key = pathKey(link.target);
      if (!queued.has(key) && !EXTENSIONS.test(link.target)) {
        queued.add(key);
        order.push({ file: relativeTo(file, link.target), index: order.length, json: true });
      }
    }
    // A file no format claims is reported only when a rule still had something to say (a script not followed).
    if (analysis.docs.some((d) => d.format) || analysis.findings.length > 0) results.push({ file, analysis, index });
  }
  results.sort((a, b) => a.index - b.index);
  if (o.diff) {
    reportRefusals(refusals);
    process.stderr.write(`shardwise: ${diffs} file${diffs === 1 ? '' : 's'} would be changed\n`);
    return ioFailure ? 2 : diffs > 0 ? 1 : 0;
  }
  const all = results.flatMap((r) => r.analysis.findings.map((f) => ({ r, f })));
  const fixesOf = (f: Finding) => f.fixes().map((x) => ({ title: x.title, applicability: x.applicability }));
  if (o.format === 'json') {
    const out = all.map(({ r, f }) => ({ file: r.file, range: r.analysis.lines.range(f.span), severity: f.severity, code: f.code, message: f.message, ...(o.showFixes ? { fixes: fixesOf(f) } : {}) }));
    process.stdout.write(JSON.stringify(out, null, 2) + '\n');
  } else if (o.format === 'sarif') {
    process.stdout.write(JSON.stringify(toSarif(results.map((r) => ({ file: r.file, lines: r.analysis.lines, findings: r.analysis.findings })), VERSION), null, 2) + '\n');
  } else {
    let fixable = 0;
    for (const { r, f } of all) {
      const p = r.analysis.lines.position(f.span.start);
      const safe = fixForSet(f) !== undefined;
      if (safe) fixable++;
      process.stdout.write(`${r.file}:${p.line + 1}:${p.character + 1}: ${f.severity} [${f.code}]${safe ? ' [*]' : ''} ${f.message}\n`);
      if (o.showFixes) for (const x of fixesOf(f)) process.stdout.write(`    fix (${x.applicability}): ${x.title}\n`);
    }
    reportRefusals(refusals);
    const count = (s: string) => all.filter(({ f }) => f.severity === s).length;
    const notes = [o.fix ? `${applied} fix${applied === 1 ? '' : 'es'} applied` : '', fixable ? `${fixable} fixable with --fix ([*])` : ''].filter(Boolean);
    process.stderr.write(`shardwise: ${results.length} config file${results.length === 1 ? '' : 's'} checked: ${count('error')} errors, ${count('warning')} warnings, ${count('information') + count('hint')} notes${notes.length ? `; ${notes.join(', ')}` : ''}\n`);
  }
  if (ioFailure) return 2;
  return all.some(({ f }) => f.severity === 'error') ? 1 : 0;
}

/** Fixes `--fix` or `--diff` left out, each with its reason, on stderr. */
function reportRefusals(refusals: readonly { file: string; analysis: FileAnalysis; refused: RefusedFix }[]): void {
  for (const { file, analysis, refused } of refusals) process.stderr.write(`shardwise: ${file}:${analysis.lines.position(refused.finding.span.start).line + 1}: not fixed: ${refused.fix.title}: ${refused.reason}\n`);
}

/** `shardwise layout <file>`: the Plan of each document, with provenance and memory. */
function layout(args: string[]): number {
  const o = parseCheckArgs(args);
  if (o.paths.length !== 1 || o.paths[0] === '.') throw new UsageError('layout takes one config file');
  const file = o.paths[0];
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    process.stderr.write(`shardwise: cannot read ${file}: ${(err as Error).message}\n`);
    return 2;
  }
  const settings = mergeSettings(o.useConfig ? new ProjectConfigs().forFile(file).settings : new ProjectConfigs().located(file), o.settings);
  const analysis = analyze(linkedInput(file, text), settings);
  if (o.format === 'json') {
    process.stdout.write(JSON.stringify(analysis.docs.map((d) => d.plan ?? null), null, 2) + '\n');
    return 0;
  }
  const out = layoutText(analysis);
  if (!out) {
    process.stderr.write(`shardwise: ${file} does not describe a parallel layout Shardwise knows\n`);
    return 2;
  }
  process.stdout.write(out + '\n');
  return 0;
}

export function main(argv: string[]): number {
  const [command, ...rest] = argv;
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
          process.stderr.write(`shardwise: unknown rule ${JSON.stringify(rest[0])}; \`shardwise rules\` lists them\n`);
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
          const current = readFileSync(rest[1], 'utf8');
          if (current !== md) {
            process.stderr.write(`shardwise: ${rest[1]} is stale; run \`npm run docs\`\n`);
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
      process.stderr.write(`shardwise: ${err.message}\n\n${USAGE}`);
      return 2;
    }
    process.stderr.write(`shardwise: ${(err as Error).message}\n`);
    return 2;
  }
}

process.exitCode = main(process.argv.slice(2));
