/**
 * deepspeed-config-file-invalid: the DeepSpeed JSON an Accelerate config points at is one accelerate cannot use.
 */
import { deepspeedFileRead } from '../formats/accelerate/helpers';
import type { AccelerateModel } from '../formats/accelerate/model';
import { defineRule } from './rule';

export default defineRule<AccelerateModel>({
  id: 'deepspeed-config-file-invalid',
  severity: 'error',
  formats: ['accelerate'],
  docs: {
    summary: 'The `deepspeed_config_file` is not valid JSON, or has no `zero_optimization` section.',
    why: "accelerate reads the DeepSpeed JSON with Python's strict `json.load` (no comments, no trailing commas, although DeepSpeed itself, from 0.8.1, reads its config with hjson and would accept them) and requires a `zero_optimization` section (\"Please specify the ZeRO optimization config in the DeepSpeed config\"). Either stops the launch.",
    bad: 'distributed_type: DEEPSPEED\nnum_processes: 8\ndeepspeed_config:\n  deepspeed_config_file: ds_no_zero.json\n',
    good: 'distributed_type: DEEPSPEED\nnum_processes: 8\ndeepspeed_config:\n  deepspeed_config_file: ds_zero2.json\n',
    files: { 'ds_no_zero.json': '{\n  "train_micro_batch_size_per_gpu": "auto",\n  "bf16": { "enabled": true }\n}\n', 'ds_zero2.json': '{\n  "train_micro_batch_size_per_gpu": "auto",\n  "bf16": { "enabled": true },\n  "zero_optimization": { "stage": 2 }\n}\n' },
    upstream: [
      { label: 'Accelerate v1.14.0, `utils/dataclasses.py`: the DeepSpeed config needs a ZeRO section', url: 'https://github.com/huggingface/accelerate/blob/v1.14.0/src/accelerate/utils/dataclasses.py#L1275' },
    ],
  },
  check(ctx) {
    const f = deepspeedFileRead(ctx);
    const da = f?.linked?.analysis;
    if (!f || !da) return;
    const problem = da.doc.problems.find((p) => p.code === 'parse-error' || p.fatal);
    if (problem) {
      const line = da.doc.lines.position(problem.span.start).line + 1;
      // Only Shardwise's own JSON descriptions are quoted: the other file's content never is (it may not be a config at all).
      const what = da.doc.syntax === 'json' && /^JSON syntax: /.test(problem.message) ? problem.message.replace(/\.\s*$/, '') : 'it does not parse as JSON';
      ctx.report({ at: f.at, on: 'value', message: `${f.ref} is not valid JSON for accelerate (line ${line}: ${what}): accelerate reads it with Python's json.load and stops. Fix the JSON.` });
      return;
    }
    if (da.doc.root?.kind === 'map' && !da.doc.node(['zero_optimization'])) {
      ctx.report({ at: f.at, on: 'value', message: `${f.ref} has no \`zero_optimization\` section: accelerate stops ("Please specify the ZeRO optimization config in the DeepSpeed config"). Add one, at least \`"zero_optimization": { "stage": 0 }\`.` });
    }
  },
});
