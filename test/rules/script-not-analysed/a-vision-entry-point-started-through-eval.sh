#: name: script-not-analysed: Megatron-LM's vision entry points (pretrain_vision_classify.py, _dino.py, _inpaint.py, shipped up to 0.16) are its own like pretrain_gpt.py: one started through eval of text built at run time is said
#: path: run.sh
#!/bin/bash
for f in tensor pipeline; do OPTS="$OPTS --$f-model-parallel-size 2"; done
eval torchrun --nproc_per_node 8 pretrain_vision_dino.py $OPTS
#                                ^^^^^^^^^^^^^^^^^^^^^^^ information[script-not-analysed]: through `eval`
