#!/bin/bash
accelerate launch --config_file configs/acc.yaml train.py
