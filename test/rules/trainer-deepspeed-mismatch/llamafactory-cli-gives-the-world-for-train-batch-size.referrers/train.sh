#!/bin/bash
FORCE_TORCHRUN=1 NNODES=2 NODE_RANK=0 NPROC_PER_NODE=8 MASTER_ADDR=10.0.0.1 llamafactory-cli train examples/train_full/llama3_full_sft.yaml
