/**
 * The engine's entry point: text in, findings out.
 *   parse → SourceDoc(s) → detect format → schema instance + model → schema check + rules → findings
 * Pure: no file system, network, clock or editor API. Never throws on any input.
 */
import { parseDirectives, type Directives } from './directives';
import { SuppressionLedger } from './suppressions';
import { FORMATS, formatById, LINKABLE } from './formats';
import type { Evidence } from './formats/evidence';
import type { FormatSupport, HydraLaunch, LaunchCommand, RecipeLaunchOf } from './formats/format';
import type { Linked, LinkedAnalysis, LinkedFile, Referrer } from './formats/link';
import type { LinkableFormat, LinkableModels } from './formats/models';
import type { Detection, DocAnalysis, FileAnalysis, FileInput } from './result';
import { Minimatch } from 'minimatch';
import { buildInstance, checkInstance, type SchemaIssue } from './schema/check';
import { SchemaNav } from './schema/navigate';
import { defaultAt } from './schema/vocabulary';
import { InstanceView } from './schema/view';
import { directiveProblems, settingsFromDirectives } from './config';
import { associationProblem, ASSOCIATION_LIMITS, boundedSettings, DEFAULT_MAX_FILE_SIZE, isFormatId, mergeSettings, type EngineSettings } from './settings';
import { RULES, ruleById } from './rules';
import type { FixSpec, RelatedSpec, Report, Rule } from './rules/rule';
import { documentViews, runRule } from './rules/run';
import { parseShell, type ShellOptions } from './syntax/shell';
import { assumingBranch, heredocDeepSpeed, hydraLaunchesOf, launchesOf, launchLink, megatronDeepSpeedUsers, recipeLaunchesOf, recipeLinks, trimQuotes } from './launches';
import { flagTakesValue } from './formats/megatron/schema';
import { referrerShellOptions, shellOptions } from './shell-options';
import { repositoryHas } from './formats/megatron/checkout';
import { runtimeMakes, upstreamAssumed, upstreamRedefined } from './formats/megatron/runtime';
import { readSbatch } from './syntax/sbatch';
import { deepspeedAsJson, parseJson } from './syntax/json';
import type { SourceDoc, SyntaxProblem, Syntax } from './syntax/sourcedoc';
import { workSize } from './syntax/tree';
import { parseYaml } from './syntax/yaml';
import { applyEdits, escapeControls, LineIndex } from './text';
import { keepsSyntax, syntaxTrial } from './verify';
import { unreadSections, withoutGuesses, withoutOverridden, withoutUnreadSections, withoutUnsupported } from './drop';
import { pathToString, type Finding, type Fix, type Path, type RelatedLocation, type Severity, type Span, type TextEdit } from './types';
import { describeChanges, planChanges, type PlanChange } from './plan/diff';
import { forkOf, releaseOf } from './rules/release';
import { boundedReferrers } from './referrers';

/**
 * Lines plus commas (the items of flow collections and JSON) a file of the default size may hold
 * and still be parsed; proportionally more when the size limit is raised. Parsing is the one cost
 * paid before the work budget can be counted, so it is bounded first: the largest real configs
 * have a few hundred lines.
 */
export const MAX_LINES_AND_ITEMS = 20_000;

/** Why a file is too large to parse, if it is: its size, or its lines and items (one quick pass). */
export function tooLarge(text: string, maxFileSize = DEFAULT_MAX_FILE_SIZE): string | undefined {
  const mb = (n: number): string => `${(n / 1048576).toFixed(n % 1048576 === 0 ? 0 : 1)} MB`;
  if (text.length > maxFileSize) return `This file is ${mb(text.length)}; files over ${mb(maxFileSize)} are not analysed (\`--max-file-size\` on the command line and the \`shardwise.maxFileSizeKB\` setting raise the limit). Split it if it is a real config.`;
  const limit = Math.round(MAX_LINES_AND_ITEMS * Math.max(1, maxFileSize / DEFAULT_MAX_FILE_SIZE));
  let items = 0;
  for (let i = text.indexOf('\n'); i >= 0 && items <= limit; i = text.indexOf('\n', i + 1)) items++;
  for (let i = text.indexOf(','); i >= 0 && items <= limit; i = text.indexOf(',', i + 1)) items++;
  if (items > limit) return `This file holds more than ${limit.toLocaleString('en-US')} lines and list items; no real config does, so it is not analysed (a work budget keeps the editor responsive). Split it if it is a real config.`;
  return undefined;
}

export function syntaxOf(input: FileInput): Syntax {
  const lang = input.languageId;
  const path = (input.path ?? '').toLowerCase();
  if (lang === 'json' || lang === 'jsonc' || path.endsWith('.json')) return 'json';
  if (lang === 'yaml' || /\.ya?ml$/.test(path)) return 'yaml';
  if (lang === 'shellscript' || lang === 'sh' || lang === 'bash' || /\.(sh|sbatch|slurm)$/.test(path)) return 'shell';
  if (isBatchScript(path, input.text)) return 'shell';
  return /^\s*[{[]/.test(input.text) ? 'json' : 'yaml';
}

/**
 * A file without an extension that is evidently a shell script: a `sh`/`bash` shebang, or `#SBATCH`
 * lines before its first command (a Slurm batch script).
 */
function isBatchScript(path: string, text: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (!base || base.includes('.')) return false;
  if (/^#!\s*\S*\/(env\s+(-\S+\s+)*)?(ba|da|z|k)?sh\b/.test(text)) return true;
  return readSbatch(text.slice(0, 64 * 1024)) !== undefined;
}

/** The documents of a text, read as its syntax (a YAML stream may hold several). */
function parseDocs(syntax: Syntax, text: string, lines: LineIndex, shell: ShellOptions = { takesValue: flagTakesValue }): SourceDoc[] {
  return syntax === 'json' ? [parseJson(text, lines)] : syntax === 'shell' ? [parseShell(text, lines, shell)] : parseYaml(text, lines);
}

export function analyze(input: FileInput, base: EngineSettings = {}): FileAnalysis {
  const text = input.text;
  const lines = new LineIndex(text);
  const syntax = syntaxOf(input);
  const directives = parseDirectives(lines);
  const settings = boundedSettings(mergeSettings(base, settingsFromDirectives(directives.settings)));
  const result: FileAnalysis = { text, lines, syntax, directives, docs: [], findings: [], links: [], dependencies: [] };
  const large = tooLarge(text, settings.maxFileSize);
  if (large) {
    // Said only when the file begins as a config of some format: a large data file is not ours.
    if (headClaimed(input, syntax, directives, settings)) result.findings.push({ code: 'parse-error', severity: 'warning', message: large, span: { start: 0, end: lines.lineEnd(0) }, fixes: () => [] });
    return result;
  }
  // The host's budget, from now: asked before each rule of each document.
  const overBudget = input.budget?.();
  const context = new Related(input, settings);
  let docs = parseDocs(syntax, text, lines, shellOptions(input, context));
  const asJson = syntax === 'yaml' ? deepspeedAsJson(docs, text, lines, (json) => chooseFormat(json, input, directives, settings).format?.tool) : undefined;
  if (asJson) {
    docs = [asJson];
    result.syntax = 'json';
  }
  // A DeepSpeed config the script writes with a here-document for its training command is read with it.
  const heredoc = syntax === 'shell' ? heredocDeepSpeed(docs[0]) : undefined;
  if (heredoc) docs = [...docs, heredoc.doc];
  result.trial = syntaxTrial(result.syntax, text, docs.flatMap((d) => d.problems));
  const budget: WorkBudget = { values: MAX_VALUES };
  for (const doc of docs) {
    if (result.docs.length >= MAX_DOCUMENTS) {
      // Said only when the file is a config of some format: a long stream of other YAML is not ours.
      if (result.docs.some((d) => d.format)) {
        result.findings.push({
          code: 'parse-error',
          severity: 'warning',
          message: `This file holds ${docs.length} YAML documents; the first ${MAX_DOCUMENTS} are analysed and the rest are not (a work budget keeps the editor responsive). Split the file if these are real configs.`,
          span: { start: doc.span.start, end: Math.max(doc.span.start, lines.lineEnd(lines.position(doc.span.start).line)) },
          fixes: () => [],
        });
      }
      break;
    }
    const da = heredoc?.doc === doc ? analyzeHeredoc(heredoc, input, directives, settings, budget) : analyzeDoc(doc, input, directives, settings, context, budget);
    const index = result.docs.length;
    result.docs.push(da);
    const recheck: Recheck = { input, base, result, doc: index };
    const stop: RuleStop = { check: overBudget };
    const found = withoutGuesses(runRules(da, undefined, recheck, stop), doc);
    result.findings.push(...(heredoc?.doc === doc ? found.map((f) => assumingBranch(f, heredoc.config.assumed)) : found));
    if (stop.stopped) {
      result.findings.push(stoppedFinding(stop.stopped, doc, lines, docs.length - index - 1));
      break;
    }
    for (const l of da.links) {
      const span = reportSpan(doc, l.at, 'value');
      if (span) result.links.push({ span: trimQuotes(doc.text, span), ref: l.ref, target: l.target });
    }
    const launch = input.resolve ? launchLink(doc, (ref) => context.read(ref)) : undefined;
    for (const l of [...(launch ? [launch] : []), ...(input.resolve ? recipeLinks(doc, (ref) => context.read(ref)) : [])]) if (!result.links.some((x) => x.span.start === l.span.start)) result.links.push(l);
  }
  result.dependencies = context.dependencies();
  // Unused suppressions are told only where every rule ran: each document read whole, none left out.
  const claimed = result.docs.some((d) => d.format);
  const complete = claimed && result.docs.length === docs.length && result.docs.every((d) => !d.doc.problems.some((p) => p.code === 'parse-error'));
  result.findings = finalize(result.findings, directives, lines, settings, { syntax: result.syntax, claimed, complete });
  return result;
}

/** How much of a file too large to analyse is read to tell whether it is a config at all. */
const HEAD = 64 * 1024;

/** Whether the first lines of a file (up to HEAD) are a config of some format. */
function headClaimed(input: FileInput, syntax: Syntax, directives: Directives, settings: EngineSettings): boolean {
  let end = Math.min(input.text.length, HEAD);
  const nl = input.text.lastIndexOf('\n', end - 1);
  if (end < input.text.length && nl > 0) end = nl + 1;
  const head = input.text.slice(0, end);
  const lines = new LineIndex(head);
  try {
    const doc = parseDocs(syntax, head, lines)[0];
    return !!doc && !!chooseFormat(doc, { ...input, text: head }, directives, settings).format;
  } catch {
    return false;
  }
}

/** What a finding's fixes are re-checked against when they are asked for: the analysis they came from. */
interface Recheck {
  input: FileInput;
  base: EngineSettings;
  result: FileAnalysis;
  /** The index of the finding's document in `result.docs`. */
  doc: number;
}

/** A directive that cannot be followed is said once, at the directive, instead of being ignored. */
function forcedProblem(doc: SourceDoc, at: Span | undefined, message: string): void {
  if (!at || at.start < doc.span.start || at.start > doc.span.end) return;
  if (!doc.problems.some((p) => p.span.start === at.start && p.message === message)) (doc.problems as SyntaxProblem[]).push({ code: 'parse-error', severity: 'warning', message, span: at, fatal: true });
}

export { boundedReferrers, REFERRER_LIMITS } from './referrers';

const compiled = new Map<string, Minimatch>();

/** Whether a path matches an association's glob (compiled once; brace expansion bounded; one refused by `associationProblem` matches nothing). */
function associationMatches(path: string, glob: string): boolean {
  if (associationProblem(glob)) return false;
  let m = compiled.get(glob);
  if (!m) {
    if (compiled.size >= 4 * ASSOCIATION_LIMITS.count) compiled.clear();
    m = new Minimatch(glob, { dot: true, matchBase: !glob.includes('/'), braceExpandMax: ASSOCIATION_LIMITS.braces, noext: true });
    compiled.set(glob, m);
  }
  return m.match(path);
}

/** The format a document is read as, how it was chosen, and why (see Detection). */
interface Chosen {
  format?: FormatSupport<any>;
  reason: string;
  detection: Detection;
}

/** A format's title as a sentence names it: "an Accelerate config", "Megatron Bridge overrides". */
function titled(format: FormatSupport<any>): string {
  if (/s$/.test(format.title)) return format.title;
  return `${/^[AEIOU]/.test(format.title) ? 'an' : 'a'} ${format.title}`;
}

function notRead(reason: string): Chosen {
  return { reason, detection: { by: 'none', reason: `not read: ${reason}`, nearMisses: [] } };
}

function chooseFormat(doc: SourceDoc, input: FileInput, directives: Directives, settings: EngineSettings): Chosen {
  const forced = directives.settings.filter((s) => s.key === 'format').pop();
  if (forced) {
    const directive = `\`shardwise: format=${forced.value}\``;
    if (!isFormatId(forced.value)) {
      forcedProblem(doc, forced.span, `The directive ${directive} names no format Shardwise knows (${FORMATS.map((f) => f.id).join(', ')}), so this file is not analysed. Correct the name or remove the directive.`);
      return notRead(`the directive names an unknown format \`${forced.value}\``);
    }
    const format = formatById(forced.value);
    if (format && !format.syntaxes.includes(doc.syntax)) {
      const reads = format.syntaxes.map((s) => (s === 'shell' ? 'shell scripts' : s === 'json' ? 'JSON' : 'YAML')).join(' or ');
      forcedProblem(doc, forced.span, `The directive ${directive} names a format read from ${reads}, but this file is read as ${doc.syntax === 'shell' ? 'a shell script' : doc.syntax === 'json' ? 'JSON' : 'YAML'} (from its name or content), so it is not analysed. Remove the directive, or give the file a name that fits.`);
      return notRead(`the directive ${directive} does not fit a ${doc.syntax} file`);
    }
    const reason = `the directive ${directive}`;
    return { format, reason, detection: { by: 'directive', reason: `read as ${format ? titled(format) : forced.value}: ${reason}`, nearMisses: [] } };
  }
  const path = input.path;
  if (path) {
    for (const [glob, id] of Object.entries(settings.associations ?? {})) {
      // An association names files of a format; one whose format does not read this syntax (`*` →
      // megatron-args on a YAML file) does not apply to it.
      const format = isFormatId(id) ? formatById(id) : undefined;
      if (!format?.syntaxes.includes(doc.syntax)) continue;
      if (!associationMatches(path, glob)) continue;
      const reason = `the association \`${glob}\` → \`${id}\``;
      return { format, reason, detection: { by: 'association', reason: `read as ${titled(format)}: ${reason}`, nearMisses: [] } };
    }
  }
  return byContent(doc, path);
}

/** The format whose evidence claims the document and weighs most (formats/evidence.ts); the others that came close, with why. */
function byContent(doc: SourceDoc, path: string | undefined): Chosen {
  let best: { format: FormatSupport<any>; evidence: Evidence } | undefined;
  const weighed: { format: FormatSupport<any>; evidence: Evidence }[] = [];
  for (const format of FORMATS) {
    if (!format.syntaxes.includes(doc.syntax)) continue;
    let evidence: Evidence | undefined;
    try {
      evidence = format.detect(doc, path);
    } catch {
      evidence = undefined;
    }
    if (!evidence) continue;
    weighed.push({ format, evidence });
    if (evidence.claimed && evidence.score > (best?.evidence.score ?? 0)) best = weighed[weighed.length - 1];
  }
  const nearMisses = weighed
    .filter((w) => w !== best && (w.evidence.candidate || w.evidence.claimed))
    .map(({ format, evidence: e }) => ({
      format: format.id,
      reason: e.claimed ? `not read as ${e.what}: the evidence for ${best ? titled(best.format) : 'another format'} weighs more` : e.reason,
      strong: e.distinctive.length + e.signs.length > 0,
      weight: e.known.length,
    }))
    .sort((a, b) => Number(b.strong) - Number(a.strong) || b.weight - a.weight)
    .map(({ weight: _, ...m }) => m);
  if (best) return { format: best.format, reason: 'its content', detection: { by: 'content', reason: best.evidence.reason, nearMisses } };
  const reason = nearMisses[0]?.reason ?? 'not read: it has no key of a format Shardwise reads';
  return { reason: 'no known format matched its content', detection: { by: 'none', reason, nearMisses } };
}

/**
 * A here-document the training command reads as its DeepSpeed config, analysed as a DeepSpeed config
 * whose one referrer is the script itself: what the launch says of the file (Megatron-DeepSpeed passes
 * its own optimizer, a Trainer fills its "auto" values) is read as for a separate file it names.
 */
function analyzeHeredoc(h: NonNullable<ReturnType<typeof heredocDeepSpeed>>, input: FileInput, directives: Directives, settings: EngineSettings, budget: WorkBudget): DocAnalysis {
  const related = new Related({ ...input, path: h.config.ref, referrers: [{ path: input.path ?? 'script.sh', text: input.text }] }, settings);
  const da = analyzeDoc(h.doc, input, directives, settings, related, budget, LINKABLE.deepspeed);
  const line = h.doc.lines.position(h.config.write.span.start).line + 1;
  da.detection = { by: 'link', reason: `read as a DeepSpeed config: the here-document on line ${line} writes \`${h.config.ref}\`, which the training command passes as \`${h.config.flag}\``, nearMisses: [] };
  return da;
}

/**
 * A document no content claims, in a file an Accelerate config names as its `deepspeed_config_file`
 * (the host hands such configs over as referrers): read as DeepSpeed, as the config's own reading
 * of it is, whatever its content.
 */
function namedByReferrer(doc: SourceDoc, input: FileInput, related: Related): Chosen | undefined {
  const name = input.path?.split(/[\\/]/).pop();
  if (!name || doc.index > 0 || !input.referrers?.length || !LINKABLE.deepspeed.syntaxes.includes(doc.syntax)) return undefined;
  const format = LINKABLE.deepspeed;
  const by = related.referrers('accelerate').find((r) => r.analysis.model?.deepspeedFile?.ref.split(/[\\/]/).pop() === name);
  if (by) return { format, reason: `it is linked as ${format.title}`, detection: { by: 'link', reason: `read as ${titled(format)}: \`${by.path.split(/[\\/]/).pop()}\` names it as its \`deepspeed_config_file\``, nearMisses: [] } };
  const recipe = related.referrers('trainer').find((r) => r.analysis.model?.deepspeed?.ref.split(/[\\/]/).pop() === name);
  if (!recipe) return undefined;
  return { format, reason: `it is linked as ${format.title}`, detection: { by: 'link', reason: `read as ${titled(format)}: \`${recipe.path.split(/[\\/]/).pop()}\` names it as its DeepSpeed config (\`deepspeed\`)`, nearMisses: [] } };
}

/**
 * The other files an analysis may read, through the host: linked files (analysed as their format,
 * without rules, one level deep) and referrers. Each is read at most once per analysis.
 */
class Related {
  private readonly files = new Map<string, Linked<never>>();
  private readonly linked: { [F in LinkableFormat]: Map<string, Linked<LinkableModels[F]>> } = { accelerate: new Map(), deepspeed: new Map(), trainer: new Map() };
  private readonly referring: { [F in LinkableFormat]: { list?: Referrer<LinkableModels[F]>[] } } = { accelerate: {}, deepspeed: {}, trainer: {} };
  /** Each referrer parsed once, with the format it is read as (by its own directives and content). */
  private readonly referrerFiles = new Map<string, { file?: ParsedFile; format?: string }>();
  constructor(
    private readonly input: FileInput,
    private readonly settings: EngineSettings,
  ) {}

  link<F extends LinkableFormat>(ref: string, formatId: F): Linked<LinkableModels[F]> {
    const cache: Map<string, Linked<LinkableModels[F]>> = this.linked[formatId];
    let hit = cache.get(ref);
    if (!hit) {
      const file = this.read(ref);
      hit = { ...file, analysis: file.text !== undefined ? analyzeAs(file.path ?? ref, file.text, LINKABLE[formatId], this.settings) : undefined };
      cache.set(ref, hit);
    }
    return hit;
  }

  /** A file's text as the host found it, not analysed (the Python entry script of a launch script). */
  read(ref: string): Linked<never> {
    let hit = this.files.get(ref);
    if (!hit) {
      let file: LinkedFile = { ref, tried: [] };
      try {
        file = this.input.resolve?.(ref) ?? file;
      } catch {
        // Not found.
      }
      this.files.set(ref, (hit = { ...file, resolver: !!this.input.resolve }));
    }
    return hit;
  }

  /** The `accelerate launch` commands (and the Hydra launches) of the referrers that name this file as their config. */
  launches = (): LaunchCommand[] => (this.launchList ??= launchesOf(this.input.path, this.referrerDocs()));
  /** The same for another config: the scripts handed to this file that launch one of its referrers. */
  launchesFor = (path: string): LaunchCommand[] => launchesOf(path, this.referrerDocs());
  /** The Megatron-DeepSpeed launch scripts that name this file as their `--deepspeed_config`. */
  megatronDeepSpeed = () => megatronDeepSpeedUsers(this.input.path, this.referrerDocs());
  hydraLaunches = (): HydraLaunch[] => (this.hydraList ??= hydraLaunchesOf(this.input.path, this.referrerDocs()));
  recipeLaunches = (): RecipeLaunchOf[] => (this.recipeList ??= recipeLaunchesOf(this.input.path, this.referrerDocs()));
  private recipeList?: RecipeLaunchOf[];
  private launchList?: LaunchCommand[];
  private hydraList?: HydraLaunch[];
  private referrerDocs = () => boundedReferrers(this.input.referrers ?? []).map((r) => ({ path: r.path, doc: this.referrerFile(r).file?.doc }));

  referrers<F extends LinkableFormat>(formatId: F): Referrer<LinkableModels[F]>[] {
    const slot: { list?: Referrer<LinkableModels[F]>[] } = this.referring[formatId];
    slot.list ??= boundedReferrers(this.input.referrers ?? []).flatMap((r) => {
      // A referrer is read as the format it is (an Accelerate config, a Trainer recipe), as the host saw it link here.
      const { file, format } = this.referrerFile(r);
      if (!file || format !== formatId) return [];
      return [{ path: r.path, analysis: analyzeParsed(file, LINKABLE[formatId], this.settings) }];
    });
    return slot.list;
  }

  private referrerFile(r: { path: string; text: string }): { file?: ParsedFile; format?: string } {
    let hit = this.referrerFiles.get(r.path);
    if (!hit) {
      try {
        const file = parseFile(r.path, r.text, this.settings, referrerShellOptions(r.path, this.input.resolve ? (ref) => this.read(ref) : undefined));
        hit = { file, format: file ? chooseFormat(file.doc, file.input, file.directives, this.settings).format?.id : undefined };
      } catch {
        hit = {};
      }
      this.referrerFiles.set(r.path, hit);
    }
    return hit;
  }

  dependencies(): string[] {
    const out = new Set<string>();
    for (const l of this.files.values()) if (l.path) out.add(l.path);
    for (const slot of Object.values(this.referring)) for (const r of slot.list ?? []) out.add(r.path);
    return [...out];
  }
}

/** Another file an analysis reads (a linked file, a referrer): its first document and directives, once parsed. */
type ParsedFile = { input: FileInput; doc: SourceDoc; directives: Directives };

function parseFile(path: string, text: string, settings: EngineSettings, shell?: ShellOptions): ParsedFile | undefined {
  if (tooLarge(text, settings.maxFileSize)) return undefined;
  const lines = new LineIndex(text);
  const input: FileInput = { path, text };
  const doc = parseDocs(syntaxOf(input), text, lines, shell)[0];
  return doc ? { input, doc, directives: parseDirectives(lines) } : undefined;
}

/** A linked file or a referrer, read as the format the link names (no rules, no further links). */
function analyzeAs<M>(path: string, text: string, format: FormatSupport<M>, settings: EngineSettings): LinkedAnalysis<M> | undefined {
  const file = parseFile(path, text, settings);
  if (!file) return undefined;
  // Linked as a DeepSpeed config, a `.yaml` whose text is JSON is loaded as JSON (see deepspeedAsJson).
  const json = format.tool === 'deepspeed' && file.doc.syntax === 'yaml' ? deepspeedAsJson([file.doc], text, file.doc.lines, () => 'deepspeed') : undefined;
  return analyzeParsed(json ? { ...file, doc: json } : file, format, settings);
}

function analyzeParsed<M>({ input, doc, directives }: ParsedFile, format: FormatSupport<M>, settings: EngineSettings): LinkedAnalysis<M> {
  const da = analyzeDoc(doc, input, directives, boundedSettings(mergeSettings(settings, settingsFromDirectives(directives.settings))), undefined, undefined, format);
  return { doc: da.doc, model: da.model, plan: da.plan };
}

/** The work (keys, flags, sections: see workSize) left to analyse in one file, shared by its documents. */
interface WorkBudget {
  values: number;
}

/**
 * The most values one file may hold and still be analysed, and the most documents: far above any
 * real config (the largest NeMo and Megatron configs hold about 250 values, multi-document configs a
 * few documents), low enough that no analysis of a generated or hostile file takes seconds.
 */
export const MAX_VALUES = 5_000;
export const MAX_DOCUMENTS = 100;

/**
 * One document: its format (the one it is linked as, for a linked file; else chosen by directive,
 * association or content), schema instance and issues, model, layout and links.
 */
function analyzeDoc<M = unknown>(doc: SourceDoc, input: FileInput, directives: Directives, settings: EngineSettings, related: Related | undefined, budget?: WorkBudget, linkedAs?: FormatSupport<M>): DocAnalysis<M> {
  let chosen: Chosen = linkedAs ? { format: linkedAs, reason: `it is linked as ${linkedAs.title}`, detection: { by: 'link', reason: `read as ${titled(linkedAs)}: a config links to it as one`, nearMisses: [] } } : chooseFormat(doc, input, directives, settings);
  if (chosen.detection.by === 'none' && related && !directives.settings.some((s) => s.key === 'format')) chosen = namedByReferrer(doc, input, related) ?? chosen;
  // Every format's model reads one kind of tree: whatever chose it, it never gets another.
  const format = chosen.format?.syntaxes.includes(doc.syntax) ? chosen.format : undefined;
  const reason = chosen.reason;
  const da: DocAnalysis<M> = { doc, format, formatReason: reason, detection: chosen.detection, settings, nav: undefined, instance: undefined, model: undefined, issues: [], plan: undefined, links: [] };
  if (format && budget && !doc.problems.some((p) => p.fatal)) {
    const size = workSize(doc.root, budget.values);
    if (size > budget.values) {
      const start = doc.root?.span.start ?? doc.span.start;
      (doc.problems as SyntaxProblem[]).push({
        code: 'parse-error',
        severity: 'warning',
        message: `This file holds more than ${MAX_VALUES.toLocaleString('en-US')} keys, flags and sections; no real ${format.toolName} config does, so ${budget.values < MAX_VALUES ? 'this document' : 'it'} is not analysed (a work budget keeps the editor responsive). Split the file if it is a real config.`,
        span: { start, end: Math.max(start, doc.lines.lineEnd(doc.lines.position(start).line)) },
        fatal: true,
      });
      budget.values = 0;
    } else budget.values -= size;
  }
  // A document that could not be read whole (alias bomb, hostile nesting) gets its parse error only.
  if (!format || doc.problems.some((p) => p.fatal)) return da;
  for (const p of directiveProblems(directives.settings)) {
    if (p.span.start >= doc.span.start && p.span.start <= doc.span.end && !doc.problems.some((q) => q.span.start === p.span.start)) (doc.problems as SyntaxProblem[]).push({ code: 'parse-error', severity: 'warning', message: p.message, span: p.span });
  }
  // What the file says about the tool that reads it (the Megatron-LM a script puts on PYTHONPATH).
  try {
    const said = format.context?.(doc, settings, related ? (ref) => related.read(ref) : undefined);
    if (said?.settings) da.settings = settings = said.settings;
  } catch {
    // Nothing said: the host's view stands.
  }
  const version = settings.targetVersions?.[format.tool];
  if (format.schema) {
    da.nav = new SchemaNav(format.schema.json);
    if (format.instance) {
      const built = format.instance(doc, da.nav, settings, related ? (ref) => related.read(ref) : undefined);
      da.instance = built.instance;
      da.issues = [...built.issues, ...checkInstance(da.instance, format.schema.validate, da.nav, version)];
      // The choices of a Megatron-LM nobody can read are its own: a value outside today's is not known to be refused.
      markOwnChoices(da.issues, settings, format.openKeys ? safely(() => format.openKeys!(doc, settings)) : undefined);
      if (format.keepIssue) da.issues = da.issues.filter((i) => format.keepIssue!(i));
    } else {
      da.instance = buildInstance(doc.root, da.nav, version);
      da.issues = checkInstance(da.instance, format.schema.validate, da.nav, version);
    }
  }
  if (format.model) {
    const instance = da.instance ?? { value: undefined, source: new Map(), problems: [] };
    try {
      da.model = format.model({
        doc,
        instance,
        view: new InstanceView(instance),
        settings,
        path: input.path,
        // Linked files are read one level deep: a linked file's own links are not followed.
        link: (ref, id) => related?.link(ref, id),
        read: related ? (ref) => related.read(ref) : undefined,
        referrers: (id) => related?.referrers(id) ?? [],
        launches: () => related?.launches() ?? [],
        launchesOf: (path) => related?.launchesFor(path) ?? [],
        megatronDeepSpeed: () => related?.megatronDeepSpeed() ?? { path: '', all: false },
        hydraLaunches: () => related?.hydraLaunches() ?? [],
        recipeLaunches: () => related?.recipeLaunches() ?? [],
      });
      da.plan = da.model !== undefined && format.plan ? format.plan(da.model, settings) : undefined;
      if (da.model !== undefined && format.links) da.links = format.links(da.model);
    } catch {
      da.model ??= undefined;
      da.plan = undefined;
    }
  }
  return da;
}

/**
 * Choices that are not today's Megatron-LM's to judge: those of a Megatron-LM nobody can read, and
 * those of a flag a parser of the repository defines itself when the script that reads the flags
 * may be that parser (`open`): a value outside Megatron-LM's list is then not known to be refused.
 */
function markOwnChoices(issues: SchemaIssue[], settings: EngineSettings, open: string | undefined): void {
  const unseen = settings.megatronUnseen;
  for (const i of issues) {
    if (i.kind !== 'invalid-value' || !Array.isArray(i.schema?.enum)) continue;
    const flag = String(i.path[i.path.length - 1] ?? '');
    if (unseen) i.unknown = `the choices of the Megatron-LM at ${unseen.where} (not read here) are not known`;
    else if (open && flag.startsWith('-') && repositoryHas(settings.repositoryFlags, flag)) i.unknown = `a parser of this repository defines \`${flag}\` with choices of its own, and ${open}`;
  }
}

function safely<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

function appliesTo(rule: Rule<any>, da: DocAnalysis, fork: string | undefined): boolean {
  if (fork && !rule.forks) return false;
  // A file of no known format is none of Shardwise's business, except that it could not be read
  // at all (hostile nesting, alias bombs): that is always said, so nothing fails silently.
  if (!da.format) return rule.id === 'parse-error' || !!rule.unclaimed;
  // A rule that reports one runtime's argument checks runs only where that runtime reads the file.
  if (!runtimeMakes(rule.runtime, da.format.id, da.model)) return false;
  if (rule.formats === 'all') return true;
  return !!da.format && rule.formats.includes(da.format.id) && da.model !== undefined;
}

/** Findings one rule may report in one document; a file beyond that is generated, not written. */
export const MAX_FINDINGS_PER_RULE = 200;

/** The host's budget for the rules of one document, and, once spent, why and which rules did not run. */
interface RuleStop {
  check?: () => string | undefined;
  stopped?: { reason: string; skipped: string[] };
}

/** The finding that says an analysis stopped on the host's budget, and what it left out. */
function stoppedFinding(stopped: { reason: string; skipped: string[] }, doc: SourceDoc, lines: LineIndex, laterDocs: number): Finding {
  const names = stopped.skipped.slice(0, 5).map((id) => `\`${id}\``).join(', ') + (stopped.skipped.length > 5 ? ` and ${stopped.skipped.length - 5} more` : '');
  const rest = laterDocs > 0 ? `, nor the ${laterDocs} YAML document${laterDocs === 1 ? '' : 's'} after this one` : '';
  return {
    code: 'parse-error',
    severity: 'warning',
    message: `The analysis stopped: ${stopped.reason}. ${stopped.skipped.length} rule${stopped.skipped.length === 1 ? '' : 's'} did not run here (${names})${rest}, so a mistake they catch may be missing; the findings shown are those of the rules that ran. Split the file, or check it with the CLI, whose budget is larger.`,
    span: { start: doc.span.start, end: Math.max(doc.span.start, lines.lineEnd(lines.position(doc.span.start).line)) },
    fixes: () => [],
  };
}

/** Runs every rule that applies to the document; a rule that throws is skipped, never fatal. Stops when `stop` says the host's budget is spent. */
export function runRules(da: DocAnalysis, only?: readonly Rule<any>[], recheck?: Recheck, stop?: RuleStop): Finding[] {
  const findings: Finding[] = [];
  const keysOpen = openKeys(da);
  const fork = forkOf(da);
  const release = releaseOf(da, fork);
  const upstream = da.format ? safely(() => upstreamAssumed(da.format!.id, da.model)) : undefined;
  const redefined = (paths: Path[]) => safely(() => upstreamRedefined(da.format?.id, da.model, paths));
  // The document's tracking views, shared by its rules (rules/run.ts).
  const views = documentViews();
  const rules = (only ?? RULES).filter((rule) => appliesTo(rule, da, fork));
  // The keys each finding rests on, as paths into the document (where its report gave them).
  const at = new Map<Finding, Path[]>();
  for (const [i, rule] of rules.entries()) {
    const reason = stop?.check?.();
    if (reason !== undefined && stop) {
      stop.stopped = { reason, skipped: rules.slice(i).map((r) => r.id) };
      break;
    }
    const spanOf = (r: Report): string | undefined => {
      const span = reportSpan(da.doc, r.at, r.on);
      return span && `${span.start}:${span.end}`;
    };
    const reports = runRule(rule, da, { keysOpen, fork, upstream, redefined, release, limit: MAX_FINDINGS_PER_RULE, views }, spanOf);
    let last: Finding | undefined;
    for (const { report, assumed } of reports.slice(0, MAX_FINDINGS_PER_RULE)) {
      const f = toFinding(rule, da.doc, report, recheck);
      if (!f) continue;
      if (assumed) f.assumed = assumed;
      findings.push((last = f));
      // The keys it rests on: where it points, and the places of this document it names beside.
      // A key named beside it counts only when its written value is not the default the release
      // would use without it: ignored or not, such a key leaves the conclusion as it is.
      const beside = (report.related ?? []).filter((r) => !r.other && Array.isArray(r.at) && !atDefault(da, r.at as Path, release.value)).map((r) => r.at);
      const rests = [report.at, ...beside].filter((x): x is Path => Array.isArray(x));
      if (rests.length) at.set(f, rests);
    }
    if (reports.length > MAX_FINDINGS_PER_RULE && last) last.message += ` (${reports.length - MAX_FINDINGS_PER_RULE} more ${rule.id} findings in this document are not shown.)`;
  }
  const kept = withoutUnreadSections(withoutUnsupported(findings, at), at, unreadSections(da.doc, da.nav, release.value));
  const overridden = da.format?.overridden;
  return overridden && da.model !== undefined ? withoutOverridden(kept, at, (p) => overridden(da.model, p)) : kept;
}

/** Whether the document writes at `path` the default the release uses without the key (as JSON). */
function atDefault(da: DocAnalysis, path: Path, release: string | undefined): boolean {
  try {
    const value = da.doc.value(path);
    const dflt = defaultAt(da.nav?.at(path, da.doc.value([])), release);
    return value !== undefined && dflt !== undefined && JSON.stringify(value) === JSON.stringify(dflt);
  } catch {
    return false;
  }
}

function openKeys(da: DocAnalysis): string | undefined {
  try {
    return da.format?.openKeys?.(da.doc, da.settings);
  } catch {
    return 'the keys this file may hold could not be told';
  }
}

/** The span a report points at. */
export function reportSpan(doc: SourceDoc, at: Path | Span, on: Report['on'] = 'key'): Span | undefined {
  if (!Array.isArray(at)) return at as Span;
  const path = at as Path;
  if (path.length === 0) {
    if (doc.anchor) return doc.anchor;
    // The whole first line of content (after leading comments and directives).
    const line = doc.lines.position(doc.root?.span.start ?? doc.span.start).line;
    return { start: doc.lines.lineStart(line), end: doc.lines.lineEnd(line) };
  }
  const entry = doc.entry(path);
  const node = doc.node(path);
  if (on === 'value' && node && node.span.end > node.span.start) return node.span;
  if (on === 'entry' && entry) return entry.span;
  if (entry) return entry.keySpan;
  if (node) return node.span;
  // Not written: point at the nearest enclosing key that is (e.g. the section a default belongs to).
  return reportSpan(doc, path.slice(0, -1), 'key');
}

function toFinding(rule: Rule<any>, doc: SourceDoc, r: Report, recheck: Recheck | undefined): Finding | undefined {
  const span = reportSpan(doc, r.at, r.on);
  if (!span) return undefined;
  const specs = r.fixes ?? [];
  let made: Fix[] | undefined;
  const finding: Finding = {
    code: rule.id,
    severity: r.severity ?? rule.severity,
    message: r.message,
    span,
    fixes: () => (made ??= specs.length ? resolveFixes(rule, doc, specs, finding, recheck) : []),
  };
  const tags = r.tags ?? rule.tags;
  if (tags?.length) finding.tags = [...tags];
  const related = r.related?.flatMap((x) => relatedLocation(doc, x)) ?? [];
  if (related.length) finding.related = related;
  return finding;
}

/** A related place, when it is written in its document (a default or a missing key has no place). */
function relatedLocation(doc: SourceDoc, r: RelatedSpec): RelatedLocation[] {
  const target = r.other?.doc ?? doc;
  if (Array.isArray(r.at) && !target.entry(r.at as Path) && !target.node(r.at as Path)) return [];
  const span = reportSpan(target, r.at as Path | Span, r.on);
  if (!span) return [];
  return [r.other ? { path: r.other.path, span, lines: target.lines, message: r.message } : { span, message: r.message }];
}

/**
 * A finding's fixes, when they are asked for: path edits made into text edits (a fix whose edits
 * cannot be made cleanly is dropped), each with the applicability its rule declares; an unsafe
 * fix's title says what it changes. For rules that ask (`verifyFixes`, the layout rules), each fix is
 * tried on the text: one that does not remove a finding of the rule or that brings a new kind of
 * error is dropped, and the title names the Plan fields it changes (`TP 8 → 4, DP 1 → 2`).
 */
function resolveFixes(rule: Rule<any>, doc: SourceDoc, specs: readonly FixSpec[], finding: Finding, recheck: Recheck | undefined): Fix[] {
  const out: Fix[] = [];
  for (const spec of specs) {
    const fix = makeFix(doc, spec);
    if (!fix) continue;
    // Never a fix that leaves the file parsing worse than it does.
    if (recheck?.result.trial && fix.edits.length && !keepsSyntax(recheck.result.trial, fix.edits)) continue;
    const declared = rule.fixes?.[spec.kind];
    fix.applicability = declared?.applicability ?? 'unsafe';
    // Safe means the file cannot run as written, or the fix leaves the run as it is: either rests on
    // what the finding rests on, so a finding that assumes something (the release, the hardware, one
    // arm of an `if`) makes its fix unsafe, offered and never applied unasked.
    const assumes = fix.applicability === 'safe' && !declared?.unconditional && !!finding.assumed?.length;
    if (assumes) fix.applicability = 'unsafe';
    fix.preferred = fix.recommended && fix.applicability === 'safe' && !fix.otherFiles && (finding.severity === 'error' || finding.severity === 'warning');
    let changes = '';
    if (recheck && !fix.otherFiles && rule.verifyFixes) {
      const tried = tryFix(recheck, fix, rule.id);
      if (!tried.removes) continue;
      changes = describeChanges(tried.changes, declared?.changes);
    }
    if (assumes) fix.title += ' (safe only if what the finding assumes holds)';
    else if (fix.applicability === 'unsafe') fix.title += ` (changes ${declared?.changes ?? 'the run'}${changes ? `: ${changes}` : ''})`;
    out.push(fix);
  }
  // At most one fix per finding is recommended; keep the first.
  let seen = false;
  for (const f of out) {
    if (f.recommended && seen) f.recommended = f.preferred = false;
    seen ||= f.recommended;
  }
  return out;
}

/** Applies one fix to the file and analyses the result: does it remove a finding of its rule, and what does it change? */
function tryFix(recheck: Recheck, fix: Fix, code: string): { removes: boolean; changes: PlanChange[] } {
  const { input, base, result } = recheck;
  let again: FileAnalysis;
  try {
    again = analyze({ ...input, text: applyEdits(input.text, fix.edits) }, base);
  } catch {
    return { removes: false, changes: [] };
  }
  const errorsBefore = new Set(result.findings.filter((f) => f.severity === 'error').map((f) => f.code));
  const before = result.findings.filter((x) => x.code === code).length;
  const after = again.findings.filter((x) => x.code === code).length;
  const removes = after < before && !again.findings.some((x) => x.severity === 'error' && !errorsBefore.has(x.code));
  return { removes, changes: planChanges(result.docs[recheck.doc]?.plan, again.docs[recheck.doc]?.plan) };
}

/** Edits at the very start of a text that begins with a byte-order mark go after it (the mark stays first). */
function afterBom(text: string, edits: TextEdit[] | undefined): TextEdit[] | undefined {
  if (!edits || text.charCodeAt(0) !== 0xfeff) return edits;
  return edits.map((e) => (e.span.start === 0 ? { ...e, span: { start: 1, end: Math.max(1, e.span.end) } } : e));
}

/** Turns a fix's path edits into text edits; drops the fix if they cannot be made or do not apply cleanly. */
export function makeFix(doc: SourceDoc, spec: FixSpec): Fix | undefined {
  const touches = [...spec.edits.map((e) => `${doc.span.start}:${pathToString(e.path)}`), ...(spec.other ? spec.other.edits.map((e) => `${spec.other!.path}:${pathToString(e.path)}`) : [])];
  const base = { title: spec.title, kind: spec.kind, applicability: 'unsafe' as const, recommended: !!spec.recommended, preferred: false, touches };
  const edits = spec.edits.length ? afterBom(doc.text, doc.edit(spec.edits)) : [];
  if (!edits || (edits.length === 0 && !spec.other)) return undefined;
  try {
    applyEdits(doc.text, edits);
  } catch {
    return undefined;
  }
  if (!spec.other) return { ...base, edits };
  // A fix that also edits another file is made whole or not at all, and never applied unasked.
  const otherEdits = afterBom(spec.other.doc.text, spec.other.doc.edit(spec.other.edits));
  if (!otherEdits || otherEdits.length === 0) return undefined;
  try {
    applyEdits(spec.other.doc.text, otherEdits);
  } catch {
    return undefined;
  }
  return { ...base, edits, recommended: false, otherFiles: [{ path: spec.other.path, edits: otherEdits, lines: spec.other.doc.lines }] };
}


/** Applies suppressions (and reports those that silence nothing) and severity overrides; sorts by position. */
function finalize(findings: Finding[], directives: Directives, lines: LineIndex, settings: EngineSettings, file: { syntax: Syntax; claimed: boolean; complete: boolean }): Finding[] {
  const out: Finding[] = [];
  // A range never ends between the CR and the LF of a line break: that is no position of LSP's.
  const text = lines.text;
  const snap = (o: number): number => (o > 0 && text.charCodeAt(o) === 10 && text.charCodeAt(o - 1) === 13 ? o - 1 : o);
  const ledger = new SuppressionLedger(directives, lines);
  const shown = findings.filter((f) => !ledger.silences(f));
  shown.push(...ledger.unused({ ...file, settings, limit: MAX_FINDINGS_PER_RULE }));
  for (const f of shown) {
    const level = settings.rules?.[f.code] ?? settings.rules?.[ruleById(f.code)?.id ?? ''];
    if (level === 'off') continue;
    // In place: the finding's fixes read its final severity when they are asked for.
    if (level) f.severity = level as Severity;
    // An error needs every input known, whatever level the rule is set to.
    if (f.assumed && f.severity === 'error') f.severity = 'warning';
    f.span = { start: snap(f.span.start), end: snap(f.span.end) };
    // Messages and fix titles quote the file: nothing in it may reach a terminal or a log raw.
    f.message = escapeControls(f.message);
    for (const r of f.related ?? []) r.message = escapeControls(r.message);
    const fixes = f.fixes;
    f.fixes = () => fixes().map((x) => (x.title === escapeControls(x.title) ? x : { ...x, title: escapeControls(x.title) }));
    out.push(f);
  }
  return out.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end || a.code.localeCompare(b.code));
}
