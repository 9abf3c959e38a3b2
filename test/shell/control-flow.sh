MODEL=8b
case $MODEL in
  8b) LAYERS=32 ;;
  70b) LAYERS=80 ;;
  *) echo "unknown model"; exit 1 ;;
esac
if [ "$PRECISION" = fp8 ]; then
  EXTRA=(--fp8-format hybrid)
else
  EXTRA=(--bf16)
fi
if [[ -n "$BIG" ]]; then PP=4; else PP=1; fi
[ -z "$MBS" ] && MBS=1
USE_SP=1
if [ "$USE_SP" -eq 1 ]; then SP_ARGS=(--sequence-parallel); else SP_ARGS=(); fi
for i in 1 2; do echo $i; done
torchrun pretrain_gpt.py --num-layers $LAYERS "${EXTRA[@]}" --pipeline-model-parallel-size $PP --micro-batch-size $MBS ${SP_ARGS[@]} --seed $i
