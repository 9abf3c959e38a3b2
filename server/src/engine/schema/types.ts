/** The subset of JSON Schema (draft-07) and of Shardwise's `x-` keywords the engine reads. */
export interface Deprecation {
  since?: string;
  /** `warned`: it still works, and the launcher says at run time that it is deprecated. */
  effect: 'ignored' | 'migrated' | 'error' | 'no-effect' | 'warned';
  /** A key of the same section, or a dotted path from the document root. */
  replacement?: string;
  /** Old value (as JSON text) → value to write under the replacement (null: just remove the old key). */
  replacementValue?: Record<string, unknown>;
  /**
   * Releases (from `since`, before `until`) whose conversion of the old key differs from
   * `replacementValue` (DeepSpeed 0.7.0 turns `cpu_offload_param: true` into device `none`): there
   * the replacement changes what runs, so its fix is unsafe.
   */
  replacementDiffers?: { since: string; until: string }[];
  message?: string;
  /**
   * The effect happens only on a path the file does not decide (DeepSpeed refuses `max_grad_norm`
   * only when it builds the optimizer itself): an `error` effect is then reported as a warning.
   */
  conditional?: boolean;
  /**
   * From this release the tool stops when the file writes the key together with its replacement (a
   * sibling, under any spelling of it): DeepSpeed's pydantic configs assert that a deprecated field
   * and the field it converts into are not both given. An `"auto"` value is dropped before the
   * check and does not count.
   */
  refusedWithReplacementSince?: string;
  /**
   * Megatron-LM: the tool stops at start-up when the key is set, unless another argument (`key`, by
   * dest) has this value: `--no-position-embedding` raises without `--position-embedding-type rope`.
   */
  refusedUnless?: { key: string; equals: unknown };
  /**
   * What the key asked for is what runs anyway (a default now gives it) unless one of these keys of
   * the same document has one of these values: with none of them written, being ignored changes
   * nothing (`--use-flash-attn`: the attention backend is chosen automatically, except with the local
   * implementation).
   */
  mattersWith?: Record<string, unknown[]>;
  /**
   * The tool reads the key (and does what `effect` says) only while one of these top-level keys of
   * the same document has one of these values as written; otherwise nothing reads it, whatever
   * `effect` says (DeepSpeed takes the top-level `allgather_size` only beside the boolean
   * `zero_optimization: true`). Moving such a key to its replacement there makes it count.
   */
  readWith?: Record<string, unknown[]>;
  /**
   * The phases before `since`, oldest first (`x-deprecated` itself is the newest): from each `since`
   * the key had that effect (converted with a warning, then ignored, …). The other fields are shared.
   */
  earlier?: { since: string; effect: Deprecation['effect']; message?: string }[];
  /** Set by the reader for the release in question: the first release that deprecated the key. */
  firstSince?: string;
  /**
   * A migrated key whose conversion writes the replacement even when the file sets it (Megatron-LM's
   * `--use-rotary-position-embeddings` sets `position_embedding_type` to `rope` over whatever is
   * written): a replacement written with another value is silently overridden.
   */
  overrides?: boolean;
  /**
   * Megatron: what Megatron Bridge does with the key, where that is not what Megatron-LM's argument
   * checks do (a migration only validate_args makes, a field Bridge reads itself): used for a Bridge
   * override in place of the fields above. `since` is the Megatron Core release of the first Bridge
   * release it holds for; `replacement` is an argument (written at its Bridge path).
   */
  bridge?: Omit<Deprecation, 'bridge' | 'earlier' | 'firstSince'>;
}

export interface KeyPrefix {
  add: string;
  unlessStartsWith: string;
  since?: string;
}

export interface JsonSchema {
  $id?: string;
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  if?: JsonSchema;
  then?: JsonSchema;
  else?: JsonSchema;
  definitions?: Record<string, JsonSchema>;
  default?: unknown;
  deprecated?: boolean;
  title?: string;
  description?: string;
  markdownDescription?: string;
  markdownEnumDescriptions?: string[];
  'x-since'?: string;
  /**
   * The section is not read when the document also writes the named sibling key (DeepSpeed takes
   * its bf16 settings from `bf16` and reads the legacy `bfloat16` only when `bf16` is absent), from
   * `since` on: what is written inside it is never looked at there.
   */
  'x-unread-beside'?: { key: string; since?: string };
  /** Megatron: the first release of a command-line spelling younger than the setting it spells. */
  'x-flag-since'?: Record<string, string>;
  /** Megatron: the first release whose parser no longer has an older command-line spelling of the setting (`--local_rank` up to 0.8.0). */
  'x-flag-removed'?: Record<string, string>;
  /** Accelerate: before this release the launcher read this prefixed key only without its prefix (`offload_params`). */
  'x-bare-until'?: string;
  /** Megatron: the values a Megatron Bridge override of this field is read by (Bridge's own names; empty: a string is kept as written), or the Megatron-LM values Bridge's run takes where it refuses others its config accepts. */
  'x-bridge-enum'?: string[];
  /** Megatron: for a Bridge path of `x-bridge-unread`, the Megatron Core release of the first Bridge release that no longer reads it. */
  'x-bridge-unread-since'?: Record<string, string>;
  /** Megatron: for a `model.*` Bridge path, the Megatron Core release of the first Bridge release whose model providers have the field, where earlier than `x-since` (the flag's). */
  'x-bridge-since'?: Record<string, string>;
  /** Megatron: the first release whose `--yaml-cfg` path reads the key, a config dataclass field, where that is earlier than `x-since` (the flag's). */
  'x-yaml-cfg-since'?: string;
  /**
   * Megatron only: the default a config format's dataclasses give the argument where it differs from
   * the command line's (see schemas/README.md): runs of releases, oldest first.
   */
  'x-default-in'?: Partial<Record<DefaultFormat, DefaultRun[]>>;
  'x-enum-since'?: Record<string, string>;
  /** `lower`: `x-enum-since` is keyed in lower case and a value is looked up in any letter case. */
  'x-enum-since-case'?: 'lower';
  /** With `x-enum-since-case`: spellings looked up as written elsewhere in older releases (no release gate). */
  'x-enum-since-exact'?: string[];
  'x-env'?: string;
  /** Accelerate: the variable the launcher exported the key as in older releases, keyed by the release the next name starts at. */
  'x-env-before'?: Record<string, string>;
  'x-default-note'?: string;
  /** Defaults of older releases: `{ release: value }`, the default of the releases before that one (back to the previous entry); `default` from the last entry on. */
  'x-default-before'?: Record<string, unknown>;
  'x-deprecated'?: Deprecation;
  /** The integrations that fill an `"auto"` value here (empty: accepted but dropped, DeepSpeed's default applies). */
  'x-auto'?: ('transformers' | 'accelerate')[];
  /** What an unfilled `"auto"` does where the key's reader does not go through the validated section (a clause). */
  'x-auto-effect'?: string;
  /** This property is another spelling of the named sibling (pydantic field name vs alias). */
  'x-alias-of'?: string;
  /** Read only at ZeRO stage ≥ N, or only at the listed stages. */
  'x-requires-stage'?: number | number[];
  /** The name (argparse dest, a `--yaml-cfg` key) the argument had before each release: `{ "0.18.0": "tokenizer_special_tokens" }`. */
  'x-name-before'?: Record<string, string>;
  /** Removed from the tool: the version that removed it and what replaced it, if anything. */
  'x-removed'?: { version: string; replacement?: string };
  'x-deprecated-values'?: Record<string, Deprecation>;
  'x-normalize'?: 'upper' | 'lower';
  /** The first release that normalizes the value's case (`x-normalize`); before it the value is matched as written. */
  'x-normalize-since'?: string;
  /**
   * Before `version` the tool does not refuse a value outside the schema: it silently runs with
   * another (`effect` says which), so a finding there is a warning and a correction changes the run.
   * With `bounds`, only a value that breaks nothing but the numeric bounds runs there; any other is
   * refused at every release.
   */
  'x-invalid-runs-before'?: { version: string; effect: string; bounds?: boolean };
  /**
   * A range the value is meant to lie in that no release of the tool checks (the bounds are kept out
   * of the validating keywords): a value outside it runs, and is noted as a hint. `enum`: the names
   * the tool knows for a key it takes as free text (a lookup with a fallback, an `if`/`elif` chain
   * with no `else` that raises): another name runs but is ignored (`why` says how), which is a
   * warning, since what the file asks for does not happen.
   */
  'x-advised'?: { minimum?: number; maximum?: number; exclusiveMinimum?: number; exclusiveMaximum?: number; enum?: unknown[]; why?: string };
  /**
   * Megatron: `"null"`, a config field that holds a function or object set in code: a file can only
   * write null there (formats/megatron/callbacks.ts says what another value does).
   */
  'x-value'?: 'null';
  'x-key-prefix'?: KeyPrefix;
  'x-required-prefix'?: string;
  'x-applies-to'?: string[];
  /** The first release whose launch path for a type reads the section, where later than the section. */
  'x-applies-to-since'?: Record<string, string>;
  'x-sagemaker-unused'?: true | { since?: string; before?: string };
  'x-launch-ignores'?: true | { since?: string; before?: string };
  /** Accelerate: releases before this one stop when the key is absent (the launcher exports `None`, which the plugin's int() refuses). */
  'x-required-before'?: string;
  /**
   * DeepSpeed: keys of the section that its reader asserts when the section's `enabled` is true, each
   * at every release that reads the section (`{}`) or only in a range of releases.
   */
  /** What the tool does with an explicit null, which its reader takes as the value (`dict.get` gives None, not the default), from `since`. */
  'x-null-effect'?: { since?: string; effect: string };
  'x-required-when-enabled'?: Record<string, RequiredRange | RequiredRange[]>;
  'x-unknown-key-effect'?: 'error' | 'ignored';
  /** The first release whose reader refuses unknown keys here (`x-unknown-key-effect: error`); earlier ones ignored them. */
  'x-strict-since'?: string;
  /** Megatron-LM: the first release whose parser takes several words for the flag (`x-nargs`); before it, one. */
  'x-nargs-since'?: string;
  /** The arity of the releases before each key: a word count (0: a switch) or argparse's `*`, `+`, `?` (`--spec`: 2 before 0.5.0). */
  'x-nargs-before'?: Record<string, number | string>;
  /** Megatron-LM: the numeric type of the values a flag took in the releases before each key, where it differs from `type` (`--rl-generation-lag`: `integer` before 0.20.0). */
  'x-type-before'?: Record<string, 'integer' | 'number'>;
  /** The first release whose reader checks this key's value although its section is still read key by key. */
  'x-value-checked-since'?: string;
  /**
   * The first release that ignores an unknown key here; earlier ones refuse it (Accelerate's launcher
   * before 0.16.0 looks each `deepspeed_config` key up on its parsed arguments and stops on one it lacks).
   */
  'x-strict-until'?: string;
  /**
   * The section's keys are handed on (and an unknown one refused, as `x-unknown-key-effect` says) only
   * while its `enabled` is true: what then happens to an unknown key. With the section off nothing reads them.
   */
  'x-unknown-key-when-enabled'?: string;
  /**
   * The section's values (or, on a key, the key's value) are checked only while a switch is on: its
   * `enabled` true, its `key` (or the key at the absolute path `at`) above `above` or equal to
   * `equals`. On a key, a list: every gate must be on for the value to be read.
   */
  'x-values-checked-when-enabled'?: ValuesGate | ValuesGate[];
  'x-auto-dropped-since'?: string;
  /**
   * DeepSpeed: the section is validated by a pydantic model at the releases where it is strict
   * (`x-strict-since` on), which coerces values in lax mode (`"128"` for a number, `true` for 1).
   */
  'x-pydantic'?: true;
  /** DeepSpeed: the key's pydantic field is a union with `str` (`Union[str, int]`): text stays text. */
  'x-pydantic-text'?: true;
  /** DeepSpeed: a stage-3 key that ZeRO stages 1 and 2 refuse where they read it (what happens, in words), not ignore. */
  'x-refused-below-stage'?: string;
  /** A switch the tool tests with `if` and nothing else (why, in words): any value runs, as true or false. */
  'x-read-truthy'?: string;
  /**
   * DeepSpeed: a switch its reader tests by identity (`is False`), not by truth: only the literal
   * `literal` has that effect, and any other value (`0`, `""`, `"false"`) runs as the opposite
   * (`pipeline.use_reentrant`: only `false` selects the non-reentrant checkpoint function).
   * `mixed`: the releases that also test it by truth elsewhere, and what a value whose truth is
   * `literal` then does there.
   */
  'x-read-identity'?: { literal: boolean; mixed?: { since?: string; before?: string; effect: string } };
  /**
   * DeepSpeed: a key only a tool started by a launch mode reads (the autotuner, started by
   * `deepspeed --autotuning`), not the training engine: a run launched otherwise never uses the
   * value, and the file does not say how it is launched, so a refusal by that tool is an assumption.
   */
  'x-read-by-launch'?: { reader: string; launch: string };
  /**
   * Megatron: the choices of `x-enum-since` are checked only by the command line's argparse: the
   * config field (a `Literal`, which dataclasses do not enforce) takes any text, so a `--yaml-cfg`,
   * Bridge or NeMo file is not refused at a release whose flag lacks the value. `{ effect }`: the
   * config takes it, but the code that usually reads the field refuses a name it does not know
   * (`effect` says which code, and so what a finding assumes).
   */
  'x-enum-argparse-only'?: boolean | { effect: string };
  /**
   * DeepSpeed: a validator of the key that runs before pydantic's coercion (from `since`) and refuses
   * some of what lax mode would take: booleans, non-finite numbers, text that is not an integer.
   */
  'x-validator-refuses'?: { since: string; kinds: ('bool' | 'nonfinite' | 'non-integer-text')[] };
  'x-invalid-effect'?: string;
  /**
   * Megatron: a `--yaml-cfg` value outside the choices, which that reader does not check against them,
   * that still stops the run: what happens (`effect`), unless the switch `unlessOff` is written off.
   */
  /** `onlyNull`: the listed values stop the run too (another check says how), so only the key left out or null runs. */
  /** `core`: the check is a Megatron Core config dataclass's own, so Megatron Bridge and NeMo, which build it too, refuse the value as well. */
  'x-yaml-cfg-refused'?: { effect: string; unlessOff?: string; onlyNull?: boolean; core?: boolean };
  /**
   * What the tool does with an unquoted YAML `no`/`off` (the boolean false) where it wants text, when
   * that is not `x-invalid-effect`: how sure the finding is (`none`: the unquoted form is the one that
   * works, so nothing is said), the effect in words, and `quote: false` where quoting does not help either.
   */
  'x-yaml-false'?: YamlFalseEntry | YamlFalseEntry[];
  /**
   * Megatron: before `version` the command-line flag stored another attribute that nothing reads
   * (`why` says which), so writing it changed nothing there.
   */
  'x-unread-before'?: { version: string; why: string };
  /** Megatron-LM: the release from which nothing reads the flag it still accepts (no version: none that has it). */
  'x-unread-from'?: { version?: string; why?: string };
  /** Megatron-LM's `--yaml-cfg` reader never copies this field from its section: why. */
  'x-yaml-cfg-unread'?: string;
  /** Megatron-LM: the switch without which nothing reads this argument, and where (`why`), from `since` when later than the argument. */
  'x-only-with'?: { key: string; since?: string; why: string };
  /** The first release at which `x-yaml-cfg-unread` holds, where earlier ones read the key elsewhere (the legacy models, before 0.18.0). */
  'x-yaml-cfg-unread-since'?: string;
  /**
   * Megatron-LM's `--yaml-cfg`: the place of the key in the releases before each one named, where it
   * differs from `x-yaml-cfg` (`{ "0.16.0": "top" }`: a top-level argument until TransformerConfig got the field).
   */
  'x-yaml-cfg-before'?: Record<string, string>;
  /**
   * Megatron-LM's `--yaml-cfg` reader hands this config field to Megatron Core as YAML wrote it: the
   * value's schema there, where the command line's text form (parsed into a list by argparse) differs.
   */
  'x-yaml-cfg-type'?: JsonSchema;
  /**
   * Megatron: the first release the history compares (0.4.0) has the flag, and no Megatron-LM before it
   * (the 23.04, 23.06 and 23.08 branches) had any of its spellings: 0.4.0 added it.
   */
  'x-absent-before-core'?: boolean;
  /** Values a run of releases accepted that later ones refuse (not in `enum`): `{ value: { since?, removed } }`. */
  'x-enum-removed'?: Record<string, { since?: string; removed: string }>;
  /** How each range of releases reads the value, where that changed (see `ValueForm`). */
  'x-value-forms'?: ValueForm[];
  'x-sagemaker'?: boolean;
  [key: string]: unknown;
}

/**
 * How a range of releases reads a key's value (`x-value-forms`): not at all (`unused`), as written
 * with no check (`unchecked`: a flag that took a value where it is a switch today), only as a tuple
 * string `(a, b, c)` that it splits (`tuple-string`), as the schema says (`schema`), or within the
 * narrower set `accepts` describes (`narrower`: values added later are refused there).
 * `since` is the first release of the range, `until` the first one after it.
 */
export interface ValueForm {
  since?: string;
  until?: string;
  form: 'unused' | 'unchecked' | 'tuple-string' | 'schema' | 'narrower' | 'raw-env';
  /**
   * For `narrower`: the values those releases accept; it may also hold values the schema refuses that
   * the release's own check lets through (DeepSpeed's `in [True, False]` takes 1 and 0), which are
   * then not reported.
   */
  accepts?: JsonSchema;
  /** What those releases do with the value, in words for a message. */
  why?: string;
}

/**
 * What the tool does with the boolean false where it wants text (`x-yaml-false`); a list gives it by
 * release: each entry covers the releases from `since` (inclusive) to `before` (exclusive), and a
 * release no entry covers gets nothing special (the value is then judged as any other invalid value).
 */
export interface YamlFalseEntry {
  severity: 'error' | 'warning' | 'information' | 'hint' | 'none';
  effect: string;
  quote?: false;
  since?: string;
  before?: string;
}

/**
 * Releases whose reader needs a key once its section is enabled (`x-required-when-enabled`): `fails`
 * says how a release without it fails when that is not the section's set-up, and `assumes` names a
 * condition the file cannot show (the finding is then a warning that names it).
 */
export interface RequiredRange {
  since?: string;
  before?: string;
  fails?: string;
  assumes?: string;
}
/**
 * One switch a value is checked under (`x-values-checked-when-enabled`): `since`/`until` bound the
 * releases it holds at (`until` the first release after them; before `since` the value is checked
 * whatever the switch); `readAccepts`, by key, what the section's reader lets through whatever the
 * switch (a value outside it is refused even while off). In the Megatron schema `key` is the
 * switch's argument (its dest), looked up in the file's own spelling.
 */
export interface ValuesGate { why: string; except?: string[]; readAccepts?: Record<string, JsonSchema>; key?: string; at?: string[]; atAny?: string[][]; above?: number; equals?: unknown; since?: string; until?: string }

/** The Megatron config formats whose reader gives an argument a default of its own (`x-default-in`). */
export type DefaultFormat = 'yaml-cfg' | 'nemo' | 'bridge';

/**
 * One run of releases of a format's default (`x-default-in`), from `from` (the first run: from the
 * oldest): `value` (the config dataclass's), `mla` (MLATransformerConfig's, with multi-latent
 * attention on), `unknown` (why no default can be known there), or `cli` (no config field then: the
 * command line's default applies).
 */
export interface DefaultRun {
  from?: string;
  value?: unknown;
  mla?: unknown;
  unknown?: string;
  cli?: true;
}
