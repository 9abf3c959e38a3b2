#: name: fp16-and-bf16-enabled: a here-document config that a later command may change (`sed -i` on the file) before the training command runs is not read
#!/bin/bash
cat <<EOT > ds.json
{ "fp16": { "enabled": true }, "bf16": { "enabled": true }, "zero_optimization": { "stage": 1, "overlap_comm": true } }
EOT
sed -i 's/"fp16": { "enabled": true }/"fp16": { "enabled": false }/' ds.json
deepspeed --num_gpus 8 pretrain_gpt.py --num-layers 24 --tensor-model-parallel-size 1 --micro-batch-size 4 \
^^^^^^^^^ information[fork-flags-not-checked]
  --deepspeed --deepspeed_config ds.json
