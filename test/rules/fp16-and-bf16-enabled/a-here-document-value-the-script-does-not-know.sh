#: name: fp16-and-bf16-enabled: in a here-document config, `$FP16` (set by whoever runs the script) is not known, so nothing is concluded from it; `${ZERO_STAGE}` set literally in the script takes its value
#: settings: {"targetVersions": {"deepspeed": "0.19.5"}}
#!/bin/bash
ZERO_STAGE=1
cat > ds.json <<-EOF
	{
	  "train_micro_batch_size_per_gpu": 4,
	  "zero_optimization": { "stage": ${ZERO_STAGE}, "overlap_comm": true },
	  "fp16": { "enabled": $FP16 },
	  "bf16": { "enabled": true }
	}
EOF
deepspeed --num_gpus 8 pretrain_gpt.py --num-layers 24 --tensor-model-parallel-size 1 --micro-batch-size 4 \
^^^^^^^^^ information[fork-flags-not-checked]
  --deepspeed --deepspeed_config ./ds.json
