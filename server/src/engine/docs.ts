/** Rule documentation, generated from the rules themselves: `docs/rules.md` and `shardwise explain`. */
import { RULES, ruleById } from './rules';
import type { Rule } from './rules/rule';

/** Where the project and its rules reference live (package.json's `repository`, `homepage`). */
export const HOMEPAGE = 'https://github.com/shardwise/shardwise';
const RULES_REFERENCE = `${HOMEPAGE}/blob/main/docs/rules.md`;

/** The rule's section of the rules reference (docs/rules.md's heading anchors are the rule ids). */
export function ruleDocsUrl(id: string): string {
  return `${RULES_REFERENCE}#${id}`;
}

function fence(text: string, lang = 'yaml'): string {
  return '```' + lang + '\n' + text.replace(/\n?$/, '\n') + '```';
}

function formats(rule: Rule<any>): string {
  const listed = rule.formats === 'all' ? 'all formats' : rule.formats.join(', ');
  // A rule that reports one runtime's argument checks (formats/megatron/runtime.ts) says whose.
  const checks = rule.runtime?.map((c) => `\`${c}\``).join(' or ');
  return checks ? `${listed}, where the run meets Megatron-LM's ${checks} (not Megatron Bridge or NeMo)` : listed;
}

export function ruleMarkdown(rule: Rule<any>, heading = '##'): string {
  const d = rule.docs;
  const lines = [
    `${heading} \`${rule.id}\``,
    '',
    `${d.summary}`,
    '',
    `Default severity: **${rule.severity}** · Applies to: ${formats(rule)}`,
    '',
    d.why,
    '',
    'Triggers it:',
    '',
    fence(d.bad, lang(d.bad)),
    '',
    ...Object.entries(d.files ?? {}).flatMap(([name, text]) => [`with \`${name}\`:`, '', fence(text, lang(text)), '']),
    ...Object.entries(d.referrers ?? {}).flatMap(([name, text]) => [`launched by \`${name}\`:`, '', fence(text, lang(text)), '']),
    'Does not:',
    '',
    fence(d.good, lang(d.good)),
  ];
  if (d.shell) lines.push('', 'In a launch script, triggers it:', '', fence(d.shell.bad, 'bash'), '', 'Does not:', '', fence(d.shell.good, 'bash'));
  lines.push('', fixLine(rule));
  if (d.fix) lines.push('', `Quick fix: ${d.fix}`);
  if (d.upstream?.length) lines.push('', `Upstream: ${d.upstream.map((u) => `[${u.label}](${u.url})`).join(' · ')}`);
  return lines.join('\n');
}

/** "Fix: none", or each kind of fix with its applicability and what it changes. */
function fixLine(rule: Rule<any>): string {
  const kinds = Object.values(rule.fixes ?? {});
  if (kinds.length === 0) return 'Fix: **none**';
  const safe = kinds.filter((k) => k.applicability === 'safe');
  const unsafe = kinds.filter((k) => k.applicability === 'unsafe');
  const parts = [
    ...(safe.length ? [`**safe**: ${unique(safe.map((k) => k.changes)).join('; ')}`] : []),
    ...(unsafe.length ? [`**unsafe** (offered one by one, or with \`--unsafe-fixes\`): changes ${unique(unsafe.map((k) => k.changes)).join('; ')}`] : []),
  ];
  return `Fix: ${parts.join(' · ')}`;
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}

function lang(example: string): string {
  if (/^#!|^\s*(torchrun|srun|python)\b/m.test(example)) return 'bash';
  return /^\s*[{[]/.test(example) ? 'json' : 'yaml';
}

export function rulesMarkdown(): string {
  const header = [
    '# Shardwise rules',
    '',
    '<!-- Generated from server/src/engine/rules/*.ts by `npm run docs`. Do not edit: a test fails when this page is stale. -->',
    '',
    'Every finding carries the id of the rule that produced it. Ids are stable: use them to change a rule\'s severity',
    '(`shardwise.rules` setting or `rules:` in `.shardwise.yaml`, value `off`, `hint`, `information`, `warning` or `error`)',
    'or to silence it in a file (`# shardwise-disable <id>`) or on a line (`# shardwise-disable-next-line <id>`).',
    '',
    'To choose the rules that run: `select`, `extend-select` and `ignore` in `.shardwise.yaml` or `pyproject.toml`',
    '`[tool.shardwise]`, or `shardwise check --select`, `--extend-select`, `--ignore`. JSON has no comments: silence',
    'a rule in a JSON file with `per-file-ignores` (`"ds_*.json": [<id>]`). See the README\'s Project settings.',
    '',
    'Fixes are **safe** when the file as written cannot run (the tool refuses it) or the run stays what it is,',
    'and the file now says what it evidently meant (a quoted `no`, a slip of the keyboard where the tool refuses',
    'the unknown key, a key the tool ignores anyway). Either reason rests on what the finding rests on: when the',
    'finding assumes something (a release nobody named, the default hardware, one arm of an `if`), its fix is',
    'unsafe and its title says so, except a fix that writes the same value another way (`1000` for `1e3`), which',
    'means the same under any release. Fix-all in the editor and `shardwise check --fix`',
    'apply the safe fix a rule recommends for an error or a warning; a safe fix that would settle a question the',
    'file leaves open (drop a ZeRO-3 key, or move to stage 3?) is offered, not applied. Fixes that change a',
    'decision (a degree, a batch size, the precision, a switch, the number of GPUs) are **unsafe**: the editor',
    'offers them one by one, with what they change in the title, and the CLI applies them only with',
    '`--unsafe-fixes`.',
    '',
    '| id | default | fix | summary |',
    '|---|---|---|---|',
    ...RULES.map((r) => `| [\`${r.id}\`](#${r.id}) | ${r.severity} | ${fixSummary(r)} | ${r.docs.summary.replace(/\|/g, '\\|')} |`),
    '',
  ];
  return [...header, ...RULES.map((r) => ruleMarkdown(r))].join('\n') + '\n';
}

function fixSummary(rule: Rule<any>): string {
  const kinds = new Set(Object.values(rule.fixes ?? {}).map((k) => k.applicability));
  return kinds.size === 0 ? 'none' : [...kinds].sort().join(', ');
}

export function explain(id: string): string | undefined {
  const rule = ruleById(id);
  return rule ? ruleMarkdown(rule, '#') : undefined;
}
