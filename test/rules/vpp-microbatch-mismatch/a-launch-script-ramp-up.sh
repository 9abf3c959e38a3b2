#: name: vpp-microbatch-mismatch: a launch script whose ramp-up starts at 4 (1 micro-batch per DP rank with MBS 1 and DP 4) under PP 2 with virtual stages: step 1 fails although --global-batch-size 64 fits (num_microbatches_calculator.py@core_v0.15.0:441-508; schedules.py@core_v0.15.3:975-983)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --seq-length 4096 --max-position-embeddings 4096 \
    --pipeline-model-parallel-size 2 --num-virtual-stages-per-pipeline-rank 2 --bf16 \
    --overlap-grad-reduce \
    --micro-batch-size 1 --global-batch-size 64 --rampup-batch-size 4 4 100000 --train-samples 1000000
#                                                                   ^^^^^^^^^^ error[vpp-microbatch-mismatch]: the ramp-up's starting global batch 4 gives 1 micro-batch per DP rank
