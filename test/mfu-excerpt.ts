/** A launch script and the Megatron log excerpt of its run, written for the MFU tests (the figures are consistent with each other). */

/** A GPT of 24 layers, hidden 2048, 16 heads, GELU MLP (4h), vocabulary 51,200, on 2 × 8 H100s in BF16. */
export const SCRIPT = `#!/bin/bash
torchrun --nproc_per_node 8 --nnodes 2 pretrain_gpt.py \\
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \\
    --seq-length 2048 --max-position-embeddings 2048 --vocab-size 51200 \\
    --tensor-model-parallel-size 2 --micro-batch-size 4 --global-batch-size 512 \\
    --bf16 --use-distributed-optimizer
`;

/** What Megatron prints with --log-interval 10 --log-throughput (the first interval holds the warm-up). */
export const LOG = `[before the start of training step] datetime: 2026-11-30 10:00:00
 [2026-11-30 10:00:31] iteration       10/    1000 | consumed samples:         5120 | elapsed time per iteration (ms): 3100.0 | throughput per GPU (TFLOP/s/GPU): 179.3 | learning rate: 1.000000E-05 | global batch size:   512 | lm loss: 9.912345E+00 | loss scale: 1.0 | grad norm: 3.210 | number of skipped iterations:   0 | number of nan iterations:   0 |
Number of parameters in transformer block in billions:  1.21
 [2026-11-30 10:00:56] iteration       20/    1000 | consumed samples:        10240 | elapsed time per iteration (ms): 2500.0 | throughput per GPU (TFLOP/s/GPU): 222.3 | learning rate: 2.000000E-05 | global batch size:   512 | lm loss: 8.123456E+00 | loss scale: 1.0 | grad norm: 2.100 | number of skipped iterations:   0 | number of nan iterations:   0 |
[Rank 0] (after 20 iterations) memory (MB) | allocated: 20000.0 | max allocated: 30000.0
 [2026-11-30 10:01:20] iteration       30/    1000 | consumed samples:        15360 | elapsed time per iteration (ms): 2400.0 | throughput per GPU (TFLOP/s/GPU): 231.6 | learning rate: 3.000000E-05 | global batch size:   512 | lm loss: 7.654321E+00 | loss scale: 1.0 | grad norm: 1.900 | number of skipped iterations:   0 | number of nan iterations:   0 |
 [2026-11-30 10:01:46] iteration       40/    1000 | consumed samples:        20480 | elapsed time per iteration (ms): 2600.0 | throughput per GPU (TFLOP/s/GPU): 213.8 | learning rate: 4.000000E-05 | global batch size:   512 | lm loss: 7.345678E+00 | loss scale: 1.0 | grad norm: 1.700 | number of skipped iterations:   0 | number of nan iterations:   0 |
`;
