/**
 * Hover: the schema's documentation for the key (or value) under the cursor, with its default,
 * allowed values, version and environment variable; in a suppression comment, what the directive
 * does and each rule id's summary and documentation link.
 */
import { releaseName } from '../formats/format';
import { checkedAgainst, knownRelease, releaseOf } from '../rules/release';
import type { DocAnalysis, FileAnalysis } from '../result';
import { suppressionOn } from '../directives';
import { ruleById } from '../rules';
import { closest } from '../suggest';
import { inlineCode, RULE_IDS } from '../suppressions';
import { ruleSummaryMarkdown } from './completion';
import { code } from '../schema/navigate';
import type { DefaultFormat, JsonSchema } from '../schema/types';
import type { MegatronModel } from '../formats/megatron/model';
import { formatDefaultRun } from '../formats/megatron/schema';
import type { Span } from '../types';
import { escapeControls } from '../text';
import { versionAtLeast } from '../version';
import { docAt } from './locate';
import { layoutPaths, planMarkdown } from '../plan/describe';
import { samePath } from '../types';
import { advisedNames, appliesTo, enumAtRelease, appliesToSince, defaultAt, defaultNote, defaultsBefore, deprecatedValues, bridgeDeprecation, deprecation, environmentVariable, environmentVariablesBefore, normalized, since } from '../schema/vocabulary';

export interface HoverResult {
  markdown: string;
  span: Span;
}

export function hover(analysis: FileAnalysis, offset: number): HoverResult | undefined {
  const inComment = suppressionHover(analysis, offset);
  if (inComment) return { markdown: escapeControls(inComment.markdown, true), span: inComment.span };
  const da = docAt(analysis, offset);
  const read = da ? formatMarkdown(da, offset) : undefined;
  // On a finding: what the file was checked against, which the finding's claim rests on.
  const under = da?.format ? analysis.findings.filter((f) => f.span.start <= offset && offset <= f.span.end && f.span.start >= da.doc.span.start && f.span.end <= da.doc.span.end) : [];
  const against = under.length && !read ? againstMarkdown(da!) : undefined;
  const result = (parts: string[], span: Span): HoverResult | undefined => {
    const all = [...parts, ...(against ? [against] : [])];
    return all.length ? { markdown: escapeControls(all.join('\n\n---\n\n'), true), span } : undefined;
  };
  const findingSpan = (): Span => under.reduce((a, f) => (f.span.end - f.span.start < a.end - a.start ? f.span : a), under[0].span);
  const onLine = (): HoverResult | undefined => (read ? result([read.markdown], read.span) : under.length ? result([], findingSpan()) : undefined);
  if (!da?.format) return onLine();
  const loc = da.doc.locate(offset);
  if (!loc || !loc.entry) return onLine();
  const onValue = loc.on === 'value' && loc.node?.kind === 'scalar';
  const span = onValue ? loc.node!.span : loc.entry.keySpan;
  const parts: string[] = [];
  const schemaPath = da.format.schemaPath ? da.format.schemaPath(da.doc, loc.path) : loc.path;
  const schema = schemaPath && da.nav?.at(schemaPath, da.format.schemaPath ? da.instance?.value : da.doc.value([]), da.settings.targetVersions?.[da.format.tool]);
  if (schema) parts.push(keyMarkdown(da, loc.path.map(String), schema, onValue ? loc.node : undefined, schemaPath));
  // On a degree or a size: the whole layout it takes part in.
  if (da.plan && layoutPaths(da.plan).some((p) => samePath(p, loc.path))) parts.push(planMarkdown(da.plan, loc.path));
  if (read) parts.push(read.markdown);
  return parts.length ? result(parts, span) : onLine();
}

/** The release and the hardware a document is checked against, each with how it is known. */
function againstMarkdown(da: DocAnalysis): string | undefined {
  const c = checkedAgainst(da);
  const lines = [c.release && `- Release: ${c.release}`, c.hardware && `- Hardware: ${c.hardware}`].filter(Boolean);
  return lines.length ? `**Checked against**\n${lines.join('\n')}` : undefined;
}

/**
 * On the first line of a document: the format it was read as and why; for a document no format
 * claimed, why not, when a format came close with a key or sign of its own (other files say nothing).
 */
function formatMarkdown(da: DocAnalysis, offset: number): { markdown: string; span: Span } | undefined {
  const lines = da.doc.lines;
  const line = lines.position(da.doc.span.start).line;
  if (lines.position(offset).line !== line) return undefined;
  const reason = da.format ? da.detection.reason : da.detection.nearMisses.find((m) => m.strong)?.reason;
  if (!reason) return undefined;
  // What the file is checked against: the release of the tool and the hardware, each with how it is known.
  const against = da.format ? checkedAgainst(da) : undefined;
  const more = against ? [against.release && `**Release**: ${against.release}.`, against.hardware && `**Hardware**: ${against.hardware}.`].filter(Boolean) : [];
  return { markdown: [`**Format**: ${reason}.`, ...more].join('\n\n'), span: { start: lines.lineStart(line), end: lines.lineEnd(line) } };
}

export function keyMarkdown(da: DocAnalysis, path: string[], schema: JsonSchema, valueNode?: { kind: string; value?: unknown }, schemaPath?: readonly (string | number)[]): string {
  const nav = da.nav!;
  const key = path[path.length - 1];
  const parts: string[] = [];
  const title = [`**${key}**`];
  const dest = schemaPath?.[schemaPath.length - 1];
  if (dest !== undefined && String(dest) !== key) title.push(`argument \`${String(dest)}\``);
  else if (path.length > 1) title.push(`in \`${path.slice(0, -1).join('.')}\``);
  if (since(schema)) title.push(`${releaseName(da.format)} ≥ ${since(schema)}`);
  parts.push(title.join(' · '));

  // A Bridge override: what Bridge does with the key (`x-deprecated.bridge`), dated from the argument's deprecation.
  const dep = da.format?.id === 'megatron-bridge' ? bridgeDeprecation(deprecation(schema)) : deprecation(schema);
  const depSince = dep?.firstSince ?? dep?.since;
  if (dep) parts.push(`⚠ **Deprecated${depSince ? ` since ${depSince}` : ''}.** ${dep.message ?? ''}${dep.replacement ? ` Use \`${dep.replacement}\`.` : ''}`.trim());

  const enumValues = schema.enum ?? advisedNames(schema) ?? [];
  const enumDocs = schema.markdownEnumDescriptions ?? [];
  // A release the file is known to be checked against (not assumed): the values it accepts.
  const known = knownRelease(da);
  const atRelease = known ? (v: string) => versionAtLeast(known, v) : undefined;
  if (valueNode && valueNode.kind === 'scalar') {
    const v = normalize(schema, valueNode.value);
    const i = enumValues.findIndex((e) => e === v);
    if (i >= 0 && enumDocs[i]) parts.push(`${code(v)}: ${stripLead(enumDocs[i], v)}`);
    const old = typeof v === 'string' ? deprecatedValues(schema)?.[v] : undefined;
    if (old) parts.push(`⚠ ${code(v)} is deprecated${old.since ? ` since ${old.since}` : ''}. ${old.message ?? ''}`.trim());
  }

  const doc = schema.markdownDescription ?? schema.description;
  if (doc) parts.push(doc);

  const facts: string[] = [];
  facts.push(`Type: ${nav.describe(schema, 0, atRelease)}`);
  facts.push(...defaultFacts(da, schema));
  const olderEnv = environmentVariablesBefore(schema).map((e) => `\`${e.name}\` before ${e.before}`);
  if (environmentVariable(schema)) facts.push(`Environment: \`${environmentVariable(schema)}\`${olderEnv.length ? ` (${olderEnv.join(', ')})` : ''}`);
  if (appliesTo(schema)) facts.push(`Read with \`distributed_type\`: ${appliesTo(schema)!.map((t) => `\`${t}\`${appliesToSince(schema)?.[t] ? ` (from ${appliesToSince(schema)![t]})` : ''}`).join(', ')}`);
  parts.push(facts.map((f) => `- ${f}`).join('\n'));

  if (!valueNode && enumValues.length > 1 && enumValues.length <= 20) {
    const listed = (schema.enum && atRelease && enumAtRelease(schema, atRelease)) || enumValues;
    const lines = listed.map((v) => {
      const i = enumValues.indexOf(v);
      return `- ${code(v)}${i >= 0 && enumDocs[i] ? `: ${stripLead(enumDocs[i], v)}` : ''}`;
    });
    const later = enumValues.filter((v) => !listed.includes(v));
    parts.push(`Allowed values${listed !== enumValues ? ` in ${known}, the release checked against` : ''}:\n${lines.join('\n')}${later.length ? `\n\nNot accepted by ${known}: ${later.map(code).join(', ')}` : ''}`);
  }
  return parts.join('\n\n');
}

/**
 * The default, with those of older releases where it changed (`x-default-before`), and the default
 * of the release the file is checked against when that release is known and its default differs.
 */
function defaultFacts(da: DocAnalysis, schema: JsonSchema): string[] {
  const note = defaultNote(schema);
  const older = defaultsBefore(schema);
  // null is the tool's None (a DeepSpeed offload `device` of 0.5.7 to 0.6.7), not the text "none".
  const shown = (v: unknown) => (v === undefined ? 'none' : v === null ? '`None`' : code(v));
  const history = older.map((d) => `${shown(d.value)} before ${d.before}`).join(', ');
  const out: string[] = [];
  // A `--yaml-cfg`, NeMo or Megatron Bridge file whose reader gives the argument its own default (`x-default-in`).
  const own = formatDefaultFacts(da, schema, shown);
  if (own) return [own];
  // A Megatron Bridge or NeMo file: the default recorded is Megatron-LM's command line's, and the
  // config these tools build may set its own (Bridge's `profile_ranks` [0], NeMo's bias-activation fusion on).
  const id = da.format?.id;
  const whose = id === 'megatron-bridge' ? 'Megatron Bridge' : id === 'nemo' ? 'NeMo' : undefined;
  if (whose && (schema.default !== undefined || older.length)) {
    out.push(`Megatron-LM's default: ${shown(schema.default)}${note ? ` (${note})` : history ? ` (${history})` : ''}; ${whose}'s config may set its own`);
    return out;
  }
  if (schema.default !== undefined || older.length) out.push(`Default: ${shown(schema.default)}${note ? ` (${note})` : history ? ` (${history})` : ''}`);
  else if (note) out.push(`Default: ${note}`);
  const r = releaseOf(da);
  if (older.length && r.value !== undefined && r.from.kind !== 'assumed' && !r.range) {
    const at = defaultAt(schema, r.value);
    if (JSON.stringify(at ?? null) !== JSON.stringify(schema.default ?? null)) out.push(`Default in ${r.value}, the release checked against: ${shown(at)}`);
  }
  return out;
}

const DEFAULT_IN: Record<DefaultFormat, string> = {
  'yaml-cfg': 'a `--yaml-cfg` file (Megatron Core\'s config dataclass)',
  nemo: 'a NeMo model config',
  bridge: 'a Megatron Bridge override',
};

/**
 * The default of a Megatron argument in the file's own format, where that format's reader gives it
 * another than Megatron-LM's command line (`x-default-in`), with the command line's beside it.
 */
function formatDefaultFacts(da: DocAnalysis, schema: JsonSchema, shown: (v: unknown) => string): string | undefined {
  const format = (da.model as MegatronModel | undefined)?.args?.defaultsIn;
  if (!format) return undefined;
  const r = releaseOf(da);
  const run = formatDefaultRun(schema, format, r.from.kind === 'assumed' ? undefined : r.value);
  if (!run) return undefined;
  const where = DEFAULT_IN[format];
  const cli = `Megatron-LM's command line: ${shown(schema.default)}`;
  if (run.unknown !== undefined) return `Default in ${where}: not known here, ${run.unknown} (${cli})`;
  const mla = run.mla !== undefined ? `${shown(run.mla)} with multi-latent attention` : undefined;
  const value = 'value' in run ? `${shown(run.value)}${mla ? `, ${mla}` : ''}` : mla;
  return value ? `Default in ${where}: ${value} (${cli})` : undefined;
}

function normalize(schema: JsonSchema, v: unknown): unknown {
  return typeof v === 'string' ? normalized(schema, v) : v;
}

/** Enum descriptions often start with the value itself (`` `NO`: ... ``); do not repeat it. */
function stripLead(text: string, value: unknown): string {
  const lead = `${code(value)}: `;
  return text.startsWith(lead) ? text.slice(lead.length) : text;
}

const DIRECTIVE_DOCS: Record<string, string> = {
  file: 'Silences the findings of the rules it names in the whole file; with no ids, of every rule.',
  line: 'Silences the findings of the rules it names on this line; with no ids, of every rule.',
  'next-line': 'Silences the findings of the rules it names on the next line (in a script, the whole command it starts, continuation lines included); with no ids, of every rule.',
};

/** On the word or a rule id of a `# shardwise-disable…` comment (JSON has none). */
function suppressionHover(analysis: FileAnalysis, offset: number): HoverResult | undefined {
  if (analysis.syntax === 'json') return undefined;
  const lines = analysis.lines;
  const line = lines.position(offset).line;
  const s = suppressionOn(lines.lineText(line), lines.lineStart(line), line);
  if (!s) return undefined;
  const on = (span: Span): boolean => span.start <= offset && offset <= span.end;
  if (on(s.keywordSpan)) {
    return {
      span: s.keywordSpan,
      markdown: `**${s.keyword}** · suppression\n\n${DIRECTIVE_DOCS[s.kind]} Ids are separated by commas; a reason may follow \` -- \`. A suppression that silences nothing, or an id that names no rule, is reported (\`unused-suppression\`).`,
    };
  }
  const id = s.ids.find((x) => on(x.span));
  if (!id) return undefined;
  const rule = ruleById(id.id);
  if (rule) return { span: id.span, markdown: `**${rule.id}** · Shardwise rule${rule.id !== id.id ? ` (formerly \`${id.id}\`)` : ''}\n\n${ruleSummaryMarkdown(rule)}` };
  const near = closest(id.id, RULE_IDS, 3);
  return { span: id.span, markdown: `${inlineCode(id.id)} is not a Shardwise rule id: this suppression silences nothing for it.${near.length ? ` Did you mean ${near.map((n) => `\`${n}\``).join(', ')}?` : ''}` };
}
