#!/bin/bash
accelerate launch --config_file acc.yaml sft.py --config recipe.yaml
