/**
 * Completion of keys (with a snippet for the value) and of values, from the schema at the cursor.
 * Values are written so that they read back as meant: `'NO'` is quoted in YAML. In a suppression
 * comment, completion of its directive word and of rule ids.
 */
import type { DocAnalysis, FileAnalysis } from '../result';
import { suppressionOn } from '../directives';
import { ruleDocsUrl } from '../docs';
import { RULES, ruleById } from '../rules';
import type { Rule } from '../rules/rule';
import type { SchemaNav } from '../schema/navigate';
import type { JsonSchema } from '../schema/types';
import { formatYamlKey, formatYamlValue } from '../syntax/scalars';
import type { Span } from '../types';
import { docAt } from './locate';
import { advisedNames, appliesTo, deprecation } from '../schema/vocabulary';
import { knownRelease } from '../rules/release';
import { versionAtLeast } from '../version';

export interface CompletionEntry {
  label: string;
  kind: 'key' | 'section' | 'value';
  detail?: string;
  documentation?: string;
  /** Text to insert; a snippet (with `${1}` placeholders) when `snippet` is true. */
  insertText: string;
  snippet: boolean;
  replace: Span;
  sortText: string;
  deprecated?: boolean;
  preselect?: boolean;
}

export function complete(analysis: FileAnalysis, at: number): CompletionEntry[] {
  // An offset that is no editor position (inside a \r\n, outside the text) means the nearest one.
  const offset = analysis.lines.offset(analysis.lines.position(at));
  const entries = completeAt(analysis, offset);
  // Each item replaces a span that holds the cursor, on its line (what the protocol requires).
  return entries.filter((e) => e.replace.start <= offset && offset <= e.replace.end && !/[\r\n]/.test(analysis.text.slice(e.replace.start, e.replace.end)));
}

function completeAt(analysis: FileAnalysis, offset: number): CompletionEntry[] {
  const inComment = completeSuppression(analysis, offset);
  if (inComment) return inComment;
  const da = docAt(analysis, offset);
  if (!da?.nav) return [];
  const site = da.doc.completionSite(offset);
  if (!site) return [];
  const version = da.settings.targetVersions?.[da.format!.tool];
  // Values are offered as the release the file is known to be checked against accepts them.
  const known = knownRelease(da);
  const atRelease = known ? (v: string) => versionAtLeast(known, v) : undefined;
  const rootValue = da.doc.value([]);
  const nav = da.nav;
  const format = da.format!;
  if (site.kind === 'key' && format.keysAt) {
    const keys = format.keysAt(da.doc, site.path);
    if (!keys) return [];
    const present = new Set(site.existing);
    const out: CompletionEntry[] = [];
    for (const { key, schemaPath } of keys) {
      if (present.has(key)) continue;
      const schema = nav.at(schemaPath, da.instance?.value, version) ?? {};
      const deprecated = !!deprecation(schema);
      if (deprecated && !(site.typed && key.startsWith(site.typed))) continue;
      out.push({
        label: key,
        kind: 'key',
        detail: nav.describe(schema, 0, atRelease),
        documentation: schema.markdownDescription ?? schema.description,
        insertText: flagSnippet(da, nav, key, schema, atRelease),
        snippet: true,
        replace: site.replace,
        sortText: `${deprecated ? 9 : 1}${key}`,
        deprecated,
      });
    }
    return out;
  }
  if (site.kind === 'key') {
    const parent = nav.at(site.path, rootValue, version);
    if (!parent?.properties) return [];
    const existing = new Set(site.existing.map((k) => nav.canonicalKey(parent, k, version)));
    const out: CompletionEntry[] = [];
    for (const [key, raw] of Object.entries(parent.properties)) {
      if (existing.has(key)) continue;
      const schema = nav.resolve(raw) ?? {};
      const deprecated = !!deprecation(schema);
      if (deprecated && !(site.typed && key.startsWith(site.typed))) continue;
      const isSection = !!schema.properties;
      const required = parent.required?.includes(key);
      out.push({
        label: key,
        kind: isSection ? 'section' : 'key',
        detail: isSection ? 'section' : nav.describe(schema, 0, atRelease),
        documentation: schema.markdownDescription ?? schema.description,
        insertText: keySnippet(da, nav, key, schema, site.path.length, atRelease),
        snippet: true,
        replace: site.replace,
        sortText: `${deprecated ? 9 : required ? 0 : relevant(da, schema) ? 1 : 2}${key}`,
        deprecated,
      });
    }
    return out;
  }
  const valuePath = format.schemaPath ? format.schemaPath(da.doc, site.path) : site.path;
  const schema = valuePath && nav.at(valuePath, format.schemaPath ? da.instance?.value : rootValue, version);
  if (!schema) return [];
  const values = nav.allowedValues(schema, atRelease);
  const docs = schema.markdownEnumDescriptions ?? [];
  const out: CompletionEntry[] = values.map((v, i) => ({
    label: typeof v === 'string' ? v : JSON.stringify(v),
    kind: 'value' as const,
    detail: schema.default !== undefined && v === schema.default ? 'default' : undefined,
    documentation: docs[(schema.enum ?? advisedNames(schema) ?? []).indexOf(v)],
    insertText: valueText(da, v),
    snippet: false,
    replace: site.replace,
    sortText: `${String(i).padStart(3, '0')}`,
    preselect: v === schema.default,
  }));
  if (values.length === 0 && schema.default !== undefined) {
    out.push({ label: String(schema.default), kind: 'value', detail: 'default', insertText: valueText(da, schema.default), snippet: false, replace: site.replace, sortText: '000' });
  }
  return out;
}

/** Keys the chosen `distributed_type` reads sort before the others. */
function relevant(da: DocAnalysis, schema: JsonSchema): boolean {
  const applies = appliesTo(schema);
  const dt = da.doc.value(['distributed_type']);
  return !applies || (typeof dt === 'string' && applies.includes(dt));
}

function valueText(da: DocAnalysis, v: unknown): string {
  return da.doc.syntax === 'json' ? JSON.stringify(v) : formatYamlValue(v);
}

function snippetEscape(s: string): string {
  return s.replace(/[$}\\]/g, (c) => `\\${c}`);
}

function keySnippet(da: DocAnalysis, nav: SchemaNav, key: string, schema: JsonSchema, depth: number, atRelease?: (v: string) => boolean): string {
  const json = da.doc.syntax === 'json';
  const k = json ? JSON.stringify(key) : formatYamlKey(key);
  if (schema.properties) {
    if (json) return `${k}: {\n\t$0\n}`;
    return `${k}:\n${'  '.repeat(depth + 1)}$0`;
  }
  const choices = nav.allowedValues(schema, atRelease).map((v) => (json ? JSON.stringify(v) : formatYamlValue(v)));
  if (choices.length > 1 && choices.every((c) => !/[,|]/.test(c))) {
    const def = schema.default !== undefined ? choices.indexOf(json ? JSON.stringify(schema.default) : formatYamlValue(schema.default)) : -1;
    const ordered = def > 0 ? [choices[def], ...choices.filter((_, i) => i !== def)] : choices;
    return `${k}: \${1|${ordered.map(snippetEscape).join(',')}|}`;
  }
  if (schema.default !== undefined) return `${k}: \${1:${snippetEscape(json ? JSON.stringify(schema.default) : formatYamlValue(schema.default))}}`;
  return `${k}: $0`;
}

/** A key whose value follows it: `--flag value` in a script, `key: value` in YAML. */
function flagSnippet(da: DocAnalysis, nav: SchemaNav, key: string, schema: JsonSchema, atRelease?: (v: string) => boolean): string {
  if (da.doc.syntax === 'shell') {
    if (schema.type === 'boolean') return key;
    const choices = nav.allowedValues(schema, atRelease).filter((v) => typeof v !== 'boolean');
    if (choices.length > 1) return `${key} \${1|${choices.map((v) => snippetEscape(String(v))).join(',')}|}`;
    return schema.default !== undefined && schema.default !== null ? `${key} \${1:${snippetEscape(String(schema.default))}}` : `${key} $0`;
  }
  return keySnippet(da, nav, key, schema, 1, atRelease);
}

const KEYWORDS: readonly { word: string; detail: string }[] = [
  { word: 'shardwise-disable-next-line', detail: 'Silence rules on the next line (a script: the whole command)' },
  { word: 'shardwise-disable-line', detail: 'Silence rules on this line' },
  { word: 'shardwise-disable', detail: 'Silence rules in the whole file' },
];

/** A rule's entry in a completion list or a hover: its summary, default severity and documentation link. */
export function ruleSummaryMarkdown(rule: Rule<any>): string {
  return `${rule.docs.summary}\n\nDefault severity: **${rule.severity}** · [Documentation](${ruleDocsUrl(rule.id)})`;
}

/**
 * In a `# shardwise-disable…` comment: rule ids where ids go (after the directive word, after a
 * comma or a space), those with a finding where the comment applies first, then those of the file's
 * format; the directive words after `# shard`. Undefined elsewhere; empty in the reason of a
 * suppression. JSON has no comments.
 */
function completeSuppression(analysis: FileAnalysis, offset: number): CompletionEntry[] | undefined {
  if (analysis.syntax === 'json') return undefined;
  const { lines, text } = analysis;
  const line = lines.position(offset).line;
  const start = lines.lineStart(line);
  const before = text.slice(start, offset);
  const word = /(?:^|\s)#\s*(shard[a-z-]*)$/.exec(before);
  if (word) {
    let end = offset;
    while (end < lines.lineEnd(line) && /[a-z-]/.test(text[end])) end++;
    const replace = { start: offset - word[1].length, end };
    return KEYWORDS.map((k, i) => ({ label: k.word, kind: 'value' as const, detail: k.detail, insertText: `${k.word} `, snippet: false, replace, sortText: String(i) }));
  }
  const s = suppressionOn(lines.lineText(line), start, line);
  if (!s || offset <= s.keywordSpan.end || offset < s.span.start) return undefined;
  if (offset > s.list.end) return [];
  let a = offset;
  while (a > s.list.start && !/[\s,]/.test(text[a - 1])) a--;
  let b = offset;
  while (b < s.list.end && !/[\s,]/.test(text[b])) b++;
  // Right after the word, with no space yet, is still the word.
  if (a === s.keywordSpan.end) return [];
  const listed = new Set(s.ids.filter((x) => x.span.start !== a).map((x) => ruleById(x.id)?.id ?? x.id));
  const here = analysis.directives.suppressions.find((x) => x.line === line)?.found ?? new Set<string>();
  const formats = new Set(analysis.docs.flatMap((d) => (d.format ? [d.format.id] : [])));
  return RULES.filter((r) => !listed.has(r.id)).map((r) => {
    const applies = r.formats === 'all' || r.formats.some((f) => formats.has(f));
    return {
      label: r.id,
      kind: 'value' as const,
      detail: r.docs.summary,
      documentation: ruleSummaryMarkdown(r),
      insertText: r.id,
      snippet: false,
      replace: { start: a, end: b },
      sortText: `${here.has(r.id) && r.id !== 'unused-suppression' ? 0 : applies ? 1 : 2}${r.id}`,
    };
  });
}
