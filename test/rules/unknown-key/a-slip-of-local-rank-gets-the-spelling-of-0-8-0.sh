#: name: unknown-key: at 0.8.0 a slip of --local_rank is renamed to --local_rank (training/arguments.py@core_v0.8.0:1440), not to --local-rank, which arrived in 0.9.0 (training/arguments.py@core_v0.9.0:1571)
#: settings: {"targetVersions": {"megatron-core": "0.8.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py --local_rnk 0 --num-layers 2 --hidden-size 64 --num-attention-heads 4
#                        ^^^^^^^^^^^ error[unknown-key]: Did you mean `--local_rank`?
