/**
 * The DeepSpeed config keys a repository's own Python reads: a library that wraps DeepSpeed (its own
 * `DeepSpeedConfig` subclass, a launcher that edits the dict before `deepspeed.initialize`) may read
 * a section DeepSpeed does not have (`"msamp": {...}`), and such a key in the repository's JSON is
 * its setting, not a slip. The host reads the files (host/repository.ts); this reads their text.
 *
 * Only files that name DeepSpeed are read, and only reads from a mapping whose name says it is a
 * DeepSpeed config (`param_dict`, `ds_config`, `deepspeed_config`, `ds_dict`..., or bare `config`, `cfg`):
 * `x["key"]`, `x.get("key")`, `"key" in x`, `x.pop("key")`, `x.setdefault("key")`, and DeepSpeed's
 * own helpers `get_scalar_param(x, "key", …)` / `get_dict_param` / `get_list_param`. A key written as
 * a module constant (`MSAMP = 'msamp'`, then `param_dict.get(MSAMP, {})`) counts as its value.
 */

/**
 * A name a DeepSpeed config mapping goes by: DeepSpeed's own `param_dict`, a name that says DeepSpeed
 * (`ds_config`, `self.deepspeed_cfg`, `train_ds_dict`), or a bare `config`/`cfg`/`config_dict`. Another
 * config's name (`model_config`, `training_cfg`) is not one: its keys are that config's.
 */
const DICT = String.raw`(?:\w*param_dict|(?:\w*_)?(?:ds|deepspeed)_(?:config|cfg|conf|dict|params?)\w*|config_dict|config|cfg)\b`;
/** A key: a string literal, or an upper-case constant. */
const KEY = String.raw`(?:(['"])([A-Za-z_]\w*)\1|([A-Z][A-Z0-9_]*))`;

/** At most this many keys of one file (a generated file is not a wrapper). */
const MAX_KEYS = 2000;

/** Module-level string constants (`MSAMP = 'msamp'`, `MSAMP: str = "msamp"`). */
function constants(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/^([A-Z][A-Z0-9_]*)\s*(?::\s*str\s*)?=\s*(['"])([A-Za-z_]\w*)\2\s*(?:#.*)?$/gm)) if (!out.has(m[1])) out.set(m[1], m[3]);
  return out;
}

/** The key names a Python file's text reads from a DeepSpeed config mapping (see the header). */
export function deepspeedConfigReads(text: string): string[] {
  if (!/deepspeed/i.test(text)) return [];
  const names = constants(text);
  const out = new Set<string>();
  const key = (m: RegExpMatchArray, at: number): void => {
    const k = m[at + 1] ?? (m[at + 2] !== undefined ? names.get(m[at + 2]) : undefined);
    if (k && out.size < MAX_KEYS) out.add(k);
  };
  const patterns: [RegExp, number][] = [
    // param_dict["msamp"], ds_config.get(MSAMP, {}), config.pop("x"), cfg.setdefault("x", …)
    [new RegExp(String.raw`\b${DICT}\s*(?:\[\s*|\.(?:get|pop|setdefault)\(\s*)${KEY}`, 'g'), 1],
    // "msamp" in ds_config, MSAMP not in param_dict
    [new RegExp(String.raw`${KEY}\s+(?:not\s+)?in\s+(?:self\.)?${DICT}\b`, 'g'), 1],
    // get_scalar_param(param_dict, "enabled", False), get_dict_param(x.get(Y, {}), "z", …)
    [new RegExp(String.raw`\bget_(?:scalar|dict|list)_param\(\s*[^,()]*(?:\([^()]*\))?[^,()]*,\s*${KEY}`, 'g'), 1],
  ];
  for (const [re, at] of patterns) for (const m of text.matchAll(re)) key(m, at);
  return [...out];
}
