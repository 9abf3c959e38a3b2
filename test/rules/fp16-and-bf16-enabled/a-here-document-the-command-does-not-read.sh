#: name: fp16-and-bf16-enabled: a here-document written to another file than the one the command passes as its DeepSpeed config is not read
#!/bin/bash
cat <<'EOT' > other.json
{ "fp16": { "enabled": true }, "bf16": { "enabled": true }, "zero_optimization": { "stage": 1 } }
EOT
cat <<'EOT' > ds.json
{ "bf16": { "enabled": true }, "zero_optimization": { "stage": 1, "overlap_comm": true } }
EOT
deepspeed --num_gpus 8 pretrain_gpt.py --num-layers 24 --tensor-model-parallel-size 1 --micro-batch-size 4 \
^^^^^^^^^ information[fork-flags-not-checked]
  --deepspeed --deepspeed_config ds.json
