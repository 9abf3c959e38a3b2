// Megatron-LM flags whose newest parser takes any value (no enum in the schema) but whose parser at
// some older releases checked the value against a fixed list of choices (`--export-quant-cfg` had
// `choices=[…]` from 0.8.0 to 0.15.x; 0.16.0 dropped the list). For each run of releases with the
// same list, a `narrower` entry of `x-value-forms` (since, until, accepts.enum): invalid-value then
// reports a value that list refuses, for a release in the run. Other forms of `x-value-forms`
// (written by hand) are kept as they are.
import { AFTER, printLists, setKey } from './write.mjs';

const WHY = "its parser at those releases accepts only these choices (argparse: \"invalid choice\")";

/** The narrower forms of one property: runs of consecutive releases with the same static choices. */
function narrowerForms(names, source, releases) {
  const states = releases.map((r) => {
    const present = names.filter((n) => r.flags[source]?.has(n));
    if (!present.length) return { version: r.version, kind: 'absent' };
    const infos = present.map((n) => r.choices[source]?.get(n));
    if (infos.some((c) => !c)) return { version: r.version, kind: 'free' };
    const valued = infos.filter((c) => !c.novalue);
    if (!valued.length) return { version: r.version, kind: 'novalue' };
    if (valued.some((c) => c.dynamic)) return { version: r.version, kind: 'dynamic' };
    return { version: r.version, kind: 'static', values: [...new Set(valued.flatMap((c) => c.values.map(String)))] };
  });
  const present = states.filter((s) => s.kind !== 'absent');
  if (!present.some((s) => s.kind === 'static')) return { forms: [] };
  // The newest release checks a list too: the schema should carry it as an enum, not as a form.
  if (present.at(-1).kind === 'static') return { forms: [], newestStatic: true };
  const forms = [];
  for (let i = 0; i < present.length; i++) {
    const s = present[i];
    if (s.kind !== 'static') continue;
    const same = (t) => t?.kind === 'static' && t.values.length === s.values.length && t.values.every((v) => s.values.includes(v));
    if (same(present[i - 1])) continue;
    let j = i;
    while (same(present[j + 1])) j++;
    forms.push({ ...(i > 0 ? { since: s.version } : {}), until: present[j + 1].version, form: 'narrower', accepts: { enum: s.values }, why: WHY });
  }
  return { forms };
}

/** The `x-value-forms` changes (the narrower entries of properties with no enum), printed as found. */
export function megatronChoicesByRelease(props, releases, sourceOf, spellings) {
  const changes = [];
  const found = [];
  const odd = [];
  for (const [key, prop] of Object.entries(props)) {
    if (prop.enum || prop.items?.enum) continue;
    const source = sourceOf(prop);
    if (!source || source === 'config') continue;
    const names = spellings(prop);
    if (!names.length) continue;
    const { forms, newestStatic } = narrowerForms(names, source, releases);
    if (newestStatic) odd.push(`${key}: the newest parser checks a list of choices, but the schema has no enum`);
    const kept = (prop['x-value-forms'] ?? []).filter((f) => f.form !== 'narrower' || f.why !== WHY);
    const want = [...kept, ...forms];
    for (const f of forms) found.push(`${key}: ${f.since ?? 'first release'} … before ${f.until}: ${f.accepts.enum.join(', ')}`);
    if (JSON.stringify(want) === JSON.stringify(prop['x-value-forms'] ?? [])) continue;
    changes.push({ key, field: 'x-value-forms', from: prop['x-value-forms'], to: want.length ? want : undefined, why: 'the choices older parsers checked where the newest takes any value', set: () => setKey(prop, 'x-value-forms', want.length ? want : undefined, AFTER['x-enum-since']) });
  }
  console.log('\nChoices by release (flags with no enum whose older parsers checked a list):');
  printLists([
    ['runs of releases with a fixed list', found],
    ['newest parser with a list the schema lacks', odd],
  ]);
  return changes;
}

const BOOL_WHY = "Megatron-LM defines the flag with `type=bool` at those releases: it takes a word, which Python's `bool()` turns on unless it is empty (`False` turns it on too), and argparse refuses it bare";

/**
 * Flags defined with `type=bool` and no action at some releases: the word they take is not checked
 * (an `unchecked` entry of `x-value-forms` per run of such releases), where the schema types them as
 * booleans. A hand-written entry that says the same (its `why` names `type=bool`) is replaced.
 */
export function megatronBoolTextForms(props, releases, sourceOf, spellings) {
  const changes = [];
  const found = [];
  for (const [key, prop] of Object.entries(props)) {
    const source = sourceOf(prop);
    if (!source || source === 'config') continue;
    const names = spellings(prop);
    if (!names.length) continue;
    const present = releases.filter((r) => names.some((n) => r.flags[source]?.has(n)));
    const bool = present.map((r) => names.some((n) => r.boolText?.[source]?.has(n)));
    if (!bool.some(Boolean)) continue;
    const forms = [];
    for (let i = 0; i < present.length; i++) {
      if (!bool[i] || bool[i - 1]) continue;
      let j = i;
      while (bool[j + 1]) j++;
      forms.push({ ...(i > 0 ? { since: present[i].version } : {}), ...(j + 1 < present.length ? { until: present[j + 1].version } : {}), form: 'unchecked', why: BOOL_WHY });
    }
    const kept = (prop['x-value-forms'] ?? []).filter((f) => f.form !== 'unchecked' || !/type=bool/.test(f.why ?? ''));
    const want = [...kept, ...forms];
    for (const f of forms) found.push(`${key}: ${f.since ?? 'first release'} … ${f.until ? `before ${f.until}` : 'the newest'}`);
    if (JSON.stringify(want) === JSON.stringify(prop['x-value-forms'] ?? [])) continue;
    changes.push({ key, field: 'x-value-forms', from: prop['x-value-forms'], to: want, why: 'flags that take a word Python\'s bool() reads', set: () => setKey(prop, 'x-value-forms', want, AFTER['x-enum-since']) });
  }
  console.log('\nFlags defined with type=bool (any word, bare refused):');
  printLists([['type=bool runs', found]]);
  return changes;
}

/**
 * `x-nargs-since`: the first release from which a flag that takes several words today (`x-nargs`)
 * does so; the releases before it, whose parser read one word (no `nargs=`), stop on the others.
 * Flags the config dataclasses add (no add_argument call to read) are left as they are.
 */
/**
 * How many words a flag took in runs of older releases, where that differs from the releases after
 * (`--spec`: exactly 2 in 0.4.0, any number from 0.5.0; `--lazy-mpu-init`: one word (`type=bool`)
 * before 0.17.0, a switch since; `--high-priority-stream-groups`: any number, none included, in
 * 0.13–0.16, at least one since; `--export-kv-cache-quant`: a switch in 0.12–0.15). `x-nargs-before`
 * maps the first release after each run to that run's arity: a number of words (0 for a switch) or
 * argparse's `*`, `+`, `?`. A release whose arity the scan cannot tell splits no run.
 */
export function megatronNargsBefore(props, releases, sourceOf, spellings) {
  const changes = [];
  const found = [];
  const arityAt = (r, source, names) => {
    for (const n of names) {
      if (!r.flags[source]?.has(n)) continue;
      if (r.choices?.[source]?.get(n)?.novalue) return 0;
      if (r.boolText?.[source]?.has(n)) return 1;
      const nargs = r.nargs?.[source]?.get(n);
      if (nargs === undefined) return undefined;
      if (nargs === null) return 1;
      const text = String(nargs?.text ?? nargs);
      return /^\d+$/.test(text) ? Number(text) : /^[*+?]$/.test(text) ? text : undefined;
    }
    return undefined;
  };
  for (const [key, prop] of Object.entries(props)) {
    const source = sourceOf(prop);
    if (!source || source === 'config') continue;
    const names = spellings(prop);
    const runs = releases.filter((r) => names.some((n) => r.flags[source]?.has(n))).map((r) => ({ version: r.version, arity: arityAt(r, source, names) }));
    // The newest releases build some flags from config dataclasses (ArgumentGroupFactory: a list field
    // takes `nargs='+'`), which the static scan cannot read: a trailing run it cannot tell takes the
    // arity the newest parser's dump gives (`x-nargs`, `x-action`).
    const newest = /^store_(true|false)$/.test(prop['x-action'] ?? '') ? 0 : /^[*+?]$/.test(prop['x-nargs'] ?? '') ? prop['x-nargs'] : /^\d+$/.test(String(prop['x-nargs'] ?? '')) ? Number(prop['x-nargs']) : prop['x-nargs'] === undefined ? 1 : undefined;
    for (let i = runs.length - 1; i >= 0 && runs[i].arity === undefined; i--) runs[i].arity = newest;
    let want;
    for (let i = 1; i < runs.length; i++) {
      const [a, b] = [runs[i - 1].arity, runs[i].arity];
      if (a !== undefined && b !== undefined && a !== b) (want ??= {})[runs[i].version] = a;
    }
    if (want) found.push(`${key}: ${Object.entries(want).map(([v, n]) => `${n === 0 ? 'a switch' : typeof n === 'number' ? `${n} word(s)` : `nargs ${n}`} before ${v}`).join(', ')}`);
    // The schema is read with its numbers kept as written (RawNumber): compare by value.
    const have = prop['x-nargs-before'] && Object.fromEntries(Object.entries(prop['x-nargs-before']).map(([v, n]) => [v, typeof n === 'string' ? n : Number(n?.text ?? n)]));
    if (JSON.stringify(want) === JSON.stringify(have)) continue;
    changes.push({ key, field: 'x-nargs-before', from: prop['x-nargs-before'], to: want, why: 'how many words the flag took in runs of older releases', set: () => setKey(prop, 'x-nargs-before', want, ['x-nargs']) });
  }
  console.log('\nFlags that took another number of words in older releases (x-nargs-before):');
  printLists([['flags', found]]);
  return changes;
}

export function megatronNargsSince(props, releases, sourceOf, spellings) {
  const changes = [];
  const found = [];
  for (const [key, prop] of Object.entries(props)) {
    const source = sourceOf(prop);
    if (!prop['x-nargs'] || !source || source === 'config') continue;
    const names = spellings(prop);
    const states = releases
      .filter((r) => names.some((n) => r.flags[source]?.has(n)))
      .map((r) => {
        const known = names.map((n) => r.nargs?.[source]?.get(n)).filter((v) => v !== undefined);
        return { version: r.version, nargs: known.length ? known.some((v) => v !== null) ? 'many' : 'one' : 'unknown' };
      });
    // The last run of releases that take several words, back from the newest.
    let i = states.length;
    while (i > 0 && states[i - 1].nargs !== 'one') i--;
    const want = i > 0 && i < states.length ? states[i].version : undefined;
    if (want) found.push(`${key}: one word before ${want}`);
    if (want === prop['x-nargs-since']) continue;
    changes.push({ key, field: 'x-nargs-since', from: prop['x-nargs-since'], to: want, why: 'the first release whose parser takes several words for the flag', set: () => setKey(prop, 'x-nargs-since', want, ['x-nargs']) });
  }
  console.log('\nFlags that took one word before taking several (x-nargs-since):');
  printLists([['flags', found]]);
  return changes;
}

/**
 * `x-type-before`: the numeric type of the values a flag took in runs of older releases, where that
 * differs from the releases after (`--rl-generation-lag`: `type=int` in 0.19.0, `type=float` since).
 * Read from each release's converter, `type=int` / `type=float` of add_argument or the `int` / `float`
 * annotation of the dataclass field ArgumentGroupFactory builds the flag from; a release whose
 * converter is neither splits no run. Only flags the schema types as one number type are compared
 * (`integer` or `number`), and a trailing run the scan cannot tell takes the schema's type. The map
 * sends the first release after each run to that run's type.
 */
export function megatronTypeBefore(props, releases, sourceOf, spellings) {
  const changes = [];
  const found = [];
  const odd = [];
  const typeAt = (r, source, names) => {
    for (const n of names) if (r.flags[source]?.has(n)) return r.types?.[source]?.get(n) ?? undefined;
    return undefined;
  };
  for (const [key, prop] of Object.entries(props)) {
    const source = sourceOf(prop);
    if (!source || source === 'config' || (prop.type !== 'integer' && prop.type !== 'number')) continue;
    const names = spellings(prop);
    const runs = releases.filter((r) => names.some((n) => r.flags[source]?.has(n))).map((r) => ({ version: r.version, type: typeAt(r, source, names) }));
    if (runs.at(-1)?.type && runs.at(-1).type !== prop.type) odd.push(`${key}: the newest parser converts with ${runs.at(-1).type}, the schema says ${prop.type}`);
    for (let i = runs.length - 1; i >= 0 && runs[i].type === undefined; i--) runs[i].type = prop.type;
    let want;
    let last;
    for (const run of runs) {
      if (run.type === undefined) continue;
      if (last && last.type !== run.type) (want ??= {})[run.version] = last.type;
      last = run;
    }
    if (want) found.push(`${key}: ${Object.entries(want).map(([v, t]) => `${t} before ${v}`).join(', ')}`);
    if (JSON.stringify(want) === JSON.stringify(prop['x-type-before'])) continue;
    changes.push({ key, field: 'x-type-before', from: prop['x-type-before'], to: want, why: 'the numeric type the flag took in runs of older releases', set: () => setKey(prop, 'x-type-before', want, ['type']) });
  }
  console.log('\nFlags that took another numeric type in older releases (x-type-before):');
  printLists([
    ['flags', found],
    ['newest converter unlike the schema type', odd],
  ]);
  return changes;
}
