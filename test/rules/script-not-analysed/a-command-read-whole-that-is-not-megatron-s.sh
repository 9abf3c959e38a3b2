#: name: script-not-analysed: a command read whole that starts a program called `pretrain_t5.py` with flags that did not make it a Megatron-LM launch was followed, not lost: nothing is said
#: path: run.sh
#!/bin/bash
python3 pretrain_t5.py --gpus 8 --num_nodes 1 --strategy ddp --max_epochs 1 --learning_rate 1e-4
