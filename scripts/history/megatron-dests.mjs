// Megatron-LM argument names (dests) by release: the name a flag stores its value under, which is
// the key a `--yaml-cfg` file writes. When the config dataclasses took over a flag (0.16.0 on), some
// flags kept their spelling but changed dest (`--tokenizer-special-tokens` stored
// `tokenizer_special_tokens` until 0.17.x, the field `special_tokens` from 0.18.0). For every release
// the flags of the main parser (`add_argument` with its `dest=` or the name its first long flag
// gives) and of the config dataclasses (a field's `argparse_meta` `arg_names` and `dest`, or the field
// itself) are read; a property whose flag stored another name before some release gets
// `x-name-before: { "<first release with today's name>": "<the older name>" }`, unless that older name
// is an argument of its own today.
import { compareVersions, show } from './git.mjs';
import { setKey } from './write.mjs';

const CONFIG_DIR = 'megatron/training/config/';

/** flag → dest of one Python source: add_argument calls and dataclass fields with argparse_meta. */
function destsOf(src, out) {
  for (const m of src.matchAll(/add_argument\(\s*((?:["']-[\w-]+["']\s*,\s*)+)([^)]*)\)/g)) {
    const flags = [...m[1].matchAll(/["'](--[\w-]+)["']/g)].map((x) => x[1]);
    if (!flags.length) continue;
    const dest = /\bdest\s*=\s*["'](\w+)["']/.exec(m[2])?.[1] ?? flags[0].slice(2).replace(/-/g, '_');
    for (const f of flags) if (!out.has(f)) out.set(f, dest);
  }
  for (const m of src.matchAll(/^\s+(\w+)\s*:[^\n=]*=\s*field\(([^\n]*argparse_meta[^\n]*)\)\s*$/gm)) {
    const names = /["']arg_names["']\s*:\s*\[([^\]]*)\]/.exec(m[2])?.[1];
    if (!names) continue;
    const dest = /["']dest["']\s*:\s*["'](\w+)["']/.exec(m[2])?.[1] ?? m[1];
    for (const f of names.match(/--[\w-]+/g) ?? []) out.set(f, dest);
  }
  return out;
}

function releaseDests(dir, r) {
  const out = new Map();
  const files = (show(dir, r.rev, CONFIG_DIR) ?? '').split('\n').slice(1).filter((x) => x.endsWith('.py')).map((x) => CONFIG_DIR + x);
  for (const path of [...files, r.mainPath]) {
    const src = path && show(dir, r.rev, path);
    if (src) destsOf(src, out);
  }
  return out;
}

/** The `x-name-before` changes: today's dest of a flag that stored another name before some release. */
export function megatronDestChanges(dir, releases, props) {
  const perRelease = releases.map((r) => releaseDests(dir, r));
  const changes = [];
  const report = [];
  for (const [key, prop] of Object.entries(props)) {
    const flags = [prop['x-flag'], ...(prop['x-flags'] ?? [])].filter(Boolean);
    if (!flags.length) continue;
    const before = {};
    for (const flag of flags) {
      const names = perRelease.map((m) => m.get(flag));
      const first = names.findIndex((n) => n === key);
      if (first <= 0) continue;
      const older = names.slice(0, first).filter((n) => n && n !== key).at(-1);
      // An older name that is an argument of its own today is that argument, not this one's old name.
      if (older && !props[older]) before[releases[first].version] = older;
    }
    const want = Object.keys(before).length ? before : undefined;
    if (want) report.push(`${key}: ${Object.entries(want).map(([v, n]) => `\`${n}\` before ${v}`).join(', ')}`);
    if (JSON.stringify(prop['x-name-before']) !== JSON.stringify(want)) changes.push({ key, field: 'x-name-before', from: prop['x-name-before'], to: want, why: 'the dest its flag stored at older releases', set: () => setKey(prop, 'x-name-before', want, ['x-flag-since', 'x-since']) });
  }
  console.log(`\nArguments stored under another name at older releases (${report.length}):`);
  for (const r of report.sort((a, b) => compareVersions(a.split(' before ')[1] ?? '0', b.split(' before ')[1] ?? '0'))) console.log(`  ${r}`);
  return changes;
}
