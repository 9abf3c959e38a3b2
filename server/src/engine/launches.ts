/**
 * The `accelerate launch` commands that name an Accelerate config (`--config_file`), read from the
 * scripts that run them whatever else those scripts are: the link a script makes to its config (so
 * that hosts hand the config the script as a referrer), and the commands a config's referrers run.
 */
import type { HydraLaunch, LaunchCommand, RecipeLaunchOf } from './formats/format';
import { buildsTrainer } from './formats/trainer/imports';
import { namesFile, recipeLaunches } from './formats/trainer/launch';
import type { LinkedFile } from './formats/link';
import type { FileAnalysis } from './result';
import { ShellDoc } from './syntax/shell';
import { absoluteTails } from './syntax/shell/expansion';
import type { SourceDoc } from './syntax/sourcedoc';
import type { Finding, Span } from './types';
import { heredocJson, HeredocJsonDoc } from './syntax/heredoc-json';
import type { HeredocConfig } from './syntax/shell/heredocs';

/** The span inside the quotes of a quoted scalar (a link covers the path, not its quotes). */
export function trimQuotes(text: string, span: Span): Span {
  const first = text[span.start];
  return (first === '"' || first === "'") && span.end - span.start >= 2 && text[span.end - 1] === first ? { start: span.start + 1, end: span.end - 1 } : span;
}

/**
 * The link from a script's `accelerate launch --config_file` to the config, or from a Hydra launch
 * (`--config-name`) to its YAML, when the host finds it.
 */
export function launchLink(doc: SourceDoc, read: (ref: string) => LinkedFile): FileAnalysis['links'][number] | undefined {
  if (!(doc instanceof ShellDoc)) return undefined;
  const a = doc.accelerateConfig();
  if (!a) return hydraLink(doc, read);
  if (/[$`*?]/.test(a.ref)) return undefined;
  const found = read(a.ref);
  const target = found.text !== undefined ? found.path : undefined;
  return target ? { span: trimQuotes(doc.text, a.span), ref: a.ref, target } : undefined;
}

/** The links from a script's commands to the recipes they launch (`llamafactory-cli train x.yaml`, `train.py --config x.yaml`), when the host finds them. */
export function recipeLinks(doc: SourceDoc, read: (ref: string) => LinkedFile): FileAnalysis['links'] {
  if (!(doc instanceof ShellDoc)) return [];
  return recipeLaunches(doc).flatMap((l) => {
    if (/[$`*?]/.test(l.ref)) return [];
    const found = read(l.ref);
    return found.text !== undefined && found.path ? [{ span: trimQuotes(doc.text, l.span), ref: l.ref, target: found.path }] : [];
  });
}

/** The launches, by the referrers, of the recipe at `path`. */
export function recipeLaunchesOf(path: string | undefined, referrers: readonly { path: string; doc?: SourceDoc }[]): RecipeLaunchOf[] {
  if (!path) return [];
  return referrers.flatMap(({ path: at, doc }) => (doc instanceof ShellDoc ? recipeLaunches(doc).filter((l) => namesFile(l.ref, path)).map((launch) => ({ path: at, doc, launch })) : []));
}

/**
 * A Hydra launch's config: `<config-path>/<config-name>.yaml`, the folder taken relative to the entry
 * script (as Hydra does); without `--config-path`, the entry script's own `conf/` (the folder NeMo's
 * entry scripts name in `@hydra_runner`) or its folder.
 */
function hydraLink(doc: ShellDoc, read: (ref: string) => LinkedFile): FileAnalysis['links'][number] | undefined {
  const h = doc.hydraConfig();
  if (!h) return undefined;
  const entry = doc.entrypoint?.path;
  const dir = entry && !/[$`]/.test(entry) ? (entry.includes('/') ? entry.slice(0, entry.lastIndexOf('/')) : '.') : undefined;
  const file = /\.ya?ml$/.test(h.name) ? h.name : `${h.name}.yaml`;
  const folders = h.folder?.startsWith('/') ? [h.folder] : dir === undefined ? [] : h.folder ? [`${dir}/${h.folder}`] : [`${dir}/conf`, dir];
  for (const folder of folders) {
    const ref = `${folder}/${file}`.replace(/^\.\//, '');
    // A folder of the machine the job runs on (`/workspace/llm/conf` in a container): looked for in the repository by its tail.
    for (const r of [ref, ...absoluteTails(ref)]) {
      const found = read(r);
      if (found.text !== undefined && found.path) return { span: trimQuotes(doc.text, h.span), ref: r, target: found.path };
    }
  }
  return undefined;
}

/** The Hydra launches of the referrers that name the file at `path` (by its name, without `.yaml`) as their `--config-name`. */
export function hydraLaunchesOf(path: string | undefined, referrers: readonly { path: string; doc?: SourceDoc }[]): HydraLaunch[] {
  const name = path?.split(/[\\/]/).pop()?.replace(/\.ya?ml$/, '');
  if (!name) return [];
  return referrers.flatMap(({ path: at, doc }) => {
    const h = doc instanceof ShellDoc ? doc.hydraConfig() : undefined;
    return h && h.name.split('/').pop()!.replace(/\.ya?ml$/, '') === name ? [{ path: at, overrides: h.overrides, ...(h.open ? { open: h.open } : {}) }] : [];
  });
}

/** The commands of the referrers that name the file at `path` (by its name) as their `--config_file`. */
export function launchesOf(path: string | undefined, referrers: readonly { path: string; doc?: SourceDoc }[]): LaunchCommand[] {
  const name = path?.split(/[\\/]/).pop();
  if (!name) return [];
  return referrers.flatMap(({ path: at, doc }) => {
    const a = doc instanceof ShellDoc ? doc.accelerateConfig() : undefined;
    if (!a || a.ref.split(/[\\/]/).pop() !== name) return [];
    let trainer: { why?: string } | undefined;
    const startsTrainer = () => (trainer ??= { why: buildsTrainer(doc as ShellDoc) }).why;
    return [{ path: at, args: a.launcher.args, ...(a.open ? { open: a.open } : {}), trainer: startsTrainer }];
  });
}

/** Megatron flags that mark a training command as Megatron's own loop (with `--deepspeed`: Megatron-DeepSpeed). */
const MEGATRON_MARKS = ['--num-layers', '--tensor-model-parallel-size', '--pipeline-model-parallel-size', '--micro-batch-size'];

/**
 * The referrers whose training command runs Megatron-DeepSpeed (Megatron's flags with `--deepspeed`)
 * and names the file at `path` (by its name) as its `--deepspeed_config`. Such a program loads the
 * JSON itself with json.load and passes deepspeed.initialize an optimizer and a learning-rate
 * scheduler of its own (megatron/training.py of microsoft/Megatron-DeepSpeed and of
 * bigscience-workshop/Megatron-DeepSpeed), so DeepSpeed builds neither from the file.
 */
export function megatronDeepSpeedUsers(path: string | undefined, referrers: readonly { path: string; doc?: SourceDoc }[]): { path: string; all: boolean } {
  const name = path?.split(/[\\/]/).pop();
  if (!name) return { path: '', all: false };
  const users = referrers.flatMap(({ path: at, doc }) => {
    const root = doc instanceof ShellDoc && doc.root?.kind === 'map' ? doc.root : undefined;
    const config = root?.entries.find((e) => /^--(deepspeed[_-]config|deepscale[_-]config)$/.test(e.key));
    const ref = config?.value.kind === 'scalar' ? String(config.value.value ?? '') : '';
    if (!root || ref.split(/[\\/]/).pop() !== name) return [];
    const megatron = root.entries.some((e) => e.key === '--deepspeed') && root.entries.some((e) => MEGATRON_MARKS.includes(e.key));
    return [{ at, megatron }];
  });
  const first = users.find((u) => u.megatron);
  return { path: first?.at ?? '', all: users.length > 0 && users.every((u) => u.megatron) };
}

/**
 * The DeepSpeed config a launch script writes itself with a here-document and passes to its training
 * command (`cat <<EOT > $config_json` … `--deepspeed_config ${config_json}`), read as the JSON the
 * shell writes, placed in the script; undefined when the command reads no such file or the body is
 * not read (see heredocJson).
 */
export function heredocDeepSpeed(doc: SourceDoc | undefined): { doc: HeredocJsonDoc; config: HeredocConfig } | undefined {
  if (!(doc instanceof ShellDoc)) return undefined;
  const config = doc.heredocConfig();
  if (!config) return undefined;
  const w = config.write;
  const json = heredocJson(doc.text, doc.lines, w.body, w.bodySpan, w.quoted);
  return json instanceof HeredocJsonDoc ? { doc: json, config } : undefined;
}

/** A finding in a here-document written in one arm of an undecided branch: at most a warning that names it. */
export function assumingBranch(f: Finding, assumed: string | undefined): Finding {
  if (!assumed || f.severity === 'information' || f.severity === 'hint') return f;
  return { ...f, severity: 'warning', message: `${f.message} This assumes ${assumed}.`, assumed: [...(f.assumed ?? []), assumed] };
}
