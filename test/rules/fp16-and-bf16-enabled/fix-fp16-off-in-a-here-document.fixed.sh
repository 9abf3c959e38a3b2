#!/bin/bash
cat <<'EOT' > ds.json
{
  "zero_optimization": { "stage": 1, "overlap_comm": true },
  "fp16": { "enabled": false },
  "bf16": { "enabled": true }
}
EOT
deepspeed --num_gpus 8 pretrain_gpt.py --num-layers 24 --tensor-model-parallel-size 1 --micro-batch-size 4 \
  --deepspeed --deepspeed_config ds.json
