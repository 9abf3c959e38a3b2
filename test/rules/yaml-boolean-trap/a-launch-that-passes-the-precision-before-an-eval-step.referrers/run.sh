#!/bin/bash
accelerate launch --config_file acc.yaml --mixed_precision bf16 train.py
python eval.py --model outputs/x
