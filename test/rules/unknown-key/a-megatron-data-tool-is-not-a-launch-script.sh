#: name: unknown-key: Megatron-LM's tools/preprocess_data.py reads its own arguments (it shares `--tokenizer-type` and `--vocab-file` with training) and starts no run: its script is not read as a Megatron-LM launch script, so nothing is reported
#: path: examples/preprocess.sh
#!/bin/bash
python3 tools/preprocess_data.py \
    --input data.json --output-prefix out \
    --vocab-file gpt2-vocab.json --merge-file gpt2-merges.txt \
    --tokenizer-type GPT2BPETokenizer --append-eod --workers 20
