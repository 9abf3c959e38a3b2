/**
 * Mutations of real files: byte flips, line shuffles, repeated lines, deleted ranges, duplicated
 * blocks, indentation changes, two files spliced together, truncation, inserted tokens.
 */
import type { Rng } from '../rng';
import { vocabulary, type SourceFile } from '../sources';

export const MUTATIONS = ['flip', 'shuffle', 'repeat', 'delete', 'duplicate', 'indent', 'splice', 'truncate', 'insert'] as const;
export type Mutation = (typeof MUTATIONS)[number];

function lines(text: string): string[] {
  return text.split(/(?<=\n)/);
}

/** A random code unit: ASCII, a structural character, a control character, a byte, or a lone surrogate. */
function randomUnit(r: Rng): string {
  return r.weighted<() => string>([
    [() => String.fromCharCode(r.range(32, 126)), 5],
    [() => r.pick([':', '-', ' ', '\n', '\t', '#', '"', "'", '{', '}', '[', ']', ',', '&', '*', '|', '>', '\\', '$', '(', ')', '=', '`', ';']), 5],
    [() => String.fromCharCode(r.range(0, 31)), 1],
    [() => String.fromCharCode(r.range(127, 255)), 1],
    [() => String.fromCharCode(r.range(0xd800, 0xdfff)), 0.5],
    [() => r.pick(['\u202e', '\u2028', '\ufeff', '\u0085', '\u00a0', '\u200b']), 0.3],
  ])();
}

export function mutate(r: Rng, text: string, op: Mutation, other: SourceFile | undefined): string {
  const ls = lines(text);
  switch (op) {
    case 'flip': {
      const chars = text.split('');
      for (let k = r.range(1, 8); k > 0 && chars.length; k--) chars[r.int(chars.length)] = randomUnit(r);
      return chars.join('');
    }
    case 'shuffle': {
      if (r.chance(0.3)) return r.shuffle(ls).join('');
      const a = r.int(ls.length);
      const b = Math.min(ls.length, a + r.range(2, 8));
      return [...ls.slice(0, a), ...r.shuffle(ls.slice(a, b)), ...ls.slice(b)].join('');
    }
    case 'repeat': {
      const i = r.int(ls.length);
      const times = r.weighted([
        [r.range(2, 10), 5],
        [r.range(10, 300), 2],
        [r.range(300, 3000), 0.5],
      ]);
      return [...ls.slice(0, i), ...Array(times).fill(ls[i] ?? '\n'), ...ls.slice(i + 1)].join('');
    }
    case 'delete': {
      const a = r.int(text.length + 1);
      return text.slice(0, a) + text.slice(Math.min(text.length, a + r.range(1, 200)));
    }
    case 'duplicate': {
      const a = r.int(ls.length);
      const block = ls.slice(a, a + r.range(1, 10));
      const at = r.int(ls.length + 1);
      return [...ls.slice(0, at), ...block, ...ls.slice(at)].join('');
    }
    case 'indent': {
      const a = r.int(ls.length);
      const b = Math.min(ls.length, a + r.range(1, 10));
      const change = r.pick(['+1', '+2', '-1', '-2', 'tab', 'zero', 'nbsp']);
      return ls
        .map((l, i) => {
          if (i < a || i >= b) return l;
          if (change === '+1') return ' ' + l;
          if (change === '+2') return '  ' + l;
          if (change === '-1') return l.replace(/^ /, '');
          if (change === '-2') return l.replace(/^ {1,2}/, '');
          if (change === 'tab') return l.replace(/^( {2})+/, (m) => '\t'.repeat(m.length / 2));
          if (change === 'nbsp') return l.replace(/^ /, '\u00a0');
          return l.trimStart();
        })
        .join('');
    }
    case 'splice': {
      const os = lines(other?.text ?? text);
      return [...ls.slice(0, r.int(ls.length + 1)), ...os.slice(r.int(os.length + 1))].join('');
    }
    case 'truncate':
      return text.slice(0, r.int(text.length + 1));
    case 'insert': {
      const v = vocabulary();
      const token = r.pick([
        r.pick(v.accelerateKeys) + ': ',
        r.pick(v.megatronFlags) + ' ',
        JSON.stringify(r.pick(v.deepspeedKeys)) + ': ',
        '&a ',
        '*a',
        '<<: *a\n',
        '---\n',
        '"',
        "'",
        '{',
        '[',
        '\\\n',
        '${X:-8}',
        '$((',
        '# shardwise-disable-next-line\n',
        `# shardwise: format=${r.pick(['accelerate', 'deepspeed', 'megatron-args', 'megatron-yaml', 'megatron-bridge', 'nemo'])}\n`,
      ]);
      const at = r.int(text.length + 1);
      return text.slice(0, at) + token + text.slice(at);
    }
  }
}

/** Which extension a mutated file is shown with: mostly its own, sometimes another one. */
export function mutatedPath(r: Rng, path: string): string {
  if (!r.chance(0.1)) return path;
  return path.replace(/\.[a-z]+$/, '') + r.pick(['.yaml', '.json', '.sh', '', '.txt']);
}
