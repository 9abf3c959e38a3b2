#: name: invalid-value: `--tensor-model-parallel-size 0` stops validate_args with a division by zero (arguments.py@core_v0.4.0:65, @d98e8a6:432), `--seed 0` is refused ("Seed (0) should be a positive integer", initialize.py@core_v0.4.0:288) and `--lr-decay-iters 0` fails the scheduler's `lr_decay_steps > 0` (optimizer_param_scheduler.py@core_v0.4.0:31, core/optimizer_param_scheduler.py@d98e8a6:159): errors
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --tensor-model-parallel-size 0 --seed 0 --lr-decay-iters 0
#                                ^ error[invalid-value]: an integer ≥ 1
#                                         ^ error[invalid-value]: an integer ≥ 1
#                                                            ^ error[invalid-value]: an integer ≥ 1
