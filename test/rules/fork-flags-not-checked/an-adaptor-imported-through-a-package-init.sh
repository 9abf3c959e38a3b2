#: name: fork-flags-not-checked: the entry script imports `mypkg.tasks.infer`, and Python runs `mypkg/__init__.py` first, which imports the package's Megatron adaptor (as MindSpeed-LLM's `inference_deepseek4.py` reaches `mindspeed_llm/__init__.py`@c77308a1): the Megatron-LM that runs is a patched copy, so `--use-flash-attn` is not judged deprecated by the newest release, and the `deepseek4` choice and its MTP check (which the adaptor adds and swaps for `rope`) are not judged by upstream's
#!/bin/bash
torchrun --nproc_per_node 8 inference_x.py \
^^^^^^^^ information[fork-flags-not-checked]: a module of the workspace that imports `from mypkg.tasks import megatron_adaptor_v2`
    --tensor-model-parallel-size 1 --pipeline-model-parallel-size 1 \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 4096 --max-position-embeddings 4096 --micro-batch-size 1 \
    --transformer-impl local --use-flash-attn \
    --mtp-num-layers 1 --position-embedding-type deepseek4 --bf16
