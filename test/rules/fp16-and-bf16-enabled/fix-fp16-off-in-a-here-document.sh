#: name: fp16-and-bf16-enabled: the fix turns fp16 off where the here-document writes it, in the script
#: fix: fp16-and-bf16-enabled fp16
#!/bin/bash
cat <<'EOT' > ds.json
{
  "zero_optimization": { "stage": 1, "overlap_comm": true },
  "fp16": { "enabled": true },
  "bf16": { "enabled": true }
}
EOT
deepspeed --num_gpus 8 pretrain_gpt.py --num-layers 24 --tensor-model-parallel-size 1 --micro-batch-size 4 \
  --deepspeed --deepspeed_config ds.json
