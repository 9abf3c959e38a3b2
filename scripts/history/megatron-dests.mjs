// Megatron-LM argument names (dests) by release: the name a flag stores its value under, which is
// the key a `--yaml-cfg` file writes. When the config dataclasses took over a flag (0.16.0 on), some
// flags kept their spelling but changed dest (`--tokenizer-special-tokens` stored
// `tokenizer_special_tokens` until 0.17.x, the field `special_tokens` from 0.18.0). For every release
// the flags of the main parser (`add_argument` with its `dest=` or the name its first long flag
// gives) and of the config dataclasses (a field's `argparse_meta` `arg_names` and `dest`, or the field
// itself) are read; a property whose flag stored another name before some release gets
// `x-name-before: { "<first release with today's name>": "<the older name>" }`, unless that older name
// is an argument of its own today (a removed one that shared the dest counts as the old name).
import { compareVersions, show } from './git.mjs';
import { setKey } from './write.mjs';

const CONFIG_DIR = 'megatron/training/config/';

/** flag → dest of one Python source: add_argument calls and dataclass fields with argparse_meta. */
function destsOf(src, out) {
  for (const m of src.matchAll(/add_argument\(\s*((?:["']-[\w-]+["']\s*,\s*)+)([^)]*)\)/g)) {
    const flags = [...m[1].matchAll(/["'](--[\w-]+)["']/g)].map((x) => x[1]);
    if (!flags.length) continue;
    const dest = /\bdest\s*=\s*["'](\w+)["']/.exec(m[2])?.[1] ?? flags[0].slice(2).replace(/-/g, '_');
    // `!`: the flag turns its dest off (store_false). Where that changes between releases
    // (`--enable-chunked-prefill` stored `disable_chunked_prefill = False` in 0.16 and
    // `enable_chunked_prefill = True` from 0.17), the older dest holds the opposite value.
    const inverted = /\baction\s*=\s*["']store_false["']/.test(m[2]);
    for (const f of flags) if (!out.has(f)) out.set(f, inverted ? `!${dest}` : dest);
  }
  for (const m of src.matchAll(/^\s+(\w+)\s*:[^\n=]*=\s*field\(([^\n]*argparse_meta[^\n]*)\)\s*$/gm)) {
    const names = /["']arg_names["']\s*:\s*\[([^\]]*)\]/.exec(m[2])?.[1];
    if (!names) continue;
    const dest = /["']dest["']\s*:\s*["'](\w+)["']/.exec(m[2])?.[1] ?? m[1];
    // A boolean field that defaults to True: its flag turns it off, like a store_false flag.
    const off = /^\s+\w+\s*:\s*bool\b/.test(m[0]) && /\bdefault\s*=\s*True\b/.test(m[2]);
    for (const f of names.match(/--[\w-]+/g) ?? []) out.set(f, off ? `!${dest}` : dest);
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
      const raw = perRelease.map((m) => m.get(flag));
      const names = raw.map((n) => n?.replace(/^!/, ''));
      const first = names.findIndex((n) => n === key);
      if (first <= 0) continue;
      const at = names.slice(0, first).findLastIndex((n) => n && n !== key);
      const older = at < 0 ? undefined : names[at];
      // The flag turned its dest off then and on now, or the reverse: the older name held the opposite
      // value, and renaming the key would flip the setting.
      if (older && raw[at].startsWith('!') !== raw[first].startsWith('!')) continue;
      // An older name that is an argument of its own today is that argument, not this one's old name.
      // A removed argument that stored the same dest (two flags, one value) is this one's old name too.
      if (older && (!props[older] || props[older]['x-removed'])) before[releases[first].version] = older;
    }
    const want = Object.keys(before).length ? before : undefined;
    if (want) report.push(`${key}: ${Object.entries(want).map(([v, n]) => `\`${n}\` before ${v}`).join(', ')}`);
    if (JSON.stringify(prop['x-name-before']) !== JSON.stringify(want)) changes.push({ key, field: 'x-name-before', from: prop['x-name-before'], to: want, why: 'the dest its flag stored at older releases', set: () => setKey(prop, 'x-name-before', want, ['x-flag-since', 'x-since']) });
  }
  console.log(`\nArguments stored under another name at older releases (${report.length}):`);
  for (const r of report.sort((a, b) => compareVersions(a.split(' before ')[1] ?? '0', b.split(' before ')[1] ?? '0'))) console.log(`  ${r}`);
  return changes;
}
