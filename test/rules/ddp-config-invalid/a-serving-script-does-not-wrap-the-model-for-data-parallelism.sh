#: name: ddp-config-invalid: a serving script builds its model with wrap_with_ddp=False (tools/run_text_generation_server.py@core_v0.15.0:158, the same at 0.12, 0.13, 0.17, 0.18), so the DDP config and its bucket checks never run: nothing
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 tools/run_text_generation_server.py \
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --seq-length 4096 --max-position-embeddings 4096 --bf16 \
    --micro-batch-size 1 --global-batch-size 64 \
    --ddp-num-buckets 4 --ddp-bucket-size 40000000
