/**
 * Megatron-LM YAML: the functional-test `model_config.yaml` (a `MODEL_ARGS` map of `--flags`) and the
 * experimental `--yaml-cfg` file (`language_model:` and `model_parallel:` sections of argument names).
 * The argument schema and its checks come with the Megatron support; this module reads the layout.
 */
import type { EngineSettings } from '../../settings';
import type { SourceDoc } from '../../syntax/sourcedoc';
import type { Node } from '../../syntax/tree';
import type { Field } from '../../plan/plan';
import type { FormatSupport, ModelInput } from '../format';
import { flagToDest, megatronPlan, type ArgValue, type MegatronArgs } from './args';

const YAML_CFG_SECTIONS = ['language_model', 'model_parallel'];

export interface MegatronYamlModel {
  args: MegatronArgs;
}

function isFlagMap(node: Node | undefined): boolean {
  return node?.kind === 'map' && node.entries.length > 0 && node.entries.some((e) => e.key.startsWith('--'));
}

export function readMegatronYaml(doc: SourceDoc, settings: EngineSettings, path?: string): MegatronArgs {
  const byDest = new Map<string, ArgValue>();
  const root = doc.root;
  let flagStyle = false;
  if (root?.kind === 'map') {
    const modelArgs = root.entries.find((e) => e.key === 'MODEL_ARGS');
    if (modelArgs && modelArgs.value.kind === 'map') {
      flagStyle = true;
      for (const e of modelArgs.value.entries) {
        if (!e.key.startsWith('-')) continue;
        const { dest, negated } = flagToDest(e.key);
        const v = e.value.kind === 'scalar' ? e.value.value : doc.value(['MODEL_ARGS', e.key]);
        // A `--no-x: true` entry passes the flag, which sets x to false; `--no-x: false` leaves it out.
        if (negated && v === false) continue;
        byDest.set(dest, { value: negated ? false : v, path: ['MODEL_ARGS', e.key] });
      }
    } else {
      // --yaml-cfg: argument names at the top level and in its sections.
      for (const e of root.entries) {
        if (YAML_CFG_SECTIONS.includes(e.key) && e.value.kind === 'map') {
          for (const inner of e.value.entries) if (!(inner.value.kind === 'scalar' && inner.value.value === null)) byDest.set(inner.key, { value: doc.value([e.key, inner.key]), path: [e.key, inner.key] });
        } else if (!(e.value.kind === 'scalar' && e.value.value === null)) byDest.set(e.key, { value: doc.value([e.key]), path: [e.key] });
      }
    }
  }
  const world = worldOf(settings, path);
  return {
    runtime: flagStyle ? 'Megatron-LM (MODEL_ARGS)' : 'Megatron-LM (--yaml-cfg)',
    get: (dest) => byDest.get(dest),
    pathFor: (dest) => {
      if (flagStyle) return ['MODEL_ARGS', `--${dest.replace(/_/g, '-')}`];
      const section = /parallel|sequence_parallel|tp_comm/.test(dest) ? 'model_parallel' : undefined;
      return section && root?.kind === 'map' && root.entries.some((e) => e.key === section) ? [section, dest] : [dest];
    },
    world: world?.world,
    nodes: world?.nodes,
  };
}

/** The world size: a setting (`world_size=`), or the `<N>N<G>G` of a functional-test path. */
function worldOf(settings: EngineSettings, path?: string): { world: Field<number>; nodes?: Field<number> } | undefined {
  if (settings.worldSize) {
    const nodes = settings.nodes ?? 1;
    return { world: { value: settings.worldSize, from: { kind: 'setting', note: '`world_size` setting' } }, nodes: settings.nodes ? { value: nodes, from: { kind: 'setting', note: '`nodes` setting' } } : undefined };
  }
  const m = path ? /(\d+)N(\d+)G/.exec(path) : null;
  if (m) {
    const n = Number(m[1]);
    const g = Number(m[2]);
    return { world: { value: n * g, from: { kind: 'default', note: `${n} node${n === 1 ? '' : 's'} × ${g} GPUs from the test name` } }, nodes: { value: n, from: { kind: 'default', note: 'from the test name' } } };
  }
  return undefined;
}

export const megatronYamlFormat: FormatSupport<MegatronYamlModel> = {
  id: 'megatron-yaml',
  title: 'Megatron-LM YAML',
  toolName: 'Megatron-LM',
  syntaxes: ['yaml'],
  tool: 'megatron-core',
  detect(doc: SourceDoc): number {
    const root = doc.root;
    if (!root || root.kind !== 'map') return 0;
    const modelArgs = root.entries.find((e) => e.key === 'MODEL_ARGS');
    if (modelArgs && isFlagMap(modelArgs.value)) return 50;
    const keys = new Set(root.entries.map((e) => e.key));
    if (keys.has('language_model') && keys.has('model_parallel')) return 50;
    return 0;
  },
  model({ doc, settings, path }: ModelInput): MegatronYamlModel {
    return { args: readMegatronYaml(doc, settings, path) };
  },
  plan(model, settings) {
    return megatronPlan(model.args, settings);
  },
};
