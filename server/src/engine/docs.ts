/** Rule documentation, generated from the rules themselves: `docs/rules.md` and `shardwise explain`. */
import { RULES, ruleById } from './rules';
import type { Rule } from './rules/rule';

function fence(text: string, lang = 'yaml'): string {
  return '```' + lang + '\n' + text.replace(/\n?$/, '\n') + '```';
}

function formats(rule: Rule<any>): string {
  return rule.formats === 'all' ? 'all formats' : rule.formats.join(', ');
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
    'Does not:',
    '',
    fence(d.good, lang(d.good)),
  ];
  if (d.fix) lines.push('', `Quick fix: ${d.fix}`);
  return lines.join('\n');
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
    '| id | default | summary |',
    '|---|---|---|',
    ...RULES.map((r) => `| [\`${r.id}\`](#${r.id}) | ${r.severity} | ${r.docs.summary.replace(/\|/g, '\\|')} |`),
    '',
  ];
  return [...header, ...RULES.map((r) => ruleMarkdown(r))].join('\n') + '\n';
}

export function explain(id: string): string | undefined {
  const rule = ruleById(id);
  return rule ? ruleMarkdown(rule, '#') : undefined;
}
