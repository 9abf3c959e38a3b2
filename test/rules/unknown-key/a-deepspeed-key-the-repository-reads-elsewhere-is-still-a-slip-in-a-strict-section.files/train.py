import deepspeed

def configure(ds_config):
    if "stage3_gather_fp16_weights_on_model_sav" in ds_config["zero_optimization"]:
        pass
    return deepspeed.initialize(config=ds_config)
