// Megatron-LM flag spellings that a later release dropped while the argument stayed: the parser of
// some release has a flag that stores the dest of a property (its argparse `dest`, or the name its
// first long flag gives) and that no property spells today (`--local_rank` stored `local_rank` up to
// 0.8.0; 0.9.0 spells it `--local-rank`). Such a spelling is an older name of the argument, not an
// unknown flag: it is added to the property's `x-flags`, and `x-flag-removed` (computed with the other
// per-spelling facts in megatron.mjs) says from which release the parser no longer has it.
//
// Only the parsers read per release (MEGATRON_SOURCES: the main parser, the entry-point helpers) are
// looked at, and only under the source that reads the property, so a flag of one entry point is never
// taken for a spelling of another's argument.
import { setKey } from './write.mjs';

/**
 * Finds the dropped spellings and adds them to the properties' `x-flags` in memory (the facts computed
 * after this see them); returns the changes to print and, with --write, to keep, and the keys whose
 * spellings grew (their `x-since` and `x-flag-since` are recomputed from every spelling).
 */
export function megatronOldSpellings(releases, props, sourceOf, pre) {
  const spelled = new Set();
  for (const p of Object.values(props)) for (const f of [p['x-flag'], ...(p['x-flags'] ?? [])]) if (f) spelled.add(f);
  const found = new Map();
  // Flags of the main parser whose dest no property has: each needs a property (removed ones with
  // x-removed), or a flag an older release accepts is taken for an unknown one.
  const orphans = new Set();
  // The Megatron-LM before Core first: a flag that stored a property's dest there and that no
  // release from 0.4.0 has is a spelling the first Core release dropped (or renamed, as
  // `--overlap-p2p-communication` became `--no-overlap-p2p-communication`).
  const before = pre ? [{ version: pre.version, dests: { main: pre.dests } }] : [];
  for (const r of [...before, ...releases]) {
    for (const [source, dests] of Object.entries(r.dests ?? {})) {
      for (const [flag, dest] of dests) {
        if (spelled.has(flag) || !flag.startsWith('--')) continue;
        const prop = props[dest];
        if (!prop && source === 'main' && !before.includes(r)) orphans.add(`${flag} (${r.version})`);
        // A field that today has no flag (x-cli: false) had one where the main parser of an older
        // release stored it (`--moe-token-dropping` in 0.5.0–0.6.x).
        if (!prop || (prop['x-cli'] === false ? source !== 'main' : sourceOf(prop) !== source)) continue;
        const e = found.get(flag) ?? { dest, releases: [] };
        if (e.dest !== dest) continue;
        e.releases.push(r.version);
        found.set(flag, e);
      }
    }
  }
  if (orphans.size) console.log(`\nFlags of the main parser that no property stores (add one for each): ${[...orphans].join(', ')}`);
  const changes = [];
  const keys = new Set();
  for (const [flag, { dest, releases: had }] of found) {
    const prop = props[dest];
    const primary = prop['x-flag'] ?? `--${dest.replace(/_/g, '-')}`;
    const to = [...new Set([primary, ...(prop['x-flags'] ?? []), flag])];
    const from = prop['x-flags'];
    setKey(prop, 'x-flags', to, ['x-flag']);
    keys.add(dest);
    changes.push({ key: dest, field: 'x-flags', from, to, why: `${flag} stores \`${dest}\` in ${had[0]}–${had.at(-1)}`, set: () => setKey(prop, 'x-flags', to, ['x-flag']) });
  }
  return { changes, keys };
}
