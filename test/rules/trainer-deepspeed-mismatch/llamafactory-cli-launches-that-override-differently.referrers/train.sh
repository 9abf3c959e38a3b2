#!/bin/bash
llamafactory-cli train examples/train_full/llama3_full_sft.yaml per_device_train_batch_size=8
llamafactory-cli train examples/train_full/llama3_full_sft.yaml per_device_train_batch_size=2
