#: name: fp16-and-bf16-enabled: a DeepSpeed config a Megatron-DeepSpeed script writes with a here-document and passes as --deepspeed_config is checked where it is written (bigscience-workshop/Megatron-DeepSpeed megatron/training.py@8387ae17:124-126 loads the file with json.load and hands it to deepspeed.initialize; DeepSpeed refuses both modes, deepspeed/runtime/config.py@v0.19.5:815)
#: settings: {"targetVersions": {"deepspeed": "0.19.5"}}
#!/bin/bash
#SBATCH --nodes=1
#SBATCH --gres=gpu:8
MICRO_BATCH_SIZE=4
config_json="./ds_config.$SLURM_JOB_ID.json"
cat <<EOT > $config_json
{
  "train_micro_batch_size_per_gpu": $MICRO_BATCH_SIZE,
  "zero_optimization": { "stage": 0 },
  "fp16": { "enabled": true },
#                      ^^^^ error[fp16-and-bf16-enabled]: both enabled
  "bf16": { "enabled": true }
}
EOT
deepspeed --num_gpus 8 pretrain_gpt.py \
^^^^^^^^^ information[fork-flags-not-checked]
  --tensor-model-parallel-size 1 --pipeline-model-parallel-size 1 \
  --num-layers 24 --hidden-size 1024 --num-attention-heads 16 \
  --seq-length 1024 --max-position-embeddings 1024 \
  --micro-batch-size 4 --global-batch-size 32 \
  --deepspeed --deepspeed_config ${config_json}
