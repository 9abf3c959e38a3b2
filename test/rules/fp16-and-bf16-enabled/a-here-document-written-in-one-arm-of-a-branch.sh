#: name: fp16-and-bf16-enabled: a here-document config written only in one arm of an `if` the script does not decide is only assumed to be what the command reads: a warning that says so
#: settings: {"targetVersions": {"deepspeed": "0.19.5"}}
#!/bin/bash
if [ -n "$HALF" ]; then
  tee ds.json <<EOF
{ "fp16": { "enabled": true }, "bf16": { "enabled": true }, "zero_optimization": { "stage": 1, "overlap_comm": true } }
#                      ^^^^ warning[fp16-and-bf16-enabled]: only in one arm of the branch on line 2
EOF
fi
deepspeed --num_gpus 8 pretrain_gpt.py --num-layers 24 --tensor-model-parallel-size 1 --micro-batch-size 4 \
^^^^^^^^^ information[fork-flags-not-checked]
  --deepspeed --deepspeed_config ds.json
