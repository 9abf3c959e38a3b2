/**
 * The `optimizer` sections DeepSpeed hands to a `torch.optim` class, and the values that class's
 * constructor refuses. DeepSpeed itself checks none of these ranges: its own fused and CPU optimizers
 * take them as written, but a torch.optim constructor raises a ValueError before training starts.
 *
 * Which class (runtime/engine.py@v0.19.5 `_configure_basic_optimizer`): a `type` that is
 * not one of DeepSpeed's own names is looked up exactly on torch.optim (:2193-2194 of the same file,
 * `getattr(torch.optim, name)`); `Adam`/`AdamW` with `torch_adam` build torch.optim.Adam or AdamW
 * (:2058-2062); `Adagrad` builds torch.optim.Adagrad without the CPU optimizer (:2096-2102, from
 * 0.9.2; 0.5.5 to 0.9.1 build Adam for it); mup's MuAdam, MuAdamW and MuSGD build torch's Adam,
 * AdamW and SGD with the same keyword arguments (:2135-2152). Before DeepSpeed made a name its own
 * (`AdamW` 0.3.11, `Adagrad` 0.5.5, `Muon` 0.17.6) torch's spelling of it is a torch.optim class.
 *
 * What each constructor refuses (pytorch/pytorch torch/optim/<class>.py, `__init__`): a learning rate
 * below 0 ("Invalid learning rate"), an epsilon below 0 ("Invalid epsilon value"), a beta outside
 * [0, 1) ("Invalid beta parameter at index i"), a weight decay below 0 ("Invalid weight_decay value"),
 * a momentum below 0 ("Invalid momentum value"). The file does not pin PyTorch, so a finding that
 * rests on these is a warning that names the assumption.
 */
import type { Path } from '../../types';
import { DS_OPTIMIZERS, offloadsOptimizer, optimizerType, torchAdam, type DeepSpeedModel } from './model';

type Arg = 'lr' | 'eps' | 'betas' | 'weight_decay' | 'momentum';

/** The constructor checks of the torch.optim classes DeepSpeed may build, by class. */
const CHECKED: Record<string, readonly Arg[]> = {
  Adam: ['lr', 'eps', 'betas', 'weight_decay'],
  AdamW: ['lr', 'eps', 'betas', 'weight_decay'],
  Adamax: ['lr', 'eps', 'betas', 'weight_decay'],
  NAdam: ['lr', 'eps', 'betas', 'weight_decay'],
  RAdam: ['lr', 'eps', 'betas', 'weight_decay'],
  SGD: ['lr', 'momentum', 'weight_decay'],
  Adagrad: ['lr', 'eps', 'weight_decay'],
  Adadelta: ['lr', 'eps', 'weight_decay'],
  RMSprop: ['lr', 'eps', 'momentum', 'weight_decay'],
  ASGD: ['lr', 'weight_decay'],
};

const QUOTE: Record<Arg, string> = {
  lr: 'Invalid learning rate',
  eps: 'Invalid epsilon value',
  betas: 'Invalid beta parameter at index',
  weight_decay: 'Invalid weight_decay value',
  momentum: 'Invalid momentum value',
};

/**
 * Names DeepSpeed builds itself only from a release: before it, the name is looked up as a
 * `torch.optim` class (runtime/engine.py), which ZeRO has not tested (or which torch lacks); only
 * torch's own spelling of the class is found there (another spelling fails the lookup, which
 * version-unsupported-key reports). `AdamW` from 0.3.11 (runtime/config.py@v0.3.10:30-34 lists adam,
 * lamb and onebitadam; torch.optim.AdamW joins the tested list at zero/utils.py@v0.3.11:28);
 * `Adagrad` from 0.5.5 (runtime/config.py ADAGRAD_OPTIMIZER; torch.optim.Adagrad before,
 * engine.py@v0.5.4:875-877, zero/utils.py@v0.5.4:26); `Muon` from 0.17.6 (zero/utils.py@v0.17.6:51;
 * engine.py@v0.17.5:1578, 1383-1387).
 */
export const OWN_NAME_SINCE: Record<string, { since: string; torch: string }> = { adamw: { since: '0.3.11', torch: 'AdamW' }, adagrad: { since: '0.5.5', torch: 'Adagrad' }, muon: { since: '0.17.6', torch: 'Muon' } };

/** The torch.optim class DeepSpeed builds from the `optimizer` section, with how it gets there; undefined for its own optimizers. */
export function torchOptimClass(m: DeepSpeedModel, atLeast: (v: string) => boolean): { cls: string; via: string } | undefined {
  if (m.ownOptimizer) return undefined;
  const t = optimizerType(m);
  if (t === undefined) return undefined;
  const lower = t.toLowerCase();
  const own = OWN_NAME_SINCE[lower];
  if (own && t === own.torch && !atLeast(own.since)) return { cls: t, via: `before DeepSpeed ${own.since} \`${t}\` is not one of its own optimizers` };
  if (!DS_OPTIMIZERS.includes(lower)) return { cls: t, via: `\`${t}\` is not one of DeepSpeed's own optimizers` };
  // The name `AdamW` builds AdamW whatever `adam_w_mode` says; `Adam` builds it unless `adam_w_mode` is false (engine.py@v0.3.12 on, @v0.19.5:2053-2062).
  if ((lower === 'adam' || lower === 'adamw') && torchAdam(m)) return { cls: lower === 'adamw' || m.bool(['optimizer', 'params', 'adam_w_mode']) !== false ? 'AdamW' : 'Adam', via: '`torch_adam` is on' };
  if (lower === 'adagrad' && atLeast('0.9.2') && !torchAdam(m) && !offloadsOptimizer(m)) return { cls: 'Adagrad', via: 'without the optimizer offloaded DeepSpeed builds torch\'s Adagrad' };
  const mup: Record<string, string> = { muadam: 'Adam', muadamw: 'AdamW', musgd: 'SGD' };
  if (mup[lower]) return { cls: mup[lower], via: `mup's ${t} builds torch's ${mup[lower]}` };
  return undefined;
}

/** The values of `optimizer.params` the torch.optim class DeepSpeed builds refuses, each with the message's quote. */
export function torchOptimRefusals(m: DeepSpeedModel, atLeast: (v: string) => boolean): { at: Path; value: number; quote: string; rule: string; cls: string; via: string }[] {
  const built = torchOptimClass(m, atLeast);
  const args = built && CHECKED[built.cls];
  if (!built || !args) return [];
  const out: { at: Path; value: number; quote: string; rule: string; cls: string; via: string }[] = [];
  for (const arg of args) {
    const at: Path = ['optimizer', 'params', arg];
    if (arg === 'betas') {
      const betas = m.get(at);
      if (!Array.isArray(betas)) continue;
      betas.slice(0, 2).forEach((b, i) => {
        if (typeof b === 'number' && (b < 0 || b >= 1)) out.push({ at: [...at, i], value: b, quote: `${QUOTE.betas} ${i}: ${b}`, rule: 'in [0, 1)', ...built });
      });
      continue;
    }
    const v = m.num(at);
    if (v !== undefined && v < 0) out.push({ at, value: v, quote: `${QUOTE[arg]}: ${v}`, rule: '0 or more', ...built });
  }
  return out;
}
