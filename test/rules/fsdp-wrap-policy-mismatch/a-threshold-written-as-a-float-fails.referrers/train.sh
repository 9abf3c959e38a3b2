#!/bin/bash
accelerate launch --config_file configs/fsdp.yaml train.py --lr 1e-4
