import argparse, json
import deepspeed

p = argparse.ArgumentParser()
p.add_argument("--deepspeed_config", type=str)
p.add_argument("--learning_rate", type=float, default=1e-4)
p.add_argument("--warmup_steps", type=int, default=100)
args = p.parse_args()

ds_config = json.load(open(args.deepspeed_config))
ds_config["train_micro_batch_size_per_gpu"] = 8
ds_config["scheduler"]["params"] = {"cycle_min_lr": 0, "cycle_max_lr": args.learning_rate, "cycle_first_step_size": args.warmup_steps}
engine, *_ = deepspeed.initialize(model=None, model_parameters=[], config=ds_config)
