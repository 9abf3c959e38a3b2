// The release from which Megatron-LM's `--yaml-cfg` reader takes a key, where that comes before the
// key's command-line flag (`x-since`). The reader does not go through argparse: it builds
// TransformerConfig from the fields of `language_model` and `model_parallel` (yaml_arguments.py,
// core_transformer_config_from_yaml), and it keeps every top-level key as an attribute of the run's
// arguments, which the training loop copies by name into the config dataclasses it builds from them
// (`for f in dataclasses.fields(DistributedDataParallelConfig): if hasattr(args, f.name): …`,
// training.py@core_v0.17.0:1444-1447; OptimizerConfig the same way). A key that is a field of one of
// those dataclasses is therefore read from a `--yaml-cfg` file from the first release whose
// dataclass has it, even where no flag spells it yet (`fsdp_db_use_persist_buf_on_alloc_fail`: a
// DistributedDataParallelConfig field from 0.17.0, its flag from 0.19.0). That release is
// `x-yaml-cfg-since`, which version-unsupported-key dates a `--yaml-cfg` file by. Only the run of
// releases that leads up to the flag without a gap counts.
import { compareVersions, show } from './git.mjs';
import { classFields } from './megatron-parser.mjs';
import { setKey } from './write.mjs';

const TRAINING = 'megatron/training/training.py';

/** The config dataclasses the training loop fills by name from the run's arguments at `rev`. */
function copiedClasses(dir, rev) {
  const src = show(dir, rev, TRAINING) ?? '';
  const out = new Set();
  for (const m of src.matchAll(/for (\w+) in (?:dataclasses\.)?fields\((\w+)\):\s*\n\s*if hasattr\(args, \1\.name\)/g)) out.add(m[2]);
  return out;
}

/** The `x-yaml-cfg-since` changes, with a report of what was found. */
export function megatronYamlCfgSinceChanges(dir, releases, props) {
  const withReader = releases.filter((r) => compareVersions(r.version, '0.6.0') >= 0);
  const fieldsAt = withReader.map((r) => {
    const names = new Set([...classFields(dir, r.rev, 'TransformerConfig'), ...classFields(dir, r.rev, 'ModelParallelConfig')]);
    for (const cls of copiedClasses(dir, r.rev)) for (const f of classFields(dir, r.rev, cls)) names.add(f);
    return names;
  });
  const changes = [];
  const found = [];
  for (const [key, prop] of Object.entries(props)) {
    const flag = prop['x-since'];
    let want;
    if (flag && prop['x-yaml-cfg'] !== undefined && !prop['x-yaml-cfg-unread'] && prop['x-cli'] !== false) {
      const dest = prop['x-dest'] ?? key;
      // The releases before the flag's, newest first: the run that has the field without a gap.
      const before = withReader.map((r, i) => ({ r, has: fieldsAt[i].has(dest) })).filter(({ r }) => compareVersions(r.version, flag) < 0).reverse();
      for (const { r, has } of before) {
        if (!has) break;
        want = r.version;
      }
    }
    if (want) found.push(`${key}: ${want} (flag ${flag})`);
    if (prop['x-yaml-cfg-since'] === want) continue;
    changes.push({ key, field: 'x-yaml-cfg-since', from: prop['x-yaml-cfg-since'], to: want, why: want ? 'a field of a config dataclass the --yaml-cfg path fills before the flag' : 'no earlier config field', set: () => setKey(prop, 'x-yaml-cfg-since', want, ['x-yaml-cfg']) });
  }
  console.log(`\nKeys a --yaml-cfg file sets before their flag (config dataclass fields, x-yaml-cfg-since) (${found.length}):`);
  for (const f of found) console.log(`  ${f}`);
  return changes;
}
