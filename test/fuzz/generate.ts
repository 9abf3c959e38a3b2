/**
 * The generator library: `generate(category, index, seed, scale)` makes one input, the same one
 * every time; `allocate` spreads a run's inputs over the categories.
 */
import { BOMBS, makeBomb } from './gen/bombs';
import { genJson, genShell, genYaml } from './gen/grammar';
import { genDirectivesInput, genEolInput, genJunkInput, genLinksInput, genSettingsInput } from './gen/hostile';
import { mutate, mutatedPath, MUTATIONS } from './gen/mutation';
import { Rng, seedOf } from './rng';
import { sources } from './sources';
import { CATEGORIES, type Category, type FuzzInput, type Scale } from './types';
import { pickEncoding } from './cli-oracle';

/** The categories whose inputs the `cli` category lays out as files (bombs are too large to run four times). */
const CLI_BASES: readonly Category[] = CATEGORIES.filter((c) => c !== 'cli' && c !== 'bomb');

/** Relative share of a run per category (bombs are capped at one input per bomb). */
const WEIGHTS: Record<Category, number> = { mutation: 3, yaml: 2, json: 1.5, shell: 2, bomb: 1, settings: 1.5, links: 1, junk: 1, eol: 1.5, directives: 1, cli: 0.5 };

/** Inputs per category for a run of `n` inputs over `categories`. */
export function allocate(n: number, categories: readonly Category[] = CATEGORIES): Record<Category, number> {
  const out = Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<Category, number>;
  if (categories.length === 0 || n <= 0) return out;
  let rest = n;
  let cats = [...categories];
  if (cats.includes('bomb')) {
    const share = cats.length === 1 ? n : Math.max(1, Math.round((n * WEIGHTS.bomb) / cats.reduce((s, c) => s + WEIGHTS[c], 0)));
    out.bomb = Math.min(BOMBS.length, share, n);
    rest -= out.bomb;
    cats = cats.filter((c) => c !== 'bomb');
  }
  const total = cats.reduce((s, c) => s + WEIGHTS[c], 0);
  let given = 0;
  cats.forEach((c, i) => {
    out[c] = i === cats.length - 1 ? rest - given : Math.floor((rest * WEIGHTS[c]) / total);
    given += out[c];
  });
  return out;
}

/** Cursor offsets for hover and completion: the ends, and places where keys, values and flags start. */
function cursorsFor(r: Rng, text: string): number[] {
  const out = new Set<number>([0, text.length, text.length >> 1]);
  for (let k = 0; k < 3; k++) out.add(r.int(text.length + 1));
  for (const ch of [':', '-', '\n', '"', '$']) {
    const at = text.indexOf(ch, r.int(text.length + 1));
    if (at >= 0) {
      out.add(at);
      out.add(at + 1);
    }
  }
  return [...out].filter((o) => o >= 0 && o <= text.length).sort((a, b) => a - b);
}

export function generate(category: Category, index: number, seed: number, scale: Scale = 'full'): FuzzInput {
  const r = new Rng(seedOf(seed, category, index));
  const id = `${category}-${index}`;
  let part: Omit<FuzzInput, 'id' | 'category'>;
  switch (category) {
    case 'mutation': {
      const all = sources();
      const file = all.length ? all[index % all.length] : { path: 'x.yaml', text: 'distributed_type: FSDP\nnum_processes: 8\n' };
      let text = file.text;
      const ops: string[] = [];
      for (let k = r.range(1, 3); k > 0; k--) {
        const op = r.pick(MUTATIONS);
        ops.push(op);
        text = mutate(r, text, op, all.length ? r.pick(all) : undefined);
      }
      part = { path: mutatedPath(r, file.path), text, variant: `mutation:${ops[0]}` };
      break;
    }
    case 'yaml':
      part = genYaml(r);
      break;
    case 'json':
      part = genJson(r);
      break;
    case 'shell':
      part = genShell(r);
      break;
    case 'bomb': {
      const b = makeBomb(BOMBS[index % BOMBS.length], scale);
      part = { path: b.spec.path, text: b.text, variant: `bomb:${b.spec.name}`, growth: b.growth };
      break;
    }
    case 'settings':
      part = genSettingsInput(r, index);
      break;
    case 'links':
      part = genLinksInput(r, index);
      break;
    case 'junk':
      part = genJunkInput(r, index);
      break;
    case 'eol':
      part = genEolInput(r, index);
      break;
    case 'directives':
      part = genDirectivesInput(r, index);
      break;
    case 'cli': {
      // Another category's input, saved as a user's repository would hold it, for the command line.
      const { id: _id, category: _category, growth: _growth, cursors: _cursors, ...base } = generate(CLI_BASES[index % CLI_BASES.length], Math.floor(index / CLI_BASES.length), seed, scale);
      part = { ...base, variant: `cli:${base.variant}`, encoding: pickEncoding(r) };
      break;
    }
  }
  // Bombs are about size: a few cursors are enough.
  const cursors = category === 'bomb' ? [0, part.text.length >> 1, part.text.length] : cursorsFor(r, part.text);
  return { id, category, ...part, cursors };
}
