#: name: fp16-and-bf16-enabled: a program that reads `sys.argv` itself (a YAML path, then dotlist overrides: allenai/OLMo@59a53e3 scripts/train.py:422-426) and whose own package shows no HfArgumentParser and imports nothing of Megatron is neither a Trainer nor a Megatron-LM launch, though `--seed`, `--fp16` and `--bf16` are names both know: nothing is reported
#: path: run.sh
#!/usr/bin/env bash
torchrun --nproc-per-node 8 scripts/train.py configs/run.yaml \
  --run_name=my-run --seed=6198 --fp16=true --bf16=true \
  --fsdp.sharding_strategy=_HYBRID_SHARD_ZERO2 --save_folder=/data/run \
  --device_train_microbatch_size=4 --model.flash_attention=true --data.num_workers=32
