#: name: script-not-analysed: MindSpore's `msrun` starts the entry point (Ascend/MindSpeed-LLM): a launcher this reader does not know, said as such, not as a command put together at run time
#: path: run.sh
#!/bin/bash
cd /workspace && msrun --worker_num 8 --local_worker_num 8 --master_port 8110 pretrain_gpt.py --tensor-model-parallel-size 2 --num-layers 4
#                                                                             ^^^^^^^^^^^^^^^ information[script-not-analysed]: through `msrun`, a launcher Shardwise does not read
