/**
 * Whether the program a launch script runs builds a Transformers Trainer, in its own text or in the
 * local modules it imports (syntax/shell/imports.ts).
 */
import type { ShellDoc } from '../../syntax/shell/document';
import { importRoot, pythonImports } from '../../syntax/python';
import { importedTexts } from '../../syntax/shell/imports';
import type { LaunchCommand } from '../format';

export { importedTexts, reachedImports, type ImportWalk } from '../../syntax/shell/imports';

/** A Transformers or TRL import in a Python text. */
function importsHf(text: string): boolean {
  return pythonImports(text).some((i) => HF_PACKAGES.has(importRoot(i) ?? ''));
}
const HF_PACKAGES = new Set(['transformers', 'trl']);
/** A trainer class built: `Trainer(`, `SFTTrainer(`, a repository's `LLaVATrainer(` (a subclass). */
const TRAINER_BUILT = /\b\w*Trainer\s*\(/;
/** An import of a trainer of another framework, whose loop does not read the Transformers placeholders. */
function importsOtherTrainer(text: string): boolean {
  return pythonImports(text).some((i) => {
    const root = importRoot(i) ?? '';
    if (OTHER_TRAINERS.has(root)) return true;
    // Ray Train: `import ray.train`, `from ray.train.torch import …`, `from ray import train`.
    return root === 'ray' && (/^ray\.train(\.|$)/.test(i.module) || (i.module === 'ray' && !!i.names?.some((n) => n.name === 'train')));
  });
}
const OTHER_TRAINERS = new Set(['lightning', 'pytorch_lightning', 'lightning_fabric', 'composer']);

/**
 * Whether the program the script runs builds a Transformers (or TRL) Trainer, in its own text or in
 * the local modules it imports: such a program fills the DeepSpeed config's `"auto"` placeholders
 * before Accelerate reads them. The reason, in words, when it does.
 */
export function buildsTrainer(s: ShellDoc): string | undefined {
  const entry = s.entryText();
  if (!entry) return undefined;
  const name = entry.ref?.split('/').pop() ?? 'the training program';
  const texts = [entry.text.slice(0, 2_000_000), ...importedTexts(s)];
  if (texts.some(importsOtherTrainer)) return undefined;
  const shows = (t: string) => TRAINER_BUILT.test(t) && importsHf(t);
  if (shows(texts[0])) return `\`${name}\` builds a Transformers Trainer`;
  if (texts.slice(1).some(shows)) return `\`${name}\` builds a Transformers Trainer (in the modules it imports)`;
  return undefined;
}

/** The known launches all start a program that builds a Transformers Trainer: why, in words; undefined when one does not, or none is known. */
export function everyLaunchStartsATrainer(launches: readonly LaunchCommand[]): string | undefined {
  if (!launches.length || !launches.every((l) => l.trainer?.())) return undefined;
  return launches.map((l) => `\`${l.path.split(/[\\/]/).pop()}\` starts it, and ${l.trainer!()}`).join('; ');
}

