#!/bin/bash
llamafactory-cli train examples/train_full/llama3_full_sft.yaml max_steps=1000
