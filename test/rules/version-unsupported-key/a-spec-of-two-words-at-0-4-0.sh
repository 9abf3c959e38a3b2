#: name: version-unsupported-key: `--spec` with its two words (module, function) is what Megatron-LM 0.4.0 takes
#: settings: {"targetVersions": {"megatron-core": "0.4.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py --spec megatron.core.models.gpt.gpt_layer_specs get_gpt_layer_local_spec --num-layers 2 --hidden-size 64 --num-attention-heads 4
