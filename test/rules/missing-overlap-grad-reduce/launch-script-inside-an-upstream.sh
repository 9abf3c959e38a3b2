#: name: launch script inside an upstream checkout: a flag its parser still has is not reported as removed
#: path: examples/pretrain_gpt.sh
#: settings: {"megatronCheckout":{"parser":"megatron/training/arguments.py","flags":["--tensor-model-parallel-size","--retriever-seq-length","--overlap-grad-reduce"]}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
^^^^^^^^ information[missing-overlap-grad-reduce]
    --tensor-model-parallel-size 1 \
    --retriever-seq-length 256 \
    --micro-batch-size 1
