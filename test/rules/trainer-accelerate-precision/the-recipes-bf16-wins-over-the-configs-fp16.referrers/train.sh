#!/bin/bash
accelerate launch --config_file ddp.yaml sft.py --config recipe.yaml
