#: name: script-not-analysed: a `pretrain_bert.py` that can be read and imports PyTorch Lightning and nothing of Megatron is another framework's program with Megatron's file name: nothing is said
#: path: /project/examples/pretrain_bert/pretrain_bert.sh
#!/bin/bash
options="--gpus 8 --num_nodes 1 --strategy ddp --max_epochs 1"
cmd="python3 pretrain_bert.py $options"
bash -c "$cmd"
