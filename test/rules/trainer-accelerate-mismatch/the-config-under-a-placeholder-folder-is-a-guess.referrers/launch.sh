#!/bin/bash
CODE=/path/to/code
accelerate launch --config_file $CODE/acc.yaml sft.py --config recipe.yaml
