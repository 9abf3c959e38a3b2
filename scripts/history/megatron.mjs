// Megatron-LM: for every final release tag core_vX.Y.Z (0.4.0 onward, no rc) plus the commit named
// in `x-source.commit` (the version in `x-source.version`), collects the command-line spellings the
// parser of that release accepts, with their choices and defaults (megatron-parser.mjs reads them
// from the Megatron-LM mirror). Reads schemas/megatron.schema.json; returns the changes to it and
// the snapshots schemas/history/megatron-choices.json and megatron-defaults.json (write.mjs writes
// them).
//
// Then `x-since` is the first release whose parser has any spelling of the property (none when the
// oldest release compared has it), `x-flag-since` the first release of a spelling that came later,
// and `x-removed.version` the first release after the last one that had it. Every disagreement with
// the schema is printed. --write fills in `x-since` where the schema has none and the flag arrived
// below 0.13.0 (from 0.13.0 on the schema was built from argparse dumps, the better source for
// flags built at run time), keeps the tag list in `x-source`, and applies MEGATRON_RESOLVED: the
// disagreements and other facts checked by hand against upstream.
//
// Megatron-LM enum values: for every property with an `enum`, the choices each release's parser
// checks a value against. `x-enum-since` of a value is the first release whose parser accepts it
// (none when the first release with the flag already does). --write adds the entries the schema
// lacks; an entry it has is never changed (a disagreement is printed). Values a later release
// refuses again are printed only: the schema has no keyword for them.
//
// Megatron-LM defaults: the default of every property at each release. `x-default-before` records
// the defaults of older releases where the literal default changed: `{ "<release>": value }`, the
// default of the releases before that one. --write sets it where the newest literal default is the
// schema's `default`; other differences are printed. A switch that stores another attribute than the
// property at a release (`--disable-x` into `disable_x` while the property is `use_x`, `--disable-msc`
// into `enable_msc`) gives that attribute's default, not the property's: the default is unread there.
// The other way round, a flag that stores the property's own attribute under another spelling
// (`--disable-msc` into `enable_msc` in 0.13.0-0.17.x) gives the property's default there. schemas/history/megatron-choices.json and
// megatron-defaults.json keep what was read, per release, for the tests
// (test/unit/facts-sample.test.ts), which have no checkout.
import { bridgeEnumChanges, bridgeMixedPrecisionChanges, bridgeUnreadChanges } from './bridge.mjs';
import { bridgeModelSinceChanges } from './bridge-model-since.mjs';
import { megatronFormatDefaultChanges } from './megatron-format-defaults.mjs';
import { compareVersions, git, releaseTags } from './git.mjs';
import { defaultBefore, RawNumber, readSchema, schemaDefault } from './json.mjs';
import { configFields, moduleFlags } from './megatron-parser.mjs';
import { megatronChoicesByRelease } from './megatron-choices-by-release.mjs';
import { megatronDeprecationChanges } from './megatron-deprecations.mjs';
import { megatronBoolTextForms, megatronNargsBefore, megatronNargsSince, megatronTypeBefore } from './megatron-choices-by-release.mjs';
import { megatronPostInitChoices } from './megatron-post-init-choices.mjs';
import { megatronUnreadChanges } from './megatron-unread.mjs';
import { megatronDeprecatedValueChanges } from './megatron-deprecated-values.mjs';
import { megatronDestChanges } from './megatron-dests.mjs';
import { megatronOldSpellings } from './megatron-spellings.mjs';
import { megatronYamlCfgChanges } from './megatron-yaml-cfg.mjs';
import { megatronYamlCfgSinceChanges } from './megatron-yaml-cfg-since.mjs';
import { AFTER, change, printLists, ranges, setKey, snapshotRanges } from './write.mjs';

const MEGATRON_SOURCES = {
  // The main parser every entry point has.
  main: [{ paths: ['megatron/training/arguments.py', 'megatron/arguments.py'], entries: ['add_megatron_arguments', 'parse_args'] }],
  modelopt: [{ paths: ['megatron/post_training/arguments.py', 'megatron/inference/arguments.py'], entries: ['add_modelopt_args', 'add_ammo_args'] }],
  vlm: [{ paths: ['pretrain_vlm.py'], entries: ['add_vlm_extra_args'] }],
  inference: [
    { paths: ['megatron/inference/utils.py', 'examples/inference/gpt/utils.py'], entries: ['add_inference_args', 'add_common_inference_args'] },
    // Dynamic-batching flags lived in this example until 0.17.0 moved them into the helper.
    { paths: ['examples/inference/gpt/gpt_dynamic_inference.py'], entries: ['add_dynamic_inference_args'] },
    // The static example's own flags (`--output-path` there from 0.13.0, in the helper from 0.14.0).
    { paths: ['examples/inference/gpt/gpt_static_inference.py'], entries: ['add_static_inference_args'] },
  ],
};
// Before the shared inference helper existed (0.12.0), its flags lived in the individual inference
// scripts and tools, which are among the entry points: a flag the helper had from its first release
// cannot be dated by the helper.
const UNDATED_AT_FIRST = new Set(['inference']);

/** Which parser reads a property: `main`, an entry point's helper, `config` (x-cli: false), or none. */
function sourceOf(prop) {
  if (prop['x-cli'] === false) return 'config';
  const eps = prop['x-entrypoints'];
  if (!eps) return 'main';
  if (eps.includes('examples/post_training/modelopt')) return 'modelopt';
  if (eps.includes('pretrain_vlm.py')) return 'vlm';
  if (eps.includes('examples/inference')) return 'inference';
  return null;
}

/** Older names of entry scripts (`pretrain_hybrid.py` was `pretrain_mamba.py`): the file read when the newer is absent. */
const ENTRY_OLD_NAMES = { 'pretrain_hybrid.py': ['pretrain_mamba.py'] };
/** The entry scripts an x-entrypoints list names that this builder reads, by the helper source they may call. */
const ENTRY_SCRIPTS = { inference: ['train_rl.py'], modelopt: ['pretrain_gpt.py', 'pretrain_hybrid.py'] };

/** At one release: which helper sources each entry script calls (its text names the helper's entry function). */
function entryScriptsAdding(dir, rev) {
  const out = {};
  for (const [key, scripts] of Object.entries(ENTRY_SCRIPTS)) {
    const names = MEGATRON_SOURCES[key].flatMap((c) => c.entries);
    for (const script of scripts) {
      for (const path of [script, ...(ENTRY_OLD_NAMES[script] ?? [])]) {
        const text = git(dir, 'show', `${rev}:${path}`);
        if (!text) continue;
        if (names.some((n) => new RegExp(`\\b${n}\\b`).test(text))) (out[script] ??= new Set()).add(key);
        break;
      }
    }
  }
  return out;
}

/**
 * The folders an x-entrypoints list names whose scripts this builder reads, by the helper source they
 * may call: a flag is in a folder at a release when one of its Python files adds it, with an
 * `add_argument` literal of its own or by calling a helper of the source whose function (at that
 * release) adds it.
 */
const ENTRY_FOLDERS = { inference: ['examples/inference', 'tools'] };

/** At one release: the flags the Python files of each folder of ENTRY_FOLDERS add. */
function entryFoldersAdding(dir, rev) {
  const out = {};
  for (const [key, folders] of Object.entries(ENTRY_FOLDERS)) {
    // Each helper function of the source, with the flags it adds at this release.
    const helpers = MEGATRON_SOURCES[key].flatMap((c) => c.entries.map((e) => ({ entry: e, paths: c.paths })));
    const helperFlags = new Map();
    const flagsOf = (h) => {
      if (!helperFlags.has(h.entry)) {
        const got = h.paths.map((p) => moduleFlags(dir, rev, p, [h.entry], [])).find(Boolean);
        helperFlags.set(h.entry, got?.flags ?? new Set());
      }
      return helperFlags.get(h.entry);
    };
    for (const folder of folders) {
      const flags = new Set();
      const files = (git(dir, 'grep', '-l', '-e', 'add_argument', ...helpers.flatMap((h) => ['-e', h.entry]), rev, '--', `${folder}/*.py`) ?? '').split('\n').filter(Boolean).map((l) => l.slice(rev.length + 1));
      for (const file of files) {
        const text = git(dir, 'show', `${rev}:${file}`) ?? '';
        for (const m of text.matchAll(/add_argument\(\s*((?:['"]--?[\w-]+['"]\s*,\s*)+)/g)) for (const f of m[1].matchAll(/['"](--?[\w-]+)['"]/g)) flags.add(f[1]);
        for (const h of helpers) if (new RegExp(`\\b${h.entry}\\b`).test(text)) for (const f of flagsOf(h)) flags.add(f);
      }
      out[folder] = flags;
    }
  }
  return out;
}

/**
 * `x-entrypoints-since`: for each entry script the property's `x-entrypoints` names and this builder
 * reads, the first release whose script calls the helper that adds the flag, and for each folder it
 * reads (ENTRY_FOLDERS) the first release one of whose scripts adds the flag, where that is later
 * than the flag's own first release (before it the script's parser stops on the flag).
 */
function entrypointsSince(prop, source, releases, since) {
  const want = {};
  const names = spellings(prop);
  for (const script of prop['x-entrypoints'] ?? []) {
    const folder = (ENTRY_FOLDERS[source] ?? []).includes(script);
    if (!folder && !(ENTRY_SCRIPTS[source] ?? []).includes(script)) continue;
    const first = releases.find((r) => (folder ? names.some((n) => r.folderAdds?.[script]?.has(n)) : r.entryAdds?.[script]?.has(source)));
    if (first && (!since || compareVersions(first.version, since) > 0)) want[script] = first.version;
  }
  return Object.keys(want).length ? want : undefined;
}

function megatronReleases(dir, schema) {
  const src = schema['x-source'];
  const releases = releaseTags(dir, 'core_v', '0.4.0');
  if (!git(dir, 'cat-file', '-e', `${src.commit}^{commit}`) && git(dir, 'cat-file', '-t', src.commit)?.trim() !== 'commit') throw new Error(`commit ${src.commit} (x-source.commit) is not in ${dir}`);
  releases.push({ rev: src.commit, version: src.version });
  const problems = [];
  for (const r of releases) {
    r.dir = dir;
    r.flags = {};
    r.choices = {};
    r.defaults = {};
    for (const [key, cands] of Object.entries(MEGATRON_SOURCES)) {
      for (const c of cands) {
        for (const p of c.paths) {
          const got = moduleFlags(dir, r.rev, p, c.entries, problems);
          if (!got) continue;
          r.flags[key] = new Set([...(r.flags[key] ?? []), ...got.flags]);
          (r.paths ??= {})[key] = [...(r.paths?.[key] ?? []), p];
          r.choices[key] = new Map([...(r.choices[key] ?? []), ...got.choices]);
          r.boolText = { ...r.boolText, [key]: new Set([...(r.boolText?.[key] ?? []), ...got.boolText]) };
          r.nargs = { ...r.nargs, [key]: new Map([...(r.nargs?.[key] ?? []), ...got.nargsOf]) };
          r.types = { ...r.types, [key]: new Map([...(r.types?.[key] ?? []), ...got.typeOf]) };
          r.defaults[key] = new Map([...got.defaults, ...(r.defaults[key] ?? [])]);
          // Which file each spelling's default was read from (an order holds only within one).
          r.defaultFile = { ...r.defaultFile, [key]: new Map([...[...got.defaults.keys()].map((n) => [n, p]), ...(r.defaultFile?.[key] ?? [])]) };
          r.dests = { ...r.dests, [key]: new Map([...got.dests, ...(r.dests?.[key] ?? [])]) };
          if (key === 'main') {
            r.mainPath = p;
            r.dynamic = got.dynamic;
            if (got.unused.length) problems.push(`${r.version}: ${p}: functions with add_argument calls the builder does not call: ${got.unused.join(', ')}`);
          }
          break;
        }
      }
    }
    r.entryAdds = entryScriptsAdding(dir, r.rev);
    r.folderAdds = entryFoldersAdding(dir, r.rev);
    r.defaults.config = configFields(dir, r.rev);
    r.flags.config = new Set(r.defaults.config.keys());
    if (!r.flags.main || r.flags.main.size === 0) throw new Error(`${r.rev}: no arguments file found`);
  }
  return { releases, problems };
}

const spellings = (p) => [...new Set([p['x-flag'], ...(p['x-flags'] ?? [])].filter(Boolean))];

/**
 * Megatron-LM's releases before the first Megatron Core one the history compares (0.4.0): the
 * 23.04 and 23.06 tags and the 23.08 branch (Megatron Core 0.3.0). Their main parsers' spellings, or
 * undefined when the mirror lacks one of them (then nothing is said of the flags 0.4.0 added).
 */
const PRE_CORE_REVS = ['23.04', '23.06', 'refs/heads/23.08'];
/** The flags of the Megatron-LM releases before the first Core one, with the dest each stores (`flags`, `dests`). */
function preCoreFlags(dir) {
  const flags = new Set();
  const dests = new Map();
  for (const rev of PRE_CORE_REVS) {
    const got = MEGATRON_SOURCES.main.map((c) => c.paths.map((p) => moduleFlags(dir, rev, p, c.entries, [])).find(Boolean)).find(Boolean);
    if (!got) return undefined;
    for (const f of got.flags) flags.add(f);
    for (const [f, d] of got.dests) if (!dests.has(f)) dests.set(f, d);
  }
  return { flags, dests, version: '23.x' };
}

/**
 * `x-absent-before-core`: a main-parser flag the first compared release (0.4.0) already has, so it has
 * no `x-since`, but which no spelling of was in a Megatron-LM before it: 0.4.0 added it, and a script
 * that passes it and a flag 0.4.0 removed runs on no release.
 */
function absentBeforeCore(key, prop, f, pre) {
  if (!pre || f.source !== 'main' || f.since || prop['x-since'] || f.present[0] !== f.firstRelease) return [];
  const want = f.names.some((n) => pre.flags.has(n)) ? undefined : true;
  return change(key, 'x-absent-before-core', prop['x-absent-before-core'], want, 'no spelling in the parsers of 23.04, 23.06, 23.08', () => setKey(prop, 'x-absent-before-core', want, ['x-since', 'x-group']));
}

/**
 * No Python file of the release before has any of the flag literals: a flag of a helper that is
 * dated only from the helper's first release was then new there too, and is dated by it.
 */
function nowhereBefore(release, names) {
  const patterns = names.flatMap((f) => ['-e', `"${f}"`, '-e', `'${f}'`]);
  const hits = git(release.dir, 'grep', '-l', '-F', ...patterns, release.rev, '--', '*.py');
  return hits === null;
}

/** The versions in which any spelling of a property is present, with the computed facts. */
function megatronFacts(key, prop, releases, pre) {
  const source = sourceOf(prop);
  if (!source) return null;
  const names = source === 'config' ? [key] : spellings(prop);
  if (names.length === 0) return null;
  const have = releases.map((r) => (r.flags[source] ? names.some((f) => r.flags[source].has(f)) : false));
  const firstSource = releases.findIndex((r) => r.flags[source]);
  const first = have.indexOf(true);
  const last = have.lastIndexOf(true);
  const facts = { source, names, present: releases.filter((_, i) => have[i]).map((r) => r.version), firstRelease: releases[0].version, dynamicOnly: false };
  if (first < 0) return { ...facts, never: true };
  // Gaps: a flag that went away and came back.
  facts.gaps = releases.filter((_, i) => i > first && i < last && !have[i]).map((r) => r.version);
  const undatedAtFirst = UNDATED_AT_FIRST.has(source) && !(first > 0 && nowhereBefore(releases[first - 1], names));
  facts.since = first === 0 || (first === firstSource && (source === 'main' || source === 'config' || undatedAtFirst)) ? undefined : releases[first].version;
  facts.removed = last === releases.length - 1 ? undefined : releases[last + 1].version;
  facts.lastHad = releases[last].version;
  // A spelling that arrived after the property (another spelling, or another flag with the same
  // dest, came first): `x-flag-since`.
  facts.flagSince = {};
  for (const f of names) {
    const k = releases.findIndex((r) => r.flags[source]?.has(f));
    if (k > first) facts.flagSince[f] = releases[k].version;
  }
  // A field without a flag today whose flag an older main parser had: that spelling's own range.
  const older = source === 'config' ? (prop['x-flags'] ?? []) : [];
  for (const f of older) {
    const k = releases.findIndex((r) => r.flags.main?.has(f));
    if (k > first) facts.flagSince[f] = releases[k].version;
  }
  // A spelling a release dropped while another spelling stayed: `x-flag-removed`, the first release
  // after the last one that had it.
  facts.flagRemoved = {};
  for (const f of names) {
    const k = releases.findLastIndex((r) => r.flags[source]?.has(f));
    if (k >= 0 && k < last) facts.flagRemoved[f] = releases[k + 1].version;
    // A spelling only the Megatron-LM before Core had (`--overlap-p2p-communication` in 23.06–23.08): gone from the first Core release.
    else if (k < 0 && source === 'main' && pre?.flags.has(f)) facts.flagRemoved[f] = releases[0].version;
  }
  for (const f of older) {
    const k = releases.findLastIndex((r) => r.flags.main?.has(f));
    if (k >= 0 && k < releases.length - 1) facts.flagRemoved[f] = releases[k + 1].version;
  }
  if (source === 'main') facts.dynamicOnly = names.every((f) => releases.every((r) => !r.flags.main.has(f) || r.dynamic.has(f)));
  return facts;
}

/** An enum value as argparse sees the text a config writes (numbers by their value). */
const enumText = (v) => (v instanceof RawNumber ? String(Number(v.text)) : String(v));

/**
 * The values a property's parser accepted at each release that has the property: per release
 * `absent`, `free` (no choices: any value), `novalue` (a switch: no value), `dynamic` (choices
 * computed at run time) or `static` (with the values); then, per value of the schema's enum, the first release that accepts it (none when the
 * first release with the property does), the releases after that which refuse it again, and the
 * upstream values the schema's enum lacks. Undefined for a property without an enum; `notCovered`
 * when its values cannot be read.
 */
function megatronEnumFacts(key, prop, releases) {
  const values = prop.enum ?? prop.items?.enum;
  if (!values) return undefined;
  const source = sourceOf(prop);
  if (source === 'config') return { key, notCovered: 'no command-line flag (x-cli: false): its values are not argparse choices' };
  const names = source ? spellings(prop) : [];
  if (!source || names.length === 0) return { key, notCovered: 'entry point not read by this script' };
  const states = releases.map((r) => {
    const present = names.filter((n) => r.flags[source]?.has(n));
    if (present.length === 0) return { version: r.version, kind: 'absent' };
    // A spelling without a value (store_const, store_false) says nothing about the values of another.
    const all = present.map((n) => r.choices[source]?.get(n));
    const infos = all.filter((c) => c && !c.novalue);
    if (infos.length === 0) return { version: r.version, kind: all.some((c) => !c) ? 'free' : 'novalue' };
    const dyn = infos.find((c) => c.dynamic);
    if (dyn) return { version: r.version, kind: 'dynamic', text: dyn.dynamic };
    return { version: r.version, kind: 'static', values: new Set(infos.flatMap((c) => c.values)), viaEnum: infos.find((c) => c.viaEnum)?.viaEnum };
  });
  states.forEach((st, i) => (st.nextVersion = states[i + 1]?.version));
  const present = states.filter((s) => s.kind !== 'absent');
  if (present.length === 0) return { key, notCovered: 'no release compared has the flag' };
  const accepts = (s, v) => (s.kind === 'free' ? true : s.kind === 'novalue' ? false : s.kind === 'dynamic' ? undefined : s.values.has(v));
  const facts = { key, source, names, states: present, values: {}, extra: [] };
  for (const raw of values) {
    const v = enumText(raw);
    const a = present.map((s) => accepts(s, v));
    const first = a.indexOf(true);
    const f = { value: v };
    if (first < 0) f.never = true;
    else if (first > 0) {
      if (a.slice(0, first).some((x) => x === undefined)) f.uncertain = `choices unread (${present.find((s) => s.kind === 'dynamic').text}) before ${present[first].version}`;
      else f.since = present[first].version;
    }
    // Refused again after it was accepted: the first release of each such run.
    f.removedIn = present.filter((s, i) => i > first && first >= 0 && a[i] === false && a[i - 1] !== false).map((s) => s.version);
    f.backIn = present.filter((s, i) => i > first && first >= 0 && a[i] === true && a[i - 1] === false).map((s) => s.version);
    facts.values[v] = f;
  }
  // Values some release accepts that the schema lists neither in its enum nor as deprecated spellings.
  const listed = new Set([...values.map(enumText), ...Object.keys(prop['x-deprecated-values'] ?? prop.items?.['x-deprecated-values'] ?? {})]);
  const upstream = new Map();
  for (const s of present) if (s.kind === 'static') for (const v of s.values) if (!listed.has(v)) (upstream.get(v) ?? upstream.set(v, []).get(v)).push(s.version);
  facts.extra = [...upstream].map(([v, vs]) => {
    const last = present.findIndex((s) => s.version === vs.at(-1));
    return { value: v, releases: vs, removedIn: present[last + 1]?.version };
  });
  const newest = present.at(-1);
  facts.newest = newest.kind;
  if (newest.kind === 'dynamic') facts.newestDynamic = newest.text;
  if (newest.kind === 'free') facts.newestFree = true;
  return facts;
}

/**
 * The default of a property at each release that has it: `value` (a literal), `dynamic` (computed,
 * or spellings that disagree) or `absent`. For a flag, argparse's default of its spellings (the
 * `default=`, what the action implies, the dataclass field behind an ArgumentGroupFactory flag);
 * for an `x-cli: false` field, and at a release the property has (from its `x-since`) before any
 * of its flags, the config dataclass's. Undefined for a property the script does not read.
 */
/** The name a property's argument is stored under at `version`: the key, or its older name (`x-name-before`). */
function nameAt(key, prop, version) {
  const before = Object.entries(prop['x-name-before'] ?? {}).sort(([a], [b]) => compareVersions(a, b));
  return before.find(([v]) => compareVersions(version, v) < 0)?.[1] ?? key;
}

function megatronDefaultStates(key, prop, releases) {
  const source = sourceOf(prop);
  if (!source) return undefined;
  const names = source === 'config' ? [key] : spellings(prop);
  if (names.length === 0) return undefined;
  return releases.map((r, i) => {
    const base = { version: r.version, nextVersion: releases[i + 1]?.version };
    // The property's spellings, and any other flag that stores the property's attribute at that
    // release (`--disable-msc`, store_false into `enable_msc` in 0.13.0-0.17.x): its default is the property's.
    const own0 = nameAt(key, prop, r.version);
    // Only from the property's own first release: before it the attribute belongs to another property.
    const from = prop['x-since'] && compareVersions(r.version, prop['x-since']) < 0;
    const storing = source === 'config' || from ? [] : [...(r.dests?.[source] ?? new Map())].filter(([f, d]) => d === own0 && !names.includes(f) && r.flags[source]?.has(f)).map(([f]) => f);
    const present = [...names.filter((n) => r.flags[source]?.has(n)), ...storing];
    if (present.length === 0) {
      // A release the argument has (from its x-since) before any flag of it: the config dataclass
      // field alone holds it, and the config built from the command line keeps the field's default
      // (core_transformer_config_from_args copies only the attributes the parser has). `--mscale`
      // came in 0.11.0; MLATransformerConfig had `mscale = 0.707` from 0.10.0.
      const field = source === 'main' && prop['x-since'] && !from ? r.defaults.config?.get(own0) : undefined;
      if (!field) return { ...base, kind: 'absent' };
      return field.dynamic !== undefined ? { ...base, kind: 'dynamic', text: field.dynamic } : { ...base, kind: 'value', value: field.value };
    }
    // A switch that stores another attribute than the property (its name at that release: the key,
    // or the older name x-name-before gives): its default is that attribute's, often the inverse or
    // one nothing reads, not the property's (`--disable-mamba-mem-eff-path` stored
    // `disable_mamba_mem_eff_path` before 0.16.0, which the config copied by name never reads;
    // `--disable-msc` stored `enable_msc` before 0.18.0). A flag taking a value under an older name is
    // the same setting renamed: its default stands.
    const own = nameAt(key, prop, r.version);
    const stray = present.find((n) => source !== 'config' && r.choices[source]?.get(n)?.novalue && r.dests?.[source]?.get(n) !== undefined && r.dests[source].get(n) !== own);
    if (stray) return { ...base, kind: 'dynamic', text: `${stray} stores \`${r.dests[source].get(stray)}\`` };
    const ds = present.map((n) => r.defaults[source]?.get(n));
    const k = ds.findIndex((d) => !d || d.dynamic !== undefined);
    if (k >= 0) return { ...base, kind: 'dynamic', text: ds[k]?.dynamic ?? '(unread)' };
    // Spellings of one attribute that disagree: argparse fills the attribute from the first action
    // that stores it (parse_known_args sets each action's default only where none is set yet), so
    // the first spelling the parser defines gives the default (`--enable-chunked-prefill`, store_false
    // with default True, before the hidden `--disable-chunked-prefill` in 0.16.0). Spellings read from
    // different files have no order here: unread.
    if (ds.some((d) => JSON.stringify(d.value) !== JSON.stringify(ds[0].value))) {
      const order = [...(r.defaults[source]?.keys() ?? [])];
      const oneFile = new Set(present.map((n) => r.defaultFile?.[source]?.get(n))).size <= 1;
      const first = oneFile ? [...present].sort((a, b) => order.indexOf(a) - order.indexOf(b))[0] : undefined;
      if (!first) return { ...base, kind: 'dynamic', text: `spellings disagree: ${ds.map((d) => JSON.stringify(d.value)).join(' / ')}` };
      return { ...base, kind: 'value', value: r.defaults[source].get(first).value };
    }
    return { ...base, kind: 'value', value: ds[0].value };
  });
}

/**
 * The defaults each release had, as the tests read them (schemas/history/megatron-defaults.json),
 * and `x-default-before` of every property whose literal default changed: `{ "<release>": value }`,
 * the default of the releases before that one (back to the previous entry); from the last entry on,
 * the schema's `default`. Written only where the newest release's default is the schema's and no
 * release in between is unread; every other difference is printed.
 */
function megatronDefaultChanges(props, releases, snapshot, verbose) {
  const all = releases.map((r) => r.version);
  const report = { written: [], differ: [], uncertain: [], computed: [] };
  const changes = [];
  let read = 0;
  for (const [key, prop] of Object.entries(props)) {
    const states = megatronDefaultStates(key, prop, releases);
    if (!states) continue;
    const present = states.filter((s) => s.kind !== 'absent');
    if (!present.some((s) => s.kind === 'value')) {
      // A default every release computes from the environment (`int(os.getenv('WORLD_SIZE', '1'))`):
      // a literal in the schema is the value of one machine, not Megatron's default.
      const env = present.find((s) => /environ|getenv/.test(s.text ?? ''));
      if (env && prop.default !== undefined) report.computed.push(`${key}: schema default ${JSON.stringify(schemaDefault(prop.default))}, computed (${env.text})`);
      continue;
    }
    read++;
    snapshot[key] = snapshotRanges(present, (s) => s.value);
    const runs = [];
    for (const s of present) {
      const last = runs.at(-1);
      if (last && last.kind === s.kind && JSON.stringify(last.value) === JSON.stringify(s.value)) last.versions.push(s.version);
      else runs.push({ kind: s.kind, value: s.value, text: s.text, versions: [s.version] });
    }
    const literal = runs.filter((r) => r.kind === 'value');
    // Releases after the last literal default whose default is not read: the schema's default stands for them.
    const newest = literal.at(-1) ?? present.at(-1);
    const have = defaultBefore(prop);
    let want;
    if (newest.kind === 'value' && JSON.stringify(newest.value) !== JSON.stringify(schemaDefault(prop.default))) {
      report.differ.push(`${key}: schema default ${JSON.stringify(schemaDefault(prop.default))}, ${newest.versions?.at(-1) ?? newest.version} ${JSON.stringify(newest.value)}`);
      want = have;
    } else if (literal.length > 1 && runs.some((r, i) => r.kind === 'dynamic' && i > 0 && i < runs.indexOf(literal.at(-1)))) {
      report.uncertain.push(`${key}: ${runs.map((r) => `${r.kind === 'value' ? JSON.stringify(r.value) : `(${r.text})`} in ${ranges(r.versions, all)}`).join('; ')}`);
      want = have;
    } else if (newest.kind === 'value' && literal.length > 1) {
      want = {};
      for (let i = 0; i + 1 < runs.indexOf(literal.at(-1)) + 1; i++) if (runs[i].kind === 'value') want[runs[i + 1].versions[0]] = runs[i].value;
      report.written.push(`${key}: ${runs.map((r) => `${r.kind === 'value' ? JSON.stringify(r.value) : `(${r.text})`} in ${ranges(r.versions, all)}`).join('; ')}`);
    }
    if (JSON.stringify(want) !== JSON.stringify(have)) changes.push({ key, field: 'x-default-before', from: have, to: want, why: 'the default of the releases before each one named', set: () => setKey(prop, 'x-default-before', want, AFTER['x-default-before']) });
  }
  console.log(`\nDefaults (${read} properties with a literal default in some release):`);
  printLists(
    [
      ['defaults that changed between releases (x-default-before)', report.written],
      ['the newest release read differs from the schema default (left as it is)', report.differ, verbose ? undefined : 40],
      ['changed with unread releases in between (left as it is)', report.uncertain],
      ['a literal schema default where the parser computes it from the environment (correct by hand)', report.computed],
    ],
    true,
  );
  return changes;
}

// or gets where the static read disagrees; `apply`: other corrections, each returning the changes
// it would make (none once applied).
const setProp = (p, key, field, to, why) => change(key, field, p[field], to, why, () => setKey(p, field, to, AFTER[field]));
const deprecatedSince = (version, why) => ({
  apply: (p, key) => change(key, 'x-deprecated.since', p['x-deprecated']?.since, version, why, () => (p['x-deprecated'].since = version)),
});
const CUDA_GRAPH_SCOPE_MESSAGE = 'Renamed to `cuda_graph_modules`: the old field is copied into it with a deprecation warning, and setting both aborts.';
const MEGATRON_RESOLVED = {
  // The dest `enable_msc` arrived in 0.13.0 behind `--disable-msc` (store_false); the `--enable-msc`
  // spelling in 0.18.0, which `x-flag-since` records. x-since dates the argument, not the spelling.
  enable_msc: { 'x-since': '0.13.0', why: 'dest enable_msc since 0.13.0 (via --disable-msc); --enable-msc dated by x-flag-since' },
  // examples/inference/gpt/gpt_static_inference.py@core_v0.13.0:58 adds --output-path in its own
  // add_static_inference_args; the shared inference helper has it from 0.14.0.
  output_path: { 'x-since': '0.13.0', why: 'static inference example parser from 0.13.0; the inference helper from 0.14.0' },
  // tools/run_inference_performance_test.py@core_v0.12.0:79 adds --model-provider (mamba or gpt,
  // default gpt) in its own add_text_generate_args; the inference helper has it from 0.13.0
  // (examples/inference/gpt/utils.py@core_v0.13.0:68). No Python file of core_v0.11.0 has it.
  model_provider: { 'x-since': '0.12.0', why: 'the inference performance tool from 0.12.0; the inference helper from 0.13.0' },
  // `'--save-interval', '--persistent-save-interval'` in one add_argument call from 0.9.0 on.
  save_interval: { 'x-flag-since': { '--persistent-save-interval': '0.9.0' }, why: 'alias added in 0.9.0' },
  // 0.16.0 builds the flag from ModelParallelConfig (default True: --no-… and --disable-…).
  async_tensor_model_parallel_allreduce: { 'x-flag-since': { '--disable-async-tensor-model-parallel-allreduce': '0.16.0' }, why: 'ArgumentGroupFactory spelling from 0.16.0' },
  // validate_args at core_v0.4.0 already exits on --checkpoint-activations and asserts that
  // --batch-size, --warmup and --model-parallel-size are unset; it turns
  // --use-rotary-position-embeddings into rope and raises on --no-position-embedding without rope.
  checkpoint_activations: deprecatedSince('0.4.0', 'exits in validate_args at core_v0.4.0'),
  batch_size: deprecatedSince('0.4.0', 'asserted unset in validate_args at core_v0.4.0'),
  warmup: deprecatedSince('0.4.0', 'asserted unset in validate_args at core_v0.4.0'),
  model_parallel_size: deprecatedSince('0.4.0', 'asserted unset in validate_args at core_v0.4.0'),
  use_rotary_position_embeddings: deprecatedSince('0.4.0', 'turned into --position-embedding-type rope at core_v0.4.0'),
  add_position_embedding: deprecatedSince('0.4.0', 'raises without rope at core_v0.4.0'),
  // core_v0.8.0: --use-mcore-models gets dest deprecated_use_mcore_models (ignored, --use-legacy-models
  // added) and --ckpt-fully-parallel-save dest ckpt_fully_parallel_save_deprecated (a notice).
  deprecated_use_mcore_models: deprecatedSince('0.8.0', 'dest deprecated_use_mcore_models, ignored, from core_v0.8.0'),
  ckpt_fully_parallel_save_deprecated: deprecatedSince('0.8.0', 'notice-only from core_v0.8.0'),
  // core_v0.9.0: --use-dist-ckpt / --dist-ckpt-format get *_deprecated dests and only print a notice.
  use_dist_ckpt_deprecated: deprecatedSince('0.9.0', 'notice-only from core_v0.9.0 (--ckpt-format)'),
  dist_ckpt_format_deprecated: deprecatedSince('0.9.0', 'notice-only from core_v0.9.0 (--ckpt-format)'),
  // Bridge's GPT and hybrid providers have no max_position_embeddings: GPTModel/HybridModel get
  // max_sequence_length=self.seq_length (gpt_provider.py, hybrid_provider.py), and
  // translate_mlm_to_bridge.py --reverse derives --max-position-embeddings from model.seq_length.
  // T5ModelProvider still has model.max_position_embeddings.
  max_position_embeddings: {
    apply: (p, key) => [
      ...change(key, 'x-bridge', p['x-bridge'], ['model.seq_length', 'model.max_position_embeddings'], 'GPT/hybrid providers size the position table by seq_length', () => (p['x-bridge'] = ['model.seq_length', 'model.max_position_embeddings'])),
      ...(() => {
        const md = 'Maximum sequence positions the model supports. Required by Megatron and must be ≥ `--seq-length`. Megatron Bridge\'s GPT and hybrid providers have no such field: the position table is sized by `model.seq_length` (T5 keeps `model.max_position_embeddings`). NeMo writes it under `model:`.\n\n`--max-position-embeddings`  \nMegatron Bridge: `model.seq_length` (GPT, hybrid), `model.max_position_embeddings` (T5)  \nNeMo: `model.max_position_embeddings`';
        return change(key, 'markdownDescription', p.markdownDescription, md, 'Bridge paths', () => (p.markdownDescription = md));
      })(),
    ],
  },
  // TransformerConfig.cuda_graph_scope: a str from core_v0.12.0, also a list from core_v0.16.0
  // (Union[str, CudaGraphScope, List[...]]); core_v0.18.0 renames it cuda_graph_modules and
  // __post_init__ migrates the old field with a DeprecationWarning (both set: assertion).
  cuda_graph_scope: {
    apply: (p, key) => {
      const want = {
        description: 'Old name of cuda_graph_modules (a module name or a list of them); migrated with a warning.',
        markdownDescription: `**Deprecated.** ${CUDA_GRAPH_SCOPE_MESSAGE}\n\nParts of each layer captured in per-layer CUDA graphs: one name or a list (\`attn\`, \`mlp\`, \`moe\`, \`moe_router\`, \`moe_preprocess\`, \`mamba\`; \`full\` = the whole layer). A list is accepted from Megatron Core 0.16.0.\n\nset by \`--cuda-graph-scope\` in Megatron-LM 0.12–0.17 (from 0.18.0 that flag sets the deprecated \`cuda_graph_scope_deprecated\`; this field has no command-line flag) · since Megatron Core 0.12.0  \nMegatron Bridge: \`model.cuda_graph_scope\``,
        type: ['array', 'string'],
        items: { type: 'string' },
        deprecated: true,
        'x-deprecated': { since: '0.18.0', effect: 'migrated', replacement: 'cuda_graph_modules', message: CUDA_GRAPH_SCOPE_MESSAGE },
      };
      const out = [];
      for (const [k, v] of Object.entries(want)) out.push(...setProp(p, key, k, v, 'TransformerConfig at core_v0.16.0 / core_v0.18.0'));
      return out;
    },
  },
};

/**
 * x-enum-since of every property with an enum: prints what the choices of each release say, and
 * returns the entries to add (a value the schema does not date yet and that arrived after its
 * flag). An entry the schema has and the read disagrees with is printed, never changed.
 */
function megatronEnumChanges(props, releases, snapshot) {
  const all = releases.map((r) => r.version);
  const report = { added: [], agree: [], disagree: [], uncertain: [], removed: [], extra: [], free: [], dynamic: [], notCovered: [] };
  const changes = [];
  let read = 0;
  for (const [key, prop] of Object.entries(props)) {
    const f = megatronEnumFacts(key, prop, releases);
    if (!f) continue;
    if (f.notCovered) {
      report.notCovered.push(`${key}: ${f.notCovered}`);
      continue;
    }
    const free = f.states.filter((s) => s.kind === 'free').map((s) => s.version);
    const novalue = f.states.filter((s) => s.kind === 'novalue').map((s) => s.version);
    if (novalue.length) report.free.push(`${key}: a switch taking no value in ${ranges(novalue, all)}`);
    const dynamic = f.states.filter((s) => s.kind === 'dynamic');
    if (free.length) report.free.push(`${key}: no choices in ${ranges(free, all)}${f.newestFree ? ' (the newest release included: the enum is not from argparse)' : ''}`);
    if (dynamic.length) report.dynamic.push(`${key}: choices computed at run time in ${ranges(dynamic.map((s) => s.version), all)} (${[...new Set(dynamic.map((s) => s.text))].join('; ')})`);
    if (f.states.every((s) => s.kind !== 'static')) {
      report.notCovered.push(`${key}: no release has static choices`);
      continue;
    }
    read++;
    snapshot[key] = snapshotRanges(f.states);
    const viaEnum = f.states.find((s) => s.viaEnum)?.viaEnum;
    if (viaEnum) report.free.push(`${key}: choices are the members of ${viaEnum} in ${ranges(f.states.filter((s) => s.viaEnum).map((s) => s.version), all)}`);
    const have = prop['x-enum-since'] ?? {};
    const want = { ...have };
    const firstVersion = f.states[0].version;
    for (const [v, x] of Object.entries(f.values)) {
      if (x.removedIn.length) report.removed.push(`${key}: ${JSON.stringify(v)} refused again from ${x.removedIn.join(', ')}${x.backIn.length ? ` (accepted again from ${x.backIn.join(', ')})` : ''}`);
      if (x.never) {
        report.disagree.push(`${key}: ${JSON.stringify(v)} is in the schema's enum but no release compared accepts it`);
        continue;
      }
      if (x.uncertain) {
        report.uncertain.push(`${key}: ${JSON.stringify(v)}: ${x.uncertain}${have[v] ? ` (schema ${have[v]})` : ''}`);
        continue;
      }
      if (have[v] === x.since) {
        if (x.since) report.agree.push(`${key}: ${JSON.stringify(v)} ${x.since}`);
        continue;
      }
      if (have[v] === undefined) {
        want[v] = x.since;
        report.added.push(`${key}: ${JSON.stringify(v)} since ${x.since} (flag since ${firstVersion === all[0] ? `≤ ${firstVersion}` : firstVersion})`);
      } else report.disagree.push(`${key}: ${JSON.stringify(v)} schema x-enum-since ${have[v]}, first accepted ${x.since ?? `${firstVersion} with the flag (none)`}`);
    }
    for (const v of Object.keys(have)) if (!(v in f.values)) report.disagree.push(`${key}: x-enum-since names ${JSON.stringify(v)}, which is not in the enum`);
    for (const e of f.extra) {
      if (e.removedIn) report.removed.push(`${key}: ${JSON.stringify(e.value)} (not in the enum) accepted in ${ranges(e.releases, all)}, refused from ${e.removedIn}`);
      else report.extra.push(`${key}: ${JSON.stringify(e.value)} accepted in ${ranges(e.releases, all)}, not in the schema's enum`);
    }
    // Values a run of releases accepted and later ones refuse (not in the enum): dated by x-enum-removed,
    // so that a file for one of those releases is not told its value is refused.
    const removedHave = prop['x-enum-removed'] ?? {};
    const removedWant = {};
    for (const e of f.extra) {
      const idx = e.releases.map((v) => all.indexOf(v));
      const contiguous = idx.every((x, i) => i === 0 || x === idx[i - 1] + 1);
      if (!e.removedIn || !contiguous) continue;
      removedWant[e.value] = { ...(e.releases[0] !== all[0] ? { since: e.releases[0] } : {}), removed: e.removedIn };
    }
    if (JSON.stringify(removedWant) !== JSON.stringify(removedHave)) {
      changes.push({ key, field: 'x-enum-removed', from: prop['x-enum-removed'], to: removedWant, why: 'values a run of releases accepted, refused from `removed`', set: () => setKey(prop, 'x-enum-removed', removedWant, AFTER['x-enum-removed']) });
    }
    if (JSON.stringify(want) !== JSON.stringify(have)) {
      // The enum's order; entries for values it no longer lists stay at the end.
      const order = Object.keys(f.values);
      const to = Object.fromEntries(Object.entries(want).sort(([a], [b]) => (order.indexOf(a) + 1 || 1e9) - (order.indexOf(b) + 1 || 1e9)));
      changes.push({ key, field: 'x-enum-since', from: prop['x-enum-since'], to, why: 'first release whose choices accept the value', set: () => setKey(prop, 'x-enum-since', to, AFTER['x-enum-since']) });
    }
  }
  console.log(`\nEnum values (${read} properties with static choices read):`);
  printLists(
    [
    ['x-enum-since to add (first release whose parser accepts the value)', report.added],
    ['x-enum-since the schema has and the read confirms', report.agree],
    ['x-enum-since disagreements left as they are', report.disagree],
    ['values not dated: choices unread before the first release that accepts them', report.uncertain],
    ['values a later release refused again (those not in the enum are dated by x-enum-removed)', report.removed],
    ['values the newest release accepts that the enum does not list', report.extra],
    ['releases whose choices are not a literal list', [...report.free, ...report.dynamic]],
    ['enums not covered', report.notCovered],
    ],
    true,
  );
  return changes;
}

/**
 * The changes Megatron-LM's releases make to the schema at `schemaPath` (with `bridgeDir`, Megatron
 * Bridge's too), and the snapshots of the choices and defaults each release read.
 */
export function megatron(dir, schemaPath, { bridgeDir, verbose }) {
  const schema = readSchema(schemaPath);
  const { releases, problems } = megatronReleases(dir, schema);
  const props = schema.properties;
  console.log(`Megatron-LM: ${releases.length} releases compared (${releases[0].version} … ${releases.at(-1).version} = ${releases.at(-1).rev.slice(0, 12)})`);
  for (const r of releases) console.log(`  ${r.version.padEnd(7)} ${r.mainPath}: ${r.flags.main.size} flags (${r.dynamic.size} from dataclasses)${Object.entries(r.flags).filter(([k]) => k !== 'main').map(([k, v]) => `, ${k} ${v.size}`).join('')}`);
  for (const p of problems) console.log(`  note: ${p}`);

  const pre = preCoreFlags(dir);
  if (!pre) console.log(`  note: the mirror lacks one of ${PRE_CORE_REVS.join(', ')}: the flags 0.4.0 added are not marked`);
  const spelled = megatronOldSpellings(releases, props, sourceOf, pre);
  const changes = [...spelled.changes];
  const newlyDated = {};
  const disagreements = [];
  const undatable = [];
  const removedIssues = [];
  const flagSinceIssues = [];
  for (const [key, prop] of Object.entries(props)) {
    const f = megatronFacts(key, prop, releases, pre);
    if (!f) continue;
    const firstOf = (name) => {
      const k = releases.findIndex((r) => r.flags[f.source]?.has(name));
      return k <= 0 ? undefined : releases[k].version;
    };
    const resolved = MEGATRON_RESOLVED[key];
    if (f.never) {
      if (!prop['x-removed'] || compareVersions(prop['x-removed'].version, releases[0].version) > 0) undatable.push(`${key} (${f.names.join(', ')}, ${f.source})`);
      continue;
    }
    if (f.gaps.length) disagreements.push({ key, kind: 'gap', detail: `${f.names.join(', ')} absent in ${f.gaps.join(', ')} between releases that have it` });
    // x-since
    const cur = prop['x-since'];
    // A release checked by hand wins even where the static read agrees with the schema: an entry
    // point the builder does not read may have had the flag first (`--model-provider`).
    if (cur !== f.since || (resolved && 'x-since' in resolved && resolved['x-since'] !== cur)) {
      const entry = { key, kind: 'x-since', schema: cur ?? '(none)', computed: f.since ?? '(none)', flags: f.names.join(', '), source: f.source, dynamicOnly: f.dynamicOnly };
      if (resolved && 'x-since' in resolved) {
        if (resolved['x-since'] !== cur) changes.push({ key, field: 'x-since', from: cur, to: resolved['x-since'], why: resolved.why });
      } else if (spelled.keys.has(key)) {
        changes.push({ key, field: 'x-since', from: cur, to: f.since, why: 'first release with any spelling of the flag, the older one included' });
      } else if (!cur && f.since && compareVersions(f.since, '0.13.0') < 0) {
        changes.push({ key, field: 'x-since', from: cur, to: f.since, why: 'first release with the flag' });
        (newlyDated[f.since] ??= []).push(key);
      } else disagreements.push(entry);
    }
    changes.push(...absentBeforeCore(key, prop, f, pre));
    // x-flag-since: per spelling, where it is later than the property
    const fsSchema = prop['x-flag-since'] ?? {};
    for (const name of new Set([...Object.keys(fsSchema), ...Object.keys(f.flagSince)])) {
      // A spelling the schema dates later than its property's x-since because the property's dest
      // came first under another flag: later than the computed first, so computed from the flag itself.
      const want = f.flagSince[name] ?? (fsSchema[name] && f.present.length && name !== undefined ? firstOf(name) : undefined);
      if (fsSchema[name] !== want) {
        const r = resolved?.['x-flag-since']?.[name];
        if (r !== undefined) {
          if (r !== fsSchema[name]) changes.push({ key, field: 'x-flag-since', flag: name, from: fsSchema[name], to: r, why: resolved.why });
        } else if (spelled.keys.has(key)) {
          changes.push({ key, field: 'x-flag-since', flag: name, from: fsSchema[name], to: want, why: 'a spelling younger than an older one of the same argument' });
        } else flagSinceIssues.push(`${key}: ${name} schema ${fsSchema[name] ?? '(none)'}, computed ${want ?? '(none)'}`);
      }
    }
    // x-entrypoints-since: an entry script that adds the flag only from a later release
    const epWant = entrypointsSince(prop, f.source, releases, prop['x-since'] ?? f.since);
    if (JSON.stringify(prop['x-entrypoints-since']) !== JSON.stringify(epWant)) {
      changes.push({ key, field: 'x-entrypoints-since', from: prop['x-entrypoints-since'], to: epWant, why: 'the first release whose entry script calls the helper that adds the flag', set: () => setKey(prop, 'x-entrypoints-since', epWant, AFTER['x-entrypoints-since']) });
    }
    // x-flag-removed: a spelling the parser dropped while the argument stayed
    const frWant = Object.keys(f.flagRemoved).length ? f.flagRemoved : undefined;
    if (JSON.stringify(prop['x-flag-removed']) !== JSON.stringify(frWant)) {
      changes.push({ key, field: 'x-flag-removed', from: prop['x-flag-removed'], to: frWant, why: 'the first release whose parser no longer has the spelling', set: () => setKey(prop, 'x-flag-removed', frWant, AFTER['x-flag-removed']) });
    }
    // x-removed
    const rem = prop['x-removed']?.version;
    if (rem !== f.removed) {
      const entry = { key, kind: 'x-removed', schema: rem ?? '(none)', computed: f.removed ?? '(none)', lastHad: f.lastHad, flags: f.names.join(', ') };
      if (resolved && 'x-removed' in resolved) {
        if (resolved['x-removed'] !== rem) changes.push({ key, field: 'x-removed', from: rem, to: resolved['x-removed'], why: resolved.why });
      } else removedIssues.push(entry);
    }
  }
  for (const [key, r] of Object.entries(MEGATRON_RESOLVED)) if (r.apply) changes.push(...r.apply(props[key], key));

  console.log('\nNewly dated flags (no x-since in the schema, first release below 0.13.0):');
  let total = 0;
  for (const v of Object.keys(newlyDated).sort(compareVersions)) {
    total += newlyDated[v].length;
    console.log(`  ${v}: ${newlyDated[v].length}${verbose ? `  ${newlyDated[v].join(' ')}` : ''}`);
  }
  console.log(`  total: ${total}`);
  printLists([
    ['x-since disagreements left as they are', disagreements.map((d) => `${d.key}: ${d.kind === 'gap' ? d.detail : `schema ${d.schema}, static read ${d.computed} (${d.flags}; ${d.source}${d.dynamicOnly ? '; only from dataclasses' : ''})`}`)],
    ['x-removed disagreements left as they are', removedIssues.map((d) => `${d.key}: schema ${d.schema}, computed ${d.computed} (last in ${d.lastHad}; ${d.flags})`)],
    ['x-flag-since disagreements left as they are', flagSinceIssues],
    ['Flags no release compared has', undatable],
  ]);

  const choices = {};
  const defaults = {};
  changes.push(...megatronEnumChanges(props, releases, choices));
  changes.push(...megatronChoicesByRelease(props, releases, sourceOf, spellings));
  changes.push(...megatronBoolTextForms(props, releases, sourceOf, spellings));
  changes.push(...megatronNargsSince(props, releases, sourceOf, spellings));
  changes.push(...megatronNargsBefore(props, releases, sourceOf, spellings));
  changes.push(...megatronTypeBefore(props, releases, sourceOf, spellings));
  changes.push(...megatronPostInitChoices(dir, releases, props));
  changes.push(...megatronDefaultChanges(props, releases, defaults, verbose));
  changes.push(...megatronDeprecationChanges(dir, releases, props));
  changes.push(...megatronDeprecatedValueChanges(dir, releases, props, sourceOf));
  changes.push(...megatronDestChanges(dir, releases, props));
  changes.push(...megatronUnreadChanges(dir, releases, props, sourceOf, spellings));
  changes.push(...megatronYamlCfgChanges(dir, releases, props));
  changes.push(...megatronYamlCfgSinceChanges(dir, releases, props));
  changes.push(...megatronFormatDefaultChanges(dir, releases, schema, { bridgeDir }));
  if (bridgeDir) changes.push(...bridgeUnreadChanges(bridgeDir, dir, schema), ...bridgeEnumChanges(bridgeDir, schema), ...bridgeMixedPrecisionChanges(bridgeDir, schema), ...bridgeModelSinceChanges(bridgeDir, dir, schema));

  const method = 'Version facts (x-since, x-flag-since, x-removed, x-enum-since): from 0.13.0 on, the argparse parser of each tag was built by running add_megatron_arguments() with the heavy imports stubbed and every action was dumped (flags, dest, type, nargs, default, choices, group); every tag from 0.4.0 (0.4.0 to 0.12.3 dated by this alone) is also read statically by scripts/schema-history.mjs (the add_argument string literals of megatron/training/arguments.py, megatron/arguments.py before 0.6.0, the flags ArgumentGroupFactory derives from the config dataclasses from 0.16.0, the entry-point helpers for x-entrypoints flags, and the TransformerConfig/ModelParallelConfig fields for x-cli: false); from 0.13.0 on the two agree. x-enum-since dates a value by the first release whose parser accepts it, read the same way: a literal choices list, a Literal[...] annotation or the members of an Enum of the dataclass field behind the flag. TransformerConfig fields come from the dataclasses; Bridge paths from the ConfigContainer dataclasses and translate_mlm_to_bridge.py; descriptions are written for Shardwise.';
  // What follows the part this script writes (the NeMo key sources) is kept.
  const end = 'descriptions are written for Shardwise.';
  const had = schema['x-source'].method ?? '';
  const full = method + (had.includes(end) ? had.slice(had.indexOf(end) + end.length) : '');
  if (had !== full) changes.push({ key: 'x-source', field: 'method', from: had, to: full, why: 'how the version facts were computed' });
  const tags = releases.slice(0, -1).map((r) => r.version);
  if (JSON.stringify(schema['x-source'].tagsCompared) !== JSON.stringify(tags)) changes.push({ key: 'x-source', field: 'tagsCompared', from: schema['x-source'].tagsCompared.join(', '), to: tags, why: 'every final release compared' });
  return { schema, changes, path: schemaPath, tool: 'Megatron Core', snapshots: () => megatronSnapshots(schema, choices, defaults) };
}

/**
 * The snapshots of what each release read, over the releases the schema (as written) names:
 * megatron-choices.json (written only when some choices were read) and megatron-defaults.json.
 */
function megatronSnapshots(schema, choices, defaults) {
  if (!Object.keys(choices).length) return [];
  const releases = [...schema['x-source'].tagsCompared, schema['x-source'].version];
  return [
    { name: 'megatron-choices.json', indented: true, what: 'The choices each Megatron Core release accepts for the arguments with a fixed set, read by scripts/schema-history.mjs from the parser of each core_vX.Y.Z tag (and the commit x-source names): runs of releases with the same state (absent, free: any value, novalue: a switch, dynamic: computed at run time, static: the values).', releases, field: 'choices', table: choices },
    { name: 'megatron-defaults.json', what: 'The default of each Megatron-LM argument at each release, read by scripts/schema-history.mjs from the parser of each core_vX.Y.Z tag (and the commit x-source names): argparse\'s default of its flags (`default=`, what the action implies, the dataclass field behind a flag ArgumentGroupFactory builds), or for a field without a flag (x-cli: false), and at a release the argument has before its flag arrived, the config dataclass\'s; runs of releases with the same default (value: a literal, null for None; dynamic: computed, not read). Releases without the argument are left out.', releases, field: 'defaults', table: defaults },
  ];
}

