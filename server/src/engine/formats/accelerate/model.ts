/** The model of an Accelerate config its rules read. Types only. */
import type { InstanceView } from '../../schema/view';
import type { Path } from '../../types';
import type { DeepSpeedModel } from '../deepspeed/model';
import type { Linked } from '../link';

export interface AccelerateModel {
  /** Every known `accelerate launch` of this config starts a program that builds a Transformers Trainer: why; undefined otherwise. */
  trainerLaunch(): string | undefined;
  view: InstanceView;
  sagemaker: boolean;
  /** `distributed_type` when it is a valid type (undefined when missing, misspelled or a YAML boolean). */
  distributedType: string | undefined;
  /** FSDP version in effect (the launcher's default is 1). */
  fsdpVersion: number;
  /** `num_processes`: the total over all machines. */
  numProcesses: number | undefined;
  numMachines: number;
  machineRank: number;
  mixedPrecision: string | undefined;
  /**
   * What the `accelerate launch` command line passes for one of the file's keys (it overrides the
   * file). With the scripts that launch this config known (its referrers), whether one of them
   * passes `--key` (`passed`, and `via`: the scripts, in words); with none known, an assumption
   * that the command passes nothing, which a rule needing the key absent reads.
   */
  commandLine(key: string): { passed: boolean; via?: string; assumed?: string };
  /** The launches that pass the option standing for the key at `path`, when every known launch does (the file's value never runs). */
  overriddenBy(path: Path): string | undefined;
  /** True when the section is present and has at least one key set. */
  hasSection(section: string): boolean;
  /** `deepspeed_config.deepspeed_config_file`, and the file as the host found it (read as a DeepSpeed config). */
  /** `lowered`: the same lookup for the path in lower case, where it has capitals (the launcher lower-cased it in 0.10.0–0.12.x). */
  deepspeedFile?: { ref: string; at: Path; linked?: Linked<DeepSpeedModel>; model?: DeepSpeedModel; lowered?: Linked<DeepSpeedModel> };
}
