/** `--verbose`: which format each file was read as and why, or why it was not read. */
import { checkedAgainst, type FileAnalysis } from '../engine';

/**
 * One line per document: the format it was read as and why ("read as an Accelerate config: …");
 * for a document no format claimed, why each format that came close did not ("not read as an
 * Accelerate config: … `fsdp_config` alone is not enough"), or that it has nothing of any.
 */
export function formatLines(file: string, analysis: FileAnalysis): string[] {
  if (analysis.docs.length === 0) return [`${file}: not read: too large to analyse`];
  const many = analysis.docs.length > 1;
  const lines: string[] = [];
  analysis.docs.forEach((d, i) => {
    const where = many ? `${file} (document ${i + 1})` : file;
    const misses = d.detection.nearMisses;
    if (d.format || misses.length === 0) lines.push(`${where}: ${d.detection.reason}`);
    else for (const m of misses) lines.push(`${where}: ${m.reason}`);
  });
  return lines;
}

/**
 * `--show-settings`: what each document of a file is checked against, with how each is known: the
 * format (and why), the release of the tool, the hardware, and the configuration files that apply.
 */
export function settingsLines(file: string, analysis: FileAnalysis, configFiles: readonly string[]): string[] {
  const lines = [file];
  if (analysis.docs.length === 0) return [...lines, '  not read: too large to analyse'];
  analysis.docs.forEach((d, i) => {
    const pad = analysis.docs.length > 1 ? '    ' : '  ';
    if (analysis.docs.length > 1) lines.push(`  document ${i + 1}`);
    const c = checkedAgainst(d);
    lines.push(`${pad}format: ${c.format.replace(/^read as /, '')}`);
    if (c.release) lines.push(`${pad}release: ${c.release}`);
    if (c.hardware) lines.push(`${pad}hardware: ${c.hardware}`);
  });
  lines.push(`  configuration: ${configFiles.length ? configFiles.join(', ') : 'none (no .shardwise.yaml or [tool.shardwise] at or above the file)'}`);
  return lines;
}
