/**
 * Shell launch scripts: the training command's flags with their spans, variables, launchers, edits
 * that keep the script's style, completion sites, and hostile input that must end in a parse error
 * rather than a throw.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseShell, type ShellDoc } from '../../server/src/engine/syntax/shell';
import type { PathEdit } from '../../server/src/engine/syntax/sourcedoc';
import type { Node, ScalarNode } from '../../server/src/engine/syntax/tree';
import type { Span } from '../../server/src/engine/types';
import { applyEdits } from '../../server/src/engine/text';

/** The span of the n-th occurrence of `needle` (after `after`, when given). */
function at(text: string, needle: string, n = 0, after?: string): Span {
  let from = after ? text.indexOf(after) + after.length : 0;
  let i = -1;
  for (let k = 0; k <= n; k++) {
    i = text.indexOf(needle, from);
    assert.ok(i >= 0, `${JSON.stringify(needle)} #${k} not found`);
    from = i + 1;
  }
  return { start: i, end: i + needle.length };
}

function point(offset: number): Span {
  return { start: offset, end: offset };
}

function scalar(doc: ShellDoc, key: string): ScalarNode {
  const n = doc.node([key]);
  assert.ok(n && n.kind === 'scalar', `${key} is not a scalar`);
  return n;
}

function edited(doc: ShellDoc, edits: PathEdit[]): string {
  const e = doc.edit(edits);
  assert.ok(e, `edit refused: ${JSON.stringify(edits)}`);
  return applyEdits(doc.text, e);
}

function spanInside(text: string, s: Span, what: string): void {
  assert.ok(Number.isInteger(s.start) && Number.isInteger(s.end) && s.start >= 0 && s.start <= s.end && s.end <= text.length, `${what}: ${JSON.stringify(s)} outside 0..${text.length}`);
}

function assertSpansInside(doc: ShellDoc): void {
  const text = doc.text;
  const visit = (n: Node, w: string): void => {
    spanInside(text, n.span, w);
    if (n.kind === 'seq') n.items.forEach((i, k) => visit(i, `${w}[${k}]`));
    if (n.kind === 'map')
      for (const e of n.entries) {
        spanInside(text, e.keySpan, `key ${e.key}`);
        spanInside(text, e.span, `entry ${e.key}`);
        visit(e.value, `value ${e.key}`);
      }
  };
  if (doc.root) visit(doc.root, 'root');
  for (const p of doc.problems) spanInside(text, p.span, `problem ${p.message}`);
  for (const v of doc.vars.values()) {
    spanInside(text, v.nameSpan, `var ${v.name}`);
    spanInside(text, v.valueSpan, `var ${v.name} value`);
    if (v.defaultSpan) spanInside(text, v.defaultSpan, `var ${v.name} default`);
  }
  for (let l = doc.launcher; l; l = l.inner) {
    spanInside(text, l.span, `launcher ${l.kind}`);
    for (const [k, a] of l.args) {
      spanInside(text, a.span, `launcher arg ${k}`);
      spanInside(text, a.keySpan, `launcher key ${k}`);
    }
  }
  if (doc.entrypoint) spanInside(text, doc.entrypoint.span, 'entrypoint');
}

/** A launch script of test/shell/, whose dump pins the reader's whole view of it; these tests add what a dump does not show. */
function shellScript(name: string): string {
  return readFileSync(join(__dirname, '../shell', `${name}.sh`), 'utf8');
}

// ---------------------------------------------------------------------------------------------

const ARRAYS = shellScript('arrays');

test('arrays: flags in the order passed, keys and values where they are written', () => {
  const doc = parseShell(ARRAYS);
  assert.deepEqual(doc.problems, []);
  assert.equal(doc.syntax, 'shell');
  assert.equal(doc.index, 0);
  assert.deepEqual(doc.span, { start: 0, end: ARRAYS.length });
  assert.deepEqual(
    doc.root!.entries.map((e) => e.key),
    ['--num-layers', '--hidden-size', '--num-attention-heads', '--seq-length', '--tensor-model-parallel-size', '--pipeline-model-parallel-size', '--use-distributed-optimizer', '--overlap-grad-reduce', '--micro-batch-size', '--global-batch-size', '--lr', '--bf16', '--save'],
  );
  assert.deepEqual(doc.value([]), {
    '--num-layers': 32,
    '--hidden-size': 4096,
    '--num-attention-heads': 32,
    '--seq-length': 4096,
    '--tensor-model-parallel-size': 4,
    '--pipeline-model-parallel-size': 2,
    '--use-distributed-optimizer': true,
    '--overlap-grad-reduce': true,
    '--micro-batch-size': 1,
    '--global-batch-size': 512,
    '--lr': 0.0003,
    '--bf16': true,
    '--save': '"$CHECKPOINT_DIR"',
  });
  // Keys and literal values: inside the array definitions.
  const hidden = doc.entry(['--hidden-size'])!;
  assert.deepEqual(hidden.keySpan, at(ARRAYS, '--hidden-size'));
  assert.deepEqual(hidden.value.span, at(ARRAYS, '4096'));
  assert.deepEqual(scalar(doc, '--hidden-size'), { kind: 'scalar', span: at(ARRAYS, '4096'), value: 4096, style: 'word', raw: '4096' });
  // A variable: the span is the reference as written, the value is resolved.
  const tp = scalar(doc, '--tensor-model-parallel-size');
  assert.deepEqual(tp.span, at(ARRAYS, '$TP'));
  assert.equal(tp.raw, '$TP');
  assert.equal(tp.value, 4);
  const pp = scalar(doc, '--pipeline-model-parallel-size');
  assert.deepEqual(pp.span, at(ARRAYS, '"$PP"'));
  assert.equal(pp.raw, '"$PP"');
  // A boolean flag: true, zero-width at the end of the flag.
  const dist = doc.entry(['--use-distributed-optimizer'])!;
  assert.deepEqual(dist.keySpan, at(ARRAYS, '--use-distributed-optimizer'));
  assert.deepEqual(dist.value, { kind: 'scalar', span: point(at(ARRAYS, '--use-distributed-optimizer').end), value: true, style: 'word', raw: '' });
  // From the script's arguments: the text as written and why it is unknown.
  const save = scalar(doc, '--save');
  assert.equal(save.unknown, '$1 is argument 1 of the script');
  assert.deepEqual(save.span, at(ARRAYS, '"$CHECKPOINT_DIR"'));
  assert.equal(scalar(doc, '--lr').raw, '3.0e-4');
  // locate() finds the flag from the text in the array.
  assert.deepEqual(doc.locate(at(ARRAYS, '$TP').start + 1)?.path, ['--tensor-model-parallel-size']);
  assert.equal(doc.locate(at(ARRAYS, '$TP').start + 1)?.on, 'value');
  assert.equal(doc.locate(at(ARRAYS, '--bf16').start + 2)?.on, 'key');
});

test('arrays: launcher, entry point and variables', () => {
  const doc = parseShell(ARRAYS);
  const l = doc.launcher!;
  assert.equal(l.kind, 'torchrun');
  assert.deepEqual(l.span, at(ARRAYS, 'torchrun', 0, 'TRAINING_ARGS=('));
  assert.equal(l.inner, undefined);
  assert.deepEqual([...l.args.keys()], ['--nproc_per_node', '--nnodes', '--master_addr', '--master_port']);
  assert.deepEqual(l.args.get('--nproc_per_node'), { value: 8, span: at(ARRAYS, '$GPUS_PER_NODE'), keySpan: at(ARRAYS, '--nproc_per_node') });
  // NUM_NODES is not set by the script: its fallback 2 is an assumption the environment may override.
  assert.deepEqual(l.args.get('--nnodes'), { value: 2, span: at(ARRAYS, '$NUM_NODES'), keySpan: at(ARRAYS, '--nnodes'), assumed: "`NUM_NODES` is not set when the script runs (the script's fallback is `2`)" });
  assert.deepEqual(l.args.get('--master_addr')?.value, 'localhost');
  assert.deepEqual(l.args.get('--master_addr')?.span, at(ARRAYS, '${MASTER_ADDR:-localhost}'));
  assert.equal(l.args.get('--master_port')?.value, 6000);
  assert.deepEqual(doc.entrypoint, { path: 'pretrain_gpt.py', span: at(ARRAYS, 'pretrain_gpt.py') });

  const cuda = doc.vars.get('CUDA_DEVICE_MAX_CONNECTIONS')!;
  assert.deepEqual(cuda, { name: 'CUDA_DEVICE_MAX_CONNECTIONS', value: '1', nameSpan: at(ARRAYS, 'CUDA_DEVICE_MAX_CONNECTIONS'), valueSpan: at(ARRAYS, '1', 0, 'CONNECTIONS='), exported: true });
  assert.equal(doc.vars.get('WORLD_SIZE')?.value, '16');
  assert.deepEqual(doc.vars.get('WORLD_SIZE')?.valueSpan, at(ARRAYS, '$(( GPUS_PER_NODE * NUM_NODES ))'));
  const nodes = doc.vars.get('NUM_NODES')!;
  assert.equal(nodes.value, '2');
  assert.equal(nodes.exported, false);
  assert.deepEqual(nodes.defaultSpan, at(ARRAYS, '2', 0, 'NUM_NODES:-'));
  assert.equal(doc.vars.get('CHECKPOINT_DIR')?.value, undefined);
  assert.equal(doc.vars.get('CHECKPOINT_DIR')?.unknown, '$1 is argument 1 of the script');
  assert.deepEqual(doc.vars.get('PARALLEL_ARGS')?.items, ['--tensor-model-parallel-size', '4', '--pipeline-model-parallel-size', '2', '--use-distributed-optimizer', '--overlap-grad-reduce']);
});

test('arrays: set edits the literal, or the assignment behind a variable', () => {
  const doc = parseShell(ARRAYS);
  assert.equal(edited(doc, [{ op: 'set', path: ['--num-layers'], value: 40 }]), ARRAYS.replace('--num-layers 32', '--num-layers 40'));
  // `$TP` → the assignment `TP=4` changes.
  assert.equal(edited(doc, [{ op: 'set', path: ['--tensor-model-parallel-size'], value: 8 }]), ARRAYS.replace('TP=4', 'TP=8'));
  assert.equal(edited(doc, [{ op: 'set', path: ['--pipeline-model-parallel-size'], value: 4 }]), ARRAYS.replace('PP=2', 'PP=4'));
  assert.equal(edited(doc, [{ op: 'set', path: ['--lr'], value: 0.0001 }]), ARRAYS.replace('--lr 3.0e-4', '--lr 0.0001'));
  // A value from the script's arguments cannot be changed here.
  assert.equal(doc.edit([{ op: 'set', path: ['--save'], value: '/ckpt' }]), undefined);
  // Booleans: already on → nothing to do; off → the line goes.
  assert.deepEqual(doc.edit([{ op: 'set', path: ['--bf16'], value: true }]), []);
  assert.equal(edited(doc, [{ op: 'set', path: ['--bf16'], value: false }]), ARRAYS.replace('    --bf16\n', ''));
  assert.equal(edited(doc, [{ op: 'rename', path: ['--bf16'], key: '--fp16' }]), ARRAYS.replace('--bf16', '--fp16'));
  // Several edits at once.
  assert.equal(
    edited(doc, [
      { op: 'set', path: ['--num-layers'], value: 48 },
      { op: 'set', path: ['--seq-length'], value: 8192 },
    ]),
    ARRAYS.replace('--num-layers 32', '--num-layers 48').replace('--seq-length 4096', '--seq-length 8192'),
  );
});

test('arrays: remove deletes the whole line, with its comment', () => {
  const doc = parseShell(ARRAYS);
  assert.equal(edited(doc, [{ op: 'remove', path: ['--hidden-size'] }]), ARRAYS.replace('    --hidden-size 4096   # d_model\n', ''));
  assert.equal(edited(doc, [{ op: 'remove', path: ['--overlap-grad-reduce'] }]), ARRAYS.replace('    --overlap-grad-reduce\n', ''));
  assert.equal(edited(doc, [{ op: 'remove', path: ['--tensor-model-parallel-size'] }]), ARRAYS.replace('    --tensor-model-parallel-size $TP\n', ''));
  assert.equal(doc.edit([{ op: 'remove', path: ['--not-there'] }]), undefined);
});

test('arrays: insert next to the closest flag, else at the end of the fullest block', () => {
  const doc = parseShell(ARRAYS);
  assert.equal(
    edited(doc, [{ op: 'set', path: ['--overlap-param-gather'], value: true }]),
    ARRAYS.replace('    --overlap-grad-reduce\n', '    --overlap-grad-reduce\n    --overlap-param-gather\n'),
  );
  assert.equal(
    edited(doc, [{ op: 'set', path: ['--sequence-parallel'], value: true }]),
    ARRAYS.replace('    --pipeline-model-parallel-size "$PP"\n', '    --pipeline-model-parallel-size "$PP"\n    --sequence-parallel\n'),
  );
  assert.equal(
    edited(doc, [{ op: 'set', path: ['--num-query-groups'], value: 8 }]),
    ARRAYS.replace('    --num-attention-heads 32\n', '    --num-attention-heads 32\n    --num-query-groups 8\n'),
  );
  // Nothing close: the end of TRAINING_ARGS, the block with the most flags.
  assert.equal(
    edited(doc, [{ op: 'set', path: ['--eval-iters'], value: 10 }]),
    ARRAYS.replace('    --save "$CHECKPOINT_DIR"\n', '    --save "$CHECKPOINT_DIR"\n    --eval-iters 10\n'),
  );
  // Values that need quoting are quoted.
  assert.equal(
    edited(doc, [{ op: 'set', path: ['--wandb-exp-name'], value: 'gpt 7b' }]),
    ARRAYS.replace('    --save "$CHECKPOINT_DIR"\n', '    --save "$CHECKPOINT_DIR"\n    --wandb-exp-name "gpt 7b"\n'),
  );
  // Absent and false: nothing to do.
  assert.deepEqual(doc.edit([{ op: 'set', path: ['--fp16'], value: false }]), []);
  // The result reads back with the new flag.
  const after = parseShell(edited(doc, [{ op: 'set', path: ['--overlap-param-gather'], value: true }]));
  assert.equal(after.value(['--overlap-param-gather']), true);
});

// ---------------------------------------------------------------------------------------------

const CONTINUED = shellScript('continued-command');

test('a single continued torchrun command: values, --flag=value, nargs lists', () => {
  const doc = parseShell(CONTINUED);
  assert.deepEqual(doc.problems, []);
  assert.deepEqual(doc.entrypoint, { path: '/opt/megatron-lm/pretrain_gpt.py', span: at(CONTINUED, '$MEGATRON/pretrain_gpt.py') });
  assert.deepEqual(doc.launcher!.args.get('--nproc-per-node'), { value: 8, span: at(CONTINUED, '8', 0, '--nproc-per-node='), keySpan: at(CONTINUED, '--nproc-per-node') });
  assert.equal(doc.launcher!.args.get('--nnodes')?.value, 1);
  assert.deepEqual(doc.value(['--data-path']), [0.7, '/data/web', 0.3, '/data/code']);
  const dp = doc.node(['--data-path'])!;
  assert.equal(dp.kind, 'seq');
  assert.deepEqual(dp.span, at(CONTINUED, '0.7 /data/web 0.3 /data/code'));
  const warm = doc.entry(['--lr-warmup-fraction'])!;
  assert.deepEqual(warm.keySpan, at(CONTINUED, '--lr-warmup-fraction'));
  assert.deepEqual(warm.value.span, at(CONTINUED, '.01'));
  assert.equal(doc.value(['--lr-warmup-fraction']), 0.01);
  assert.deepEqual(doc.entry(['--bf16'])!.value.span, point(at(CONTINUED, '--bf16').end));
});

test('a continued command: remove keeps the continuation intact', () => {
  const doc = parseShell(CONTINUED);
  // The last line: its line goes, and the previous line loses its now dangling `\`.
  assert.equal(edited(doc, [{ op: 'remove', path: ['--bf16'] }]), CONTINUED.replace('    --lr-warmup-fraction=.01 \\\n    --bf16\n', '    --lr-warmup-fraction=.01\n'));
  assert.equal(edited(doc, [{ op: 'remove', path: ['--tensor-model-parallel-size'] }]), CONTINUED.replace('    --tensor-model-parallel-size 2 \\\n', ''));
  assert.equal(edited(doc, [{ op: 'remove', path: ['--num-layers'] }]), CONTINUED.replace('--num-layers 24 --hidden-size', '--hidden-size'));
  assert.equal(edited(doc, [{ op: 'remove', path: ['--hidden-size'] }]), CONTINUED.replace('--num-layers 24 --hidden-size 2048 \\', '--num-layers 24 \\'));
  assert.equal(edited(doc, [{ op: 'remove', path: ['--data-path'] }]), CONTINUED.replace('    --data-path 0.7 /data/web 0.3 /data/code \\\n', ''));
  assert.equal(edited(doc, [{ op: 'remove', path: ['--lr-warmup-fraction'] }]), CONTINUED.replace('    --lr-warmup-fraction=.01 \\\n', ''));
  // Neighbouring removals in one call.
  assert.equal(
    edited(doc, [
      { op: 'remove', path: ['--lr-warmup-fraction'] },
      { op: 'remove', path: ['--bf16'] },
    ]),
    CONTINUED.replace('    --data-path 0.7 /data/web 0.3 /data/code \\\n    --lr-warmup-fraction=.01 \\\n    --bf16\n', '    --data-path 0.7 /data/web 0.3 /data/code\n'),
  );
  // Removing the whole argument list one flag at a time still leaves a valid command.
  let text = CONTINUED;
  for (;;) {
    const d = parseShell(text);
    const first = d.root!.entries[d.root!.entries.length - 1];
    if (!first) break;
    text = edited(d, [{ op: 'remove', path: [first.key] }]);
  }
  assert.equal(text, '#!/usr/bin/env bash\nset -euo pipefail\nMEGATRON=/opt/megatron-lm\ntorchrun --nproc-per-node=8 --nnodes=1 $MEGATRON/pretrain_gpt.py\necho done\n');
});

test('a continued command: set, rename and insert', () => {
  const doc = parseShell(CONTINUED);
  assert.equal(edited(doc, [{ op: 'set', path: ['--lr-warmup-fraction'], value: 0.02 }]), CONTINUED.replace('=.01', '=0.02'));
  assert.equal(edited(doc, [{ op: 'rename', path: ['--lr-warmup-fraction'], key: '--lr-warmup-iters' }]), CONTINUED.replace('--lr-warmup-fraction=', '--lr-warmup-iters='));
  assert.equal(edited(doc, [{ op: 'set', path: ['--data-path'], value: ['/data/all'] }]), CONTINUED.replace('0.7 /data/web 0.3 /data/code', '/data/all'));
  assert.equal(edited(doc, [{ op: 'set', path: ['--bf16'], value: 'x' }]), CONTINUED.replace('--bf16\n', '--bf16 x\n'));
  // A new line inside the command, after the closest flag, keeping the `\`.
  assert.equal(
    edited(doc, [{ op: 'set', path: ['--sequence-parallel'], value: true }]),
    CONTINUED.replace('    --pipeline-model-parallel-size 1 \\\n', '    --pipeline-model-parallel-size 1 \\\n    --sequence-parallel \\\n'),
  );
  // After the last line: that line gets the `\`.
  assert.equal(edited(doc, [{ op: 'set', path: ['--fp8-format'], value: 'hybrid' }]), CONTINUED.replace('    --bf16\n', '    --bf16 \\\n    --fp8-format hybrid\n'));
  // A flag on a line shared with another: right after it.
  assert.equal(edited(doc, [{ op: 'set', path: ['--num-layers-per-virtual-pipeline-stage'], value: 2 }]), CONTINUED.replace('--num-layers 24 ', '--num-layers 24 --num-layers-per-virtual-pipeline-stage 2 '));
  for (const key of ['--sequence-parallel', '--fp8-format']) {
    const after = parseShell(edited(doc, [{ op: 'set', path: [key], value: key === '--fp8-format' ? 'hybrid' : true }]));
    assert.equal(after.root!.entries.length, doc.root!.entries.length + 1);
    assert.deepEqual(after.problems, []);
  }
});

// ---------------------------------------------------------------------------------------------

const VARS = `TP=\${TP:-8}
PP=\${PP:-1}
GBS=$(( 64 * \${DP:-4} ))
MBS=2
ACC=$((GBS / MBS))
NODES=$SLURM_NNODES
HOST=$(hostname)
python -m torch.distributed.run --nproc_per_node 8 --nnodes $NODES --node_rank $SLURM_NODEID \\
  --master_addr $HOST pretrain_gpt.py --tensor-model-parallel-size \${TP} --pipeline-model-parallel-size $PP \\
  --global-batch-size $GBS --micro-batch-size "$MBS" --train-iters $ACC --seed $RANDOM --context-parallel-size $CP
`;

test('variables, ${X:-default} and $((…)): resolved values, unknown ones say why', () => {
  const doc = parseShell(VARS);
  assert.deepEqual(doc.problems, []);
  assert.deepEqual(doc.value([]), {
    '--tensor-model-parallel-size': 8,
    '--pipeline-model-parallel-size': 1,
    '--global-batch-size': 256,
    '--micro-batch-size': 2,
    '--train-iters': 128,
    '--seed': '$RANDOM',
    '--context-parallel-size': '$CP',
  });
  assert.deepEqual(scalar(doc, '--tensor-model-parallel-size').span, at(VARS, '${TP}'));
  assert.equal(scalar(doc, '--seed').unknown, '$RANDOM is a new random number each time');
  assert.equal(scalar(doc, '--context-parallel-size').unknown, 'CP comes from the environment');
  assert.equal(scalar(doc, '--tensor-model-parallel-size').unknown, undefined);
  const tp = doc.vars.get('TP')!;
  assert.deepEqual(tp, { name: 'TP', value: '8', nameSpan: at(VARS, 'TP'), valueSpan: at(VARS, '${TP:-8}'), exported: false, defaultSpan: at(VARS, '8'), assumed: "`TP` is not set when the script runs (the script's fallback is `8`)" });
  assert.equal(doc.vars.get('GBS')?.value, '256');
  assert.equal(doc.vars.get('HOST')?.unknown, 'set by the command `$(hostname)` when the script runs');
  const l = doc.launcher!;
  assert.equal(l.kind, 'torch.distributed.run');
  assert.deepEqual(l.span, at(VARS, 'python -m torch.distributed.run'));
  assert.deepEqual(l.args.get('--nnodes'), { value: '$NODES', unknown: 'SLURM_NNODES is set by Slurm when the job runs', span: at(VARS, '$NODES'), keySpan: at(VARS, '--nnodes') });
  assert.equal(l.args.get('--node_rank')?.unknown, 'SLURM_NODEID is set by Slurm when the job runs');
  assert.equal(l.args.get('--master_addr')?.unknown, 'set by the command `$(hostname)` when the script runs');
});

test('variables: set edits the default, the assignment, or refuses', () => {
  const doc = parseShell(VARS);
  // From `${TP:-8}` with TP not assigned elsewhere: the default changes.
  assert.equal(edited(doc, [{ op: 'set', path: ['--tensor-model-parallel-size'], value: 4 }]), VARS.replace('${TP:-8}', '${TP:-4}'));
  assert.equal(edited(doc, [{ op: 'set', path: ['--micro-batch-size'], value: 4 }]), VARS.replace('MBS=2', 'MBS=4'));
  // Computed, random or from the environment: refused.
  assert.equal(doc.edit([{ op: 'set', path: ['--global-batch-size'], value: 512 }]), undefined);
  assert.equal(doc.edit([{ op: 'set', path: ['--train-iters'], value: 10 }]), undefined);
  assert.equal(doc.edit([{ op: 'set', path: ['--seed'], value: 1 }]), undefined);
  assert.equal(doc.edit([{ op: 'set', path: ['--context-parallel-size'], value: 2 }]), undefined);
  // Renaming a flag is fine; renaming through a variable is not possible (there is none here).
  assert.equal(edited(doc, [{ op: 'rename', path: ['--seed'], key: '--data-seed' }]), VARS.replace('--seed', '--data-seed'));
});

test('TP=16 … --tensor-model-parallel-size $TP: set edits the assignment', () => {
  const text = 'TP=16\nPP=2\ntorchrun pretrain_gpt.py \\\n    --tensor-model-parallel-size $TP \\\n    --pipeline-model-parallel-size $PP\n';
  const doc = parseShell(text);
  assert.equal(doc.value(['--tensor-model-parallel-size']), 16);
  assert.deepEqual(doc.node(['--tensor-model-parallel-size'])!.span, at(text, '$TP'));
  assert.equal(edited(doc, [{ op: 'set', path: ['--tensor-model-parallel-size'], value: 8 }]), 'TP=8\nPP=2\ntorchrun pretrain_gpt.py \\\n    --tensor-model-parallel-size $TP \\\n    --pipeline-model-parallel-size $PP\n');
  assert.equal(edited(doc, [{ op: 'remove', path: ['--pipeline-model-parallel-size'] }]), 'TP=16\nPP=2\ntorchrun pretrain_gpt.py \\\n    --tensor-model-parallel-size $TP\n');
});

test('a value through a chain of variables edits the first literal; a quoted assignment keeps its quotes', () => {
  const text = `BASE_TP='2'\nTP_SIZE=$BASE_TP\nNAME="gpt-small"\ntorchrun pretrain_gpt.py --tensor-model-parallel-size $TP_SIZE --wandb-exp-name $NAME --tokenizer-model 'meta/llama 3'\n`;
  const doc = parseShell(text);
  assert.equal(doc.value(['--tensor-model-parallel-size']), 2);
  assert.equal(edited(doc, [{ op: 'set', path: ['--tensor-model-parallel-size'], value: 8 }]), text.replace("BASE_TP='2'", "BASE_TP='8'"));
  assert.equal(edited(doc, [{ op: 'set', path: ['--wandb-exp-name'], value: 'gpt large' }]), text.replace('NAME="gpt-small"', 'NAME="gpt large"'));
  assert.equal(scalar(doc, '--tokenizer-model').value, 'meta/llama 3');
  assert.equal(edited(doc, [{ op: 'set', path: ['--tokenizer-model'], value: 'meta/llama 4' }]), text.replace("'meta/llama 3'", "'meta/llama 4'"));
  // Renaming a flag written as a variable is refused (it would rename the variable's value).
  const via = parseShell('FLAG=--bf16\ntorchrun x.py $FLAG\n');
  assert.equal(via.value(['--bf16']), true);
  assert.equal(via.edit([{ op: 'rename', path: ['--bf16'], key: '--fp16' }]), undefined);
});

// ---------------------------------------------------------------------------------------------

test('srun launches python: the launcher chain and its options; "$@" is passed through', () => {
  const text = `#!/bin/bash\n#SBATCH --nodes=4\nsrun -N 4 --ntasks-per-node=8 --gpus-per-node 8 --exclusive python -u pretrain_gpt.py --tensor-model-parallel-size 8 --bf16 "$@"\n`;
  const doc = parseShell(text);
  const l = doc.launcher!;
  assert.equal(l.kind, 'srun');
  assert.deepEqual([...l.args].map(([k, v]) => [k, v.value]), [['-N', 4], ['--ntasks-per-node', 8], ['--gpus-per-node', 8], ['--exclusive', undefined]]);
  assert.deepEqual(l.args.get('--exclusive')?.span, at(text, '--exclusive'));
  assert.equal(l.inner?.kind, 'python');
  assert.deepEqual([...l.inner!.args.keys()], ['-u']);
  assert.deepEqual(doc.value([]), { '--tensor-model-parallel-size': 8, '--bf16': true });
  // A one-line command: new flags go on the same line, after the closest one.
  assert.equal(edited(doc, [{ op: 'set', path: ['--sequence-parallel'], value: true }]), text.replace('--tensor-model-parallel-size 8', '--tensor-model-parallel-size 8 --sequence-parallel'));
  assert.equal(edited(doc, [{ op: 'remove', path: ['--bf16'] }]), text.replace(' --bf16', ''));
  assert.equal(edited(doc, [{ op: 'remove', path: ['--tensor-model-parallel-size'] }]), text.replace('--tensor-model-parallel-size 8 ', ''));
});

test('srun … bash -c "…": the string is read as the inner shell reads it, spans map back into it', () => {
  const text = `NNODES=2\nsrun --nodes=$NNODES --ntasks-per-node=1 bash -c "torchrun --nproc_per_node 8 --nnodes $NNODES --node_rank \\$SLURM_PROCID pretrain_gpt.py --tensor-model-parallel-size 4 --micro-batch-size 2"\n`;
  const doc = parseShell(text);
  assert.deepEqual(doc.problems, []);
  const l = doc.launcher!;
  assert.equal(l.kind, 'srun');
  assert.equal(l.args.get('--nodes')?.value, 2);
  assert.deepEqual(l.args.get('--nodes')?.span, at(text, '$NNODES'));
  assert.equal(l.inner?.kind, 'torchrun');
  assert.deepEqual(l.inner!.span, at(text, 'torchrun'));
  assert.equal(l.inner!.args.get('--nnodes')?.value, 2);
  assert.deepEqual(l.inner!.args.get('--nnodes')?.span, at(text, '$NNODES', 1));
  assert.equal(l.inner!.args.get('--node_rank')?.unknown, 'SLURM_PROCID is set by Slurm when the job runs');
  assert.deepEqual(doc.entrypoint, { path: 'pretrain_gpt.py', span: at(text, 'pretrain_gpt.py') });
  assert.deepEqual(doc.value([]), { '--tensor-model-parallel-size': 4, '--micro-batch-size': 2 });
  assert.deepEqual(doc.entry(['--tensor-model-parallel-size'])!.keySpan, at(text, '--tensor-model-parallel-size'));
  assert.deepEqual(doc.node(['--tensor-model-parallel-size'])!.span, at(text, '4', 0, 'parallel-size '));
  assert.equal(edited(doc, [{ op: 'set', path: ['--tensor-model-parallel-size'], value: 8 }]), text.replace('parallel-size 4', 'parallel-size 8'));
  assert.equal(edited(doc, [{ op: 'remove', path: ['--micro-batch-size'] }]), text.replace(' --micro-batch-size 2', ''));
  assert.equal(doc.edit([{ op: 'set', path: ['--tensor-model-parallel-size'], value: 'a b' }]), undefined);
});

test('bash -c with a single-quoted command: outer variables are values there, not edit targets', () => {
  const text = `RECIPE=llama3_8b
export RECIPE
CMD='cd /workspace && python scripts/run_recipe.py --recipe "$RECIPE" --tensor-model-parallel-size 2 --node-rank "$SLURM_PROCID"'
srun --nodes 2 bash -c "$CMD"
`;
  const doc = parseShell(text);
  assert.deepEqual(doc.problems, []);
  assert.equal(doc.launcher?.kind, 'srun');
  assert.equal(doc.launcher?.inner?.kind, 'python');
  assert.deepEqual(doc.entrypoint, { path: 'scripts/run_recipe.py', span: at(text, 'scripts/run_recipe.py') });
  assert.equal(doc.value(['--recipe']), 'llama3_8b');
  assert.deepEqual(doc.node(['--recipe'])!.span, at(text, '"$RECIPE"'));
  assert.equal(scalar(doc, '--node-rank').unknown, 'SLURM_PROCID is set by Slurm when the job runs');
  // Inside the single-quoted string: the literal is edited in place; the inner shell's variable is not.
  assert.equal(edited(doc, [{ op: 'set', path: ['--tensor-model-parallel-size'], value: 4 }]), text.replace('parallel-size 2', 'parallel-size 4'));
  assert.equal(doc.edit([{ op: 'set', path: ['--recipe'], value: 'x' }]), undefined);
  assert.equal(doc.edit([{ op: 'set', path: ['--tensor-model-parallel-size'], value: "it's" }]), undefined);
  // New flags are not written into strings.
  assert.equal(doc.edit([{ op: 'set', path: ['--sequence-parallel'], value: true }]), undefined);
});

test('a launcher held in an array the arms of a branch set differently: the entry point after it is found when every arm ends in a launcher and its options', () => {
  const branch = (other: string) => `if [ -n "$SLURM_LOCALID" ]; then\n  CMD=( bindpcie --cpu=exclusive \${IB_BIND} -- python -u )\nelse\n  CMD=( ${other} )\nfi\n\${LOGGER:-} \${CMD[@]} /workspace/train.py --lr 1\n`;
  const both = parseShell(branch('${NSYS} python -u'));
  assert.equal(both.entrypoint?.path, '/workspace/train.py');
  assert.equal(both.launcher, undefined, 'which launcher runs is not known');
  assert.equal(both.value(['--lr']), 1);
  // One arm runs a program of its own (`train.py` may be its argument): no entry point is claimed.
  assert.equal(parseShell(branch('python other.py --file')).entrypoint, undefined);
  assert.equal(parseShell(branch('cat')).entrypoint, undefined);
});

test('python -m torch.distributed.launch, deepspeed and mpirun', () => {
  const launch = parseShell('python3 -m torch.distributed.launch --nproc_per_node=4 --use_env pretrain_bert.py --num-layers 12\n');
  assert.equal(launch.launcher?.kind, 'torch.distributed.launch');
  assert.deepEqual([...launch.launcher!.args].map(([k, v]) => [k, v.value]), [['--nproc_per_node', 4], ['--use_env', undefined]]);
  assert.equal(launch.entrypoint?.path, 'pretrain_bert.py');

  const dsText = 'deepspeed --num_gpus 8 --num_nodes 2 --hostfile hostfile pretrain_gpt.py --deepspeed --deepspeed_config ds_config.json --zero-stage 1\n';
  const ds = parseShell(dsText);
  assert.equal(ds.launcher?.kind, 'deepspeed');
  assert.deepEqual([...ds.launcher!.args].map(([k, v]) => [k, v.value]), [['--num_gpus', 8], ['--num_nodes', 2], ['--hostfile', 'hostfile']]);
  assert.deepEqual(ds.launcher!.args.get('--num_nodes')?.span, at(dsText, '2'));
  assert.deepEqual(ds.value([]), { '--deepspeed': true, '--deepspeed_config': 'ds_config.json', '--zero-stage': 1 });

  const mpi = parseShell('mpirun -np 16 -x NCCL_DEBUG=INFO --bind-to none python pretrain_gpt.py --tensor-model-parallel-size 2\n');
  assert.equal(mpi.launcher?.kind, 'mpirun');
  assert.deepEqual([...mpi.launcher!.args].map(([k, v]) => [k, v.value]), [['-np', 16], ['-x', 'NCCL_DEBUG=INFO'], ['--bind-to', 'none']]);
  assert.equal(mpi.launcher?.inner?.kind, 'python');
  assert.equal(mpi.value(['--tensor-model-parallel-size']), 2);

  const plain = parseShell('CUDA_VISIBLE_DEVICES=0 exec python ${MEGATRON_PATH}/pretrain_mamba.py --hidden-size 1024\n');
  assert.equal(plain.launcher?.kind, 'python');
  assert.equal(plain.entrypoint?.path, '${MEGATRON_PATH}/pretrain_mamba.py');
  assert.equal(plain.value(['--hidden-size']), 1024);
  // The last command that launches an entry point wins.
  const two = parseShell('torchrun a.py --lr 1\ntorchrun b.py --lr 2\necho finished\n');
  assert.equal(two.entrypoint?.path, 'b.py');
  assert.equal(two.value(['--lr']), 2);
  // No training command: no tree.
  const none = parseShell('echo hello\nX=1\n');
  assert.equal(none.root, undefined);
  assert.equal(none.launcher, undefined);
  assert.equal(none.vars.get('X')?.value, '1');
  assert.equal(none.edit([{ op: 'set', path: ['--lr'], value: 1 }]), undefined);
});

test('a flag from the environment is unknown; an unset $EXTRA_ARGS after a flag that takes no value opens the flag set', () => {
  const text = 'torchrun pretrain_gpt.py --tensor-model-parallel-size $TP --bf16 $EXTRA_ARGS --lr ${LR:?set LR}\n';
  const doc = parseShell(text, undefined, { takesValue: (f) => f !== '--bf16' });
  const tp = scalar(doc, '--tensor-model-parallel-size');
  assert.deepEqual(tp, { kind: 'scalar', span: at(text, '$TP'), value: '$TP', style: 'word', raw: '$TP', unknown: 'TP comes from the environment' });
  assert.equal(doc.value(['--bf16']), true);
  assert.deepEqual(doc.open, [{ span: at(text, '$EXTRA_ARGS'), reason: 'EXTRA_ARGS comes from the environment' }]);
  assert.equal(scalar(doc, '--lr').unknown, 'LR must be given when the script runs');
  assert.equal(doc.edit([{ op: 'set', path: ['--tensor-model-parallel-size'], value: 8 }]), undefined);
});

test('duplicates: argparse keeps the last; a later block overriding an array is a note, twice in one block a warning', () => {
  const text = 'ARGS=(--lr 1e-4 --bf16)\ntorchrun pretrain_gpt.py "${ARGS[@]}" --lr 3e-4\n';
  const doc = parseShell(text);
  assert.equal(doc.value(['--lr']), 0.0003);
  assert.equal(doc.entry(['--lr'])!.keySpan.start, at(text, '--lr', 1).start);
  assert.equal(doc.problems.length, 1);
  assert.equal(doc.problems[0].code, 'duplicate-key');
  assert.equal(doc.problems[0].severity, 'information');
  assert.deepEqual(doc.problems[0].span, at(text, '--lr'));
  assert.match(doc.problems[0].message, /passed again later \(line 2\).*overridden/);
  const oneBlock = parseShell('torchrun pretrain_gpt.py --lr 1e-4 --bf16 --lr 3e-4\n');
  assert.deepEqual(oneBlock.problems.map((p) => [p.severity, /passed twice; argparse keeps the last one/.test(p.message)]), [['warning', true]]);
  const sameValue = parseShell('torchrun pretrain_gpt.py --lr 1e-4 --bf16 --lr 1e-4\n');
  assert.deepEqual(sameValue.problems.map((p) => [p.severity, /same value/.test(p.message)]), [['information', true]]);
  // Edits go to the one that counts.
  assert.equal(edited(doc, [{ op: 'set', path: ['--lr'], value: 0.001 }]), text.replace('3e-4', '0.001'));
  // A one-line array: insertion on the same line.
  assert.equal(edited(doc, [{ op: 'set', path: ['--fp16'], value: false }]), text);
  assert.equal(edited(doc, [{ op: 'set', path: ['--bf16-param'], value: true }]), text.replace('--bf16)', '--bf16 --bf16-param)'));
});

test('quotes: values keep their quoting; a quoted element holding two words splits as bash splits it', () => {
  const text = `DTYPE_ARGS=(
    "--fp8-format hybrid"
    "--fp8-amax-history-len 1024"
)
NAME=$'run\\'s'
torchrun pretrain_gpt.py \${DTYPE_ARGS[@]} --wandb-exp-name "$NAME" --tokenizer-type "HuggingFaceTokenizer" --split '99,1,0'
`;
  const doc = parseShell(text);
  assert.deepEqual(doc.problems, []);
  assert.deepEqual(doc.value([]), { '--fp8-format': 'hybrid', '--fp8-amax-history-len': 1024, '--wandb-exp-name': "run's", '--tokenizer-type': 'HuggingFaceTokenizer', '--split': '99,1,0' });
  // Inside the quoted element: exact sub-spans.
  assert.deepEqual(doc.entry(['--fp8-format'])!.keySpan, at(text, '--fp8-format'));
  assert.deepEqual(doc.node(['--fp8-format'])!.span, at(text, 'hybrid'));
  assert.equal(edited(doc, [{ op: 'set', path: ['--fp8-format'], value: 'e4m3' }]), text.replace('hybrid', 'e4m3'));
  assert.equal(edited(doc, [{ op: 'set', path: ['--tokenizer-type'], value: 'NullTokenizer' }]), text.replace('"HuggingFaceTokenizer"', '"NullTokenizer"'));
  assert.equal(edited(doc, [{ op: 'set', path: ['--split'], value: '98,2,0' }]), text.replace("'99,1,0'", "'98,2,0'"));
  assert.equal(edited(doc, [{ op: 'set', path: ['--split'], value: '98,2,0', quote: 'double' }]), text.replace("'99,1,0'", '"98,2,0"'));
  // The element held only this flag and its value: the whole line goes.
  assert.equal(edited(doc, [{ op: 'remove', path: ['--fp8-format'] }]), text.replace('    "--fp8-format hybrid"\n', ''));
  assert.equal(doc.edit([{ op: 'set', path: ['--fp8-format'], value: 'two words' }]), undefined);
  assert.deepEqual(doc.entry(['--split'])!.value.span, at(text, "'99,1,0'"));
});

test('comments inside arrays, arrays including arrays, appends, and $A (first element)', () => {
  const text = `DDP=(
  --use-distributed-optimizer  # shard the optimizer
  # --overlap-param-gather
  --overlap-grad-reduce
)
TRAIN=(
  --micro-batch-size 1 \\
  --global-batch-size 64
)
TRAIN+=("\${DDP[@]}")
TRAIN+=(--train-iters 100)
ONE=(--log-interval 10)
torchrun pretrain_gpt.py "\${TRAIN[@]}" $ONE
`;
  const doc = parseShell(text);
  assert.deepEqual(doc.problems, []);
  assert.deepEqual(Object.keys(doc.value([]) as object), ['--micro-batch-size', '--global-batch-size', '--use-distributed-optimizer', '--overlap-grad-reduce', '--train-iters', '--log-interval']);
  assert.equal(doc.value(['--log-interval']), true, '$ONE is the first element only');
  assert.deepEqual(doc.entry(['--overlap-grad-reduce'])!.keySpan, at(text, '--overlap-grad-reduce'));
  // Removing the last element of an array written with `\` drops the dangling one.
  assert.equal(edited(doc, [{ op: 'remove', path: ['--global-batch-size'] }]), text.replace('  --micro-batch-size 1 \\\n  --global-batch-size 64\n', '  --micro-batch-size 1\n'));
  assert.equal(edited(doc, [{ op: 'remove', path: ['--use-distributed-optimizer'] }]), text.replace('  --use-distributed-optimizer  # shard the optimizer\n', ''));
  // Insertion into a `\` array keeps its style.
  assert.equal(edited(doc, [{ op: 'set', path: ['--micro-batch-size-x'], value: 1 }]), text.replace('  --micro-batch-size 1 \\\n', '  --micro-batch-size 1 \\\n  --micro-batch-size-x 1 \\\n'));
  assert.equal(edited(doc, [{ op: 'set', path: ['--overlap-param-gather'], value: true }]), text.replace('  --overlap-grad-reduce\n', '  --overlap-grad-reduce\n  --overlap-param-gather\n'));
});

test('heredocs are skipped; a here-document fed to sbatch is the script that runs', () => {
  const text = `cat > notes.txt <<EOF
torchrun fake.py --tensor-model-parallel-size 99 "unbalanced
EOF
cat <<-'END'
	$(( not arithmetic
	END
torchrun pretrain_gpt.py --tensor-model-parallel-size 2
`;
  const doc = parseShell(text);
  assert.deepEqual(doc.problems, []);
  assert.deepEqual(doc.value([]), { '--tensor-model-parallel-size': 2 });
  const sb = `TP=4
ARGS=(
  --tensor-model-parallel-size $TP
  --bf16
)
CMD="python /opt/megatron/pretrain_gpt.py \${ARGS[@]}"
sbatch <<EOF
#!/bin/bash
#SBATCH --nodes=2
srun --ntasks-per-node=8 bash -c "\${CMD}"
EOF
`;
  const s = parseShell(sb);
  assert.equal(s.launcher?.kind, 'srun');
  assert.equal(s.launcher?.inner?.kind, 'python');
  assert.equal(s.launcher?.args.get('--ntasks-per-node')?.value, 8);
  assert.deepEqual(s.value([]), { '--tensor-model-parallel-size': 4, '--bf16': true });
  assert.deepEqual(s.entry(['--tensor-model-parallel-size'])!.keySpan, at(sb, '--tensor-model-parallel-size'));
  assert.deepEqual(s.entry(['--bf16'])!.keySpan, at(sb, '--bf16'));
  const unterminated = parseShell('cat <<EOF\nbody\n');
  assert.equal(unterminated.problems[0]?.severity, 'warning');
  assert.match(unterminated.problems[0].message, /never ends/);
});

test('control flow: known cases and tests pick their arm; unknown branches that disagree are unknown', () => {
  const text = shellScript('control-flow');
  const doc = parseShell(text);
  assert.deepEqual(doc.problems, []);
  assert.equal(doc.value(['--num-layers']), 32);
  assert.deepEqual(doc.entry(['--num-layers'])!.value.span, at(text, '$LAYERS'));
  // An undecided if whose arms give an array different elements, each arm's known: a flag only some
  // arms pass is there with a value not known (which arm runs is not known); a flag no arm passes is
  // known to be absent, so the flag set stays closed.
  assert.equal(scalar(doc, '--fp8-format').unknown, 'it is passed only by some arms of the `if` on line 7');
  assert.equal(scalar(doc, '--bf16').unknown, 'it is passed only by some arms of the `if` on line 7');
  assert.deepEqual(doc.open, []);
  assert.equal(doc.edit([{ op: 'set', path: ['--fp8-format'], value: 'e4m3' }]), undefined, 'a flag of one arm is not edited');
  const pp = scalar(doc, '--pipeline-model-parallel-size');
  assert.equal(pp.unknown, 'PP is assigned differently in the branches of the `if` on line 12');
  assert.equal(pp.value, '$PP');
  assert.equal(doc.value(['--micro-batch-size']), 1, 'assigned on one path only, with nothing before');
  assert.equal(doc.value(['--sequence-parallel']), true);
  assert.equal(scalar(doc, '--seed').unknown, 'i is set by the `for` loop on line 16');
  assert.equal(doc.edit([{ op: 'set', path: ['--pipeline-model-parallel-size'], value: 2 }]), undefined);
  assert.equal(edited(doc, [{ op: 'set', path: ['--num-layers'], value: 40 }]), text.replace('LAYERS=32', 'LAYERS=40'));
});

test('declarations: export, local (gone when its function returns), readonly, declare -x, unset, read; && { … } groups', () => {
  const text = shellScript('declarations');
  const doc = parseShell(text);
  assert.deepEqual(doc.problems, []);
  assert.equal(doc.vars.get('NCCL_DEBUG')?.exported, true);
  assert.equal(doc.vars.get('NVTE_FLAG')?.exported, true);
  assert.deepEqual(doc.vars.get('NVTE_FLAG')?.nameSpan, at(text, 'NVTE_FLAG'));
  assert.equal(doc.vars.get('PP')?.exported, false);
  assert.equal(doc.vars.has('GONE'), false);
  assert.deepEqual(doc.value([]), { '--pipeline-model-parallel-size': 2, '--micro-batch-size': '$MBS', '--tensor-model-parallel-size': '$TP', '--global-batch-size': 64 });
  assert.equal(scalar(doc, '--micro-batch-size').unknown, 'MBS comes from the environment', 'a `local` does not outlive its function');
  assert.equal(scalar(doc, '--tensor-model-parallel-size').unknown, 'TP is set by `read` when the script runs');
});

// ---------------------------------------------------------------------------------------------

test('completion: flags inside the training command and inside arrays, values after a flag', () => {
  const text = `DIST=(--nproc_per_node 8)
ARGS=(
    --tensor-model-parallel-size 2
    --seq
)
torchrun "\${DIST[@]}" pretrain_gpt.py "\${ARGS[@]}" \\
    --micro-batch-size 1 \\
    --te
`;
  const doc = parseShell(text);
  const inArray = at(text, '--seq');
  assert.deepEqual(doc.completionSite(inArray.end), { path: [], kind: 'key', replace: inArray, typed: '--seq', existing: ['--tensor-model-parallel-size', '--micro-batch-size', '--te'] });
  const inCmd = at(text, '--te', 0, '--micro-batch-size');
  assert.deepEqual(doc.completionSite(inCmd.end), { path: [], kind: 'key', replace: inCmd, typed: '--te', existing: ['--tensor-model-parallel-size', '--seq', '--micro-batch-size'] });
  // In the middle of a flag: the whole word is replaced.
  assert.deepEqual(doc.completionSite(inCmd.start + 3)?.replace, inCmd);
  const one = at(text, '1', 0, '--micro-batch-size');
  assert.deepEqual(doc.completionSite(one.end), { path: ['--micro-batch-size'], kind: 'value', replace: one, typed: '1', existing: [] });
  const two = at(text, '2', 0, '--tensor-model-parallel-size');
  assert.deepEqual(doc.completionSite(two.start), { path: ['--tensor-model-parallel-size'], kind: 'value', replace: two, typed: '', existing: [] });
  // The launcher's array, the launcher's options and the rest of the script are not flag positions.
  assert.equal(doc.completionSite(at(text, '--nproc_per_node').end), undefined);
  assert.equal(doc.completionSite(at(text, 'torchrun').end), undefined);
  assert.equal(doc.completionSite(0), undefined);
  // `--flag=` completes the value.
  const eq = 'torchrun x.py --fp8-format=hy\n';
  assert.deepEqual(parseShell(eq).completionSite(eq.indexOf('hy') + 2), { path: ['--fp8-format'], kind: 'value', replace: { start: eq.indexOf('hy'), end: eq.indexOf('hy') + 2 }, typed: 'hy', existing: [] });
  // Inside a comment: nothing.
  const c = 'ARGS=(\n  --lr 1 # --te\n)\ntorchrun x.py "${ARGS[@]}"\n';
  assert.equal(parseShell(c).completionSite(c.indexOf('# --te') + 6), undefined);
});

// ---------------------------------------------------------------------------------------------

test('hostile input: parse errors with precise spans, never a throw', () => {
  const quote = 'torchrun pretrain_gpt.py --lr 1 --name "unterminated\n--bf16\n';
  const q = parseShell(quote);
  assert.equal(q.problems.length, 1);
  assert.equal(q.problems[0].code, 'parse-error');
  assert.equal(q.problems[0].severity, 'error');
  assert.deepEqual(q.problems[0].span, at(quote, '"'));
  assert.match(q.problems[0].message, /double quote is never closed/);
  assert.equal(q.value(['--lr']), 1);

  const single = "X='open\n";
  assert.deepEqual(parseShell(single).problems.map((p) => p.span), [at(single, "'")]);

  const arr = 'ARGS=(\n  --lr 1\n  --bf16\ntorchrun pretrain_gpt.py "${ARGS[@]}"\n';
  const a = parseShell(arr);
  assert.equal(a.problems.length, 1);
  assert.deepEqual(a.problems[0].span, at(arr, 'ARGS=('));
  assert.match(a.problems[0].message, /array `ARGS` is never closed/);

  const arith = 'N=$(( 1 + 2\ntorchrun x.py --lr 1\n';
  const r = parseShell(arith);
  assert.deepEqual(r.problems.map((p) => p.span), [at(arith, '$((')]);
  assert.match(r.problems[0].message, /`\$\(\(` is never closed/);

  const sub = 'X=$(hostname\n';
  assert.deepEqual(parseShell(sub).problems.map((p) => p.span), [at(sub, '$(')]);
  const brace = 'X=${A:-x\n';
  assert.deepEqual(parseShell(brace).problems.map((p) => p.span), [at(brace, '${')]);
  const tick = 'X=`date\n';
  assert.deepEqual(parseShell(tick).problems.map((p) => p.span), [at(tick, '`')]);

  // 10,000 nested `$(`, `${`, `((` and `"$(`: bounded, one parse error each, fast.
  for (const open of ['$(', '${A:-', '$((', '"$(', '(', 'X=(', '`']) {
    const text = `${open.repeat(open === '`' ? 10_001 : 10_000)}\ntorchrun x.py --lr 1\n`;
    const t0 = Date.now();
    const d = parseShell(text);
    assert.ok(Date.now() - t0 < 5000, `${open} took too long`);
    assertSpansInside(d);
    if (open !== '(') assert.ok(d.problems.some((p) => p.code === 'parse-error'), `no parse error for ${open}`);
  }
});

test('hostile input: 1 MB of junk and array and string bombs stay bounded', () => {
  let seed = 42;
  const rnd = (): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const alphabet = ' \t\n\\\'"$(){}[]<>|&;#=-`*?!0123456789abcdefxyzARGS_@:+%/.';
  let junk = '';
  while (junk.length < 1_000_000) junk += alphabet[Math.floor(rnd() * alphabet.length)];
  let t0 = Date.now();
  const d = parseShell(junk);
  assert.ok(Date.now() - t0 < 10_000, `1 MB of junk took ${Date.now() - t0} ms`);
  assertSpansInside(d);
  d.edit([{ op: 'set', path: ['--lr'], value: 1 }]);
  d.completionSite(500_000);

  // Doubling arrays and strings: the reader caps them.
  const bomb = `A=(x x)\n${'A=("${A[@]}" "${A[@]}")\n'.repeat(40)}S=ab\n${'S="$S$S"\n'.repeat(40)}torchrun x.py "\${A[@]}" --s "$S" --lr 1\n`;
  t0 = Date.now();
  const b = parseShell(bomb);
  assert.ok(Date.now() - t0 < 10_000, `bomb took ${Date.now() - t0} ms`);
  assert.equal(b.value(['--lr']), 1);
  assertSpansInside(b);
});

test('property: random token soups never throw and every span lies inside the text', () => {
  const token = fc.oneof(
    fc.constantFrom(
      'torchrun', 'python', '-m', 'torch.distributed.run', 'srun', 'deepspeed', 'mpirun', 'bash', '-c', 'pretrain_gpt.py', 'x.py', '--tensor-model-parallel-size', '--bf16', '--lr=1', '--nproc_per_node',
      'TP=8', 'ARGS=(', ')', '(', '"${ARGS[@]}"', '${ARGS[@]}', '$TP', '${TP:-4}', '$((TP*2))', '$(hostname)', '`date`', '"', "'", '$\'', '\\', '\\\n', '\n', ' ', '\t', '#', ';', '&&', '||', '|', '<<EOF', 'EOF', 'if', 'then', 'else', 'fi', 'case', 'in', 'esac', ';;', 'for', 'do', 'done', '[', ']', '[[', ']]', '=', '==', '-z', '{', '}', 'export', 'local', 'unset', '8', '1e-4', '\r\n',
    ),
    fc.string({ maxLength: 6 }),
  );
  const soup = fc.array(token, { maxLength: 60 }).map((parts) => parts.join(''));
  fc.assert(
    fc.property(soup, fc.nat(), fc.constantFrom('--bf16', '--lr', '--tensor-model-parallel-size', '--new-flag'), (text, pos, key) => {
      const doc = parseShell(text);
      assertSpansInside(doc);
      const offset = text.length ? pos % (text.length + 1) : 0;
      const site = doc.completionSite(offset);
      if (site) spanInside(text, site.replace, 'completion');
      doc.locate(offset);
      for (const e of [
        { op: 'set', path: [key], value: 4 },
        { op: 'set', path: [key], value: true },
        { op: 'set', path: [key], value: false },
        { op: 'remove', path: [key] },
        { op: 'rename', path: [key], key: '--renamed' },
      ] as PathEdit[]) {
        const edits = doc.edit([e]);
        if (!edits) continue;
        for (const x of edits) spanInside(text, x.span, `edit ${e.op}`);
        applyEdits(text, edits);
      }
    }),
    { numRuns: 1500 },
  );
});

test('property: edits on generated launch scripts apply cleanly and read back as asked', () => {
  const flagNames = ['--tensor-model-parallel-size', '--pipeline-model-parallel-size', '--num-layers', '--micro-batch-size', '--lr'];
  const script = fc.record({
    style: fc.constantFrom('array', 'continued', 'oneline'),
    flags: fc.uniqueArray(fc.constantFrom(...flagNames), { minLength: 1, maxLength: 5 }),
    bools: fc.uniqueArray(fc.constantFrom('--bf16', '--sequence-parallel', '--overlap-grad-reduce'), { maxLength: 3 }),
    viaVar: fc.boolean(),
  });
  fc.assert(
    fc.property(script, fc.constantFrom(...flagNames, '--bf16', '--sequence-parallel', '--new-flag'), fc.constantFrom<'set' | 'remove' | 'flag'>('set', 'remove', 'flag'), ({ style, flags, bools, viaVar }, key, op) => {
      const words = [...flags.map((f, i) => (viaVar && i === 0 ? `${f} $V` : `${f} ${i + 1}`)), ...bools];
      const head = viaVar ? 'V=1\n' : '';
      const text =
        style === 'array'
          ? `${head}ARGS=(\n${words.map((w) => `    ${w}\n`).join('')})\ntorchrun x.py "\${ARGS[@]}"\n`
          : style === 'continued'
            ? `${head}torchrun x.py \\\n${words.map((w) => `    ${w}`).join(' \\\n')}\necho ok\n`
            : `${head}torchrun x.py ${words.join(' ')}\n`;
      const doc = parseShell(text);
      assert.deepEqual(doc.problems, []);
      const edit: PathEdit = op === 'remove' ? { op: 'remove', path: [key] } : { op: 'set', path: [key], value: op === 'flag' ? true : 7 };
      const edits = doc.edit([edit]);
      const present = doc.entry([key]) !== undefined;
      if (op === 'remove' && !present) return assert.equal(edits, undefined);
      assert.ok(edits, `refused ${JSON.stringify(edit)} on\n${text}`);
      const out = parseShell(applyEdits(text, edits));
      assert.deepEqual(out.problems, [], `problems after ${JSON.stringify(edit)}:\n${applyEdits(text, edits)}`);
      assert.ok(out.root, `no training command after ${JSON.stringify(edit)}:\n${applyEdits(text, edits)}`);
      if (op === 'remove') assert.equal(out.entry([key]), undefined);
      else if (op === 'flag') assert.ok(out.entry([key]));
      else assert.equal(out.value([key]), 7, applyEdits(text, edits));
      // Every other flag is untouched.
      for (const e of doc.root!.entries) if (e.key !== key) assert.deepEqual(out.value([e.key]), doc.value([e.key]));
    }),
    { numRuns: 600 },
  );
});

test('local: the value before the function comes back when it returns; plain assignments in a function stay', () => {
  const text = `MBS=2
setup() {
  local MBS=4 SEQ
  SEQ=8192
  GBS=64
}
function more {
  local -r TP=8
}
setup
torchrun pretrain_gpt.py --micro-batch-size $MBS --global-batch-size $GBS --tensor-model-parallel-size $TP
`;
  const doc = parseShell(text);
  assert.deepEqual(doc.problems, []);
  assert.equal(doc.value(['--micro-batch-size']), 2, 'the global MBS, shadowed only inside setup');
  assert.equal(doc.value(['--global-batch-size']), 64, 'GBS is not local: it outlives setup');
  assert.equal(scalar(doc, '--tensor-model-parallel-size').unknown, 'TP comes from the environment');
  assert.equal(doc.vars.has('SEQ'), false);
});

test('source: a file the host reads runs in the script shell, its values located where they are used; one it cannot read keeps what was set before as an assumption', () => {
  const text = 'HERE="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" &>/dev/null && pwd)"\nTP=4\nsource "${HERE}/model.sh"\ntorchrun pretrain_gpt.py "${MODEL[@]}" --tensor-model-parallel-size $TP\n';
  const read = (ref: string) => (ref === '/repo/scripts/model.sh' ? { text: 'MODEL=(--num-layers 24 --hidden-size 2048)\nTP=2\n', path: ref } : { why: 'not found' });
  const doc = parseShell(text, undefined, { path: '/repo/scripts/run.sh', read });
  assert.deepEqual(doc.sourced, [{ ref: '/repo/scripts/model.sh', path: '/repo/scripts/model.sh' }]);
  assert.equal(doc.value(['--num-layers']), 24);
  assert.equal(doc.value(['--tensor-model-parallel-size']), 2, 'the sourced file set TP');
  // A flag from the sourced file is reported where the script expands it (the file is another document).
  assert.deepEqual(doc.entry(['--num-layers'])!.keySpan, at(text, '"${MODEL[@]}"'));
  assert.deepEqual(doc.open, []);
  // Not found: TP keeps 4, as an assumption; an array set before it may have been appended to.
  const missing = parseShell('ARGS=(--num-layers 24)\nTP=4\nsource ./env.sh\ntorchrun pretrain_gpt.py "${ARGS[@]}" --tensor-model-parallel-size $TP\n', undefined, { path: '/repo/run.sh', read });
  assert.equal(missing.value(['--tensor-model-parallel-size']), 4);
  assert.match(scalar(missing, '--tensor-model-parallel-size').assumed ?? '', /`source \.\/env\.sh` is not read \(not found\), and it may change this value/);
  assert.equal(missing.open.length, 1);
  assert.match(missing.open[0].reason, /it may add elements to ARGS/);
  // A path that is not known: the same; and nothing is read without a host.
  assert.deepEqual(parseShell('source "$CONFIG"\ntorchrun pretrain_gpt.py --bf16\n').sourced, [{ ref: '"$CONFIG"', why: 'its path is not known' }]);
});

test('command substitutions that find the script folder are worked out over known words', () => {
  const path = '/work/repo/examples/llama/run.sh';
  const doc = parseShell('A="$(dirname "$0")"\nB=$( cd "$( dirname "${BASH_SOURCE[0]}" )" && pwd )\nC=$(dirname $(dirname ${B}))\nD="$(realpath "$B/../..")"\nE=$(basename "$0" .sh)\nF=$(date +%s)\n', undefined, { path });
  assert.equal(doc.vars.get('A')?.value, '/work/repo/examples/llama');
  assert.equal(doc.vars.get('B')?.value, '/work/repo/examples/llama');
  assert.equal(doc.vars.get('C')?.value, '/work/repo');
  assert.equal(doc.vars.get('D')?.value, '/work/repo');
  assert.equal(doc.vars.get('E')?.value, 'run');
  assert.match(doc.vars.get('F')?.unknown ?? '', /set by the command `\$\(date \+%s\)`/);
  // A relative path from a folder nobody knows stays unknown; without a path, $0 is not known.
  assert.equal(parseShell('B=$(cd "$(dirname "$0")" && pwd)\n', undefined, { path: 'run.sh' }).vars.get('B')?.value, undefined);
  assert.match(parseShell('A=$(dirname "$0")\n').vars.get('A')?.unknown ?? '', /set by the command/);
});

test('PYTHONPATH entries as the training command gets them: known ones, unknown ones, the inherited value left out', () => {
  const doc = parseShell('ROOT=/opt/x\nexport PYTHONPATH=${ROOT}:${ROOT}/Megatron-LM:$MEGATRON:$PYTHONPATH\ntorchrun pretrain_gpt.py --bf16\n');
  assert.deepEqual(doc.pathEntries('PYTHONPATH'), [{ text: '/opt/x' }, { text: '/opt/x/Megatron-LM' }, { unknown: 'MEGATRON comes from the environment' }]);
  assert.deepEqual(parseShell('PYTHONPATH=/a\ntorchrun pretrain_gpt.py --bf16\n').pathEntries('PYTHONPATH'), [], 'not exported: not the command\'s');
});

test('the folder the training command starts in: a `cd` before it (relative ones chained), `$(pwd)` after it; a subshell\'s `cd` undone; one the script is given, or arms that differ, not known', () => {
  const dir = (t: string) => parseShell(`${t}\ntorchrun pretrain_gpt.py --bf16\n`).workingDir;
  assert.equal(dir('echo hi'), undefined, 'no cd: where the script is started');
  assert.deepEqual(dir('cd /opt/Megatron-LM'), { text: '/opt/Megatron-LM' });
  assert.deepEqual(dir('cd /opt\ncd ./x/../Megatron-LM'), { text: '/opt/Megatron-LM' });
  assert.deepEqual(dir('cd ../vendor/Megatron-LM'), { text: '../vendor/Megatron-LM' }, 'relative to the start, kept relative');
  assert.deepEqual(dir('cd -P -- /opt/m'), { text: '/opt/m' }, 'options are not the folder');
  assert.deepEqual(dir('cd /opt/m\n(cd /tmp && ls)'), { text: '/opt/m' }, 'a subshell\'s cd ends with it');
  assert.match(dir('cd "$MEGATRON_PATH"')?.unknown ?? '', /given when it runs.*MEGATRON_PATH/);
  assert.match(dir('cd /a\ncd')?.unknown ?? '', /not known/, '`cd` alone goes home');
  assert.match(dir('cd /a\npushd /b\npopd')?.unknown ?? '', /not known/);
  assert.match(dir('if [ -n "$X" ]; then cd /a; else cd /b; fi')?.unknown ?? '', /./, 'arms that differ');
  assert.deepEqual(dir('if [ -n "$X" ]; then cd /a; else cd /a; fi'), { text: '/a' }, 'arms that agree');
  assert.match(dir('[ -d /a ] && cd /a')?.unknown ?? '', /only on some paths/, 'a cd on some paths only');
  const pwd = parseShell('cd /opt/work\nexport PYTHONPATH=$(pwd)/Megatron-LM:$PYTHONPATH\ntorchrun pretrain_gpt.py --bf16\n');
  assert.deepEqual(pwd.pathEntries('PYTHONPATH'), [{ text: '/opt/work/Megatron-LM' }], '$(pwd) after the cd');
  const bare = parseShell('cd /opt/work\nexport PYTHONPATH=$PWD/Megatron-LM\ntorchrun pretrain_gpt.py --bf16\n');
  assert.deepEqual(bare.pathEntries('PYTHONPATH'), [{ text: '/opt/work/Megatron-LM' }], '$PWD after the cd');
});

test('a word whose start is known and is no flag is a value whatever its unknown parts; a flag whose name is not known opens the set', () => {
  const text = 'torchrun pretrain_gpt.py --valid-weighted-split-paths "VALID_EN: 1 0.6:0.8 $DATA_EN" "VALID_AR: 1 $DATA_AR" --data-path $ROOT/data --micro-batch-size 4\n';
  const doc = parseShell(text, undefined, { takesValue: () => true });
  assert.deepEqual(doc.open, []);
  assert.equal(doc.node(['--valid-weighted-split-paths'])?.kind, 'seq');
  assert.equal(doc.value(['--micro-batch-size']), 4);
  assert.match(scalar(doc, '--data-path').unknown ?? '', /ROOT comes from the environment/);
  const named = parseShell('torchrun pretrain_gpt.py --${KIND}-size 8 --bf16\n', undefined, { takesValue: () => true });
  assert.equal(named.open.length, 1);
});
