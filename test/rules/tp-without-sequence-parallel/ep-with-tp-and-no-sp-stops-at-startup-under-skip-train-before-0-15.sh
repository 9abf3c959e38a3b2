#: name: tp-without-sequence-parallel: `--skip-train` still builds the model, so before Megatron Core 0.15 ModelParallelConfig refuses EP with TP and no sequence parallelism at startup (training.py@core_v0.14.0:653 before the skip at :700; model_parallel_config.py@core_v0.14.0:388-393)
#: settings: {"targetVersions": {"megatron-core": "0.14.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 2 --num-experts 8 --expert-model-parallel-size 2 --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --seq-length 1024 --max-position-embeddings 1024 --micro-batch-size 1 --global-batch-size 8 --bf16 --skip-train --load /ckpt --disable-bias-linear
#                                                                        ^ error[tp-without-sequence-parallel]: stops at startup
