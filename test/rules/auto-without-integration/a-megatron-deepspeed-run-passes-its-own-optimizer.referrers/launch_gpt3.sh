deepspeed --num_gpus 8 pretrain_gpt.py \
    --tensor-model-parallel-size 1 --pipeline-model-parallel-size 1 --no-pipeline-parallel \
    --num-layers 24 --hidden-size 1024 --num-attention-heads 16 --seq-length 1024 \
    --max-position-embeddings 1024 --micro-batch-size 1 --global-batch-size 64 \
    --train-iters 100 --lr 1e-4 --fp16 \
    --deepspeed --deepspeed_config ds_config.json
