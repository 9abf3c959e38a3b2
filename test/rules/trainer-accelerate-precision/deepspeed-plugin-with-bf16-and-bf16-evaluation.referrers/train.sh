#!/bin/bash
accelerate launch --config_file zero2.yaml sft.py --config recipe.yaml
