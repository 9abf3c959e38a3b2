#!/bin/bash
accelerate launch --config_file configs/fsdp.yaml --fsdp_sharding_strategy FULL_SHARD train.py
