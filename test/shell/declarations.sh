declare -x NCCL_DEBUG=INFO
readonly PP=2
setup() {
  local MBS=4
}
NVTE_FLAG=1
export NVTE_FLAG
GONE=1
unset GONE
read -r -p "TP? " TP
[ -z "$GBS" ] && { GBS=64; }
[ "$PP" = 2 ] || { PP=3; }
torchrun pretrain_gpt.py --pipeline-model-parallel-size $PP --micro-batch-size $MBS --tensor-model-parallel-size $TP --global-batch-size $GBS
