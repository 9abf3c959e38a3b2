/** What the reader says of a flag passed twice through one word. */
import type { LineIndex } from '../../text';

/**
 * What to say of a flag that reaches the command twice from one word (`$CMD` expanded by a nested
 * shell, where where each copy was written is lost): the lines that write it, when the script writes
 * it more than once, else the word itself is expanded twice.
 */
export function twiceThrough(text: string, lines: LineIndex, key: string, same: boolean): string {
  const written: number[] = [];
  const word = new RegExp(`(?:^|[\\s"'])${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=[\\s="']|$)`, 'gm');
  for (const m of text.matchAll(word)) {
    const line = lines.position(m.index! + 1).line;
    if (/^\s*#/.test(text.slice(lines.lineStart(line), lines.lineEnd(line)))) continue;
    if (!written.includes(line + 1)) written.push(line + 1);
    if (written.length > 4) break;
  }
  const kept = same ? 'both give the same value, so nothing changes; one of them can go' : 'argparse keeps the last value and ignores the first';
  if (written.length >= 2) return `\`${key}\` is written on lines ${written.slice(0, -1).join(', ')} and ${written[written.length - 1]}, and both reach the training command through this word; ${kept}.`;
  return `\`${key}\` reaches the training command twice (this word expands to it twice); ${kept}.`;
}
