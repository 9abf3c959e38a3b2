// Megatron Bridge (with --bridge and --megatron): the Bridge paths that nothing reads at
// `x-source.bridgeCommit`: no `.field` or `"field"` in Bridge's src (recipes aside) nor in Megatron-LM
// at the commit Bridge pins (`x-source.bridgeMegatronCommit`). For the training-layer sections
// (`train`, `checkpoint`, `logger`, …) a read in Megatron Core counts only in a file that names the
// section's class (or the Megatron class it extends): Core never holds Bridge's section objects
// otherwise, and a same-named field of another class (the dataset config's `full_validation`) is not
// a reader of this one. The sections whose objects Bridge hands to Megatron Core's own builders
// (`tokenizer`, `optimizer`, `ddp`, `dataset`, `model`), which take them under any name (`args`,
// `config`), count a read anywhere in Megatron-LM's megatron/ (tests aside). A static search, so an
// upper bound: `x-bridge-unread`; a read under a name built at run time would hide from it, so every
// entry of those sections is printed for a look by hand.
//
// Megatron Bridge values (with --bridge): `x-bridge-enum` of the fields whose enum holds names only
// Megatron-LM's `--yaml-cfg` loader knows (x-cli: false): the names Bridge restores a string
// override of that field by (ACTIVATION_FUNC_MAP for the fields of _SERIALIZABLE_CALLABLE_FIELDS),
// or none.
//
// Reads the Megatron Bridge mirror (and the Megatron-LM one) at those commits; returns changes to
// schemas/megatron.schema.json, which megatron.mjs collects.
import { git, show } from './git.mjs';
import { setKey } from './write.mjs';

/** The training-layer sections of Megatron Bridge, whose fields Bridge's own loop reads (or not). */
const BRIDGE_TRAINING_SECTIONS = ['train', 'checkpoint', 'logger', 'scheduler', 'dist', 'profiling', 'rerun_state_machine', 'straggler', 'validation', 'rng'];
/** The sections Bridge hands to Megatron Core's builders, which read them under any name. */
const BRIDGE_CORE_SECTIONS = ['tokenizer', 'optimizer', 'ddp', 'dataset', 'model'];

/** x-bridge-unread of every property: its Bridge paths in those sections that no code reads by name. */
export function bridgeUnreadChanges(bridgeDir, megatronDir, schema) {
  const src = schema['x-source'];
  // A read is a line of code (not a comment) that names the field, other than as a field of another
  // section (`cfg.validation.skip_train` does not read `train.skip_train`, `cfg.model.test_mode` does
  // not read `validation.test_mode`), in a file that reaches this section at all (names it or its
  // class): a model's `self.config.test_mode` is the model config's field of that name.
  const classes = sectionClasses(bridgeDir, src.bridgeCommit);
  const sections = containerSections(bridgeDir, src.bridgeCommit);
  const used = (dir, rev, section, field, paths) => {
    const files = (git(dir, 'grep', '-l', '-E', `(\\.${field}\\b|["']${field}["'])`, rev, '--', ...paths) ?? '').split('\n').filter(Boolean);
    const other = new RegExp(`\\.(${sections.filter((x) => x !== section).join('|')})\\s*(\\.\\s*${field}\\b|,\\s*["']${field}["'])`, 'g');
    const any = new RegExp(`(\\.${field}\\b|["']${field}["'])`);
    // The objects of the sections Bridge hands to builders travel as `config`, `args`, a provider's
    // `self`: any file reads them, whether or not it names the section.
    const reaches = BRIDGE_CORE_SECTIONS.includes(section) ? /(?:)/ : new RegExp(`(\\.${section}\\b|["']${section}["']|\\b(${(classes.get(section) ?? [section]).join('|')})\\b)`);
    return files.some((f) => {
      const text = show(dir, rev, f.slice(f.indexOf(':') + 1)) ?? '';
      return reaches.test(text) && text.split('\n').some((line) => !/^\s*#/.test(line) && any.test(line.replace(other, '')));
    });
  };
  // Fields Megatron reads under a name it builds from a prefix (`f"{prefix}_{name}"`: the optimizer's `muon_*`).
  const built = builtPrefixes(megatronDir, src.bridgeMegatronCommit);
  const coreReads = (section, field) => {
    if (BRIDGE_CORE_SECTIONS.includes(section)) {
      // Read anywhere in megatron/ (tests aside), under any object's name: Core's builders take Bridge's objects as `args` or `config`.
      const hits = (git(megatronDir, 'grep', '-l', '-E', `(\\.${field}\\b|["']${field}["'])`, src.bridgeMegatronCommit, '--', 'megatron', ':(exclude,glob)**/tests/**') ?? '').split('\n').filter(Boolean);
      return hits.some((f) => {
        const text = show(megatronDir, src.bridgeMegatronCommit, f.slice(f.indexOf(':') + 1)) ?? '';
        return text.split('\n').some((line) => !/^\s*#/.test(line) && new RegExp(`(\\.${field}\\b|["']${field}["'])`).test(line));
      });
    }
    const files = (git(megatronDir, 'grep', '-l', '-E', `(\\.${field}\\b|["']${field}["'])`, src.bridgeMegatronCommit, '--', 'megatron/core') ?? '').split('\n').filter(Boolean);
    const names = classes.get(section) ?? [];
    return files.some((f) => names.some((n) => new RegExp(`\\b${n}\\b`).test(show(megatronDir, src.bridgeMegatronCommit, f.slice(f.indexOf(':') + 1)) ?? '')));
  };
  const copied = dynamicCopies(bridgeDir, src.bridgeCommit, classes, schema);
  const reset = postInitResets(bridgeDir, src.bridgeCommit);
  const changes = [];
  const unread = [];
  for (const [key, prop] of Object.entries(schema.properties)) {
    const paths = (prop['x-bridge'] ?? []).filter((b) => {
      const [section, ...rest] = b.split('.');
      return BRIDGE_TRAINING_SECTIONS.includes(section) || (BRIDGE_CORE_SECTIONS.includes(section) && rest.length === 1 && !built.some((p) => rest[0].startsWith(`${p}_`)));
    });
    // A field the section's own __post_init__ sets whatever the file says: what is written is never read.
    const overwritten = (prop['x-bridge'] ?? []).filter((b) => reset.has(b));
    const setHave = prop['x-bridge-overwritten'];
    const setWant = overwritten.length ? overwritten : undefined;
    if (JSON.stringify(setHave) !== JSON.stringify(setWant)) changes.push({ key, field: 'x-bridge-overwritten', from: setHave, to: setWant, why: "the section's __post_init__ sets the field whatever is written", set: () => (setWant ? setKey(prop, 'x-bridge-overwritten', setWant, ['x-bridge']) : delete prop['x-bridge-overwritten']) });
    const dead = paths.filter((b) => {
      if (reset.has(b)) return false;
      if (copied.has(b)) return false;
      const field = b.split('.').at(-1);
      return !used(bridgeDir, src.bridgeCommit, b.split('.')[0], field, ['src/megatron/bridge', ':(exclude,glob)**/recipes/**']) && !coreReads(b.split('.')[0], field);
    });
    unread.push(...dead);
    const have = prop['x-bridge-unread'];
    const want = dead.length ? dead : undefined;
    if (JSON.stringify(have) !== JSON.stringify(want)) changes.push({ key, field: 'x-bridge-unread', from: have, to: want, why: 'no reader of the Bridge field in Bridge (recipes aside) or Megatron Core', set: () => (want ? setKey(prop, 'x-bridge-unread', want, ['x-bridge']) : delete prop['x-bridge-unread']) });
  }
  console.log(`\nBridge fields of the training-layer sections nothing reads (${unread.length}):`);
  for (const u of unread) console.log(`  ${u}`);
  return changes;
}

/**
 * The prefixes Megatron-LM reads config attributes under by a built name at `rev`: a function that
 * builds `f"{p}_{…}"` from its parameter `p` and looks it up with getattr/hasattr, and the string
 * literals its calls pass as `p` (`_kwargs_from_config(TensorParallelMuon, "muon", config)` reads
 * every `muon_<init parameter>`). Tests aside.
 */
function builtPrefixes(dir, rev) {
  const files = (git(dir, 'grep', '-l', '-E', `f["']\\{\\w+\\}_\\{`, rev, '--', 'megatron', ':(exclude,glob)**/tests/**') ?? '').split('\n').filter(Boolean);
  const out = new Set();
  for (const f of files) {
    const text = show(dir, rev, f.slice(f.indexOf(':') + 1)) ?? '';
    const defs = [...text.matchAll(/^[ \t]*def (\w+)\(([^)]*)\)/gm)];
    defs.forEach((d, i) => {
      const body = text.slice(d.index, defs[i + 1]?.index ?? text.length);
      const params = d[2].split(',').map((x) => x.trim().split(/[:=\s]/)[0]);
      const p = /f["']\{(\w+)\}_\{/.exec(body)?.[1];
      const at = p ? params.indexOf(p) : -1;
      if (at < 0 || !/\b(getattr|hasattr)\(/.test(body)) return;
      for (const c of text.matchAll(new RegExp(`\\b${d[1]}\\(([^()]*)\\)`, 'g'))) {
        const lit = /^\s*["'](\w+)["']\s*$/.exec(c[1].split(',')[at] ?? '');
        if (lit) out.add(lit[1]);
      }
    });
  }
  return [...out];
}

/**
 * The Bridge paths `<section>.<field>` whose class's `__post_init__` sets the field unconditionally
 * (`self.tokenizer_hf_no_use_fast = not self.hf_tokenizer_kwargs.get(...)` in TokenizerConfig), for
 * the sections of ConfigContainer: `ConfigContainer.validate()` runs `__post_init__` again, so a value
 * written for such a field never takes effect. Only statements directly in the method's body count
 * (not under an `if` or a loop).
 */
function postInitResets(bridgeDir, rev) {
  const container = show(bridgeDir, rev, 'src/megatron/bridge/training/config.py') ?? '';
  const sectionOf = new Map();
  for (const m of container.matchAll(/^\s+([a-z_]+)\s*:\s*(?:Optional\[)?([A-Z][A-Za-z_]+)/gm)) if (!sectionOf.has(m[2])) sectionOf.set(m[2], m[1]);
  const files = (git(bridgeDir, 'grep', '-l', '-E', 'def __post_init__', rev, '--', 'src/megatron/bridge/training') ?? '').split('\n').filter(Boolean).map((f) => f.slice(f.indexOf(':') + 1));
  const out = new Set();
  for (const file of files) {
    const lines = (show(bridgeDir, rev, file) ?? '').split('\n');
    let cls;
    for (let i = 0; i < lines.length; i++) {
      const c = /^class (\w+)/.exec(lines[i]);
      if (c) cls = c[1];
      const d = /^(\s+)def __post_init__\(self/.exec(lines[i]);
      const section = cls && sectionOf.get(cls);
      if (!d || !section) continue;
      const body = d[1].length + 4;
      for (let j = i + 1; j < lines.length; j++) {
        const line = lines[j];
        if (!line.trim() || /^\s*#/.test(line)) continue;
        const indent = line.length - line.trimStart().length;
        if (indent < body) break;
        const a = indent === body ? /^self\.(\w+)\s*=[^=]/.exec(line.trim()) : undefined;
        if (a) out.add(`${section}.${a[1]}`);
      }
    }
  }
  return out;
}

/**
 * The Bridge paths the config copies by field name at run time: `for f in fields(ValidationConfig):
 * … getattr(self.train, f.name …)` reads every field of the `validation` section's class that is
 * written under `train` (a deprecated place, moved with a warning), which no search by name finds.
 */
function dynamicCopies(bridgeDir, rev, classes, schema) {
  const text = show(bridgeDir, rev, 'src/megatron/bridge/training/config.py') ?? '';
  const out = new Set();
  for (const m of text.matchAll(/for\s+(\w+)\s+in\s+fields\((\w+)\)\s*:([\s\S]{0,400}?)getattr\(\s*self\.(\w+)\s*,\s*\1\.name/g)) {
    const [, , cls, , from] = m;
    const to = [...classes].find(([, names]) => names[0] === cls)?.[0];
    if (!to) continue;
    for (const prop of Object.values(schema.properties))
      for (const b of prop['x-bridge'] ?? []) if (b.startsWith(`${to}.`)) out.add(`${from}.${b.slice(to.length + 1)}`);
  }
  return out;
}

/** Every section of Bridge's `ConfigContainer` (`model`, `dataset`, `train`, …). */
function containerSections(bridgeDir, rev) {
  const lines = (show(bridgeDir, rev, 'src/megatron/bridge/training/config.py') ?? '').split('\n');
  const start = lines.findIndex((l) => /^class ConfigContainer\b/.test(l));
  const out = new Set();
  for (let i = start + 1; start >= 0 && i < lines.length && !/^\S/.test(lines[i]); i++) {
    const m = /^ {4}([a-z_]+)\s*:/.exec(lines[i]);
    if (m) out.add(m[1]);
  }
  return [...out];
}

/**
 * The class of each training-layer section of Bridge's `ConfigContainer` (`validation:
 * ValidationConfig`), with the classes it extends (`TrainingConfig(MTrainTrainingConfig)` and the
 * name that alias imports).
 */
function sectionClasses(bridgeDir, rev) {
  const text = show(bridgeDir, rev, 'src/megatron/bridge/training/config.py') ?? '';
  const out = new Map();
  for (const m of text.matchAll(/^\s+([a-z_]+)\s*:\s*(?:Optional\[)?([A-Za-z_]+)/gm)) {
    if (!BRIDGE_TRAINING_SECTIONS.includes(m[1]) || out.has(m[1])) continue;
    const names = [m[2]];
    const bases = new RegExp(`^class ${m[2]}\\(([^)]*)\\)`, 'm').exec(text)?.[1].split(',').map((x) => x.trim()).filter(Boolean) ?? [];
    for (const base of bases) {
      names.push(base);
      const alias = new RegExp(`\\b([A-Za-z_]+) as ${base}\\b`).exec(text)?.[1];
      if (alias) names.push(alias);
    }
    out.set(m[1], names);
  }
  return out;
}

/**
 * x-bridge-enum of the fields Megatron Bridge reads as callables, whose values in a Megatron-LM
 * `--yaml-cfg` file are names its yaml loader knows (x-cli: false with an enum): Bridge turns a
 * string override into a callable only for the fields of `_SERIALIZABLE_CALLABLE_FIELDS`
 * (training/utils/omegaconf_utils.py), by the names of `ACTIVATION_FUNC_MAP`
 * (utils/activation_map.py); any other string is kept as written. So the values Bridge reads are
 * those names, or none.
 */
export function bridgeEnumChanges(bridgeDir, schema) {
  const rev = schema['x-source'].bridgeCommit;
  const utils = show(bridgeDir, rev, 'src/megatron/bridge/training/utils/omegaconf_utils.py') ?? '';
  const fields = new Set(/_SERIALIZABLE_CALLABLE_FIELDS[^=]*=\s*frozenset\(\{([^}]*)\}/.exec(utils)?.[1].match(/["'][A-Za-z_]+["']/g)?.map((x) => x.slice(1, -1)) ?? []);
  const map = show(bridgeDir, rev, 'src/megatron/bridge/utils/activation_map.py') ?? '';
  const names = [];
  for (const block of map.matchAll(/ACTIVATION_FUNC_MAP(?:\s*:[^=]*)?\s*=\s*\{([^}]*)\}|ACTIVATION_FUNC_MAP\.update\(\s*\{([^}]*)\}/g))
    for (const m of (block[1] ?? block[2]).matchAll(/^\s*["']([A-Za-z0-9_.]+)["']\s*:/gm)) names.push(m[1]);
  const changes = [];
  for (const [key, prop] of Object.entries(schema.properties)) {
    if (prop['x-cli'] !== false || !prop.enum || !(prop['x-bridge'] ?? []).length) continue;
    const want = fields.has(key) ? names : [];
    if (JSON.stringify(prop['x-bridge-enum']) !== JSON.stringify(want))
      changes.push({ key, field: 'x-bridge-enum', from: prop['x-bridge-enum'], to: want, why: fields.has(key) ? 'the names of ACTIVATION_FUNC_MAP, which Bridge restores for this field' : 'Bridge keeps a string written here as it is', set: () => setKey(prop, 'x-bridge-enum', want, ['x-bridge']) });
  }
  console.log(`\nBridge: callable fields restored from a name (${[...fields].join(', ') || 'none read'}), ${names.length} names`);
  return changes;
}

/**
 * Megatron Bridge's `mixed_precision` mirrors: MixedPrecisionConfig (training/mixed_precision.py)
 * has fields of the same name as fields of the model, optimizer and DDP configs, and whenever
 * `mixed_precision` is set its setup copies every field that differs onto each of them
 * (update_config_with_precision_overrides), so `mixed_precision.<f>` wins over `model.<f>`,
 * `optimizer.<f>` and `ddp.<f>`. Every property with such a Bridge path gets `mixed_precision.<f>`
 * in `x-bridge`, and its description's Bridge line says which spelling wins.
 */
export function bridgeMixedPrecisionChanges(bridgeDir, schema) {
  const rev = schema['x-source'].bridgeCommit;
  const src = show(bridgeDir, rev, 'src/megatron/bridge/training/mixed_precision.py') ?? '';
  // Only where the copy loop is the one described above.
  if (!/for \w+ in fields\(mixed_precision_config\)/.test(src) || !/setattr\(config, \w+\.name/.test(src)) return [];
  const body = /^class MixedPrecisionConfig\b[^\n]*\n((?:[ \t]+[^\n]*\n|\n)*)/m.exec(src)?.[1] ?? '';
  const fields = [...body.matchAll(/^ {4}(\w+)\s*:/gm)].map((m) => m[1]);
  const changes = [];
  const mirrored = [];
  for (const [key, prop] of Object.entries(schema.properties)) {
    const have = prop['x-bridge'];
    if (!have) continue;
    const copied = fields.filter((f) => ['model', 'optimizer', 'ddp'].some((s) => have.includes(`${s}.${f}`)));
    if (!copied.length) continue;
    const want = [...have, ...copied.map((f) => `mixed_precision.${f}`).filter((p) => !have.includes(p))];
    const note = `\`mixed_precision.${copied[0]}\` wins: when \`mixed_precision\` is set, Bridge copies its value over the same field of \`model\`, \`optimizer\` and \`ddp\``;
    const md = prop.markdownDescription;
    const line = typeof md === 'string' ? /\nMegatron Bridge: [^\n]*/.exec(md)?.[0] : undefined;
    const newLine = line && `\nMegatron Bridge: ${want.map((p) => `\`${p}\``).join(', ')} (${note})${/ {2}$/.test(line) ? '  ' : ''}`;
    mirrored.push(`${key}: ${copied.map((f) => `mixed_precision.${f}`).join(', ')}`);
    if (JSON.stringify(want) !== JSON.stringify(have)) changes.push({ key, field: 'x-bridge', from: have, to: want, why: 'MixedPrecisionConfig copies its field over the model/optimizer/DDP field of the same name', set: () => (prop['x-bridge'] = want) });
    if (line && newLine !== line) changes.push({ key, field: 'markdownDescription', from: line.trim(), to: newLine.trim(), why: 'the Bridge spellings and which one wins', set: () => (prop.markdownDescription = md.replace(line, newLine)) });
  }
  console.log(`\nBridge mixed_precision fields copied over a model/optimizer/DDP field (${mirrored.length}):`);
  for (const m of mirrored) console.log(`  ${m}`);
  return changes;
}
