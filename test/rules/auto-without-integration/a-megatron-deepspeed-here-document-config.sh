#: name: auto-without-integration: a here-document config the Megatron-DeepSpeed command passes as --deepspeed_config gets what the launch says of a separate file: the fork passes deepspeed.initialize its own optimizer and scheduler (megatron/training.py@f4157bea of microsoft/Megatron-DeepSpeed:617-624, the file loaded with json.load at 73-86), so their "auto" values are never read; an "auto" in a section DeepSpeed builds from the file is still reported
#: settings: {"targetVersions": {"deepspeed": "0.14.0"}}
#!/bin/bash
ds=ds_config.json
cat <<EOT > $ds
{
  "train_micro_batch_size_per_gpu": 1,
  "train_batch_size": 64,
  "fp16": {"enabled": true},
  "optimizer": {"type": "Adam", "params": {"lr": "auto", "betas": "auto", "eps": "auto", "weight_decay": "auto"}},
  "zero_optimization": {"stage": 1, "overlap_comm": true, "reduce_bucket_size": "auto"}
#                                                                               ^^^^^^ information[auto-without-integration]: 1 `"auto"` placeholder
}
EOT
deepspeed --num_gpus 8 pretrain_gpt.py \
^^^^^^^^^ information[fork-flags-not-checked]
    --tensor-model-parallel-size 1 --pipeline-model-parallel-size 1 --no-pipeline-parallel \
    --num-layers 24 --hidden-size 1024 --num-attention-heads 16 --seq-length 1024 \
    --max-position-embeddings 1024 --micro-batch-size 1 --global-batch-size 64 \
    --train-iters 100 --lr 1e-4 --fp16 \
    --deepspeed --deepspeed_config $ds
