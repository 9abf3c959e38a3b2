#!/bin/bash
accelerate launch --config_file configs/accelerate_config.yaml train.py
