#: name: checkpoint-config-invalid: Muon with the torch_dist format (the default) saves at 0.16
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --ckpt-format torch_dist --optimizer muon
