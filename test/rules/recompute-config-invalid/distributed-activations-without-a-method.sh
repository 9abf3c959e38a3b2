#: name: recompute-config-invalid: distributing the saved activations needs a recompute method (megatron/arguments.py@core_v0.4.0:319-321, training/arguments.py@d98e8a6:1417-1419)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 \
    --tensor-model-parallel-size 2 --sequence-parallel --tp-comm-overlap --distribute-saved-activations --recompute-granularity full --recompute-num-layers 1
#                                                                        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[recompute-config-invalid]: for distributed recompute activations to work you 
#                                                                                                       ^^^^^^^^^^^^^^^^^^^^^^^ error[recompute-config-invalid]: recompute_method must be \
