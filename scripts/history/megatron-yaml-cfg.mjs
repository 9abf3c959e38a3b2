// Megatron-LM's `--yaml-cfg` reader (megatron/training/yaml_arguments.py, core_transformer_config_from_yaml)
// builds the model's config from the fields of TransformerConfig alone: it copies each of them from
// `language_model` and `model_parallel`, then builds an MLATransformerConfig from that same set when
// `multi_latent_attention` is on. A field only the MLA subclass declares (q_lora_rank, kv_lora_rank, …)
// is therefore never copied: written under `language_model` it keeps its default. Such properties get
// `x-yaml-cfg-unread` (the sentence unread-key says), computed at the newest release; every release
// with the reader builds the config the same way.
import { classFields } from './megatron-parser.mjs';
import { setKey } from './write.mjs';

const WHY = "Megatron-LM's `--yaml-cfg` reader copies only TransformerConfig's own fields from `language_model` (yaml_arguments.py, core_transformer_config_from_yaml), and builds the multi-latent-attention config from that same set, so this field of MLATransformerConfig keeps its default";

/** The `x-yaml-cfg-unread` changes, for properties written under a `--yaml-cfg` section. */
export function megatronYamlCfgChanges(dir, releases, props) {
  const newest = releases.at(-1);
  const tc = classFields(dir, newest.rev, 'TransformerConfig');
  const mla = classFields(dir, newest.rev, 'MLATransformerConfig');
  const changes = [];
  if (!tc.size || !mla.size) return changes;
  for (const [key, prop] of Object.entries(props)) {
    const section = prop['x-yaml-cfg'];
    const want = (section === 'language_model' || section === 'model_parallel') && mla.has(key) && !tc.has(key) ? WHY : undefined;
    if (prop['x-yaml-cfg-unread'] === want) continue;
    changes.push({ key, field: 'x-yaml-cfg-unread', from: prop['x-yaml-cfg-unread'], to: want, why: 'a field of MLATransformerConfig only, which the --yaml-cfg reader does not copy', set: () => setKey(prop, 'x-yaml-cfg-unread', want, ['x-yaml-cfg']) });
  }
  return changes;
}
