/**
 * data-config-invalid: data-source arguments that Megatron-LM's argument checks refuse together.
 *
 * megatron/training/arguments.py, validate_args: `--mock-data`, `--data-path` and the per-split paths
 * (`--train-data-path`, `--valid-data-path`, `--test-data-path`) are three ways to give the data, and
 * at most one may be used (`<= 1` from core_v0.8.0:1055-1056 to d98e8a6:1679-1682; core_v0.7.0:515-518
 * asked for exactly one, so a file with none stops there too, and releases before 0.7 have no such check). From core_v0.16.0:1066 (d98e8a6:1692)
 * the fill-in-the-middle dataset refuses mock data. The blend is given either inline (`--data-path`) or
 * in a file (`--data-args-path`), not both; the same for the per-split paths and
 * `--per-split-data-args-path` (@core_v0.10.0:305-318, @d98e8a6:674-687); and at least one
 * dataset-builder thread (@core_v0.7.0, @d98e8a6:1258). The tokenizer and dataset-config checks are in
 * tables/data-build-checks.ts.
 */
import { argAbsent, argGiven, argNum, argReal, argOn, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { runChecks, type ArgCheck } from '../formats/megatron/checks';
import { defineRule, type RuleContext } from './rule';
import { DATASET_CHECKS, TOKENIZER_CHECKS } from './tables/data-build-checks';
import { BRIDGE_DATA_CHECKS } from './tables/bridge-data-checks';

const SPLIT_PATHS = ['train_data_path', 'valid_data_path', 'test_data_path'];

/** A path argument written with at least one path. */
function pathGiven(m: MegatronModel, dest: string): boolean {
  if (!argGiven(m, dest)) return false;
  const v = m.args.get(dest)?.value;
  return Array.isArray(v) ? v.length > 0 : v !== '';
}

/** The data sources the file gives, in upstream's terms. */
function sources(m: MegatronModel): string[] {
  const out: string[] = [];
  if (argOn(m, 'mock_data')) out.push('`--mock-data`');
  if (pathGiven(m, 'data_path')) out.push('`--data-path`');
  const split = SPLIT_PATHS.filter((d) => pathGiven(m, d));
  if (split.length) out.push(split.map((d) => `\`--${d.replace(/_/g, '-')}\``).join(', '));
  return out;
}

const CHECKS: ArgCheck[] = [
  {
    // core_v0.7.0:515-518 asks for exactly one source, whatever the entry script (0.8 allows none).
    when: (m) => (argAbsent(m, 'mock_data') && argAbsent(m, 'data_path') && SPLIT_PATHS.every((d) => argAbsent(m, d)) ? 'data_path' : undefined),
    message: () => 'No data source: Megatron-LM 0.7 asks for exactly one of `--mock-data`, `--data-path` or the per-split paths (`--train-data-path`, …), and stops at startup ("A single data source must be provided"). Add `--data-path` (or `--mock-data` for a smoke test); from Megatron Core 0.8 a run without data is accepted.',
    formats: MLM_FLAG_FORMATS,
    since: '0.7.0',
    before: '0.8.0',
  },
  {
    when: (m) => {
      if (sources(m).length < 2) return undefined;
      return argOn(m, 'mock_data') ? 'mock_data' : 'data_path';
    },
    message: (m) => `${sources(m).join(' and ')} are ${sources(m).length === 2 ? 'two' : 'three'} data sources: Megatron-LM takes the data from one of mock data, \`--data-path\` (a blend split into train, validation and test) or the per-split paths, and stops at startup ("A single data source must be provided"). Keep one of them.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.7.0',
  },
  {
    when: (m) => (argOn(m, 'fim_data') && argOn(m, 'mock_data') ? 'fim_data' : undefined),
    message: () => '`--fim-data` with `--mock-data`: the fill-in-the-middle dataset rearranges real documents, and Megatron-LM stops at startup ("Mock dataset is not supported with FIM dataset."). Give `--data-path`, or drop `--fim-data`.',
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
  },
  {
    // training/arguments.py@core_v0.16.0:1067 and @core_v0.16.1:1067, in the `if args.fim_data:` block;
    // gone at core_v0.17.0, where `--legacy-tokenizer` itself was removed.
    when: (m) => (argOn(m, 'fim_data') && argOn(m, 'legacy_tokenizer') ? 'legacy_tokenizer' : undefined),
    message: () => '`--legacy-tokenizer` with `--fim-data`: the fill-in-the-middle dataset needs the new tokenizer system, and Megatron-LM stops at startup ("FIM dataset is not supported with legacy tokenizers."). Drop `--legacy-tokenizer`, or `--fim-data`.',
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
    before: '0.17.0',
  },
  {
    when: (m) => (argGiven(m, 'data_path') && argGiven(m, 'data_args_path') ? 'data_args_path' : undefined),
    message: () => '`--data-args-path` beside `--data-path`: both give the data blend (one in a file, one inline), and Megatron-LM stops at startup (an assertion that only one is given). Keep one of them.',
    formats: MLM_FLAG_FORMATS,
    since: '0.10.0',
  },
  {
    when: (m) => (argGiven(m, 'per_split_data_args_path') && SPLIT_PATHS.some((d) => argGiven(m, d)) ? 'per_split_data_args_path' : undefined),
    message: () => '`--per-split-data-args-path` beside `--train-data-path`, `--valid-data-path` or `--test-data-path`: both give the per-split blends (one in a file, one inline), and Megatron-LM stops at startup (an assertion that only one is given). Keep one of them.',
    formats: MLM_FLAG_FORMATS,
    since: '0.10.0',
  },
  {
    when: (m) => {
      const n = argNum(m, 'num_dataset_builder_threads');
      return n !== undefined && n < 1 ? 'num_dataset_builder_threads' : undefined;
    },
    message: (m) => `\`--num-dataset-builder-threads ${argNum(m, 'num_dataset_builder_threads')}\`: the dataset indexes are built by these threads, and Megatron-LM stops at startup (it asserts at least one). Use 1 (the default) or more.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.7.0',
  },
  ...(['fim_rate', 'fim_spm_rate'] as const).map((dest): ArgCheck => ({
    // training/arguments.py@core_v0.16.0, @d98e8a6:1693-1694: the rates are tested for truth, so an
    // explicit 0 (a valid probability: never FIM, or always PSM) is refused like a missing one.
    when: (m) => (argOn(m, 'fim_data') && argGiven(m, dest) && argReal(m, dest) === 0 ? dest : undefined),
    message: () => `\`--${dest.replace(/_/g, '-')} 0\` with \`--fim-data\`: Megatron-LM tests the rate for truth, so 0 counts as not given and it stops at startup ("--${dest.replace(/_/g, '-')} should be specified."). Use a small positive rate instead of 0${dest === 'fim_rate' ? ', or drop `--fim-data`' : ''}.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
  })),
];

/**
 * NeMo 1.x: the Megatron models build their training, validation and test loaders from
 * `model.data.dataloader_type`, single or cyclic, and raise ValueError for any other value
 * (nlp/models/language_modeling/megatron_gpt_model.py@v1.23.0:1283, @v2.4.0:1772, @8cfedd7:1750-1772;
 * the same in megatron_bert_model.py, megatron_lm_encoder_decoder_model.py, megatron_retro_model.py,
 * megatron_retrieval_model.py). Megatron-LM's `external` is one such value. A model that builds its
 * own loaders (the GPT SFT model, megatron_gpt_sft_model.py@8cfedd7:1035) does not read it, and the
 * file does not say which model reads it: a warning.
 */
function nemoExternalLoader(ctx: RuleContext<MegatronModel>): void {
  // NeMo's own code, whether or not the model is built with Megatron Core (`model.mcore_gpt`).
  const a = ctx.model.args.get('dataloader_type');
  if (a?.value !== 'external' || !a.path) return;
  ctx.report({
    at: a.path,
    on: 'value',
    severity: 'warning',
    message: '`model.data.dataloader_type: external`: Megatron-LM leaves the data loader to its training script with this value, but NeMo\'s Megatron models (GPT, BERT, T5, RETRO) build their own loaders only for `single` or `cyclic` and stop with a ValueError when they set up the data ("cfg.data.dataloader_type must be \"single\" or \"cyclic\""). This assumes one of those models reads the file; a model that builds its own loaders (GPT SFT) ignores the key. Use `single` or `cyclic`.',
  });
}

export default defineRule<MegatronModel>({
  id: 'data-config-invalid',
  severity: 'error',
  formats: [...MLM_FLAG_FORMATS, 'megatron-bridge', 'nemo'],
  docs: {
    summary: 'Data arguments that Megatron-LM rejects together: more than one data source (`--mock-data`, `--data-path`, the per-split paths), the fill-in-the-middle dataset with mock data or (at 0.16) the legacy tokenizer, a blend given both inline and in a file (`--data-path` with `--data-args-path`, the per-split paths with `--per-split-data-args-path`), or no dataset-builder thread; a tokenizer type without the files it is built from, or one the release cannot build at all (the multimodal tokenizer in Megatron Core 0.17 to 0.19, or in a `pretrain_*.py`); and dataset settings the GPT dataset config refuses (`--split` beside per-split data, missing beside `--data-args-path` or with more than three parts, the fast cache load or deferred index mmap without `--data-cache-path`, the fast cache load with a blend, SFT with the reset switches or the data loader\'s attention mask, a dataset in object storage without its cache path, a BERT or T5 masking probability outside (0, 1)); and, in a Megatron Bridge override, a dataset sequence length other than the model\'s; in a NeMo config, a data loader type its Megatron models do not build (`external`).',
    why: 'Megatron-LM reads the training data from exactly one place: generated mock data (`--mock-data`), one blend that it splits into train, validation and test (`--data-path` with `--split`), or separate paths per split (`--train-data-path`, `--valid-data-path`, `--test-data-path`). From Megatron Core 0.7 its argument checks stop at startup when a script gives two of them (and in 0.7 alone also when it gives none), which happens when a smoke-test flag such as `--mock-data` is left in a script that also names real data. From 0.16 the fill-in-the-middle dataset (`--fim-data`) refuses mock data too, at 0.16 only `--legacy-tokenizer` (the flag is gone from 0.17), and a `--fim-rate` or `--fim-spm-rate` of 0, which the checks take for a missing rate. From 0.10 a blend may be given inline or from a file but not both (for the whole blend and for the per-split blends), and from 0.7 `--num-dataset-builder-threads 0` stops the job too. At startup the pretraining scripts also build the tokenizer: up to Megatron Core 0.16 it stops when `--tokenizer-type` lacks what that type reads (`--tokenizer-model` for the SentencePiece and tiktoken tokenizers, and `--tiktoken-pattern` for tiktoken, `--vocab-file` for BERT WordPiece, `--vocab-file` and `--merge-file` for GPT-2 BPE, `--vocab-size` for the null tokenizers), and from 0.17 it stops when a tokenizer that loads a model (SentencePiece, tiktoken, Hugging Face, SFT) has no `--tokenizer-model`, or a null tokenizer no `--vocab-size` (0 counts as none), while the BERT WordPiece and GPT-2 BPE types no longer need their files (the vocabulary is downloaded). The multimodal tokenizer is built from arguments only `examples/multimodal/train.py` defines (`--tokenizer-prompt-format` and its kin), so a `pretrain_*.py` stops on it at any release (an AttributeError); and from 0.17 to 0.19 the builder never hands it `--tokenizer-model`, so it stops there whatever the file gives ("Tokenizer path must be specified."), until Megatron-LM\'s main branch, which passes it and then needs it. At any release it divides by zero when it pads the vocabulary to a multiple of `--make-vocab-size-divisible-by 0` (unless `--padded-vocab-size` or, from 0.18, `--no-pad-vocab-size` skips the padding); with `--use-checkpoint-args` these come from the checkpoint and are not judged. Before training, the GPT dataset config refuses `--split` beside per-split data (from 0.8; from 0.5 to 0.7 `--split` has a default, so any per-split data stops there), a `--split` of more than three parts, from 0.10 a blend read from `--data-args-path` without `--split` (the default split is filled in only for `--data-path`), and from 0.16 `--dataloader-fast-cache-load` or `--dataloader-defer-npy-index-mmap` without `--data-cache-path`, and the fast cache load with a blend (`--data-path`). From 0.5 the BERT and T5 scripts refuse a `--mask-prob` outside (0, 1). From 0.13 a dataset in object storage (an `s3://` or `msc://` data path) needs `--object-storage-cache-path`. Its SFT dataset (`--sft`, from 0.13) stops at the first sample it loads with `--reset-position-ids` or `--reset-attention-mask`, and from 0.16 also unless `--no-create-attention-mask-in-dataloader` is given (or, from 0.19, `--dataloader-inter-document-masking`). Megatron Bridge and NeMo configure their datasets themselves and meet none of these checks; Megatron Bridge, when it validates an override\'s config, stops at every release when `model.seq_length` and the dataset\'s sequence length (`dataset.seq_length`, or the GPT dataset\'s `sequence_length`) differ, for its own GPT and fine-tuning dataset configs (from Bridge 0.6 also the direct Hugging Face SFT, Energon and mock VLM ones); where the section\'s fields do not show that the recipe uses one of them, a warning names the assumption. NeMo\'s Megatron models (GPT, BERT, T5, RETRO) build their data loaders only for `model.data.dataloader_type` `single` or `cyclic` and stop on `external`, which Megatron-LM offers (a warning: a model that builds its own loaders, such as GPT SFT, does not read the key).',
    bad: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --num-layers: 32\n  --mock-data: true\n  --data-path: /data/corpus_text_document\n',
    good: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --num-layers: 32\n  --data-path: /data/corpus_text_document\n',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64 \\\n    --mock-data --data-path /data/corpus_text_document\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 64 \\\n    --data-path /data/corpus_text_document\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.19.0, `validate_args`: at most one data source', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.19.0/megatron/training/arguments.py#L1623-L1627' },
      { label: 'Megatron-LM core_v0.10.0, `validate_args`: the data blend inline or from a file, not both', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.10.0/megatron/training/arguments.py#L305-L318' },
      { label: 'Megatron-LM core_v0.16.0, `build_tokenizer`: the files each tokenizer type needs', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.16.0/megatron/training/tokenizer/tokenizer.py#L27-L85' },
      { label: 'Megatron-LM core_v0.19.0, `build_tokenizer`: what each tokenizer type is handed (no path for the multimodal one)', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.19.0/megatron/core/tokenizers/utils/build_tokenizer.py#L77-L82' },
      { label: 'Megatron-LM core_v0.16.0, `BlendedMegatronDatasetConfig.__post_init__`: the cache, blend and split checks', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.16.0/megatron/core/datasets/blended_megatron_dataset_config.py#L99-L137' },
    ],
  },
  check(ctx) {
    runChecks(ctx, CHECKS);
    runChecks(ctx, TOKENIZER_CHECKS);
    runChecks(ctx, DATASET_CHECKS);
    runChecks(ctx, BRIDGE_DATA_CHECKS);
    if (ctx.format === 'nemo') ctx.separately(() => nemoExternalLoader(ctx));
  },
});
