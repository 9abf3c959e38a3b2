/**
 * fork-flags-not-checked: a launch script for a fork of Megatron-LM (Megatron-DeepSpeed), whose
 * own parser reads the flags.
 */
import type { MegatronModel } from '../formats/megatron/model';
import { flagList } from '../formats/megatron/runtime';
import { defineRule } from './rule';

export default defineRule({
  id: 'fork-flags-not-checked',
  severity: 'information',
  about: 'unknowns',
  formats: ['megatron-args'],
  forks: true,
  docs: {
    summary: "A launch script for a Megatron fork or an old Megatron-LM: its flags are not judged by Megatron-LM's, the layout still is.",
    why: "Megatron-DeepSpeed (microsoft's and bigscience's) parses its flags with its own copy of Megatron-LM's arguments: it adds flags (`--deepspeed`, `--zero-stage`), keeps flags upstream removed (`--data-impl`), and has its own choices. Judging them against upstream Megatron-LM would report valid flags as unknown or removed, so Shardwise does not: it says so once, and still checks what the fork computes the same way (TP × PP against the GPUs, heads and layers against the degrees, the batch arithmetic). The same holds for a script inside a checkout whose own `megatron/arguments.py` defines flags Megatron-LM never had (the flags that parser defines are then accepted, and others are warnings), for a script that starts `pretrain_gpt2.py`, the entry point of Megatron-LM before 2021, and, when nothing names the release (no setting, pin or checkout), for a script whose flags only a Megatron-LM older than Megatron Core 0.4.0 runs (flags Megatron Core 0.4.0 no longer has, such as `--DDP-impl`, which the earlier Core releases still took, and none that 0.4.0 or a later release added): the file says which Megatron-LM it was written for. The same holds, in part, for a Megatron-LM the script runs that is not read (a git submodule that is not checked out, a path the script is given): no flag is judged, unless the submodule is pinned at the commit of a Megatron-LM release tag, whose release then judges the flags it removed or had not yet added. A script that mixes such a flag with one 0.4.0 or a later release added (`--context-parallel-size`, `--use-mcore-models`) runs on no release, and its removed flags are errors. A launch of Megatron-LM\'s own `pretrain_*.py` that passes flags no release defines, that no parser Shardwise read defines and that are no slip of a real flag (`--use-mpi`, `--use-z-loss`: llm-jp\'s fork, which also drops upstream\'s `--save` without `--save-interval` check and asserts the opposite) is read by a fork or an extended parser: unknown-key says so once, as a warning, and the findings of every rule but those that check what forks share (the layout, heads, layers and batch arithmetic) rest on the assumption that upstream Megatron-LM runs the launch: at most warnings that say so, their fixes unsafe. Where the Megatron-LM the script runs is not read, this note names those flags.",
    bad: '#!/bin/bash\ndeepspeed --num_gpus 8 pretrain_gpt.py \\\n    --tensor-model-parallel-size 2 \\\n    --deepspeed \\\n    --deepspeed_config ds_config.json \\\n    --zero-stage 1\n',
    good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --tensor-model-parallel-size 2 \\\n    --sequence-parallel\n',
  },
  check(ctx) {
    const unseen = ctx.settings.megatronUnseen;
    if (!ctx.fork && !unseen) return;
    // Flags no release defines, passed on purpose: that Megatron-LM is a fork or a patched copy.
    const own = (ctx.model as MegatronModel | undefined)?.args?.notUpstream;
    const patched = own?.length ? ` The script passes ${flagList(own)}, which no Megatron-LM release defines: that Megatron-LM is a fork or a patched copy, which may have dropped or changed upstream's checks too, so findings that rest on them are at most warnings that say so.` : '';
    if (unseen?.release && !ctx.fork) {
      ctx.report({ at: [], message: `This script runs the Megatron-LM at ${unseen.where}, which is not read here: ${unseen.why}. That commit is Megatron Core ${unseen.release.version}'s release tag, so its flags are judged by that release (a flag it no longer takes or does not take yet is reported), but a flag Megatron-LM never had is not: the repository may patch its copy, or its entry script may add flags.${patched} Check the submodule out to have every flag checked.` });
      return;
    }
    if (unseen && !ctx.fork) {
      ctx.report({ at: [], message: `This script runs the Megatron-LM at ${unseen.where}, which is not read here: ${unseen.why}. Which flags it has and which release it is are not known, so Shardwise does not judge the flags by the newest Megatron-LM's: no flag is reported as unknown or removed, and only checks that hold in every release apply.${patched} Check it out, or name its release with \`# shardwise: megatron_core=<version>\`.` });
      return;
    }
    ctx.report({
      at: [],
      message:
        ctx.fork === 'Megatron-DeepSpeed'
          ? `This is a ${ctx.fork} script (it passes the fork's own flags): the fork reads its flags with its own parser, so Shardwise does not check them against Megatron-LM's (no unknown, removed or invalid flags are reported). The layout checks still apply.`
          : `This script runs ${ctx.fork}: its own parser reads the flags, so Shardwise does not judge them by Megatron-LM's (${ctx.settings.megatronCheckout ? 'no removed or invalid flags are reported; a flag that parser does not define either is a warning' : 'no unknown, removed or invalid flags are reported'}). The layout checks still apply.`,
    });
  },
});
