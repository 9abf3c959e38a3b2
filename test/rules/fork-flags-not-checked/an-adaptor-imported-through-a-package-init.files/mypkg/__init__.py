# Importing any module of the package runs this first, and so patches Megatron-LM.
from mypkg.tasks import megatron_adaptor_v2 as megatron_adaptor
