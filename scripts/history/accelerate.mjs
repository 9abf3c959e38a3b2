// Accelerate (--accelerate <git dir>): for every final release tag, the fields of the config
// dataclasses, the flags of `accelerate launch`, the sections its launcher copies onto them and
// the prefix it adds; `x-since` of every key (either spelling), `x-flag-since` of a spelling read
// later than its key, `x-bare-until` of a prefixed key read only without its prefix before the
// launcher added it, and `x-key-prefix.since`; `x-default-before` of a config dataclass field
// whose literal default (or the utils/constants.py constant it names) changed; `x-sagemaker-unused` of
// a SageMaker field the SageMaker launch does not pass on to the job; `x-launch-ignores` of a top-level field
// `accelerate launch` does not take from the file (an option of its name with a default). A key no longer
// read is compared with its deprecation and only printed.
//
// Reads the Accelerate mirror and schemas/accelerate.schema.json; returns the changes to the schema
// and the snapshot schemas/history/accelerate-keys.json of the releases that read each spelling
// (write.mjs writes them).
import { compareVersions, gitLines, releaseTags, show } from './git.mjs';
import { defaultBefore, readSchema, schemaDefault } from './json.mjs';
import { argumentTokens, closing, depthAt, literalDefault, pythonStatements, statements, tokenize } from './python.mjs';
import { AFTER, change, oneRun, printLists, ranges, setKey, snapshotRanges } from './write.mjs';

// The keys the config file and the launcher of every release read

// The sections of a cluster config whose keys the launcher copies onto its arguments, with the
// prefix it adds to a key written without it (from the release whose launcher adds it).
const ACCELERATE_SECTIONS = {
  fsdp_config: { prefix: 'fsdp_', unlessStartsWith: 'fsdp' },
  fp8_config: { prefix: 'fp8_', unlessStartsWith: 'fp8' },
  dynamo_config: { prefix: 'dynamo_', unlessStartsWith: 'dynamo_' },
  deepspeed_config: {},
  megatron_lm_config: {},
  parallelism_config: {},
  mpirun_config: {},
};

/**
 * Per release: the fields of the config dataclasses (src/accelerate/commands/config/config_args.py:
 * BaseConfig with ClusterConfig, with SageMakerConfig), the dests of `accelerate launch`'s flags
 * (src/accelerate/commands/launch.py), and the sections whose prefix the launcher adds
 * (`"fsdp_" + key`).
 */
function accelerateReleases(dir) {
  const releases = releaseTags(dir, 'v', '0.2.0');
  for (const r of releases) {
    const constants = new Map();
    for (const st of pythonStatements(dir, r.rev, 'src/accelerate/utils/constants.py')) {
      const t = st.toks;
      if (st.indent === 0 && t[0]?.t === 'name' && t[1]?.v === '=') {
        const d = literalDefault(t.slice(2));
        if (d.dynamic === undefined) constants.set(t[0].v, d);
      }
    }
    const classes = new Map();
    let cur = null;
    for (const st of pythonStatements(dir, r.rev, 'src/accelerate/commands/config/config_args.py')) {
      const t = st.toks;
      if (st.indent === 0) {
        cur = t[0]?.v === 'class' && t[1]?.t === 'name' ? { bases: t[2]?.v === '(' ? t.slice(3, closing(t, 2)).filter((x) => x.t === 'name').map((x) => x.v) : [], fields: new Set(), defaults: new Map() } : null;
        if (cur) classes.set(t[1].v, cur);
      } else if (cur && t[0]?.t === 'name' && t[1]?.v === ':' && !['def', 'class', 'async'].includes(t[0].v)) {
        cur.fields.add(t[0].v);
        const eq = t.findIndex((x, j) => j > 1 && x.v === '=' && depthAt(t, j) === 0);
        const value = t.slice(eq + 1);
        // A module-level constant of the package (utils/constants.py): its literal value.
        const named = value.length === 1 && value[0].t === 'name' ? constants.get(value[0].v) : undefined;
        cur.defaults.set(t[0].v, eq < 0 ? { dynamic: '(required)' } : named ?? literalDefault(value));
      }
    }
    const fieldsOf = (name, seen = new Set()) => {
      const c = classes.get(name);
      if (!c || seen.has(name)) return [];
      seen.add(name);
      return [...c.bases.flatMap((b) => fieldsOf(b, seen)), ...c.fields];
    };
    r.cluster = new Set(fieldsOf('ClusterConfig'));
    r.sagemaker = new Set(fieldsOf('SageMakerConfig'));
    // The default of each field (a subclass's own over its base's).
    const defaultsOf = (name, seen = new Set()) => {
      const c = classes.get(name);
      if (!c || seen.has(name)) return new Map();
      seen.add(name);
      return new Map([...c.bases.flatMap((b) => [...defaultsOf(b, seen)]), ...c.defaults]);
    };
    r.defaults = { cluster: defaultsOf('ClusterConfig'), sagemaker: defaultsOf('SageMakerConfig') };
    const launch = show(dir, r.rev, 'src/accelerate/commands/launch.py') ?? '';
    r.sagemakerUnused = sagemakerUnused(dir, r.rev, launch, r.sagemaker);
    r.exportsNone = exportsNone(dir, r.rev, launch);
    r.envOf = envExports(`${launch}\n${show(dir, r.rev, 'src/accelerate/utils/launch.py') ?? ''}`);
    const toks = tokenize(launch);
    r.dests = new Set();
    r.prefixed = new Set();
    r.copies = new Set();
    r.copiesAll = false;
    r.flagDefaults = new Map();
    r.readsByName = new Set();
    r.storeFlags = new Set();
    r.copiesFields = false;
    r.warnsDeprecated = deprecationWarnings([...toks, ...tokenize(show(dir, r.rev, 'src/accelerate/utils/launch.py') ?? '')]);
    for (let i = 0; i < toks.length; i++) {
      if (toks[i].v === 'add_argument' && toks[i + 1]?.v === '(') {
        const names = [];
        for (let j = i + 2; toks[j]?.t === 'str'; j += 2) {
          if (toks[j].v.startsWith('--')) names.push(toks[j].v.slice(2).replace(/-/g, '_'));
          if (toks[j + 1]?.v !== ',') break;
        }
        for (const n of names) r.dests.add(n);
        const end = closing(toks, i + 1);
        const at = toks.findIndex((t, j) => j > i + 1 && j < end && t.v === 'default' && toks[j + 1]?.v === '=' && depthAt(toks.slice(i + 1, j + 1), j - i) === 1);
        if (at > 0) for (const n of names) r.flagDefaults.set(n, flagDefault(argumentTokens(toks, at + 2)));
        // A store-true/false option without a default of its own is never None: argparse gives it the opposite bool.
        const action = toks.findIndex((t, j) => j > i + 1 && j < end && t.v === 'action' && toks[j + 1]?.v === '=' && depthAt(toks.slice(i + 1, j + 1), j - i) === 1);
        const store = action > 0 ? /^store_(true|false)$/.exec(toks[action + 2]?.v ?? '') : null;
        if (at < 0 && store) for (const n of names) r.storeFlags.add(n);
      }
      if (toks[i].t === 'str' && toks[i + 1]?.v === '+') for (const [name, sec] of Object.entries(ACCELERATE_SECTIONS)) if (sec.prefix && toks[i].v === sec.prefix) r.prefixed.add(name);
      // The sections whose keys it copies onto its arguments: `defaults.fsdp_config`, `name == "fp8_config"`,
      // or every dict of the config (`for key, value in attr.items()`).
      if (toks[i].v === 'defaults' && toks[i + 1]?.v === '.' && toks[i + 2]?.v in ACCELERATE_SECTIONS) r.copies.add(toks[i + 2].v);
      if (toks[i].t === 'str' && toks[i].v in ACCELERATE_SECTIONS && toks[i - 1]?.v === '==') r.copies.add(toks[i].v);
      if (toks[i].v === 'attr' && toks[i + 1]?.v === '.' && toks[i + 2]?.v === 'items' && toks[i - 1]?.v === 'in') r.copiesAll = true;
      // The fields the launcher reads from the loaded file by name (`defaults.num_processes`), and whether it copies
      // every field onto the options left unset (`for name, attr in defaults.__dict__.items()`).
      if (toks[i].v === 'defaults' && toks[i + 1]?.v === '.' && toks[i + 2]?.t === 'name') r.readsByName.add(toks[i + 2].v);
      if (toks[i].v === 'defaults' && toks[i + 1]?.v === '.' && toks[i + 2]?.v === '__dict__') r.copiesFields = true;
    }
  }
  return releases;
}

/** The text of the top-level function `fn` of a Python source (empty when it has none). */
function functionBody(src, fn) {
  const start = src.search(new RegExp(`^def ${fn}\\(`, 'm'));
  if (start < 0) return '';
  const rest = src.slice(start + 4);
  const end = rest.search(/^(def |class |@)/m);
  return end < 0 ? rest : rest.slice(0, end);
}

/**
 * The fields of the SageMaker config that the SageMaker launch does not pass on to the job: the
 * launcher (commands/launch.py `sagemaker_launcher`, utils/launch.py `prepare_sagemager_args_inputs`)
 * reads neither `sagemaker_config.<field>` nor `args.<field>` copied from the file
 * (`args.<field> = defaults.<field>`; the loop that copies every field runs only for LOCAL_MACHINE);
 * a field the launch compares (`defaults.<field> ==`, the compute environment) or the loader
 * converts (`"<field>" in config_dict`) counts as read.
 */
function sagemakerUnused(dir, rev, launch, fields) {
  const util = show(dir, rev, 'src/accelerate/utils/launch.py') ?? '';
  const cfg = show(dir, rev, 'src/accelerate/commands/config/config_args.py') ?? '';
  const sm = functionBody(launch, 'sagemaker_launcher') + functionBody(util, 'prepare_sagemager_args_inputs');
  const out = new Set();
  if (!sm) return out;
  for (const f of fields) {
    if (new RegExp(`sagemaker_config\\.${f}\\b`).test(sm)) continue;
    if (new RegExp(`args\\.${f} = defaults\\.${f}\\b`).test(launch) && new RegExp(`args\\.${f}\\b`).test(sm)) continue;
    if (new RegExp(`defaults\\.${f}\\s*[!=]=`).test(launch)) continue;
    if (new RegExp(`(?<!not )["']${f}["'] in config_dict|config_dict\\.pop\\(["']${f}`).test(cfg)) continue;
    out.add(f);
  }
  return out;
}

/**
 * The flags the launcher exports as `str(args.<flag>)` outside any `if` on the flag while their
 * default is `None`, so an absent key reaches the plugin as the text `None`/`none`: per flag, the
 * variable and what the plugin makes of it (`false` where it compares the variable with `"true"`,
 * utils/dataclasses.py; undefined where that is not settled here).
 */
function exportsNone(dir, rev, launch) {
  const src = `${launch}\n${show(dir, rev, 'src/accelerate/utils/launch.py') ?? ''}`;
  // The plugin's dataclasses: utils/dataclasses.py, in utils.py before the package had a utils folder.
  const plugin = show(dir, rev, 'src/accelerate/utils/dataclasses.py') ?? show(dir, rev, 'src/accelerate/utils.py') ?? '';
  const noneDefault = new Set([...src.matchAll(/add_argument\(\s*"--([\w-]+)"[^)]*?default=None/gs)].map((m) => m[1].replace(/-/g, '_')));
  const lines = src.split('\n');
  const out = new Map();
  lines.forEach((line, i) => {
    const m = /^(\s*)current_env\["(\w+)"\] = str\(args\.(\w+)\)/.exec(line);
    if (!m || !noneDefault.has(m[3])) return;
    let indent = m[1].length;
    for (let j = i - 1; j >= 0 && indent > 4; j--) {
      const o = /^(\s*)(\S.*)$/.exec(lines[j]);
      if (!o || o[1].length >= indent) continue;
      indent = o[1].length;
      if (/^(if|elif)\b/.test(o[2]) && o[2].includes(`args.${m[3]}`)) return;
    }
    const readsTrue = new RegExp(`os\\.environ\\.get\\("${m[2]}", "false"\\) == "true"`).test(plugin);
    // `int(os.environ.get(VAR, …))` of the text `None` raises a ValueError.
    const readsInt = new RegExp(`int\\(os\\.environ\\.get\\("${m[2]}"`).test(plugin);
    out.set(m[3], { env: m[2], absent: readsTrue ? false : readsInt ? 'crash' : undefined });
  });
  return out;
}

/** The variables the launcher exports each flag as: `current_env["VAR"] = …args.<flag>…`, in the order written. */
function envExports(src) {
  const out = new Map();
  for (const m of src.matchAll(/current_env\["(\w+)"\]\s*=[^\n]*?\bargs\.(\w+)/g)) out.set(m[2], [...(out.get(m[2]) ?? []), m[1]]);
  return out;
}

/**
 * `x-env-before` of a key with `x-env`: where the launcher exported the key's flag under another
 * variable in older releases (`DEEPSPEED_ZERO_STAGE` before the `ACCELERATE_` prefix), the name of
 * each older run, keyed by the release the next run starts at. Only when the newest release exports
 * the schema's `x-env`; otherwise the disagreement is printed.
 */
function accelerateEnvChanges(schema, releases, report) {
  const changes = [];
  for (const [def, node] of Object.entries(schema.definitions)) {
    const sec = ACCELERATE_SECTIONS[def] ?? {};
    for (const [key, prop] of Object.entries(node.properties ?? {})) {
      if (!prop['x-env']) continue;
      const flags = [key, ...(sec.prefix && !key.startsWith(sec.unlessStartsWith) ? [sec.prefix + key] : [])];
      // A flag exported under several names (one per device type): the schema's, where it is one of them.
      const pick = (vars) => (vars.includes(prop['x-env']) ? prop['x-env'] : vars[0]);
      const states = releases.map((r, i) => ({ version: r.version, nextVersion: releases[i + 1]?.version, kind: pick(flags.flatMap((f) => r.envOf.get(f) ?? [])) }));
      const known = states.filter((st) => st.kind);
      if (!known.length) continue;
      if (known.at(-1).kind !== prop['x-env']) {
        report.disagree.push(`${def}.${key}: x-env ${prop['x-env']}, exported as ${known.at(-1).kind} at ${known.at(-1).version}`);
        continue;
      }
      const runs = snapshotRanges(known.map((st, i) => ({ ...st, nextVersion: known[i + 1]?.version })));
      const want = {};
      for (let i = 0; i + 1 < runs.length; i++) want[runs[i + 1].from] = runs[i].kind;
      const to = Object.keys(want).length ? want : undefined;
      changes.push(...change(`${def}.${key}`, 'x-env-before', prop['x-env-before'], to, 'the variable the launcher exported the flag as, in the releases before each one named', () => setKey(prop, 'x-env-before', to, ['x-env'])));
    }
  }
  return changes;
}

/**
 * `x-default-before` of a key of a section whose absent value the launcher exported as `None` in
 * early releases, where the plugin reads that as `false` (a `== "true"` test) and later releases
 * leave the key unexported (the plugin's own default, the schema's `default` or its note, applies);
 * `x-required-before` where the plugin converts it with `int()`, which stops on `None`; a run the
 * plugin's reading does not settle is printed.
 */
function accelerateNoneExportChanges(schema, releases, report) {
  const changes = [];
  for (const [def, sec] of Object.entries(ACCELERATE_SECTIONS)) {
    for (const [key, prop] of Object.entries(schema.definitions[def]?.properties ?? {})) {
      const flag = (r) => (r.exportsNone.has(key) ? key : sec.prefix && r.exportsNone.has(sec.prefix + key) ? sec.prefix + key : undefined);
      const reading = releases.filter((r) => accelerateReads(r, def, key));
      const hit = reading.filter((r) => flag(r));
      if (!hit.length) continue;
      const last = reading.indexOf(hit.at(-1));
      const env = hit[0].exportsNone.get(flag(hit[0])).env;
      const absent = new Set(hit.map((r) => r.exportsNone.get(flag(r)).absent));
      const contiguous = reading.indexOf(hit[0]) === 0 && hit.length === last + 1;
      if (absent.size !== 1 || absent.has(undefined) || !contiguous || last === reading.length - 1) {
        if (!prop['x-default-before']) report.disagree.push(`${def}.${key}: an absent key is exported as \`None\` to ${env} in ${hit[0].version} … ${hit.at(-1).version}; what the plugin makes of it is not settled here`);
        continue;
      }
      const before = reading[last + 1].version;
      if (absent.has('crash')) {
        changes.push(...change(`${def}.${key}`, 'x-required-before', prop['x-required-before'], before, `an absent key reaches the plugin as \`None\` (${env}) before ${before}, and its int() stops`, () => setKey(prop, 'x-required-before', before, ['x-default-before', 'x-default-note', 'default'])));
        continue;
      }
      const later = defaultBefore(prop) ?? {};
      const want = { ...later, [before]: false };
      if (prop.default === false && !Object.keys(later).length) continue; // the same at every release
      changes.push(...change(`${def}.${key}`, 'x-default-before', defaultBefore(prop), want, `an absent key reaches the plugin as \`none\` (${env}) before ${before}, which it reads as false`, () => setKey(prop, 'x-default-before', want, AFTER['x-default-before'])));
    }
  }
  return changes;
}

/**
 * `x-sagemaker-unused` of a field of the SageMaker config that the SageMaker launch does not pass
 * on: `true` at every release that reads the field, otherwise `{ before }` / `{ since }` of the one run.
 */
function accelerateSagemakerUnusedChanges(schema, releases, report) {
  const changes = [];
  for (const [key, prop] of Object.entries(schema.definitions.sagemaker?.properties ?? {})) {
    const reading = releases.filter((r) => r.sagemaker.has(key));
    if (!reading.length) continue;
    const unused = reading.map((r) => r.sagemakerUnused.has(key));
    const run = oneRun(unused, reading);
    if (run === undefined) {
      report.disagree.push(`sagemaker.${key}: passed on to the job in some releases only, not one run: ${reading.filter((r, i) => unused[i]).map((r) => r.version).join(', ')}`);
      continue;
    }
    const want = run === false ? undefined : run;
    changes.push(...change(`sagemaker.${key}`, 'x-sagemaker-unused', prop['x-sagemaker-unused'], want, 'the releases whose SageMaker launch does not pass the field on', () => setKey(prop, 'x-sagemaker-unused', want, ['x-env', 'x-since'])));
  }
  return changes;
}

/**
 * Whether the launcher of release `r` takes the top-level field `key` from a local machine's config file:
 * by name (`defaults.key`), or through the loop that copies every field onto an option left at None,
 * which skips a field whose option of the same name has a default (a store-true/false option always has one).
 */
function launchTakes(r, key) {
  if (r.readsByName.has(key)) return true;
  if (!r.copiesFields) return false;
  if (!r.dests.has(key)) return true;
  const d = r.flagDefaults.get(key);
  return !r.storeFlags.has(key) && (d === undefined || (d.dynamic === undefined && d.value === null));
}

/**
 * `x-launch-ignores` of a top-level field that `accelerate launch` does not take from the file: `true` at every
 * release that has the field, otherwise `{ before }` / `{ since }` of the one run; other patterns are printed.
 */
function accelerateLaunchIgnoresChanges(schema, releases, report) {
  const changes = [];
  for (const [key, prop] of Object.entries(schema.definitions.cluster?.properties ?? {})) {
    if (key in ACCELERATE_SECTIONS || prop.$ref || prop.properties) continue;
    const reading = releases.filter((r) => r.cluster.has(key));
    if (!reading.length) continue;
    const ignored = reading.map((r) => !launchTakes(r, key));
    const run = oneRun(ignored, reading);
    if (run === undefined) {
      report.disagree.push(`cluster.${key}: accelerate launch ignores the file's value in some releases only, not one run: ${reading.filter((r, i) => ignored[i]).map((r) => r.version).join(', ')}`);
      continue;
    }
    const want = run === false ? undefined : run;
    changes.push(...change(`cluster.${key}`, 'x-launch-ignores', prop['x-launch-ignores'], want, 'the releases whose `accelerate launch` does not take the field from the file', () => setKey(prop, 'x-launch-ignores', want, ['x-env', 'x-since'])));
  }
  return changes;
}

/**
 * The flags whose value the launcher answers with a deprecation warning at run time (commands/launch.py
 * and utils/launch.py): an `if args.X` whose body calls `logger.warning(…)` or `warnings.warn(…)` with
 * text that says "deprecat"; per flag, the flag the body copies its value onto (`args.Y = args.X`), if any.
 */
function deprecationWarnings(toks) {
  const out = new Map();
  const st = statements(toks);
  for (let i = 0; i < st.length; i++) {
    const t = st[i].toks;
    if (t[0]?.v !== 'if' || t[1]?.v !== 'args' || t[2]?.v !== '.' || t[3]?.t !== 'name') continue;
    let warned = false;
    let copiedTo;
    for (let j = i + 1; j < st.length && st[j].indent > st[i].indent; j++) {
      const b = st[j].toks;
      const warns = b.some((x, k) => (x.v === 'warning' || x.v === 'warn') && b[k - 1]?.v === '.' && ['logger', 'warnings'].includes(b[k - 2]?.v));
      if (warns && b.some((x) => x.t === 'str' && /deprecat/i.test(x.v))) warned = true;
      if (b.length === 7 && b[0].v === 'args' && b[1].v === '.' && b[3].v === '=' && b[4].v === 'args' && b[6].v === t[3].v) copiedTo = b[2].v;
    }
    if (warned) out.set(t[3].v, { copiedTo });
  }
  return out;
}

/**
 * The default of a flag of `accelerate launch` as the launcher exports it: `"true"`/`"false"` as the
 * boolean, `int(1e8)` as the number; `float` marks a non-integer literal such as `1e8`, which argparse
 * leaves a float (it converts only string defaults with `type`), exported as `100000000.0`.
 */
function flagDefault(expr) {
  if (expr[0]?.v === 'int' && expr[1]?.v === '(' && closing(expr, 1) === expr.length - 1) {
    const d = literalDefault(expr.slice(2, -1));
    return typeof d.value === 'number' ? { value: Math.trunc(d.value) } : d;
  }
  const d = literalDefault(expr);
  if (d.value === 'true' || d.value === 'false') return { value: d.value === 'true' };
  if (typeof d.value === 'number' && expr.length === 1 && /[.eE]/.test(expr[0].v)) return { ...d, float: true };
  return d;
}

/**
 * Whether a release reads the key `key` of a section: a field of the config class (cluster,
 * sagemaker); in a section the launcher copies onto its arguments (none before it does: Accelerate
 * writes `fp8_config` from 0.34.0, its launcher reads it from 1.4.0), a flag of that name, or, for a
 * key written without the prefix, the prefixed flag where the launcher adds the prefix.
 */
function accelerateReads(r, def, key) {
  if (def === 'cluster' || def === 'sagemaker') return r[def].has(key);
  const sec = ACCELERATE_SECTIONS[def];
  if (!sec || !r.cluster.has(def) || !(r.copies.has(def) || r.copiesAll)) return false;
  if (sec.prefix && r.prefixed.has(def) && !key.startsWith(sec.unlessStartsWith)) return r.dests.has(sec.prefix + key);
  return r.dests.has(key);
}

/**
 * x-default-before of a field of the config dataclasses whose literal default changed between the
 * releases that read it (from the oldest covered one), where the newest literal default is the
 * schema's `default`; other differences are printed.
 */
function accelerateDefaultChanges(dotted, prop, states, report) {
  const runs = [];
  for (const { version, d } of states) {
    const kind = d && d.dynamic === undefined ? 'value' : 'dynamic';
    const last = runs.at(-1);
    if (last && last.kind === kind && JSON.stringify(last.value) === JSON.stringify(d?.value)) continue;
    runs.push({ kind, value: d?.value, from: version });
  }
  const literal = runs.filter((r) => r.kind === 'value');
  if (literal.length < 2) return [];
  const newest = literal.at(-1);
  const have = defaultBefore(prop);
  if (JSON.stringify(newest.value) !== JSON.stringify(schemaDefault(prop.default)) || runs.slice(0, runs.indexOf(newest)).some((r) => r.kind === 'dynamic')) {
    report.disagree.push(`${dotted}: defaults ${runs.map((r) => `${r.kind === 'value' ? JSON.stringify(r.value) : '(unread)'} from ${r.from}`).join(', ')}; schema default ${JSON.stringify(schemaDefault(prop.default))}`);
    return [];
  }
  const want = {};
  for (let i = 0; i < runs.indexOf(newest); i++) want[runs[i + 1].from] = runs[i].value;
  return JSON.stringify(want) === JSON.stringify(have) ? [] : [{ key: dotted, field: 'x-default-before', from: have, to: want, why: 'the default of the releases before each one named', set: () => setKey(prop, 'x-default-before', want, AFTER['x-default-before']) }];
}

// The keys whose value the loaded config or the launcher turns into one of Accelerate's enum classes
// (`DistributedType(value)`, …): a value is accepted by the releases whose class has a member of that value.
// The top-level `dynamo_backend` (the key of 0.15–0.16, migrated into `dynamo_config` later) is
// converted with the same class, so each copy of the enum gets the same per-release data.
const ACCELERATE_ENUMS = {
  'cluster.distributed_type': 'DistributedType',
  'cluster.compute_environment': 'ComputeEnvironment',
  'sagemaker.distributed_type': 'SageMakerDistributedType',
  'sagemaker.compute_environment': 'ComputeEnvironment',
  'dynamo_config.dynamo_backend': 'DynamoBackend',
  'cluster.dynamo_backend': 'DynamoBackend',
  'sagemaker.dynamo_backend': 'DynamoBackend',
  // A `Literal[...]` alias: the values a dataclass checks the text against (TERecipeKwargs).
  'fp8_config.fp8_format': 'FP8Format',
  // The launcher exports it from 1.4.0; `NO` and `AO` join the class with 1.9.0, the first release
  // whose Accelerator converts the value (before it only `FP8RecipeKwargs` and DeepSpeed read it).
  'fp8_config.backend': 'FP8BackendType',
};
// Keys whose value every release from the key's x-since converts, first as the key itself, later after
// the load moved it into its section: their reading releases are all of those.
const ENUMS_READ_SINCE = new Set(['cluster.dynamo_backend', 'sagemaker.dynamo_backend']);

/**
 * The string values of the members of the enum class `name` at a release, or of the module-level
 * alias `name = Literal[...]` (undefined: neither).
 */
function enumMembers(dir, rev, name) {
  const file = gitLines(dir, 'grep', '-l', `^class ${name}\\b`, rev, '--', 'src/accelerate')[0]?.slice(rev.length + 1);
  if (!file) return literalMembers(dir, rev, name);
  const values = new Set();
  let inside = false;
  for (const st of pythonStatements(dir, rev, file)) {
    const t = st.toks;
    if (st.indent === 0) inside = t[0]?.v === 'class' && t[1]?.v === name;
    else if (inside && t[0]?.t === 'name' && t[1]?.v === '=' && t[2]?.t === 'str' && t.length === 3) values.add(t[2].v);
  }
  return values;
}

/** The strings of a module-level `name = Literal["A", "B", …]` at a release (undefined: none). */
function literalMembers(dir, rev, name) {
  const file = gitLines(dir, 'grep', '-l', `^${name} = Literal\\[`, rev, '--', 'src/accelerate')[0]?.slice(rev.length + 1);
  if (!file) return undefined;
  for (const st of pythonStatements(dir, rev, file)) {
    const t = st.toks;
    if (st.indent === 0 && t[0]?.v === name && t[1]?.v === '=' && t[2]?.v === 'Literal') return new Set(t.filter((x) => x.t === 'str').map((x) => x.v));
  }
  return undefined;
}

/**
 * `x-enum-since` of the values of an enum-typed key added after the key (those of the enum, and the
 * old values `x-deprecated-values` names), and `x-enum-removed` of the values some releases accepted
 * that the schema's enum no longer lists (the class lost the member), unless `x-deprecated-values`
 * already names them; every other difference is printed.
 */
function accelerateEnumChanges(dir, schema, releases, report) {
  const changes = [];
  const all = releases.map((r) => r.version);
  for (const [dotted, cls] of Object.entries(ACCELERATE_ENUMS)) {
    const [def, key] = dotted.split('.');
    const prop = schema.definitions[def]?.properties?.[key];
    if (!prop?.enum) continue;
    const reading = ENUMS_READ_SINCE.has(dotted) ? releases.filter((r) => compareVersions(r.version, prop['x-since']) >= 0) : releases.filter((r) => accelerateReads(r, def, key));
    const first = new Map();
    const last = new Map();
    for (const r of reading) {
      for (const v of enumMembers(dir, r.rev, cls) ?? []) {
        if (!first.has(v)) first.set(v, r.version);
        last.set(v, r.version);
      }
    }
    const keySince = prop['x-since'] ?? all[0];
    const after = (v) => all[all.indexOf(v) + 1];
    const sinceWant = {};
    for (const v of prop.enum) {
      // A value dated after the newest release tag (the main branch's version) keeps its date.
      const ahead = prop['x-enum-since']?.[v];
      if (!first.has(v) && ahead && compareVersions(ahead, all.at(-1)) > 0) sinceWant[v] = ahead;
      else if (!first.has(v)) report.disagree.push(`${dotted}: ${JSON.stringify(v)} is in the enum, no release's ${cls} has it`);
      else if (compareVersions(first.get(v), keySince) > 0) sinceWant[v] = first.get(v);
      if (last.has(v) && last.get(v) !== reading.at(-1).version) report.disagree.push(`${dotted}: ${JSON.stringify(v)} is in the enum, ${cls} lost it in ${after(last.get(v))}`);
    }
    const removedWant = {};
    for (const [v, from] of first) {
      if (prop.enum.includes(v)) continue;
      const to = last.get(v) === reading.at(-1).version ? undefined : after(last.get(v));
      const dep = prop['x-deprecated-values']?.[v];
      if (dep) {
        if (dep.since !== to) report.disagree.push(`${dotted}: ${JSON.stringify(v)} accepted until ${to ?? '(still)'}, x-deprecated-values since ${dep.since}`);
        // An old value that arrived after the key is dated too: the releases before it refuse it.
        if (compareVersions(from, keySince) > 0) sinceWant[v] = from;
        continue;
      }
      if (!to) report.disagree.push(`${dotted}: ${JSON.stringify(v)} is accepted and not in the enum`);
      else removedWant[v] = { ...(compareVersions(from, keySince) > 0 ? { since: from } : {}), removed: to };
    }
    const order = (o) => Object.fromEntries(Object.entries(o).sort(([, a], [, b]) => compareVersions(a.since ?? a.removed ?? a, b.since ?? b.removed ?? b)));
    changes.push(...change(dotted, 'x-enum-since', prop['x-enum-since'], Object.keys(sinceWant).length ? order(sinceWant) : undefined, `first release whose ${cls} has the value`, function () {
      setKey(prop, 'x-enum-since', this.to, AFTER['x-enum-since']);
    }));
    changes.push(...change(dotted, 'x-enum-removed', prop['x-enum-removed'], Object.keys(removedWant).length ? removedWant : undefined, `values ${cls} had and later lost`, function () {
      setKey(prop, 'x-enum-removed', this.to, AFTER['x-enum-removed']);
    }));
  }
  return changes;
}

// The functions of utils/launch.py that prepare each kind of launch, and the distributed types that
// go through them (commands/launch.py picks one by type); a section applies to a type at the releases
// whose function exports it, found by what the export writes.
const LAUNCH_PATHS = {
  prepare_simple_launcher_cmd_env: ['NO', 'MULTI_CPU'],
  prepare_multi_gpu_env: ['MULTI_GPU', 'MULTI_NPU', 'MULTI_MLU', 'MULTI_SDAA', 'MULTI_MUSA', 'MULTI_XPU', 'MULTI_HPU', 'MULTI_NEURON', 'FSDP', 'MEGATRON_LM'],
  prepare_deepspeed_cmd_env: ['DEEPSPEED'],
  prepare_tpu: ['XLA'],
};
const SECTION_EXPORTS = {
  dynamo_config: ['ACCELERATE_DYNAMO_'],
  parallelism_config: ['prepare_extend_env_parallelism_config', 'PARALLELISM_CONFIG_'],
  // The simple launch (NO and MULTI_CPU) wraps the script in mpirun when a hostfile is given.
  mpirun_config: ['mpirun_hostfile'],
};

/** The launch functions of a release whose body writes one of `markers`. */
function exportingPaths(dir, rev, markers) {
  const src = show(dir, rev, 'src/accelerate/utils/launch.py') ?? '';
  const out = new Set();
  for (const [fn] of Object.entries(LAUNCH_PATHS)) {
    const start = src.search(new RegExp(`^def ${fn}\\(`, 'm'));
    if (start < 0) continue;
    const rest = src.slice(start + 4);
    const end = rest.search(/^def /m);
    const body = end < 0 ? rest : rest.slice(0, end);
    if (markers.some((mk) => body.includes(mk))) out.add(fn);
  }
  return out;
}

/**
 * `x-applies-to` of the sections a launch path exports (the types whose path exports the section at
 * some release) and `x-applies-to-since` of the types whose path exports it later than the section is read.
 */
function accelerateAppliesChanges(dir, schema, releases, report) {
  const changes = [];
  for (const [name, markers] of Object.entries(SECTION_EXPORTS)) {
    const node = schema.definitions[name];
    const have = node?.['x-applies-to'];
    if (!have) continue;
    const reading = releases.filter((r) => r.cluster.has(name));
    const first = {};
    for (const r of reading) for (const fn of exportingPaths(dir, r.rev, markers)) for (const t of LAUNCH_PATHS[fn]) first[t] ??= r.version;
    const known = Object.values(LAUNCH_PATHS).flat();
    const want = [...have.filter((t) => first[t] || !known.includes(t)), ...known.filter((t) => first[t] && !have.includes(t))];
    const since = Object.fromEntries(want.filter((t) => first[t] && first[t] !== reading[0].version).map((t) => [t, first[t]]));
    changes.push(...change(name, 'x-applies-to', have, want, 'the types whose launch path exports the section', () => setKey(node, 'x-applies-to', want)));
    changes.push(...change(name, 'x-applies-to-since', node['x-applies-to-since'], Object.keys(since).length ? since : undefined, 'the first release whose launch path for the type exports the section', () => setKey(node, 'x-applies-to-since', Object.keys(since).length ? since : undefined, ['x-applies-to'])));
  }
  return changes;
}

/**
 * `x-default-before` of a key of a section the launcher copies onto its flags, from the flag's default
 * at each release that reads the key (the launcher exports that default when the key is absent);
 * a float default of an integer key (exported as `100000000.0`) and other differences are printed.
 */
function accelerateFlagDefaultChanges(schema, releases, report) {
  const changes = [];
  for (const [def, sec] of Object.entries(ACCELERATE_SECTIONS)) {
    for (const [key, prop] of Object.entries(schema.definitions[def]?.properties ?? {})) {
      const states = [];
      for (const r of releases) {
        if (!accelerateReads(r, def, key)) continue;
        const dest = r.dests.has(key) ? key : sec.prefix && r.dests.has(sec.prefix + key) ? sec.prefix + key : undefined;
        if (dest) states.push({ version: r.version, d: r.flagDefaults.get(dest) ?? { value: null } });
      }
      if (!states.length || prop.default === undefined) continue;
      const dotted = `${def}.${key}`;
      const floats = states.filter((st) => st.d.float);
      if (floats.length && prop.type === 'integer') report.disagree.push(`${dotted}: the launcher's default is the float ${floats[0].d.value} in ${floats[0].version} … ${floats.at(-1).version} (exported as \`${floats[0].d.value}.0\`)`);
      const runs = [];
      for (const { version, d } of states) {
        const kind = d.dynamic === undefined ? 'value' : 'dynamic';
        const last = runs.at(-1);
        if (last && last.kind === kind && JSON.stringify(last.value) === JSON.stringify(d.value)) continue;
        runs.push({ kind, value: d.value, from: version });
      }
      if (runs.length < 2) continue;
      const newest = runs.at(-1);
      if (newest.kind !== 'value' || JSON.stringify(newest.value) !== JSON.stringify(schemaDefault(prop.default)) || runs.some((x) => x.kind !== 'value' || x.value === null)) {
        report.disagree.push(`${dotted}: launcher defaults ${runs.map((x) => `${x.kind === 'value' ? JSON.stringify(x.value) : x.value ?? '(computed)'} from ${x.from}`).join(', ')}; schema default ${JSON.stringify(schemaDefault(prop.default))}`);
        continue;
      }
      const want = {};
      for (let i = 0; i < runs.length - 1; i++) want[runs[i + 1].from] = runs[i].value;
      changes.push(...change(dotted, 'x-default-before', defaultBefore(prop), want, "the launcher's default of the releases before each one named", () => setKey(prop, 'x-default-before', want, AFTER['x-default-before'])));
    }
  }
  return changes;
}

/**
 * Keys whose flag the launcher answers with a deprecation warning. Where the key's `x-deprecated`
 * starts later than the first release that warns, the releases that warn and still read the key up
 * to it are an earlier phase (`x-deprecated.earlier`): converted onto its replacement (`migrated`,
 * where the launcher copies the value onto the replacement's flag) or still working (`warned`).
 * Other differences are printed.
 */
function accelerateDeprecationWarnings(schema, releases, report) {
  const changes = [];
  // The sections: the definitions, and the sections written inline in the cluster config (`ipex_config`).
  const inline = Object.entries(schema.definitions.cluster.properties).filter(([, p]) => p.properties && !p.$ref);
  for (const [def, node] of [...Object.entries(schema.definitions), ...inline]) {
    const sec = ACCELERATE_SECTIONS[def] ?? {};
    const sectionDep = schema.definitions.cluster.properties[def]?.['x-deprecated'];
    for (const [key, prop] of Object.entries(node.properties ?? {})) {
      const flag = (r) => (r.warnsDeprecated.has(key) ? key : sec.prefix && r.warnsDeprecated.has(sec.prefix + key) ? sec.prefix + key : undefined);
      const warn = releases.filter((r) => flag(r));
      if (!warn.length) continue;
      const dep = prop['x-deprecated'];
      const since = (dep ?? (def === 'cluster' ? undefined : sectionDep))?.since;
      const first = warn[0].version;
      const phase = dep && since && compareVersions(since, first) > 0 ? earlierPhase(dep, warn, releases, flag, sec) : undefined;
      if (phase) {
        const have = dep.earlier;
        changes.push(...change(`${def}.${key}`, 'x-deprecated.earlier', have, phase, 'the releases whose launcher warns that the key is deprecated and still reads it', () => setKey(dep, 'earlier', phase)));
      } else if (!since || compareVersions(since, first) > 0) report.disagree.push(`${def}.${key}: the launcher warns that it is deprecated in ${ranges(warn.map((r) => r.version), releases.map((r) => r.version))}, x-deprecated since ${since ?? '(none)'}`);
    }
  }
  return changes;
}

/**
 * The phase before `dep.since` of a key whose launcher warns at every release from the first warning
 * up to it: `migrated` onto the key's replacement where the launcher copies the value onto it, else
 * `warned`; undefined where the warning does not run up to the deprecation.
 */
function earlierPhase(dep, warn, releases, flag, sec) {
  const from = releases.indexOf(warn[0]);
  const to = releases.findIndex((r) => r.version === dep.since);
  if (to < 0 || releases.slice(from, to).some((r) => !flag(r))) return undefined;
  const copied = new Set(warn.slice(0, to - from).map((r) => r.warnsDeprecated.get(flag(r)).copiedTo));
  const replacement = dep.replacement && (sec.prefix && !dep.replacement.startsWith(sec.unlessStartsWith) ? sec.prefix + dep.replacement : dep.replacement);
  const migrated = copied.size === 1 && replacement !== undefined && copied.has(replacement);
  return [
    migrated
      ? { since: warn[0].version, effect: 'migrated', message: `The launcher still reads it: it warns that the key is deprecated and copies its value onto \`${dep.replacement}\`; write that key instead.` }
      : { since: warn[0].version, effect: 'warned', message: 'The launcher still reads it and warns at run time that it is deprecated.' },
  ];
}

/** The changes Accelerate's releases make to the schema at `schemaPath`, and the snapshot of its keys. */
export function accelerate(dir, schemaPath) {
  const schema = readSchema(schemaPath);
  const releases = accelerateReleases(dir);
  const all = releases.map((r) => r.version);
  const spellings = {};
  console.log(`Accelerate: ${releases.length} releases compared (${all[0]} … ${all.at(-1)})`);
  const changes = [];
  const report = { agree: 0, disagree: [], never: [] };
  for (const [def, node] of Object.entries(schema.definitions)) {
    if (!node.properties || !(def in ACCELERATE_SECTIONS || def === 'cluster' || def === 'sagemaker')) continue;
    const sec = ACCELERATE_SECTIONS[def] ?? {};
    for (const [key, prop] of Object.entries(node.properties)) {
      const read = releases.map((r) => accelerateReads(r, def, key));
      // The other spelling of a key of a prefixed section: without the prefix, or with it.
      const stripped = sec.prefix && key.startsWith(sec.prefix) ? key.slice(sec.prefix.length) : undefined;
      const alt = !sec.prefix ? undefined : stripped !== undefined ? (stripped.startsWith(sec.unlessStartsWith) ? undefined : stripped) : key.startsWith(sec.unlessStartsWith) ? undefined : sec.prefix + key;
      const altRead = alt ? releases.map((r) => accelerateReads(r, def, alt)) : undefined;
      const any = read.map((x, i) => x || !!altRead?.[i]);
      const firstAny = any.indexOf(true);
      if (firstAny < 0) {
        report.never.push(`${def}.${key}`);
        continue;
      }
      const lastAny = any.lastIndexOf(true);
      // The oldest tag read (0.2.0) is the oldest release covered: a key it reads is dated by it.
      const since = all[firstAny];
      const removed = lastAny < all.length - 1 ? all[lastAny + 1] : undefined;
      if (prop['x-since'] === since) report.agree++;
      else {
        report.disagree.push(`${def}.${key}: schema ${prop['x-since'] ?? '(none)'}, read ${since}`);
        changes.push({ key: `${def}.${key}`, field: 'x-since', from: prop['x-since'], to: since, why: 'first release that reads the key (either spelling)', set: () => setKey(prop, 'x-since', since, ['x-env', 'default', 'type']) });
      }
      if (def === 'cluster' || def === 'sagemaker') changes.push(...accelerateDefaultChanges(`${def}.${key}`, prop, releases.filter((r, i) => read[i]).map((r) => ({ version: r.version, d: r.defaults[def].get(key) })), report));
      // A key no longer read is dated by its deprecation (the release that ignores, refuses or migrates it).
      const gone = prop['x-removed']?.version ?? prop['x-deprecated']?.since;
      if (gone !== removed) report.disagree.push(`${def}.${key}: no longer read from ${removed ?? '(still read)'}, schema ${gone ?? '(none)'}`);
      const runsOf = (reads) => snapshotRanges(releases.map((r, i) => ({ version: r.version, nextVersion: all[i + 1], kind: reads[i] ? 'read' : 'unread' }))).filter((x) => x.kind === 'read').map(({ from, to }) => ({ from, to }));
      spellings[`${def}.${key}`] = { [key]: runsOf(read), ...(alt ? { [alt]: runsOf(altRead) } : {}) };
      if (!alt) continue;
      // The property's own spelling, read later than the key: x-flag-since.
      const own = read.indexOf(true);
      const flagSince = own > firstAny ? { [key]: all[own] } : undefined;
      if (JSON.stringify(prop['x-flag-since']) !== JSON.stringify(flagSince)) changes.push({ key: `${def}.${key}`, field: 'x-flag-since', from: prop['x-flag-since'], to: flagSince, why: `\`${key}\` is read from ${flagSince?.[key]}, \`${alt}\` before`, set: () => setKey(prop, 'x-flag-since', flagSince, ['x-since']) });
      // A prefixed key the launcher read only without its prefix, before it added the prefix: x-bare-until.
      const prefixFrom = releases.findIndex((r) => r.prefixed.has(def));
      const bareOnly = stripped !== undefined && altRead.some((x, i) => x && !read[i] && (prefixFrom < 0 || i < prefixFrom));
      const bareUntil = bareOnly && prefixFrom >= 0 ? all[prefixFrom] : undefined;
      if (prop['x-bare-until'] !== bareUntil) changes.push({ key: `${def}.${key}`, field: 'x-bare-until', from: prop['x-bare-until'], to: bareUntil, why: `before ${bareUntil} the launcher read only \`${alt}\``, set: () => setKey(prop, 'x-bare-until', bareUntil, ['x-flag-since', 'x-since']) });
    }
  }
  changes.push(...accelerateEnumChanges(dir, schema, releases, report));
  changes.push(...accelerateAppliesChanges(dir, schema, releases, report));
  changes.push(...accelerateFlagDefaultChanges(schema, releases, report));
  changes.push(...accelerateSagemakerUnusedChanges(schema, releases, report));
  changes.push(...accelerateLaunchIgnoresChanges(schema, releases, report));
  changes.push(...accelerateNoneExportChanges(schema, releases, report));
  changes.push(...accelerateEnvChanges(schema, releases, report));
  changes.push(...accelerateDeprecationWarnings(schema, releases, report));
  for (const [name, sec] of Object.entries(ACCELERATE_SECTIONS)) {
    if (!sec.prefix) continue;
    const from = releases.find((r) => r.prefixed.has(name))?.version;
    const have = schema.definitions[name]?.['x-key-prefix']?.since;
    const kp = schema.definitions[name]?.['x-key-prefix'];
    const want = from && from !== all[0] ? from : undefined;
    if (kp && have !== want) changes.push({ key: name, field: 'x-key-prefix.since', from: have, to: want, why: `the launcher adds \`${sec.prefix}\` from ${from}`, set: () => setKey(kp, 'since', want) });
    console.log(`  ${name}: the launcher adds \`${sec.prefix}\` from ${from ?? '(never)'}${have !== undefined || from ? ` (x-key-prefix.since ${have ?? '(none)'})` : ''}`);
  }
  printLists([
    ['disagreements with the schema', report.disagree],
    ['keys no release reads', report.never],
  ]);
  console.log(`\nkeys whose x-since the read confirms: ${report.agree}`);
  const snapshot = {
    name: 'accelerate-keys.json',
    what: 'The releases of Accelerate that read each key of the config file, read by scripts/schema-history.mjs from every vX.Y.Z tag: a field of the config dataclasses (cluster, sagemaker), or in a section the launcher copies onto its arguments, the name of one of its flags (with the prefix the launcher adds, from the release that adds it). Per key, each spelling (as the schema writes it, and with or without the section prefix) with the runs of releases that read it.',
    releases: all,
    field: 'keys',
    table: spellings,
  };
  return { schema, changes, path: schemaPath, tool: 'Accelerate', snapshots: () => (Object.keys(spellings).length ? [snapshot] : []) };
}

