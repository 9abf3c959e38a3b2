#: name: script-not-analysed: a comment naming an entry point is not a launch
#: path: notes.sh
#!/bin/bash
# Run pretrain_gpt.py with the options below.
echo done
