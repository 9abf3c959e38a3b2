/**
 * deepspeed-config-file-missing: the DeepSpeed JSON an Accelerate config points at cannot be found.
 */
import { deepspeedFileRead } from '../formats/accelerate/helpers';
import type { AccelerateModel } from '../formats/accelerate/model';
import { defineRule } from './rule';

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

export default defineRule<AccelerateModel>({
  id: 'deepspeed-config-file-missing',
  severity: 'warning',
  formats: ['accelerate'],
  docs: {
    summary: '`deepspeed_config_file` names a file that is not there.',
    why: 'accelerate opens the DeepSpeed JSON when the run starts and stops if it is missing: recent releases with "Expected a string path to an existing deepspeed config", older ones (from 0.10.0) with a `FileNotFoundError` or an error of its own error handling. Accelerate before 0.10.0 does not read the key, and nothing is reported there. From 0.10.0 to 0.12.x (0.13.0 no longer does) the launcher lower-cases the path before handing it on, so a path with capitals is reported there when only its written spelling exists. From 0.16.0 the value may instead be the JSON encoded in base64, and from 1.4.0 the JSON text itself, which it decodes when no file of that name exists; such a value is not reported. It resolves the path against the directory `accelerate launch` runs in, which an editor cannot know, so Shardwise looks next to this config and at the workspace root and says where it looked. A warning rather than an error: the launch directory may be somewhere else.',
    bad: 'distributed_type: DEEPSPEED\nnum_processes: 8\ndeepspeed_config:\n  deepspeed_config_file: configs/ds_zero3.json\n',
    good: 'distributed_type: DEEPSPEED\nnum_processes: 8\ndeepspeed_config:\n  deepspeed_config_file: ds_zero3.json\n',
    files: { 'ds_zero3.json': '{\n  "train_micro_batch_size_per_gpu": "auto",\n  "zero_optimization": { "stage": 3 }\n}\n' },
    upstream: [
      { label: 'Accelerate v1.14.0, `utils/deepspeed.py`: the DeepSpeed config must be a path to an existing file', url: 'https://github.com/huggingface/accelerate/blob/v1.14.0/src/accelerate/utils/deepspeed.py#L155' },
    ],
  },
  check(ctx) {
    const f = deepspeedFileRead(ctx);
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
