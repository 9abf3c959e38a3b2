#!/bin/bash
accelerate launch --config_file zero3.yaml run_sft.py recipes/sft/config.yaml
