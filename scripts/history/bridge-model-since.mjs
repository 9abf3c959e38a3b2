// Megatron Bridge `model.*` paths dated by Bridge's releases (with --bridge): a Bridge override sets
// the field of the model provider, which Bridge's own provider classes (GPTModelProvider and the
// model-family providers) may declare long before Megatron-LM gets a command-line flag of that name
// (`yarn_beta_fast`: GPTOSSProvider at Bridge v0.2.0, GPTModelProvider from v0.4.0, the flag only
// in Megatron-LM 0.19.0; Megatron Core's GPTModel reads it off its config with getattr). Only fields
// that Megatron Core's config dataclasses do not hold (at `x-source.commit`) are dated so: a
// TransformerConfig field is in the provider only where the installed Megatron Core has it, which
// `x-since` already dates (no flag of such a field is younger than the field). At every final Bridge
// release tag the builder reads the pinned Megatron-LM commit (3rdparty/Megatron-LM) for the Megatron
// Core release it stands for (the first core_v tag that contains the pin, or pyproject's lower bound)
// and whether any provider class under src/megatron/bridge/models declares the field (`    <field>:
// …`). `x-bridge-since` records, per Bridge path, the Megatron Core release of the first Bridge
// release that has it, where that is earlier than the property's `x-since` (the flag's). The provider
// a file configures is not known from an override, so a field any provider has counts:
// version-unsupported-key must not call a setting that some provider of the release reads skipped.
import { compareVersions, git, gitLines, releaseTags } from './git.mjs';
import { configFields } from './megatron-parser.mjs';
import { setKey } from './write.mjs';

/** The final Bridge release tags, oldest first, with the Megatron Core release each one pins. */
function bridgeReleases(bridgeDir, megatronDir) {
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

/** `x-bridge-since` of every property with a `model.*` Bridge path dated later by its flag than by Bridge. */
export function bridgeModelSinceChanges(bridgeDir, megatronDir, schema) {
  const releases = bridgeReleases(bridgeDir, megatronDir);
  const core = configFields(megatronDir, schema['x-source'].commit);
  const declared = (r, f) => !!git(bridgeDir, 'grep', '-l', '-E', `^    ${f}\\s*:`, r.tag, '--', 'src/megatron/bridge/models');
  const changes = [];
  const dated = [];
  for (const [key, prop] of Object.entries(schema.properties)) {
    const want = {};
    for (const path of prop['x-bridge'] ?? []) {
      if (!path.startsWith('model.') || !prop['x-since'] || !releases.length) continue;
      if (compareVersions(prop['x-since'], releases[0].core) <= 0 || core.has(path.slice('model.'.length))) continue;
      const first = releases.find((r) => compareVersions(r.core, prop['x-since']) < 0 && declared(r, path.slice('model.'.length)));
      if (first) {
        want[path] = first.core;
        dated.push(`${path}: Bridge ${first.tag} (Megatron Core ${first.core}), flag ${prop['x-since']}`);
      }
    }
    const to = Object.keys(want).length ? want : undefined;
    if (JSON.stringify(prop['x-bridge-since']) !== JSON.stringify(to))
      changes.push({ key, field: 'x-bridge-since', from: prop['x-bridge-since'], to, why: 'a Bridge model provider has the field (no Megatron Core config field) before Megatron-LM has the flag', set: () => setKey(prop, 'x-bridge-since', to, ['x-bridge']) });
  }
  console.log(`\nBridge: model paths Bridge has before the flag (x-bridge-since), ${releases.map((r) => `${r.tag}→${r.core}`).join(', ')}`);
  for (const d of dated) console.log(`  ${d}`);
  return changes;
}
