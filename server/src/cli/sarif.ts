/** SARIF 2.1.0 output, for code-scanning dashboards. */
import { RULES, type Finding, type LineIndex } from '../engine';

const LEVEL: Record<string, string> = { error: 'error', warning: 'warning', information: 'note', hint: 'note' };

export function toSarif(files: { file: string; lines: LineIndex; findings: Finding[] }[], version: string): unknown {
  const index = new Map(RULES.map((r, i) => [r.id, i]));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'shardwise',
            version,
            informationUri: 'https://shardwise.dev',
            rules: RULES.map((r) => ({
              id: r.id,
              shortDescription: { text: r.docs.summary },
              fullDescription: { text: r.docs.why },
              defaultConfiguration: { level: LEVEL[r.severity] },
              help: { text: r.docs.why, markdown: `${r.docs.why}\n\nBad:\n\n\`\`\`\n${r.docs.bad}\`\`\`\n\nGood:\n\n\`\`\`\n${r.docs.good}\`\`\`` },
            })),
          },
        },
        results: files.flatMap(({ file, lines, findings }) =>
          findings.map((f) => {
            const s = lines.position(f.span.start);
            const e = lines.position(f.span.end);
            return {
              ruleId: f.code,
              ruleIndex: index.get(f.code),
              level: LEVEL[f.severity],
              message: { text: f.message },
              locations: [
                {
                  physicalLocation: {
                    artifactLocation: { uri: file.split('\\').join('/') },
                    region: { startLine: s.line + 1, startColumn: s.character + 1, endLine: e.line + 1, endColumn: e.character + 1 },
                  },
                },
              ],
            };
          }),
        ),
      },
    ],
  };
}
