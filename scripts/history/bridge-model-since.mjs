// Megatron Bridge paths dated by Bridge's releases (with --bridge): `x-bridge-since`.
//
// A Bridge override sets a field of one of ConfigContainer's sections, and a release whose section
// has no such field skips the key (a log line, omegaconf_utils.py): what the file asks for does not
// happen. At every final Bridge release tag the builder reads the pinned Megatron-LM commit
// (3rdparty/Megatron-LM) for the Megatron Core release it stands for (the first core_v tag that
// contains the pin, or pyproject's lower bound).
//
// `model.*`: the model provider is a subclass of Megatron Core's TransformerConfig, so it has a field
// where the installed Megatron Core's config dataclasses have it (read at the core_v tag of the
// release), or where one of Bridge's own provider classes under src/megatron/bridge/models declares it
// (`    <field>: …`; `yarn_beta_fast`: GPTOSSProvider at Bridge v0.2.0, long before Megatron-LM's flag).
// The provider a file configures is not known from an override, so a field any provider has counts.
// Such a path is dated by Bridge where that date differs from the property's `x-since` (the flag's),
// earlier (`model.yarn_beta_fast`) or later (`model.moe_pad_experts_for_cuda_graph_inference`: the
// flag from 0.15.0, the TransformerConfig field only from 0.17.0).
//
// Every other section (`train`, `validation`, `dist`, `checkpoint`, `logger`, `optimizer`, `ddp`, …)
// is the dataclass ConfigContainer names for it at that release, with the classes it extends, read
// through the imports (bridge-classes.mjs): Bridge's own, Megatron Core's (OptimizerConfig), or from
// Bridge 0.4 Megatron-LM's training configs. A path is dated where the first Bridge release has no such
// field (`validation.skip_train`: no `validation` section before v0.4.0, Megatron Core 0.17.0): from
// the first release after which every release has it. `dataset` and `peft` are left out (the class is
// the recipe's choice, a subclass the builder cannot know).
//
// A path only the Bridge commit the schema describes (`x-source.bridgeCommit`, after the last release)
// has is dated by the Megatron Core release to come (`x-source.version`).
//
// `x-bridge-since` records, per Bridge path, the Megatron Core release of the first Bridge release that
// has it; version-unsupported-key dates a Bridge file by it (a `model` path without one by `x-since`).
import { compareVersions, git, gitLines, releaseTags } from './git.mjs';
import { configFields } from './megatron-parser.mjs';
import { bridgeSectionFields } from './bridge-classes.mjs';
import { setKey } from './write.mjs';

/** The sections whose class a recipe chooses (or that the model rules date): not dated here. */
const UNDATED = new Set(['model', 'dataset', 'peft']);

/** The final Bridge release tags, oldest first, with the Megatron Core release each one pins. */
export function bridgeReleases(bridgeDir, megatronDir) {
  const out = [];
  for (const t of releaseTags(bridgeDir, 'v', '0.0.0')) {
    const pin = /\bcommit ([0-9a-f]{40})\s+3rdparty\/Megatron-LM/.exec(git(bridgeDir, 'ls-tree', t.rev, '3rdparty/') ?? '')?.[1];
    if (!pin) continue;
    const contained = /^core_v(\d+\.\d+\.\d+)(?:[~^]|$)/.exec(gitLines(megatronDir, 'describe', '--tags', '--contains', pin)[0] ?? '')?.[1];
    const bound = /megatron-core[^"\n]*>=\s*(\d+\.\d+\.\d+)/.exec(git(bridgeDir, 'show', `${t.rev}:pyproject.toml`) ?? '')?.[1];
    const core = contained ?? bound;
    if (core) out.push({ tag: t.rev, pin, core });
  }
  return out;
}

/**
 * The fields the model provider classes declare at `rev` (`    <field>: …` in a `*_provider.py`
 * under src/megatron/bridge/models, `gpt_provider.py`, `deepseek/deepseek_provider.py`; not the
 * base `model_provider.py`): `field → Map(default text, '' without one → Set(file under models/))`.
 */
export function providerDeclarations(bridgeDir, rev) {
  const out = new Map();
  for (const line of gitLines(bridgeDir, 'grep', '-n', '-E', '^    [A-Za-z_][A-Za-z0-9_]*\\s*:', rev, '--', 'src/megatron/bridge/models')) {
    const m = /^[^:]+:([^:]+):\d+:\s{4}(\w+)\s*:([^=]*)(?:=\s*(.*))?$/.exec(line);
    if (!m) continue;
    const [, file, field, , text] = m;
    if (!/(^|\/)\w+_provider\.py$/.test(file) || file.endsWith('/model_provider.py')) continue;
    if (!out.has(field)) out.set(field, new Map());
    const texts = out.get(field);
    const key = (text ?? '').replace(/\s+#.*$/, '').trim();
    if (!texts.has(key)) texts.set(key, new Set());
    texts.get(key).add(file.replace(/^src\/megatron\/bridge\/models\//, ''));
  }
  return out;
}

/** The index of the first release from which every later one has the path (-1: the last lacks it). */
function firstOfRun(has) {
  let first = -1;
  for (let i = has.length - 1; i >= 0 && has[i]; i--) first = i;
  return first;
}

/** The Bridge date of a `model.<field>` path, where it differs from `x-since`; else undefined. */
function modelSince(prop, has, releases) {
  const first = firstOfRun(has);
  if (first < 0) return undefined;
  const from = releases[first].core;
  // Present at the first Bridge release: dated by Bridge only where the flag is younger still.
  if (first === 0) return prop['x-since'] && compareVersions(prop['x-since'], from) > 0 ? from : undefined;
  return prop['x-since'] === from ? undefined : from;
}

/** `x-bridge-since` of every property whose Bridge paths some targeted Bridge release does not have. */
export function bridgeModelSinceChanges(bridgeDir, megatronDir, schema) {
  const releases = bridgeReleases(bridgeDir, megatronDir);
  if (!releases.length) return [];
  // The Bridge commit the schema describes, after the last release: the Megatron Core release to come.
  const src = schema['x-source'];
  if (src.bridgeCommit && !releases.some((r) => git(bridgeDir, 'rev-parse', `${r.tag}^{commit}`)?.trim() === src.bridgeCommit) && compareVersions(src.version, releases.at(-1).core) > 0)
    releases.push({ tag: src.bridgeCommit, pin: src.bridgeMegatronCommit, core: src.version });
  // Megatron Core as the release is installed: its core_v tag, else the commit Bridge pins.
  const coreRev = (r) => (git(megatronDir, 'rev-parse', '-q', '--verify', `core_v${r.core}^{commit}`) ? `core_v${r.core}` : r.pin);
  const coreAt = new Map();
  const modelFields = releases.map((r) => {
    if (!coreAt.has(r.core)) coreAt.set(r.core, configFields(megatronDir, coreRev(r)));
    const provided = providerDeclarations(bridgeDir, r.tag);
    return (f) => coreAt.get(r.core).has(f) || provided.has(f);
  });
  const sections = releases.map((r) => bridgeSectionFields(bridgeDir, r.tag, megatronDir, coreRev(r), UNDATED));
  const changes = [];
  const dated = [];
  for (const [key, prop] of Object.entries(schema.properties)) {
    const want = {};
    for (const path of prop['x-bridge'] ?? []) {
      const [section, ...rest] = path.split('.');
      if (rest.length !== 1) continue;
      let from;
      if (section === 'model') {
        from = modelSince(prop, modelFields.map((has) => has(rest[0])), releases);
      } else {
        if (UNDATED.has(section) || sections.some((s) => s.get(section) === null)) continue;
        const first = firstOfRun(sections.map((s) => !!s.get(section)?.has(rest[0])));
        if (first > 0) from = releases[first].core;
      }
      if (from) {
        want[path] = from;
        dated.push(`${path}: Megatron Core ${from}${prop['x-since'] ? `, flag ${prop['x-since']}` : ''}`);
      }
    }
    const to = Object.keys(want).length ? want : undefined;
    if (JSON.stringify(prop['x-bridge-since']) !== JSON.stringify(to))
      changes.push({ key, field: 'x-bridge-since', from: prop['x-bridge-since'], to, why: 'the first Bridge release whose config section has the field', set: () => setKey(prop, 'x-bridge-since', to, ['x-bridge']) });
  }
  console.log(`\nBridge: paths dated by Bridge's releases (x-bridge-since), ${releases.map((r) => `${r.tag}→${r.core}`).join(', ')}`);
  for (const d of dated) console.log(`  ${d}`);
  return changes;
}
