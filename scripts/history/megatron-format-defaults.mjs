// The default of an argument as each config format reads it (`x-default-in`), where it differs from
// the command line's (`default`, `x-default-before`).
//
// Megatron-LM's argparse defaults are what a launch script gets. The other Megatron formats build
// Megatron Core's config dataclasses from a file, and a key the file leaves out takes the dataclass's
// own default, which for some fields is not the flag's (`--no-masked-softmax-fusion` leaves the fusion
// on, while TransformerConfig's `masked_softmax_fusion` is False):
//
// - `yaml-cfg`: Megatron-LM's `--yaml-cfg` reader builds TransformerConfig (MLATransformerConfig with
//   `multi_latent_attention`) from the `language_model` and `model_parallel` keys it finds, by name
//   (training/yaml_arguments.py, core_transformer_config_from_yaml / core_config_from_args): a field the
//   file leaves out keeps the dataclass's default. A key the reader reads itself on every path
//   (`args.overlap_p2p_comm`, for `batch_p2p_comm`) has no default there: the reader stops on the
//   missing attribute, so the fact is unknown. Top-level keys are not recorded (the reader gives them
//   no default).
// - `nemo`: NeMo's Megatron GPT model (megatron_base_model.py, build_transformer_config and
//   build_model_parallel_config) copies the `model:` keys that are fields of ModelParallelConfig and
//   TransformerConfig by name; a field it leaves out keeps the dataclass's default, except the fields
//   NeMo sets itself from a `cfg.get(key, default)` (NEMO_OWN, read by hand at `x-source.nemoCommit`).
// - `bridge`: a Megatron Bridge override's `model.*` is a field of the model provider, a subclass of
//   TransformerConfig; `optimizer.*` of OptimizerConfig; `ddp.*` of DistributedDataParallelConfig. A
//   field that some provider class under src/megatron/bridge/models declares with another default (or
//   a computed one) has no default a bare override can know: the provider the recipe picks decides, so
//   the fact records it as unknown (with the providers that set it), never the Core value.
//
// Each format's fact is a list of runs of Megatron Core releases, oldest first: `{ from?, value }`,
// `{ from?, unknown }` (why it cannot be known), with `mla` where MLATransformerConfig gives the field
// another default (used with `multi_latent_attention` on), or `{ from, cli: true }` for releases whose
// config has no such field (the command line's default then applies). It is written only where some
// release's format default differs from that release's command-line default.
import { compareVersions, git, releaseTags, show } from './git.mjs';
import { classDefaults } from './megatron-parser.mjs';
import { literalDefault, statements, tokenize } from './python.mjs';
import { setKey } from './write.mjs';
import { RawNumber, schemaDefault } from './json.mjs';
import { bridgeReleases, providerDeclarations } from './bridge-model-since.mjs';

/**
 * Fields NeMo's GPT model sets itself, from its own `cfg.get` reads, whatever the dataclass says
 * (megatron_base_model.py@8cfedd7, build_transformer_config's config_mapping): dest → default.
 */
const NEMO_OWN = {
  // `apply_rope_fusion = self.cfg.get('apply_rope_fusion', False)`: megatron_base_model.py@8cfedd7:554.
  apply_rope_fusion: false,
  // `rotary_interleaved = self.cfg.get('rotary_interleaved', False)`: megatron_base_model.py@8cfedd7:533.
  rotary_interleaved: false,
};

/** The command-line default of `prop` at release `v` (`x-default-before`, else `default`). */
function cliDefaultAt(prop, v) {
  const before = prop['x-default-before'];
  if (before) for (const k of Object.keys(before).sort(compareVersions)) if (compareVersions(v, k) < 0) return schemaDefault(before[k]);
  return schemaDefault(prop.default);
}

/** A schema value with its numbers as read (RawNumber, which keeps `1.0` as written) made plain. */
const plain = (v) => (v instanceof RawNumber ? Number(v.text) : Array.isArray(v) ? v.map(plain) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)])) : v);

const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The field default of a Python literal's text (`True`, `"p2p"`, `40`), or undefined when computed. */
function literalText(text) {
  const d = literalDefault(tokenize(text.trim()).filter((t) => t.t !== 'nl' && t.t !== 'start'));
  return d.dynamic === undefined ? { value: d.value } : undefined;
}

/**
 * `field → Map(default text → Set(provider file))` of the fields the model provider classes declare
 * with a default, over every Bridge revision in `revs`.
 */
function providerDefaults(bridgeDir, revs) {
  const out = new Map();
  for (const rev of revs)
    for (const [field, texts] of providerDeclarations(bridgeDir, rev))
      for (const [text, files] of texts) {
        if (!text) continue;
        if (!out.has(field)) out.set(field, new Map());
        const have = out.get(field);
        if (!have.has(text)) have.set(text, new Set());
        for (const f of files) have.get(text).add(f);
      }
  return out;
}

/**
 * The keys Megatron-LM's `--yaml-cfg` reader reads as attributes on every path through
 * core_transformer_config_from_yaml (training/yaml_arguments.py) at `rev`: left out, the run stops.
 */
function yamlCfgRequired(dir, rev) {
  const text = show(dir, rev, 'megatron/training/yaml_arguments.py');
  const out = new Set();
  if (!text) return out;
  const stmts = statements(tokenize(text));
  const k = stmts.findIndex((s) => s.indent === 0 && s.toks[0]?.v === 'def' && s.toks[1]?.v === 'core_transformer_config_from_yaml');
  if (k < 0) return out;
  const body = stmts[k + 1]?.indent;
  for (let j = k + 1; j < stmts.length && stmts[j].indent > 0; j++) {
    const t = stmts[j].toks;
    // Only statements of the function's own body run on every path (an `if` line's condition too).
    if (stmts[j].indent !== body) continue;
    const end = t[0]?.v === 'if' ? t.findIndex((x) => x.v === ':') : t.length;
    for (let i = 0; i + 2 < end; i++) if (t[i].v === 'args' && t[i + 1].v === '.' && t[i + 2].t === 'name' && t[i - 1]?.v !== '.') out.add(t[i + 2].v);
  }
  out.delete('model_parallel');
  return out;
}

/** The fact of a Core dataclass default (`{ dynamic }` is unknown: computed when the config is built). */
const coreFact = (d, cls) => (d.dynamic !== undefined ? { unknown: `${cls} computes it when the config is built` } : { value: d.value });

/** A run's value, for comparison: its default, or its unknown reason. */
const runKey = (r) => JSON.stringify([r.value, r.unknown, r.mla, r.cli]);

/** Runs of equal facts, oldest first, each with the release it starts from (the first without). */
function toRuns(perRelease) {
  const runs = [];
  for (const { version, fact } of perRelease) {
    if (runs.length && runKey(runs.at(-1)) === runKey(fact)) continue;
    runs.push(runs.length ? { from: version, ...fact } : { ...fact });
  }
  return runs;
}

/**
 * `x-default-in` of every Megatron property: `releases` are Megatron-LM's (`{ version, rev }`, oldest
 * first); with `bridgeDir` (and `bridgeRevs`, the Bridge tags and commit to read the providers at) the
 * Bridge facts are computed, else the schema's are kept.
 */
export function megatronFormatDefaultChanges(dir, releases, schema, { bridgeDir } = {}) {
  const props = schema.properties;
  // Every Bridge release and the commit the schema describes: a provider any of them has may be the recipe's.
  const commit = schema['x-source'].bridgeCommit;
  // Bridge releases stand for Megatron Core 0.14.0 and later (bridge-model-since.mjs): older releases have no Bridge fact.
  const firstBridgeCore = bridgeDir ? bridgeReleases(bridgeDir, dir)[0]?.core : undefined;
  const bridgeRevs = bridgeDir ? [...releaseTags(bridgeDir, 'v', '0.0.0').map((t) => t.rev), ...(commit && git(bridgeDir, 'cat-file', '-e', `${commit}^{commit}`) !== null ? [commit] : [])] : [];
  const CLASSES = { tc: 'TransformerConfig', mla: 'MLATransformerConfig', opt: 'OptimizerConfig', ddp: 'DistributedDataParallelConfig' };
  const at = releases.map((r) => {
    const got = {};
    for (const [k, cls] of Object.entries(CLASSES)) got[k] = classDefaults(dir, r.rev, cls) ?? new Map();
    return { version: r.version, required: yamlCfgRequired(dir, r.rev), ...got };
  });
  const providers = bridgeDir ? providerDefaults(bridgeDir, bridgeRevs) : undefined;
  /** The TransformerConfig fact of `field` at one release, with MLA's where it differs. */
  const modelFact = (r, field, withMla = true) => {
    const tc = r.tc.get(field);
    const mla = withMla ? r.mla.get(field) : undefined;
    if (!tc && !mla) return undefined;
    // A field only MLATransformerConfig has: its default holds with multi-latent attention on.
    if (!tc) return mla.dynamic === undefined ? { mla: mla.value } : coreFact(mla, 'MLATransformerConfig');
    const fact = coreFact(tc, 'TransformerConfig');
    if (mla && mla !== tc && 'value' in fact && mla.dynamic === undefined && !same(mla.value, fact.value)) fact.mla = mla.value;
    return fact;
  };
  const changes = [];
  for (const [key, prop] of Object.entries(props)) {
    const exists = (v) => (!prop['x-since'] || compareVersions(v, prop['x-since']) >= 0) && (!prop['x-removed'] || compareVersions(v, prop['x-removed'].version) < 0);
    const want = {};
    const section = prop['x-yaml-cfg'];
    const formats = {
      'yaml-cfg': section === 'language_model' || section === 'model_parallel' ? (r) => (r.required.has(key) ? { unknown: "Megatron-LM's `--yaml-cfg` reader reads it itself and stops where the file leaves it out" } : modelFact(r, key)) : undefined,
      // NeMo reads the MLA-only fields (and the position table's size) its own way: Core's MLA defaults are not taken.
      nemo: (prop['x-nemo'] ?? []).includes(`model.${key}`) ? (r) => (key in NEMO_OWN ? { value: NEMO_OWN[key] } : modelFact(r, key, false)) : undefined,
      bridge: bridgeFormat(prop, key, modelFact, providers),
    };
    for (const [format, read] of Object.entries(formats)) {
      if (format === 'bridge' && !providers) {
        if (prop['x-default-in']?.bridge) want.bridge = plain(prop['x-default-in'].bridge);
        continue;
      }
      if (!read) continue;
      const per = at.filter((r) => exists(r.version) && (format !== 'bridge' || !firstBridgeCore || compareVersions(r.version, firstBridgeCore) >= 0)).map((r) => ({ version: r.version, fact: read(r) ?? { cli: true } }));
      const differs = per.some(({ version, fact }) => fact.unknown !== undefined || ('value' in fact && !same(fact.value, cliDefaultAt(prop, version))) || ('mla' in fact && !same(fact.mla, cliDefaultAt(prop, version))));
      if (differs) want[format] = toRuns(per);
    }
    const to = Object.keys(want).length ? want : undefined;
    if (JSON.stringify(plain(prop['x-default-in'])) !== JSON.stringify(to))
      changes.push({ key, field: 'x-default-in', from: prop['x-default-in'], to, why: "the default each config format's dataclasses give the field", set: () => setKey(prop, 'x-default-in', to, ['x-default-before', 'x-default-note', 'default']) });
  }
  return changes;
}

/** How a Bridge override's path of the argument gets its default at a release, or undefined. */
function bridgeFormat(prop, key, modelFact, providers) {
  const paths = prop['x-bridge'] ?? [];
  const path = paths.find((p) => p === `model.${key}`) ?? paths.find((p) => /^(optimizer|ddp)\.\w+$/.test(p));
  if (!path || !providers) return undefined;
  const [section, field] = path.split('.');
  if (section === 'optimizer') return (r) => (r.opt.has(field) ? coreFact(r.opt.get(field), 'OptimizerConfig') : undefined);
  if (section === 'ddp') return (r) => (r.ddp.has(field) ? coreFact(r.ddp.get(field), 'DistributedDataParallelConfig') : undefined);
  const declared = providers.get(field);
  return (r) => {
    const core = modelFact(r, field);
    if (!declared) return core;
    // A provider that sets another default (or a computed one) than Megatron Core's: the recipe's
    // provider decides what a bare override gets.
    const others = [...declared].filter(([text]) => {
      const lit = literalText(text);
      return !lit || !core || core.unknown !== undefined || !same(lit.value, core.value);
    });
    if (!others.length) return core;
    const files = [...new Set(others.flatMap(([, f]) => [...f]))].sort().map((f) => f.replace(/^.*\//, '').replace(/\.py$/, ''));
    return { unknown: `the model provider the recipe picks sets its own (${files.slice(0, 2).map((f) => `\`${f}\``).join(', ')}${files.length > 2 ? ` and ${files.length - 2} more` : ''})` };
  };
}
