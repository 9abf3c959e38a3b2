#: name: model-args-conflict: a checkpoint converter (MindSpeed-LLM's `convert_ckpt_v2.py`@c77308a1:14-134) defines every flag the command passes with its own argparse parser and reads them with parse_known_args; it imports a module that imports Megatron, but never hands its command line to Megatron-LM: not a Megatron-LM launch, so `--mtp-num-layers` without rotary embeddings is not Megatron-LM's refusal here
#!/bin/bash
python convert_ckpt_v2.py \
    --load-dir ./model_from_hf/ \
    --save-dir ./model_weights/ \
    --target-pipeline-parallel-size 8 \
    --moe-grouped-gemm \
    --expert-tensor-parallel-size 1 \
    --mtp-num-layers 1
