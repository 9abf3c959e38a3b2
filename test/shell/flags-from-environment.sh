torchrun pretrain_gpt.py --tensor-model-parallel-size $TP --bf16 $EXTRA_ARGS --lr ${LR:?set LR}
