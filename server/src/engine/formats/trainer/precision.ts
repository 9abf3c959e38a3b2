/**
 * The mixed precision `accelerate launch` hands a Trainer recipe (`--mixed_precision`, else the
 * config's `mixed_precision`, exported as ACCELERATE_MIXED_PRECISION: accelerate
 * commands/launch.py@v1.10.0:1108-1112, utils/launch.py@v1.10.0:495), and the DeepSpeed JSON the
 * config's plugin names (`deepspeed_config.deepspeed_config_file`), which the Trainer takes from
 * Accelerate's plugin when no `deepspeed` argument is given (training_args.py@v4.57.6:2082-2089,
 * trainer.py@v4.57.6:5537-5538).
 */
import type { Launcher, ShellDoc } from '../../syntax/shell';
import type { SourceDoc } from '../../syntax/sourcedoc';
import type { Path, Span } from '../../types';
import { LAUNCH_TYPE_SWITCH, launchSpellings } from '../accelerate/helpers';
import type { AccelerateModel } from '../accelerate/model';
import type { ModelInput } from '../format';
import type { LaunchPrecision, TrainerModel } from './model';

/** The option as either spelling gives it, if the command passes it. */
function option(l: Launcher, name: string): ReturnType<Launcher['args']['get']> {
  const [under, dash] = launchSpellings(name);
  return l.args.get(under) ?? l.args.get(dash);
}

/** The `accelerate launch` of a script's training command, if it runs under one. */
export function accelerateLauncher(s: ShellDoc): Launcher | undefined {
  let l = s.launcher;
  while (l && l.kind !== 'accelerate') l = l.inner;
  return l;
}

/** Whether `accelerate launch` runs DeepSpeed: its own switches first, else the config's `distributed_type` (undefined: not known). */
function usesDeepspeed(l: Launcher, acc: AccelerateModel | undefined): boolean | undefined {
  if (option(l, LAUNCH_TYPE_SWITCH.DEEPSPEED)) return true;
  if (Object.values(LAUNCH_TYPE_SWITCH).some((o) => option(l, o))) return false;
  if (!acc?.distributedType) return undefined;
  return acc.distributedType === 'DEEPSPEED';
}

export interface AccelerateConfigRef {
  ref: string;
  path: string;
  doc: SourceDoc;
  model: AccelerateModel;
}

/**
 * The precision one `accelerate launch` command passes on. `script` names the launch script, and
 * `file` is it when the model being built is another document (undefined: the option is in this one).
 */
export function launchPrecision(l: Launcher, acc: AccelerateConfigRef | undefined, script: string, file?: { path: string; doc: SourceDoc }): LaunchPrecision | undefined {
  const flag = option(l, '--mixed_precision');
  const deepspeed = usesDeepspeed(l, acc?.model);
  const jsonFile = !!acc && (acc.model.deepspeedFile !== undefined || acc.model.view.get(['deepspeed_config', 'deepspeed_config_file']) !== undefined || !!option(l, '--deepspeed_config_file'));
  if (flag) {
    if (flag.unknown || flag.assumed || typeof flag.value !== 'string') return undefined;
    const value = flag.value.trim().toLowerCase();
    const at: Span = flag.span;
    return { value, at, ...(file ? { other: file } : {}), said: `\`--mixed_precision ${value}\` on the \`accelerate launch\` command of ${script}`, deepspeed, jsonFile, fromConfig: false };
  }
  // Options the reader does not see may set it.
  if (l.open || !acc) return undefined;
  const v = acc.model.view.get(['mixed_precision']);
  if (typeof v !== 'string') return undefined;
  const at: Path = acc.model.view.source(['mixed_precision']) ?? ['mixed_precision'];
  const value = v.trim().toLowerCase();
  return { value, at, other: { path: acc.path, doc: acc.doc }, said: `\`mixed_precision: ${value}\` in ${acc.ref} (the Accelerate config ${script} launches it with)`, deepspeed, jsonFile, fromConfig: true };
}

/**
 * The DeepSpeed JSON an Accelerate config's plugin names, as the Trainer sees it: only under
 * DeepSpeed, with no `--deepspeed_config_file` on the command (which would name another).
 */
export function pluginJson(l: Launcher, acc: AccelerateConfigRef, link: ModelInput['link'], at: Path | Span, via: string): TrainerModel['deepspeed'] {
  const file = acc.model.deepspeedFile;
  if (!file || usesDeepspeed(l, acc.model) !== true || option(l, '--deepspeed_config_file')) return undefined;
  const linked = link(file.ref, 'deepspeed');
  return { ref: file.ref, at, linked, model: linked?.analysis?.model, via, named: { at: file.at, other: { path: acc.path, doc: acc.doc } } };
}
