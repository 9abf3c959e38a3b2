from deepspeed.runtime.config import DeepSpeedConfig
from deepspeed.runtime.config_utils import get_scalar_param

FP8 = 'fp8lib'


class WrappedDeepSpeedConfig(DeepSpeedConfig):
    def _initialize_params(self, param_dict):
        super()._initialize_params(param_dict)
        section = param_dict.get(FP8, {})
        self.fp8_enabled = get_scalar_param(section, 'enabled', False)
