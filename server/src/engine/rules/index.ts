/**
 * The rule registry: every rule, in the order findings are documented. A test checks that each
 * rule file is listed here and is named by its id.
 */
import type { Rule } from './rule';
import deepspeedConfigFileMissing from './deepspeed-config-file-missing';
import forkFlagsNotChecked from './fork-flags-not-checked';
import deepspeedConfigFileInvalid from './deepspeed-config-file-invalid';
import deepspeedConfigFileConflict from './deepspeed-config-file-conflict';
import mixedPrecisionConflict from './mixed-precision-conflict';
import batchSizeMismatch from './batch-size-mismatch';
import fp16AndBf16Enabled from './fp16-and-bf16-enabled';
import stage3KeyWithoutStage3 from './stage3-key-without-stage3';
import offloadNvmeWithoutPath from './offload-nvme-without-path';
import autoWithoutIntegration from './auto-without-integration';
import missingOverlapComm from './missing-overlap-comm';
import zeroConfigInvalid from './zero-config-invalid';
import optimizerConfigInvalid from './optimizer-config-invalid';
import precisionConfigInvalid from './precision-config-invalid';
import commsLoggerAlwaysOn from './comms-logger-always-on';
import parseError from './parse-error';
import duplicateKey from './duplicate-key';
import unknownKey from './unknown-key';
import missingKeyPrefix from './missing-key-prefix';
import invalidValue from './invalid-value';
import yamlBooleanTrap from './yaml-boolean-trap';
import deprecatedKey from './deprecated-key';
import versionUnsupportedKey from './version-unsupported-key';
import missingRequiredKey from './missing-required-key';
import missingDistributedType from './missing-distributed-type';
import missingNumProcesses from './missing-num-processes';
import multiNodeMissingMainProcess from './multi-node-missing-main-process';
import numProcessesNotDivisibleByMachines from './num-processes-not-divisible-by-machines';
import machineRankOutOfRange from './machine-rank-out-of-range';
import multiGpuSingleProcess from './multi-gpu-single-process';
import gpuIdsFewerThanProcesses from './gpu-ids-fewer-than-processes';
import irrelevantSection from './irrelevant-section';
import deepspeedMultinodeMissingHostfile from './deepspeed-multinode-missing-hostfile';
import zero3InitWithoutStage3 from './zero3-init-without-stage3';
import fsdp2UnsupportedKey from './fsdp2-unsupported-key';
import fsdp1ReshardAfterForwardIgnored from './fsdp1-reshard-after-forward-ignored';
import fsdpWrapPolicyMismatch from './fsdp-wrap-policy-mismatch';
import fsdpRamEfficientLoadingNeedsSync from './fsdp-ram-efficient-loading-needs-sync';
import parallelismRequiresFsdp2 from './parallelism-requires-fsdp2';
import noShardDimension from './no-shard-dimension';
import tpCpWithoutDpShard from './tp-cp-without-dp-shard';
import cpSpExclusive from './cp-sp-exclusive';
import cudaGraphConfigInvalid from './cuda-graph-config-invalid';
import batchInvariantConfigInvalid from './batch-invariant-config-invalid';
import checkpointConfigInvalid from './checkpoint-config-invalid';
import tensorParallelConfigInvalid from './tensor-parallel-config-invalid';
import spRequiresDeepspeed from './sp-requires-deepspeed';
import spSeqLengthRequired from './sp-seq-length-required';
import fp8BackendIncompatible from './fp8-backend-incompatible';
import worldSizeMismatch from './world-size-mismatch';
import slurmAllocationMismatch from './slurm-allocation-mismatch';
import expertGridMismatch from './expert-grid-mismatch';
import gpusPerNodeMismatch from './gpus-per-node-mismatch';
import tpExceedsNvlinkDomain from './tp-exceeds-nvlink-domain';
import headsNotDivisibleByTp from './heads-not-divisible-by-tp';
import layersNotDivisibleByPp from './layers-not-divisible-by-pp';
import globalBatchNotDivisible from './global-batch-not-divisible';
import vppMicrobatchMismatch from './vpp-microbatch-mismatch';
import sequenceParallelWithoutTp from './sequence-parallel-without-tp';
import tpWithoutSequenceParallel from './tp-without-sequence-parallel';
import tpCommOverlapRequiresSequenceParallel from './tp-comm-overlap-requires-sequence-parallel';
import overlapParamGatherRequiresDistributedOptimizer from './overlap-param-gather-requires-distributed-optimizer';
import missingOverlapGradReduce from './missing-overlap-grad-reduce';
import missingOverlapParamGather from './missing-overlap-param-gather';
import missingTpCommOverlap from './missing-tp-comm-overlap';
import memoryExceedsHbm from './memory-exceeds-hbm';
import tpLargerThanNeeded from './tp-larger-than-needed';
import numQueryGroupsWithoutGqa from './num-query-groups-without-gqa';
import missingCudaDeviceMaxConnections from './missing-cuda-device-max-connections';
import recomputeConfigInvalid from './recompute-config-invalid';
import batchConfigInvalid from './batch-config-invalid';
import dataConfigInvalid from './data-config-invalid';
import scheduleConfigInvalid from './schedule-config-invalid';
import loggingConfigInvalid from './logging-config-invalid';
import modelArgsConflict from './model-args-conflict';
import fp8ConfigInvalid from './fp8-config-invalid';
import moeConfigInvalid from './moe-config-invalid';
import precisionAwareOptimizerInvalid from './precision-aware-optimizer-invalid';
import fsdpConfigInvalid from './fsdp-config-invalid';
import rlConfigInvalid from './rl-config-invalid';
import inferenceConfigInvalid from './inference-config-invalid';
import pipelineConfigInvalid from './pipeline-config-invalid';
import overlapConfigInvalid from './overlap-config-invalid';
import ddpConfigInvalid from './ddp-config-invalid';
import scriptNotAnalysed from './script-not-analysed';
import unusedSuppression from './unused-suppression';
import unreadKey from './unread-key';
import trainerAccelerateMismatch from './trainer-accelerate-mismatch';
import trainerAcceleratePrecision from './trainer-accelerate-precision';
import trainerDeepspeedMismatch from './trainer-deepspeed-mismatch';
import trainerDeepspeedWithFsdp from './trainer-deepspeed-with-fsdp';
import trainerDeepspeedWithoutZero from './trainer-deepspeed-without-zero';
import trainerDeepspeedOptionRefused from './trainer-deepspeed-option-refused';
import llamafactoryZero3Refused from './llamafactory-zero3-refused';

export const RULES: readonly Rule<any>[] = [
  parseError,
  scriptNotAnalysed,
  duplicateKey,
  unknownKey,
  missingKeyPrefix,
  invalidValue,
  yamlBooleanTrap,
  deprecatedKey,
  forkFlagsNotChecked,
  versionUnsupportedKey,
  unreadKey,
  missingRequiredKey,
  missingDistributedType,
  missingNumProcesses,
  multiNodeMissingMainProcess,
  numProcessesNotDivisibleByMachines,
  machineRankOutOfRange,
  multiGpuSingleProcess,
  gpuIdsFewerThanProcesses,
  irrelevantSection,
  deepspeedMultinodeMissingHostfile,
  zero3InitWithoutStage3,
  fsdp2UnsupportedKey,
  fsdp1ReshardAfterForwardIgnored,
  fsdpWrapPolicyMismatch,
  fsdpRamEfficientLoadingNeedsSync,
  parallelismRequiresFsdp2,
  noShardDimension,
  tpCpWithoutDpShard,
  cpSpExclusive,
  cudaGraphConfigInvalid,
  batchInvariantConfigInvalid,
  checkpointConfigInvalid,
  tensorParallelConfigInvalid,
  spRequiresDeepspeed,
  spSeqLengthRequired,
  fp8BackendIncompatible,
  worldSizeMismatch,
  slurmAllocationMismatch,
  expertGridMismatch,
  gpusPerNodeMismatch,
  tpExceedsNvlinkDomain,
  headsNotDivisibleByTp,
  layersNotDivisibleByPp,
  globalBatchNotDivisible,
  vppMicrobatchMismatch,
  sequenceParallelWithoutTp,
  tpWithoutSequenceParallel,
  tpCommOverlapRequiresSequenceParallel,
  overlapParamGatherRequiresDistributedOptimizer,
  missingOverlapGradReduce,
  missingOverlapParamGather,
  missingTpCommOverlap,
  memoryExceedsHbm,
  tpLargerThanNeeded,
  numQueryGroupsWithoutGqa,
  missingCudaDeviceMaxConnections,
  recomputeConfigInvalid,
  batchConfigInvalid,
  dataConfigInvalid,
  scheduleConfigInvalid,
  loggingConfigInvalid,
  modelArgsConflict,
  fp8ConfigInvalid,
  moeConfigInvalid,
  precisionAwareOptimizerInvalid,
  fsdpConfigInvalid,
  rlConfigInvalid,
  inferenceConfigInvalid,
  pipelineConfigInvalid,
  overlapConfigInvalid,
  ddpConfigInvalid,
  deepspeedConfigFileMissing,
  deepspeedConfigFileInvalid,
  trainerAccelerateMismatch,
  trainerAcceleratePrecision,
  trainerDeepspeedMismatch,
  trainerDeepspeedWithoutZero,
  trainerDeepspeedWithFsdp,
  trainerDeepspeedOptionRefused,
  llamafactoryZero3Refused,
  deepspeedConfigFileConflict,
  mixedPrecisionConflict,
  batchSizeMismatch,
  fp16AndBf16Enabled,
  stage3KeyWithoutStage3,
  offloadNvmeWithoutPath,
  autoWithoutIntegration,
  missingOverlapComm,
  zeroConfigInvalid,
  optimizerConfigInvalid,
  precisionConfigInvalid,
  commsLoggerAlwaysOn,
  unusedSuppression,
];

/** Old rule ids that were renamed, kept working for suppressions and settings. */
export const RULE_ALIASES: Record<string, string> = {};

const BY_ID = new Map(RULES.map((r) => [r.id, r]));

export function ruleById(id: string): Rule<any> | undefined {
  return BY_ID.get(RULE_ALIASES[id] ?? id);
}
