#: name: trainer-deepspeed-mismatch: `python -m mypkg.train` runs `mypkg/train.py` (a module that is no package); it hands the flags to HfArgumentParser, so the launch is a Trainer launch, read with the world size the setting gives (integrations/deepspeed.py@v4.57.6:186-197)
#: path: launch.sh
#: settings: {"worldSize":2}
python -u -m mypkg.train --output_dir ./out --fp16 --per_device_train_batch_size 2 --gradient_accumulation_steps 1 --deepspeed ds.json
                                                                                 ^ error[trainer-deepspeed-mismatch]: launch.sh and ds.json disagree: `--per_device_train_batch_size` is 2 and

