#!/bin/bash
accelerate launch --config_file ddp.yaml --mixed_precision fp16 sft.py --config recipe.yaml
