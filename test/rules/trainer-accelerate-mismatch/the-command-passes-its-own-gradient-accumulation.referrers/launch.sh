#!/bin/bash
accelerate launch --config_file acc.yaml --gradient_accumulation_steps 8 sft.py --config recipe.yaml
