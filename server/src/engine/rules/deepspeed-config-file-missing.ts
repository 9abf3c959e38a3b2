/**
 * deepspeed-config-file-missing: the DeepSpeed JSON an Accelerate config points at cannot be found.
 */
import { deepspeedFileRead } from '../formats/accelerate/helpers';
import type { AccelerateModel } from '../formats/accelerate/model';
import type { TrainerModel } from '../formats/trainer/model';
import type { ShellDoc } from '../syntax/shell';
import { defineRule, type RuleContext } from './rule';

/** A JSON object written as text (what Python's json.loads then `dict` access accept). */
function jsonObject(text: string): boolean {
  try {
    const v: unknown = JSON.parse(text);
    return !!v && typeof v === 'object' && !Array.isArray(v);
  } catch {
    return false;
  }
}

/**
 * The value is the configuration itself rather than a path, in a form the release decodes when no file
 * of that name exists (HfDeepSpeedConfig in utils/deepspeed.py): base64 of the JSON from 0.16.0
 * (@v0.16.0:49-53), the JSON text itself from 1.4.0 (@v1.4.0, `json.loads` tried before base64).
 */
function inlineConfig(ref: string, atLeast: (v: string) => boolean): boolean {
  const text = ref.trim();
  if (atLeast('1.4.0') && jsonObject(text)) return true;
  // Python's decoder wants the padding (a length that is a multiple of 4).
  if (!atLeast('0.16.0') || text.length % 4 !== 0 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return false;
  try {
    const bytes = Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
    return jsonObject(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return false;
  }
}

/**
 * A Transformers Trainer recipe or launch (`deepspeed: PATH`, `--deepspeed PATH`) naming a JSON that is
 * not there: TrainingArguments hands the path to Accelerate's HfDeepSpeedConfig, which stops on a path
 * that does not exist and is neither JSON text nor base64 (utils/deepspeed.py@v1.2.1:121-136). A path
 * from the Accelerate config (`via`) is that config's own finding. A launch that changes first to a
 * folder not known, or to one of the author's machine, leaves the path unresolvable: nothing is said.
 */
function trainerFileMissing(ctx: RuleContext<TrainerModel>): void {
  const d = ctx.model?.deepspeed;
  if (!d || d.via || d.named || !Array.isArray(d.at) || !d.linked?.resolver || d.linked.text !== undefined || d.linked.problem) return;
  // Only a path to a JSON file: a bare name may be one the program maps to a config of its own
  // (ms-swift's `--deepspeed zero2`). After a `cd` to a folder of the author's machine, or one not
  // known, where the run finds the file is not known here.
  if (!/\.json$/i.test(d.ref) || /[$`*?]/.test(d.ref) || inlineConfig(d.ref, () => true)) return;
  const looked = ctx.doc.syntax === 'shell' ? (ctx.doc as ShellDoc).launchRef(d.ref) : d.ref;
  if (looked === undefined || (looked.startsWith('/') && !d.ref.startsWith('/'))) return;
  const tried = d.linked.tried.length ? ` Looked for: ${d.linked.tried.map((t) => `\`${t}\``).join(', ')}.` : '';
  ctx.report({
    at: d.at,
    on: 'value',
    message: `\`${d.ref}\` was not found, so its DeepSpeed settings cannot be checked.${tried} The Trainer hands the path to Accelerate's HfDeepSpeedConfig, which stops before training ("Expected a string path to an existing deepspeed config") when no file is there from the directory the run starts in; this assumes it starts in one of the folders looked in. Use a path that is right from there (an absolute path is safest).`,
  });
}

export default defineRule<AccelerateModel | TrainerModel>({
  id: 'deepspeed-config-file-missing',
  severity: 'warning',
  formats: ['accelerate', 'trainer'],
  docs: {
    summary: 'A DeepSpeed JSON the config names (`deepspeed_config_file`, the Trainer\'s `deepspeed`) is not there.',
    why: 'accelerate opens the DeepSpeed JSON when the run starts and stops if it is missing: recent releases with "Expected a string path to an existing deepspeed config", older ones (from 0.10.0) with a `FileNotFoundError` or an error of its own error handling. Accelerate before 0.10.0 does not read the key, and nothing is reported there. From 0.10.0 to 0.12.x (0.13.0 no longer does) the launcher lower-cases the path before handing it on, so a path with capitals is reported there when only its written spelling exists. From 0.16.0 the value may instead be the JSON encoded in base64, and from 1.4.0 the JSON text itself, which it decodes when no file of that name exists; such a value is not reported. It resolves the path against the directory `accelerate launch` runs in, which an editor cannot know, so Shardwise looks next to this config and at the workspace root and says where it looked. A warning rather than an error: the launch directory may be somewhere else. The same holds for the JSON a Transformers Trainer recipe or launch names (`deepspeed: PATH`, `--deepspeed PATH`): TrainingArguments hands it to Accelerate\'s HfDeepSpeedConfig, which stops on a path that is not there; a launch script that changes to a folder not known first is not judged, and a relative path after a known `cd` is looked for from that folder.',
    bad: 'distributed_type: DEEPSPEED\nnum_processes: 8\ndeepspeed_config:\n  deepspeed_config_file: configs/ds_zero3.json\n',
    good: 'distributed_type: DEEPSPEED\nnum_processes: 8\ndeepspeed_config:\n  deepspeed_config_file: ds_zero3.json\n',
    files: { 'ds_zero3.json': '{\n  "train_micro_batch_size_per_gpu": "auto",\n  "zero_optimization": { "stage": 3 }\n}\n' },
    upstream: [
      { label: 'Accelerate v1.14.0, `utils/deepspeed.py`: the DeepSpeed config must be a path to an existing file', url: 'https://github.com/huggingface/accelerate/blob/v1.14.0/src/accelerate/utils/deepspeed.py#L155' },
    ],
  },
  check(ctx) {
    if (ctx.format === 'trainer') return trainerFileMissing(ctx as RuleContext<TrainerModel>);
    const f = deepspeedFileRead(ctx as RuleContext<AccelerateModel>);
    if (f?.lowered?.resolver && f.lowered.text === undefined && f.lowered.problem === undefined) {
      // 0.10.0 to 0.12.x export the path lower-cased (commands/launch.py: `str(args.deepspeed_config_file).lower()`)
      // and open that, so a path with capitals is not found unless its lower-case spelling exists too.
      if (ctx.atLeast('0.13.0') || !ctx.atLeast('0.10.0')) return;
      ctx.report({
        at: f.at,
        on: 'value',
        message: `Accelerate ${ctx.versionLabel ?? 'before 0.13.0'} lower-cases this path before opening it, and \`${f.ref.toLowerCase()}\` is not there, so the run stops with a \`FileNotFoundError\`. Name the file (and its folders) in lower case, or use Accelerate 0.13.0 or later.`,
      });
      return;
    }
    if (!f?.linked?.resolver || f.linked.text !== undefined) return;
    // The key is read from 0.10.0 (before, accelerate ignores it and opens no file).
    if (!ctx.atLeast('0.10.0')) return;
    if (inlineConfig(f.ref, (v) => ctx.atLeast(v))) return;
    const tried = f.linked.tried.length ? ` Looked for: ${f.linked.tried.map((t) => `\`${t}\``).join(', ')}.` : '';
    const problem = f.linked.problem;
    if (problem) {
      // Something is there but cannot be used (a directory, a device, a FIFO, a link loop, a huge file).
      const where = problem.path === f.ref ? 'it' : `\`${problem.path}\``;
      ctx.report({ at: f.at, on: 'value', message: `\`${f.ref}\` cannot be read: ${where} ${problem.reason}, so its ZeRO settings cannot be checked; accelerate reads this path with json.load when the run starts.` });
      return;
    }
    ctx.report({
      at: f.at,
      on: 'value',
      message: f.ref.startsWith('/')
        ? `\`${f.ref}\` was not found, so its ZeRO settings cannot be checked.${tried} accelerate opens this absolute path as written and stops if the file is not there: it names a folder of the machine the config was written on, so give the path the file has where the run starts (a path relative to the launch directory travels with the repository).`
        : `\`${f.ref}\` was not found, so its ZeRO settings cannot be checked.${tried} accelerate resolves the path against the directory it is launched from and stops if the file is not there; use a path that is right from there (an absolute path is safest).`,
    });
  },
});
