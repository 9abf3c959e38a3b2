#!/bin/bash
accelerate launch --use_fsdp --config_file configs/acc.yaml train.py
