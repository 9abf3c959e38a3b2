/**
 * The commands that launch a fine-tuning recipe: `llamafactory-cli train recipe.yaml [key=value…]`
 * (LLaMA-Factory's launcher), and a launched Python script given the recipe as its first argument
 * (`run_sft.py recipe.yaml`, read by an HfArgumentParser subclass) or as `--config recipe.yaml`
 * (TRL's TrlParser), often under `accelerate launch --config_file acc.yaml`.
 */
import type { RecipeCommand, ShellDoc } from '../../syntax/shell';
import type { ExpandedWord } from '../../syntax/shell/types';
import { locateRange, textOf, unknownOf } from '../../syntax/shell/expansion';
import type { Field } from '../../plan/plan';
import type { Span } from '../../types';
import type { RecipeLaunch } from '../format';
import { fieldOf } from './script';


const RECIPE = /\.(ya?ml|json)$/;

function known(w: ExpandedWord | undefined): string | undefined {
  return w && !w.passthrough && !w.segs.some((s) => s.unknown) ? w.text : undefined;
}

/**
 * What one of LLaMA-Factory's environment switches is in the command's environment: on, off, or not
 * known (set outside the script, or not exported). `is_env_enabled` takes "true", "y" and "1" from
 * 0.9.2; 0.8.x-0.9.1 took "true" and "1" only (src/llamafactory/extras/misc.py@ff6d4d1:258-260,
 * cli.py@v0.8.0:75), so "y" is left unknown.
 */
function envSwitch(c: RecipeCommand, name: string): boolean | undefined {
  const v = envText(c, name);
  if (v === null || v === undefined) return undefined;
  const t = v.toLowerCase();
  if (t === 'true' || t === '1') return true;
  return t === 'y' ? undefined : false;
}

/** A variable's text as the command sees it; undefined when the script does not set it, null when its value is not known. */
function envText(c: RecipeCommand, name: string): string | undefined | null {
  const b = c.env.get(name);
  if (!b) return undefined;
  if (!b.exported || b.kind !== 'scalar' || unknownOf(b)) return null;
  return textOf(b.segs);
}

/**
 * The processes `llamafactory-cli train` starts (src/llamafactory/launcher.py@ff6d4d1:56-132): with
 * FORCE_TORCHRUN (or USE_MCA / USE_MEGATRON_BRIDGE) on, or more than one device visible (and neither
 * USE_RAY nor USE_KT), it runs torchrun with NNODES (default 1) × NPROC_PER_NODE (default: the
 * number of visible devices); otherwise one process. From LLaMA-Factory 0.8.0 (0.7.1's cli runs the
 * training in-process), so the count is an assumption about the release.
 */
export function llamafactoryWorld(c: RecipeCommand): { world?: Field<number>; unknown?: string } {
  // A switch set to a value whose reading is not known, or on where another launcher takes over.
  const on = (n: string): boolean | undefined => (envText(c, n) === undefined ? false : envSwitch(c, n));
  if (on('USE_V1') !== false) return { unknown: '`USE_V1` may run LLaMA-Factory\'s v1 launcher, which is not read here' };
  const forced = ['FORCE_TORCHRUN', 'USE_MCA', 'USE_MEGATRON_BRIDGE'].map(on);
  const force = forced.includes(true);
  if (!force && forced.includes(undefined)) return { unknown: 'whether `FORCE_TORCHRUN` is on is not known' };
  if (!force && (on('USE_RAY') !== false || on('USE_KT') !== false)) return { unknown: 'LLaMA-Factory may run the job through Ray or KTransformers here' };
  const nproc = envText(c, 'NPROC_PER_NODE');
  if (nproc === null) return { unknown: 'the value of `NPROC_PER_NODE` is not known' };
  if (nproc === undefined || !/^\d+$/.test(nproc.trim())) return { unknown: '`llamafactory-cli` starts one process per visible device when `NPROC_PER_NODE` is not set, and that count is not known' };
  const nodesText = envText(c, 'NNODES');
  if (nodesText === null || (nodesText !== undefined && !/^\d+$/.test(nodesText.trim()))) return { unknown: 'the value of `NNODES` is not known' };
  const nodes = nodesText === undefined ? 1 : Number(nodesText.trim());
  const per = Number(nproc.trim());
  const notes = ['`llamafactory-cli` of LLaMA-Factory 0.8.0 or later launches torchrun'];
  if (!force) notes.push('more than one device is visible (without `FORCE_TORCHRUN` it launches torchrun only then)');
  if (nodesText === undefined) notes.push('`NNODES` is not set outside the script (1)');
  return { world: { value: nodes * per, from: { kind: 'assumed', note: `${notes.join('; ')}: NNODES ${nodes} × NPROC_PER_NODE ${per}` } } };
}

/** `llamafactory-cli train <recipe> key=value…`: OmegaConf.from_cli reads the words after the recipe as overrides (hparams/parser.py@ff6d4d1:117-120). */
function llamafactoryLaunch(c: RecipeCommand): RecipeLaunch | undefined {
  const first = c.args[0];
  const ref = known(first);
  if (!first || !ref || !RECIPE.test(ref)) return undefined;
  const overrides = new Map<string, string | undefined>();
  const overrideSpans = new Map<string, Span>();
  let open: string | undefined;
  for (const w of c.args.slice(1)) {
    const lead = w.segs.find((x) => x.text !== '');
    const m = lead && !lead.unknown ? /^([A-Za-z_][\w-]*)(\.[\w.-]*)?=/.exec(lead.text) : null;
    if (!m) {
      if (!known(w)) open ??= `\`${w.text}\` may set keys on the command line`;
      continue;
    }
    // A dotted key (`a.b=1`) sets part of a mapping: the key is overridden, its value not known here.
    // The last word for a key wins (OmegaConf.from_cli merges them in order).
    overrides.set(m[1], m[2] || w.segs.some((x) => x.unknown) ? undefined : w.text.slice(w.text.indexOf('=') + 1));
    overrideSpans.set(m[1], locateRange(w, 0, w.text.length).span);
  }
  const { world, unknown } = llamafactoryWorld(c);
  if (c.inBranch !== undefined) open ??= `the command is in an arm of the branch on line ${c.inBranch}`;
  return { ref, span: locateRange(first, 0, ref.length).span, by: 'llamafactory-cli', overrides, overrideSpans, ...(open ? { open } : {}), ...(world ? { world } : { worldUnknown: unknown }) };
}

/**
 * The training command's recipe: the first word after the entry script when it names a YAML/JSON
 * file (HfArgumentParser subclasses read `sys.argv[1]` as the recipe: alignment-handbook's
 * H4ArgumentParser), or `--config <file>` (TRL's TrlParser); the other flags override its keys.
 */
function scriptLaunch(s: ShellDoc): RecipeLaunch | undefined {
  const t = s.trainingArgs();
  if (!t || !s.entrypoint) return undefined;
  let at: ExpandedWord | undefined;
  const first = t.args[0];
  if (first && known(first) && RECIPE.test(first.text) && !first.text.startsWith('-')) at = first;
  else {
    const i = t.args.findIndex((w) => w.text === '--config');
    const eq = t.args.find((w) => w.text.startsWith('--config='));
    if (i >= 0 && known(t.args[i + 1]) && RECIPE.test(t.args[i + 1].text)) at = t.args[i + 1];
    else if (eq && known(eq) && RECIPE.test(eq.text)) {
      const ref = eq.text.slice('--config='.length);
      return finish(s, ref, locateRange(eq, '--config='.length, eq.text.length).span, t.inBranch);
    }
  }
  return at ? finish(s, at.text, locateRange(at, 0, at.text.length).span, t.inBranch) : undefined;
}

function finish(s: ShellDoc, ref: string, span: Span, inBranch: number | undefined): RecipeLaunch {
  const overrides = new Map<string, string | undefined>();
  for (const e of s.root?.entries ?? []) {
    const f = fieldOf(e.key);
    if (f && f !== 'config') overrides.set(f, e.value.kind === 'scalar' && !e.value.unknown ? String(e.value.value) : undefined);
  }
  const open = s.open.length ? 'words of the command whose text is not known may set more keys' : inBranch !== undefined ? `the command is in an arm of the branch on line ${inBranch}` : undefined;
  return { ref, span, by: 'script', overrides, ...(open ? { open } : {}) };
}

/** The recipes a script launches (bounded by the commands the reader keeps). */
export function recipeLaunches(s: ShellDoc): RecipeLaunch[] {
  const out = s.recipeCommands.flatMap((c) => llamafactoryLaunch(c) ?? []);
  const own = scriptLaunch(s);
  if (own) out.push(own);
  return out;
}

/** Whether a launch's `ref` names the file at `path` (its trailing path, or its name when the ref climbs with `..`). */
export function namesFile(ref: string, path: string): boolean {
  const norm = path.replace(/\\/g, '/');
  const r = ref.replace(/^(\.\/)+/, '');
  if (r.startsWith('/')) return norm === r;
  if (r.split('/').includes('..')) return norm.split('/').pop() === r.split('/').pop();
  return norm === r || norm.endsWith(`/${r}`);
}
