#: name: deprecated-key: `--no-tp-comm-split-ag` / `--no-tp-comm-split-rs` store False against a default of True (megatron/core/model_parallel_config.py@core_v0.16.0:217 `tp_comm_split_ag: bool = True`; the flag is store_false, as `--disable-tp-comm-split-ag` in megatron/arguments.py@core_v0.4.0:836-838): not "set to its default", so a warning, not a neutral note
#: path: /project/examples/run.sh
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
# shardwise-disable memory-exceeds-hbm, missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --micro-batch-size 1 --global-batch-size 8 \
    --bf16 \
    --no-tp-comm-split-ag --no-tp-comm-split-rs
    ^^^^^^^^^^^^^^^^^^^^^ warning[deprecated-key]: newer versions ignore it.
                          ^^^^^^^^^^^^^^^^^^^^^ warning[deprecated-key]: newer versions ignore it.
