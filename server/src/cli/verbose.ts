/** `--verbose`: which format each file was read as and why, or why it was not read. */
import type { FileAnalysis } from '../engine';

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
