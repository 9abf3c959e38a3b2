/**
 * The engine's public surface. Everything here is pure: text and settings in, results out.
 */
export { analyze, syntaxOf } from './analyze';
export type { Detection, DocAnalysis, FileAnalysis, FileInput, FileLink, LinkedFile } from './result';
export type { Submodule } from './formats/link';
export { hover, type HoverResult } from './features/hover';
export { complete, type CompletionEntry } from './features/completion';
export { codeActions, type ActionEntry, SHOW_DOCS_COMMAND } from './features/actions';
export { fixForSet, fixRound, fixText, type AppliedFix, type FixOptions, type FixResult, type FixRound, type RefusedFix } from './fixes';
export { describeChanges, planChanges, type PlanChange } from './plan/diff';
export { explain, HOMEPAGE, ruleDocsUrl, rulesMarkdown, ruleMarkdown } from './docs';
export { layoutLenses, layoutMarkdown, layoutPicture, layoutText, type LayoutLens, type PictureDegree } from './features/layout';
export { documentSymbols, foldingRanges, MAX_SYMBOLS, type FoldRange, type OutlineKind, type OutlineSymbol } from './features/outline';
export { RULES, ruleById } from './rules';
export { HARDWARE, hardwareSuggestion } from './plan/hardware';
export { closest, didYouMean } from './suggest';
export { parseProjectConfig, parsePyprojectConfig, PROJECT_CONFIG_KEYS, ruleIdProblem, selectedRules, settingsFromClient, type ProjectConfig, type RuleSelection } from './config';
export { mergeSettings, FORMAT_IDS, DEFAULT_MAX_FILE_SIZE, REPOSITORY_FLAG_LIMITS, SETTING_LIMITS, type EngineSettings, type FormatId, type MegatronCheckout, type RepositoryFlags, type Pin, type RuleLevel, type Tool } from './settings';
export { folderPins, isPinFile, pinsIn } from './pins';
export { type GpuRequest, gpuRequests, mayRequestGpus, requestedHardware } from './plan/requests';
export { argsAssignments, checkoutFrom, configAssignments, configReads, flagLiterals, packageVersion, parserFlags, readsLeniently } from './formats/megatron/checkout';
export { deepspeedConfigReads } from './formats/deepspeed/reads';
export { LineIndex, applyEdits } from './text';
export type { Applicability, Finding, FindingTag, Fix, Position, Range, RelatedLocation, Severity, Span, TextEdit } from './types';
export { SEVERITIES } from './types';
export { mfuOf, readMegatronLog, stepFromLog, type LoggedIteration, type Mfu } from './plan/mfu';
export { COLOUR_BY, layoutSvg, type ColourBy } from './plan/picture';
export { coordinates, placement, rankMap, type RankMap } from './plan/ranks';
export { hardwareById } from './plan/hardware';
export { MODEL_PRESETS, modelFromHfConfig, modelPreset } from './plan/models';
export type { ModelShape } from './plan/memory';
export { layoutLabel, layoutMemory, planLayouts, rankOf, recommendedOverlap, shardingOf, type Pinned, type Sharding, type PlanRequest, type PlanResult, type RankedLayout } from './plan/planner';
export { decidingRule, preferenceKey, PREFERENCE_RULES, type PreferenceRule, type RankOrder } from './plan/preference';
export { CALIBRATION, CALIBRATION_MOE, calibrationOf, estimateStep, TIE_BAND, TIE_BAND_MOE, tieBandOf, recomputeShare, STEP_MODEL, stepAssumptions, type Expected, type Layout, type Software, type StepEstimate, type Workload } from './plan/steptime';
export { estimateLine, fmtStep, layoutEdits, planAlternatives, planStep } from './plan/advise';
export { PLAN_ACTION_TITLE, planActionAt, plannedLayouts, type PlannedLayout } from './features/plan-action';
export { checkedAgainst } from './rules/release';
