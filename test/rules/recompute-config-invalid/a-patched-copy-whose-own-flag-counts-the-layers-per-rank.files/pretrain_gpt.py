from mindspeed_llm import megatron_adaptor
from megatron.training import pretrain
