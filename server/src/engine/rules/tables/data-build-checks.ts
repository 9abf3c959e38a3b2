/**
 * data-config-invalid, the checks made after the arguments are parsed: the tokenizer Megatron-LM
 * builds at startup (set_global_variables) and the GPT dataset config it builds before training
 * (BlendedMegatronDatasetConfig.__post_init__, megatron/core/datasets/blended_megatron_dataset_config.py).
 *
 * Tokenizer. Up to Megatron Core 0.16 the tokenizer is built by megatron/training/tokenizer (megatron/tokenizer
 * before 0.7), which asserts the files each type reads (tokenizer.py@core_v0.4.0:27-57,
 * training/tokenizer/tokenizer.py@core_v0.16.0:27-85). From 0.17 megatron/core/tokenizers builds it, and
 * MegatronTokenizer.from_pretrained asserts a tokenizer path for every library but the null ones
 * (megatron_tokenizer.py@core_v0.17.0:84-85, @d98e8a6:72-73); the type-specific asserts are gone.
 * What the builder hands each type (core/tokenizers/utils/build_tokenizer.py, identical at
 * core_v0.18.0, core_v0.18.2 and core_v0.19.0; core_v0.17.0 and core_v0.17.1 read the metadata
 * and special tokens under their older dests): the SentencePiece, tiktoken, Hugging Face and SFT
 * types get `--tokenizer-model` as their path; the Megatron types (BERT WordPiece, GPT-2 BPE) their
 * own name, with the vocabulary downloaded when `--vocab-file` is not given
 * (text/libraries/megatron_hf_tokenizer.py@core_v0.17.0:102-120); the multimodal type no path at
 * all before main commit 881f489 (@core_v0.17.0:60-65, @core_v0.19.0:77-82, passed @d98e8a6:81), so
 * from 0.17 to 0.19 it stops whatever the file gives; the null types `--vocab-size` only when it is
 * set and not 0 (@core_v0.17.0:75-76, @core_v0.19.0:92-93, @d98e8a6:101-102), which their classes require
 * (text/libraries/null_tokenizer.py@core_v0.17.0:14, @d98e8a6:16; vision/libraries/null_multimodal_tokenizer.py:7).
 * The multimodal branch reads `args.tokenizer_prompt_format` first, at every release
 * (training/tokenizer/tokenizer.py@core_v0.10.0:77, @core_v0.16.0:80; build_tokenizer.py@core_v0.17.0:62,
 * @d98e8a6:82): only examples/multimodal/train.py defines it (multimodal_args.py@core_v0.17.0:49-56),
 * so a pretrain_*.py stops there with an AttributeError.
 * `--use-checkpoint-args` takes the tokenizer arguments from the checkpoint first, so it is left alone.
 *
 * Dataset config (pretrain_gpt.py and its hybrid/Mamba siblings pass these arguments on).
 */
import { argAbsent, argGiven, argNum, argOff, argOn, argOnByDefault, argReal, argValue, argWords, MLM_FLAG_FORMATS, type MegatronModel } from '../../formats/megatron/model';
import { PRETRAIN_ENTRY, type ArgCheck } from '../../formats/megatron/checks';

/** The entry scripts that build the global tokenizer (`entry` of a check: an unnamed one is an assumption). */

/** The GPT-family entry scripts whose dataset config carries the cache and split arguments. */
const GPT_DATA = /^pretrain_(gpt|mamba|hybrid)\.py$/;

/** `--tokenizer-type` as written, when the tokenizer arguments are the file's own. */
function tokenizerType(m: MegatronModel): string | undefined {
  if (!argOff(m, 'use_checkpoint_args')) return undefined;
  const t = argValue(m, 'tokenizer_type');
  return typeof t === 'string' ? t : undefined;
}

const flag = (dest: string) => `--${dest.replace(/_/g, '-')}`;

/** Types whose legacy builder asserts `--tokenizer-model` (Llama3Tokenizer and MistralTokenizer exist only in 0.8). */
const LEGACY_MODEL_TYPES = new Set(['SentencePieceTokenizer', 'GPTSentencePieceTokenizer', 'Llama2Tokenizer', 'TikTokenizer', 'Llama3Tokenizer', 'MistralTokenizer']);
/** Types whose library needs a tokenizer path from 0.17 (the Megatron, null and byte-level ones do not; the multimodal one has checks of its own). */
const CORE_MODEL_TYPES = new Set(['SentencePieceTokenizer', 'GPTSentencePieceTokenizer', 'Llama2Tokenizer', 'TikTokenizer', 'HuggingFaceTokenizer', 'SFTTokenizer']);
const NULL_TYPES = new Set(['NullTokenizer', 'NullMultimodalTokenizer']);

/** The one entry script of Megatron-LM that defines the multimodal tokenizer's arguments (`--tokenizer-prompt-format`, `--image-tag-type`, …). */
const MULTIMODAL_TRAIN = 'examples/multimodal/train.py';
/** The entry scripts the multimodal checks judge: a pretrain_*.py, or a `train.py` that is Megatron-LM's multimodal one. */
const MULTIMODAL_ENTRY = /^(pretrain_[a-z0-9_]+|train)\.py$/;
const MULTIMODAL_ASSUMED = ` This assumes \`${MULTIMODAL_TRAIN}\` reads these arguments, the script that defines the multimodal tokenizer's own (a \`pretrain_*.py\` stops even earlier, on the ones it lacks); the file does not name its entry script.`;

/** `--tokenizer-type MultimodalTokenizer` with no metadata file (which would name the library), read by Megatron-LM's multimodal training script or by a file that names none. */
const multimodalBuilt = (m: MegatronModel, ctx: { settings: { megatronEntry?: { script: string } } }): boolean =>
  tokenizerType(m) === 'MultimodalTokenizer' && argAbsent(m, 'metadata_path') && (!m.args.entry || (m.args.entry === 'train.py' && ctx.settings.megatronEntry?.script === MULTIMODAL_TRAIN));
/** What the legacy builder asserts for the other types. */
const LEGACY_FILES: Record<string, string[]> = {
  BertWordPieceLowerCase: ['vocab_file'],
  BertWordPieceCase: ['vocab_file'],
  GPT2BPETokenizer: ['vocab_file', 'merge_file'],
  NullTokenizer: ['vocab_size'],
  NullMultimodalTokenizer: ['vocab_size'],
};

const legacyMissing = (m: MegatronModel): string[] => {
  const t = tokenizerType(m);
  if (t === undefined) return [];
  // TikTokenizer also asserts its split pattern (training/tokenizer/tokenizer.py@core_v0.8.0:42-44, @core_v0.16.0:37-39).
  const need = LEGACY_MODEL_TYPES.has(t) ? (t === 'TikTokenizer' ? ['tokenizer_model', 'tiktoken_pattern'] : ['tokenizer_model']) : LEGACY_FILES[t] ?? [];
  return need.filter((d) => argAbsent(m, d));
};

/** A blend or per-split blends, as the dataset config receives them. */
const blendGiven = (m: MegatronModel) => argGiven(m, 'data_path') || argGiven(m, 'data_args_path');
const perSplitGiven = (m: MegatronModel) => ['train_data_path', 'valid_data_path', 'test_data_path', 'per_split_data_args_path'].some((d) => argGiven(m, d));
const perSplitFlags = (m: MegatronModel) => ['train_data_path', 'valid_data_path', 'test_data_path', 'per_split_data_args_path'].filter((d) => argGiven(m, d)).map((d) => `\`${flag(d)}\``).join(', ');

/** The numbers of `--split` as the config reads them (every run of digits and dots). */
const splitParts = (m: MegatronModel): number | undefined => {
  const s = argValue(m, 'split');
  return typeof s === 'string' ? (s.match(/[.0-9]+/g) ?? []).length : undefined;
};

export const TOKENIZER_CHECKS: ArgCheck[] = [
  {
    entry: PRETRAIN_ENTRY,
    when: (m) => (legacyMissing(m).length ? 'tokenizer_type' : undefined),
    message: (m) => {
      const miss = legacyMissing(m).map((d) => `\`${flag(d)}\``).join(' and ');
      return `\`--tokenizer-type ${String(argValue(m, 'tokenizer_type'))}\` without ${miss}: Megatron-LM builds the tokenizer at startup and stops there (an assertion that ${miss} is given). Add ${miss}.`;
    },
    formats: MLM_FLAG_FORMATS,
    // The tokenizer is built from a --yaml-cfg file's arguments as well.
    yamlCfg: true,
    before: '0.17.0',
  },
  {
    entry: PRETRAIN_ENTRY,
    when: (m) => {
      const t = tokenizerType(m);
      return t !== undefined && CORE_MODEL_TYPES.has(t) && argAbsent(m, 'tokenizer_model') && argAbsent(m, 'metadata_path') ? 'tokenizer_type' : undefined;
    },
    message: (m) => `\`--tokenizer-type ${String(argValue(m, 'tokenizer_type'))}\` without \`--tokenizer-model\`: Megatron-LM builds the tokenizer at startup and stops there ("Tokenizer path must be specified."). Add \`--tokenizer-model\` with the tokenizer's file or directory (or Hugging Face name).`,
    formats: MLM_FLAG_FORMATS,
    yamlCfg: true,
    since: '0.17.0',
  },
  {
    entry: PRETRAIN_ENTRY,
    when: (m) => {
      const t = tokenizerType(m);
      if (t === undefined || !NULL_TYPES.has(t)) return undefined;
      return argAbsent(m, 'vocab_size') || argNum(m, 'vocab_size') === 0 ? 'tokenizer_type' : undefined;
    },
    message: (m) => `\`--tokenizer-type ${String(argValue(m, 'tokenizer_type'))}\` without ${argAbsent(m, 'vocab_size') ? '`--vocab-size`' : 'a nonzero `--vocab-size`'}: the null tokenizer is built from that size alone, and from Megatron Core 0.17 the builder passes it only when it is set and not 0, so Megatron-LM stops at startup when it builds the tokenizer (a TypeError: the missing \`vocab_size\`). Add \`--vocab-size\` with the size of the token ids in the data.`,
    formats: MLM_FLAG_FORMATS,
    yamlCfg: true,
    since: '0.17.0',
  },
  {
    // The multimodal branch reads `args.tokenizer_prompt_format` before anything else, and no
    // pretrain_*.py defines it (training/tokenizer/tokenizer.py@core_v0.10.0:77, @core_v0.16.0:80;
    // core/tokenizers/utils/build_tokenizer.py@core_v0.17.0:62, @core_v0.19.0:79, @d98e8a6:82).
    entry: PRETRAIN_ENTRY,
    when: (m) => (m.args.entry && tokenizerType(m) === 'MultimodalTokenizer' ? 'tokenizer_type' : undefined),
    message: (m) => `\`--tokenizer-type MultimodalTokenizer\` with \`${m.args.entry}\`: the multimodal tokenizer is built from arguments that only \`${MULTIMODAL_TRAIN}\` defines (\`--tokenizer-prompt-format\`, \`--special-tokens\`, \`--image-tag-type\`), and Megatron-LM stops at startup when it builds the tokenizer (an AttributeError: no \`tokenizer_prompt_format\`). Run \`${MULTIMODAL_TRAIN}\` for a multimodal model, or choose a text tokenizer.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.10.0',
  },
  {
    // build_tokenizer.py@core_v0.17.0:60-65, @core_v0.18.0:77-82, @core_v0.19.0:77-82: the branch sets no
    // tokenizer_path, and from_pretrained asserts one (megatron_tokenizer.py@core_v0.17.0:84-85); main
    // passes `--tokenizer-model` from commit 881f489 (@d98e8a6:81), after every release tag.
    entry: MULTIMODAL_ENTRY,
    entryAssumed: MULTIMODAL_ASSUMED,
    when: (m, _p, ctx) => (multimodalBuilt(m, ctx) ? 'tokenizer_type' : undefined),
    message: () => '`--tokenizer-type MultimodalTokenizer` in Megatron Core 0.17 to 0.19: the tokenizer builder of these releases never hands `--tokenizer-model` to the multimodal tokenizer, so Megatron-LM stops at startup when it builds the tokenizer ("Tokenizer path must be specified.") whatever the file gives. Use Megatron Core 0.16 or earlier, or a Megatron-LM whose builder passes the path (the main branch does since commit 881f489).',
    formats: MLM_FLAG_FORMATS,
    since: '0.17.0',
    before: '0.20.0',
  },
  {
    // Once the builder passes it (@d98e8a6:81), the path is `--tokenizer-model`, asserted by from_pretrained (@d98e8a6:72-73).
    entry: MULTIMODAL_ENTRY,
    entryAssumed: MULTIMODAL_ASSUMED,
    when: (m, _p, ctx) => (multimodalBuilt(m, ctx) && argAbsent(m, 'tokenizer_model') ? 'tokenizer_type' : undefined),
    message: () => '`--tokenizer-type MultimodalTokenizer` without `--tokenizer-model`: Megatron-LM builds the tokenizer at startup and stops there ("Tokenizer path must be specified."). Add `--tokenizer-model` with the Hugging Face tokenizer the multimodal one wraps.',
    formats: MLM_FLAG_FORMATS,
    since: '0.20.0',
  },
  {
    // The padded vocabulary is a multiple of make_vocab_size_divisible_by × TP: `after % multiple`
    // (training/tokenizer/tokenizer.py@core_v0.8.0:91-93), `ceil(after / multiple)` from 0.9
    // (@core_v0.15.0:122-123, core/tokenizers/utils/build_tokenizer.py@d98e8a6:138-139), computed
    // when the tokenizer is built unless the checkpoint's arguments or --padded-vocab-size set it,
    // or (from 0.18) --no-pad-vocab-size turns the padding off.
    entry: PRETRAIN_ENTRY,
    when: (m) => (argNum(m, 'make_vocab_size_divisible_by') === 0 && argOff(m, 'use_checkpoint_args') && argAbsent(m, 'padded_vocab_size') && argOnByDefault(m, 'pad_vocab_size') ? 'make_vocab_size_divisible_by' : undefined),
    message: () => '`--make-vocab-size-divisible-by 0`: Megatron-LM pads the vocabulary to a multiple of this value × TP when it builds the tokenizer at startup, and stops there with a division by zero. Use a positive value (the default is 128).',
    formats: MLM_FLAG_FORMATS,
    yamlCfg: true,
  },
];

export const DATASET_CHECKS: ArgCheck[] = [
  {
    entry: GPT_DATA,
    // blended_megatron_dataset_config.py@core_v0.16.0:101-104, @d98e8a6:101-104.
    when: (m) => (argOn(m, 'dataloader_fast_cache_load') && argAbsent(m, 'data_cache_path') ? 'dataloader_fast_cache_load' : undefined),
    message: () => '`--dataloader-fast-cache-load` without `--data-cache-path`: the fast path reads the index caches from that directory, and Megatron-LM stops when it builds the datasets ("--data-cache-path must be provided when using --dataloader-fast-cache-load."). Add `--data-cache-path` with the directory of the prepared caches.',
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
  },
  {
    entry: GPT_DATA,
    // blended_megatron_dataset_config.py@core_v0.16.0:105-109, @d98e8a6:105-109: the blend (--data-path
    // or --data-args-path) is refused; the per-split blends are not.
    when: (m) => (argOn(m, 'dataloader_fast_cache_load') && blendGiven(m) ? 'dataloader_fast_cache_load' : undefined),
    message: () => '`--dataloader-fast-cache-load` with a blend to split (`--data-path` or `--data-args-path`): Megatron-LM stops when it builds the datasets ("--dataloader-fast-cache-load and --data-path cannot be used together."). Give the data per split (`--train-data-path`, `--valid-data-path`, `--test-data-path` or `--per-split-data-args-path`), or drop `--dataloader-fast-cache-load`.',
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
  },
  {
    entry: GPT_DATA,
    // blended_megatron_dataset_config.py@core_v0.16.0:110-113, @d98e8a6:110-113.
    when: (m) => (argOn(m, 'dataloader_defer_npy_index_mmap') && argAbsent(m, 'data_cache_path') ? 'dataloader_defer_npy_index_mmap' : undefined),
    message: () => '`--dataloader-defer-npy-index-mmap` without `--data-cache-path`: Megatron-LM stops when it builds the datasets ("--data-cache-path must be provided when using --dataloader-defer-npy-index-mmap."). Add `--data-cache-path`.',
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
  },
  {
    entry: GPT_DATA,
    // blended_megatron_dataset_config.py@core_v0.8.0:71, @d98e8a6:116: `--split` divides the one blend
    // and has no default from 0.8 (validate_args sets one only beside --data-path).
    when: (m) => (perSplitGiven(m) && !blendGiven(m) && argOff(m, 'mock_data') && argGiven(m, 'split') ? 'split' : undefined),
    message: (m) => `\`--split\` with per-split data (${perSplitFlags(m)}): the split divides a single blend, and Megatron-LM stops when it builds the datasets ("split and blend_per_split are incompatible"). Remove \`--split\`.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.8.0',
  },
  {
    entry: GPT_DATA,
    // blended_megatron_dataset_config.py@core_v0.5.0:94, @core_v0.7.0:71: `--split` defaults to
    // "969, 30, 1" there, so per-split data always meets it (0.8 made the default None).
    when: (m) => (perSplitGiven(m) && !blendGiven(m) && argOff(m, 'mock_data') && (argGiven(m, 'split') || argAbsent(m, 'split')) ? (argGiven(m, 'split') ? 'split' : 'train_data_path') : undefined),
    message: (m) => `Per-split data (${perSplitFlags(m)}) in Megatron Core before 0.8: \`--split\` always has a value there (its default is "969, 30, 1"), and Megatron-LM stops when it builds the datasets ("split and blend_per_split are incompatible"). Give the data as one \`--data-path\` blend with \`--split\`, or use Megatron Core 0.8 or later.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.5.0',
    before: '0.8.0',
  },
  {
    entry: GPT_DATA,
    // blended_megatron_dataset_config.py@core_v0.10.0:96, @d98e8a6:136: validate_args gives `--split` its
    // legacy default only beside `--data-path` (training/arguments.py@core_v0.10.0:298-303, @d98e8a6:668-672),
    // so a blend read from `--data-args-path` has none.
    when: (m) => (argGiven(m, 'data_args_path') && argAbsent(m, 'data_path') && argAbsent(m, 'split') && !perSplitGiven(m) ? 'data_args_path' : undefined),
    message: () => '`--data-args-path` without `--split`: Megatron-LM fills in a default split only for `--data-path`, and it stops when it builds the datasets ("split must be provided when blend is not None"). Add `--split` (for example `969,30,1`).',
    formats: MLM_FLAG_FORMATS,
    since: '0.10.0',
  },
  {
    entry: GPT_DATA,
    // parse_and_normalize_split, blended_megatron_dataset_config.py@core_v0.4.0:111-114, @d98e8a6:166-167:
    // one number per split (train, valid, test); missing ones are taken as 0, more are refused.
    when: (m) => {
      if (!blendGiven(m) || perSplitGiven(m) || argOn(m, 'mock_data')) return undefined;
      const n = splitParts(m);
      return n !== undefined && n > 3 ? 'split' : undefined;
    },
    message: (m) => `\`--split ${String(argValue(m, 'split'))}\` has ${splitParts(m)} parts: the blend is divided into train, validation and test, and Megatron-LM stops when it builds the datasets (it asserts three weights). Give at most three, e.g. \`969,30,1\`.`,
    formats: MLM_FLAG_FORMATS,
  },
  {
    entry: GPT_DATA,
    // The SFT dataset packs conversations with positions from 0 and builds no mask: it asserts that
    // neither reset switch is on (training/datasets/sft_dataset.py@core_v0.13.0:130, in
    // _get_ltor_masks_and_position_ids; @core_v0.16.0:128 and 178, @d98e8a6:124 and 174, in __getitem__).
    when: (m) => (argOn(m, 'sft') && (argOn(m, 'reset_position_ids') || argOn(m, 'reset_attention_mask')) ? (argOn(m, 'reset_position_ids') ? 'reset_position_ids' : 'reset_attention_mask') : undefined),
    message: (m) => `\`${argOn(m, 'reset_position_ids') ? '--reset-position-ids' : '--reset-attention-mask'}\` with \`--sft\`: the SFT dataset packs conversations itself, and Megatron-LM stops at the first sample it loads (an assertion that the reset switches are off). Remove the switch.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.13.0',
  },
  {
    entry: GPT_DATA,
    // training/datasets/sft_dataset.py@core_v0.16.0:178, @d98e8a6:174: the attention mask must not be built
    // in the data loader (`--no-create-attention-mask-in-dataloader`); from 0.19
    // `--dataloader-inter-document-masking` turns it off in validate_args (@core_v0.19.0:1304, @d98e8a6:1343-1344).
    when: (m) => (argOn(m, 'sft') && argOff(m, 'reset_attention_mask') && argOnByDefault(m, 'create_attention_mask_in_dataloader') && argOff(m, 'dataloader_inter_document_masking') ? 'sft' : undefined),
    message: () => '`--sft` without `--no-create-attention-mask-in-dataloader`: the SFT dataset builds no attention mask, and from Megatron Core 0.16 Megatron-LM stops at the first sample it loads (an assertion that the data loader does not create the mask, which it does by default). Add `--no-create-attention-mask-in-dataloader`.',
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
  },
  {
    entry: GPT_DATA,
    // GPTDataset.build_low_level_dataset, gpt_dataset.py@core_v0.13.0:144-145, @d98e8a6:214-215: a dataset
    // in object storage (`s3://`, `msc://`) keeps its index files in a local cache it must be given.
    when: (m) => (argOff(m, 'sft') && argOff(m, 'mock_data') && objectStoragePaths(m).length && argAbsent(m, 'object_storage_cache_path') ? objectStoragePaths(m)[0] : undefined),
    message: (m) => `\`${flag(objectStoragePaths(m)[0])}\` names a dataset in object storage (\`s3://\` or \`msc://\`) and \`--object-storage-cache-path\` is not given: Megatron-LM caches the index files of such a dataset locally, and it stops when it builds the datasets (an assertion that the cache path is given). Add \`--object-storage-cache-path\` with a local directory.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.13.0',
  },
  {
    // MaskedWordPieceDatasetConfig.__post_init__, masked_dataset.py@core_v0.5.0:73, @d98e8a6:64; BERT and
    // T5 pass `--mask-prob` as the masking probability (pretrain_bert.py and pretrain_t5.py, under examples/ from 0.19).
    when: (m) => {
      if (!/^pretrain_(bert|t5)\.py$/.test(m.args.entry ?? '') || !argGiven(m, 'mask_prob')) return undefined;
      const p = argReal(m, 'mask_prob');
      return p !== undefined && (p <= 0 || p >= 1) ? 'mask_prob' : undefined;
    },
    message: (m) => `\`--mask-prob ${String(argValue(m, 'mask_prob'))}\`: the masking probability must lie strictly between 0 and 1, and Megatron-LM stops when it builds the masked datasets (an assertion on the range). Use a probability such as 0.15 (the default).`,
    formats: MLM_FLAG_FORMATS,
    since: '0.5.0',
  },
];

/** The data-path arguments that name a dataset in object storage. */
function objectStoragePaths(m: MegatronModel): string[] {
  return ['data_path', 'train_data_path', 'valid_data_path', 'test_data_path'].filter((d) => (argWords(m, d) ?? []).some((w) => w.startsWith('s3://') || w.startsWith('msc://')));
}
