#: name: script-not-analysed: a Megatron entry point started through eval of text built at run time
#: path: run.sh
#!/bin/bash
for f in tensor pipeline; do OPTS="$OPTS --$f-model-parallel-size 2"; done
eval torchrun --nproc_per_node 8 pretrain_gpt.py $OPTS
#                                ^^^^^^^^^^^^^^^ information[script-not-analysed]: through `eval`
