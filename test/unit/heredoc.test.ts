/**
 * A DeepSpeed config a launch script writes with a here-document (syntax/shell/heredocs.ts,
 * syntax/heredoc-json.ts): which here-document the training command reads, and where each key and
 * value of the expanded body is written in the script.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { heredocDeepSpeed } from '../../server/src/engine/launches';
import { parseShell } from '../../server/src/engine/syntax/shell';
import type { ScalarNode } from '../../server/src/engine/syntax/tree';

const LAUNCH = 'deepspeed --num_gpus 8 pretrain_gpt.py --num-layers 2 --tensor-model-parallel-size 1 --deepspeed --deepspeed_config';

function read(text: string) {
  return heredocDeepSpeed(parseShell(text));
}

function scalar(text: string, path: string[]): ScalarNode {
  const h = read(text);
  assert.ok(h, 'the here-document is read');
  const n = h.doc.node(path);
  assert.equal(n?.kind, 'scalar');
  return n as ScalarNode;
}

test('keys and literal values are placed character for character in the script; a value from a variable at its `$…`', () => {
  const text = `MBS=4\ncfg=./ds.json\ncat <<EOT > $cfg\n{\n  "train_micro_batch_size_per_gpu": $MBS,\n  "zero_optimization": { "stage": 2 }\n}\nEOT\n${LAUNCH} \${cfg}\n`;
  const h = read(text)!;
  assert.ok(h);
  assert.equal(h.config.flag, '--deepspeed_config');
  const key = h.doc.entry(['train_micro_batch_size_per_gpu'])!;
  assert.equal(text.slice(key.keySpan.start, key.keySpan.end), '"train_micro_batch_size_per_gpu"');
  const mbs = h.doc.node(['train_micro_batch_size_per_gpu']) as ScalarNode;
  assert.equal(mbs.value, 4);
  assert.equal(text.slice(mbs.span.start, mbs.span.end), '$MBS');
  const stage = h.doc.node(['zero_optimization', 'stage']) as ScalarNode;
  assert.equal(text.slice(stage.span.start, stage.span.end), '2');
  assert.equal(h.doc.lines.position(stage.span.start).line, 5);
  assert.equal(h.doc.lines.position(stage.span.start).character, 34);
  // The document covers the body only.
  assert.equal(text.slice(h.doc.span.start, h.doc.span.end), '{\n  "train_micro_batch_size_per_gpu": $MBS,\n  "zero_optimization": { "stage": 2 }\n}\n');
});

test('an expansion whose text is not known makes its value unknown (null, never a guess); one set in some branches only is assumed', () => {
  const text = `if [ -n "$X" ]; then ZS=3; fi\ncat > ds.json <<EOF\n{ "fp16": { "enabled": $FP16 }, "zero_optimization": { "stage": \${ZS} }, "name": "run-$(date +%s)" }\nEOF\n${LAUNCH} ds.json\n`;
  const fp16 = scalar(text, ['fp16', 'enabled']);
  assert.equal(fp16.value, null);
  assert.match(fp16.unknown ?? '', /FP16/);
  assert.equal(text.slice(fp16.span.start, fp16.span.end), '$FP16');
  const stage = scalar(text, ['zero_optimization', 'stage']);
  assert.equal(stage.value, 3);
  assert.match(stage.assumed ?? '', /only in some branches/);
  const name = scalar(text, ['name']);
  assert.equal(name.value, null);
  assert.ok(name.unknown);
  assert.equal(text.slice(name.span.start, name.span.end), '"run-$(date +%s)"');
});

test('`<<-` strips tabs, a quoted delimiter keeps `$` as text, and `\\$` is a dollar in an unquoted body', () => {
  const tabs = `cat > ds.json <<-EOF\n\t{\n\t\t"train_batch_size": 8\n\t}\n\tEOF\n${LAUNCH} ds.json\n`;
  const tb = scalar(tabs, ['train_batch_size']);
  assert.equal(tb.value, 8);
  assert.deepEqual(parseShell(tabs).lines.position(tb.span.start), { line: 2, character: 22 });
  const quoted = `cat <<'EOF' > ds.json\n{ "train_batch_size": 8, "tensorboard": { "output_path": "$HOME/tb" } }\nEOF\n${LAUNCH} ds.json\n`;
  assert.equal(scalar(quoted, ['tensorboard', 'output_path']).value, '$HOME/tb');
  assert.equal(scalar(quoted, ['tensorboard', 'output_path']).unknown, undefined);
  const escaped = `cat <<EOF > ds.json\n{ "train_batch_size": 8, "tensorboard": { "job_name": "a\\$b" } }\nEOF\n${LAUNCH} ds.json\n`;
  const job = scalar(escaped, ['tensorboard', 'job_name']);
  assert.equal(job.value, 'a$b');
});

test('`tee FILE <<EOF` writes the file; `--deepspeed_config=FILE` and the old `--deepscale_config` name it too', () => {
  assert.ok(read(`tee ds.json <<EOF\n{ "train_batch_size": 8 }\nEOF\n${LAUNCH} ds.json\n`));
  assert.ok(read(`cat > ds.json <<EOF\n{ "train_batch_size": 8 }\nEOF\n${LAUNCH.replace(' --deepspeed_config', '')} --deepspeed_config=ds.json\n`));
  assert.ok(read(`cat > ds.json <<EOF\n{ "train_batch_size": 8 }\nEOF\n${LAUNCH.replace('--deepspeed_config', '--deepscale_config')} ds.json\n`));
});

test('only positive evidence: another file, an append, `cat` of another file, a write after the command, a change in between, or unknown keys are not read', () => {
  const body = '{ "train_batch_size": 8 }';
  const none = [
    `cat > other.json <<EOF\n${body}\nEOF\n${LAUNCH} ds.json\n`,
    `cat >> ds.json <<EOF\n${body}\nEOF\n${LAUNCH} ds.json\n`,
    `tee -a ds.json <<EOF\n${body}\nEOF\n${LAUNCH} ds.json\n`,
    `cat base.json > ds.json <<EOF\n${body}\nEOF\n${LAUNCH} ds.json\n`,
    `${LAUNCH} ds.json\ncat > ds.json <<EOF\n${body}\nEOF\n`,
    `cat > ds.json <<EOF\n${body}\nEOF\npython patch_config.py ds.json\n${LAUNCH} ds.json\n`,
    `cat > ds.json <<EOF\n${body}\nEOF\necho '{}' > ds.json\n${LAUNCH} ds.json\n`,
    `cat > ds.json <<EOF\n{ "$KEY": 8 }\nEOF\n${LAUNCH} ds.json\n`,
    `cat > ds.json <<EOF\n{ $EXTRA "train_batch_size": 8 }\nEOF\n${LAUNCH} ds.json\n`,
    `cat > ds.json <<EOF\n{ "train_batch_size": 8, }\nEOF\n${LAUNCH} ds.json\n`,
    `cat > ds_$RANDOM.json <<EOF\n${body}\nEOF\n${LAUNCH} ds_$RANDOM.json\n`,
    `cat > ds.json <<EOF\n${body}\nEOF\ncd run\n${LAUNCH} ds.json\n`,
  ];
  for (const text of none) assert.equal(read(text), undefined, text);
  // Reading the file (printing it) leaves it as it is.
  assert.ok(read(`cat > ds.json <<EOF\n${body}\nEOF\ncat ds.json\necho ds.json\n${LAUNCH} ds.json\n`));
});

test('the same value of a variable names the same file, through a nested `bash -c` shell too', () => {
  const text = `cfg="./ds.$SLURM_JOB_ID.json"\ncat <<EOT > $cfg\n{ "train_batch_size": 8 }\nEOT\nexport CMD="pretrain_gpt.py --num-layers 2 --tensor-model-parallel-size 1 --deepspeed --deepspeed_config \${cfg}"\nsrun bash -c 'torchrun --nproc_per_node 8 $CMD'\n`;
  const h = read(text);
  assert.ok(h);
  assert.equal(h.config.ref, '${cfg}');
  // Reassigned in between: another value, maybe another file.
  assert.equal(read(`cfg="ds.$(date +%s).json"\ncat <<EOT > $cfg\n{ "train_batch_size": 8 }\nEOT\ncfg="ds.$(date +%s).json"\n${LAUNCH} $cfg\n`), undefined);
});
