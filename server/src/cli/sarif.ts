/** SARIF 2.1.0 output, for code-scanning dashboards. */
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HOMEPAGE, RULES, ruleDocsUrl } from '../engine';

const LEVEL: Record<string, string> = { error: 'error', warning: 'warning', information: 'note', hint: 'note' };

/** A position as the engine gives it: zero-based line and character (UTF-16 code units). */
export interface Position {
  line: number;
  character: number;
}

/** Another place a finding is about: in another file when `file` is set (as the CLI reports paths). */
export interface RelatedRecord {
  file?: string;
  message: string;
  start: Position;
  end: Position;
}

/** One finding as the output needs it, without the analysis it came from. */
export interface SarifRecord {
  code: string;
  severity: string;
  message: string;
  start: Position;
  end: Position;
  related?: readonly RelatedRecord[];
}

function artifactLocation(file: string): { uri: string; uriBaseId?: string } {
  const uri = artifactUri(file);
  return isAbsolute(file) ? { uri } : { uri, uriBaseId: '%SRCROOT%' };
}

function region(start: Position, end: Position) {
  return { startLine: start.line + 1, startColumn: start.character + 1, endLine: end.line + 1, endColumn: end.character + 1 };
}

/**
 * `artifactLocation.uri` for a path as the CLI reports it: a relative path becomes a relative URI
 * reference, every segment percent-encoded (a space, `#`, `%`, `?`, `:`, a control character or
 * non-ASCII text cannot be read as URI syntax); an absolute path becomes a `file:` URI.
 */
export function artifactUri(file: string): string {
  const path = process.platform === 'win32' ? file.split('\\').join('/') : file;
  // A lone surrogate cannot be percent-encoded (encodeURIComponent throws): U+FFFD stands for it.
  const wellFormed = path.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
  if (isAbsolute(file)) return pathToFileURL(wellFormed).href;
  return wellFormed.split('/').map((segment) => encodeURIComponent(segment)).join('/');
}

/**
 * The SARIF log of a run in `cwd`. Relative paths are relative to `%SRCROOT%`, which
 * `originalUriBaseIds` sets to the working directory (a code-scanning upload resolves them against
 * the checkout instead).
 */
export function toSarif(files: { file: string; findings: readonly SarifRecord[] }[], version: string, cwd: string): unknown {
  const index = new Map(RULES.map((r, i) => [r.id, i]));
  const root = pathToFileURL(cwd).href.replace(/\/?$/, '/');
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'shardwise',
            version,
            informationUri: HOMEPAGE,
            rules: RULES.map((r) => ({
              id: r.id,
              shortDescription: { text: r.docs.summary },
              fullDescription: { text: r.docs.why },
              helpUri: ruleDocsUrl(r.id),
              defaultConfiguration: { level: LEVEL[r.severity] },
              help: { text: r.docs.why, markdown: `${r.docs.why}\n\nBad:\n\n\`\`\`\n${r.docs.bad}\`\`\`\n\nGood:\n\n\`\`\`\n${r.docs.good}\`\`\`` },
            })),
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { uri: root } },
        results: files.flatMap(({ file, findings }) => {
          const here = artifactLocation(file);
          return findings.map((f) => ({
            ruleId: f.code,
            ruleIndex: index.get(f.code),
            level: LEVEL[f.severity],
            message: { text: f.message },
            locations: [
              {
                physicalLocation: { artifactLocation: here, region: region(f.start, f.end) },
              },
            ],
            ...(f.related?.length
              ? {
                  relatedLocations: f.related.map((r, i) => ({
                    id: i,
                    physicalLocation: { artifactLocation: r.file === undefined ? here : artifactLocation(r.file), region: region(r.start, r.end) },
                    message: { text: r.message },
                  })),
                }
              : {}),
          }));
        }),
      },
    ],
  };
}
