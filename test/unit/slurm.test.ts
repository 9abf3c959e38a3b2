/**
 * Slurm batch scripts: the `#SBATCH` header, the SLURM_* variables it decides, the world size of the
 * srun step, the allocation in the layout lens, hardware from the user's partition mapping, and the
 * file kinds read as batch scripts. The annotated cases are in test/rules/slurm-allocation-mismatch/ (rules.test.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyze, complete, hover, layoutLenses, layoutText, parseProjectConfig, syntaxOf } from '../../server/src/engine';
import { readSbatch } from '../../server/src/engine/syntax/sbatch';
import { parseShell } from '../../server/src/engine/syntax/shell';

const HEADER = `#!/bin/bash
#SBATCH --job-name=gpt-13b          # a trailing comment is not a value
#SBATCH -N 4
#SBATCH --ntasks-per-node 1
#SBATCH --gres=gpu:h100:8,nvme:1
#SBATCH --partition=gpu-h100
#SBATCH --constraint="ib&h100"
##SBATCH --nodes=64
# SBATCH --nodes=128

set -e
#SBATCH --nodes=999
`;

test('the #SBATCH header: both option forms, short options, gres with a type, comments; it ends at the first command', () => {
  const a = readSbatch(HEADER)!;
  assert.equal(a.nodes?.value, 4);
  assert.equal(a.nodes?.option, '-N');
  assert.equal(a.ntasksPerNode?.value, 1);
  assert.equal(a.gpusPerNode?.value, 8);
  assert.equal(a.partition?.value, 'gpu-h100');
  assert.equal(a.constraint?.value, 'ib&h100');
  assert.equal(HEADER.slice(a.nodes!.span.start, a.nodes!.span.end), '4');
  assert.equal(a.options.find((o) => o.name === 'job-name')?.value, 'gpt-13b');
  assert.equal(a.heterogeneous, undefined);
});

test('node ranges, GPU totals and gpus-per-task', () => {
  assert.equal(readSbatch('#SBATCH --nodes=2-4\n')!.nodes, undefined);
  assert.match(readSbatch('#SBATCH --nodes=2-4\n')!.unknown.get('nodes')!, /between 2 and 4/);
  assert.equal(readSbatch('#SBATCH --nodes=4-4\n')!.nodes?.value, 4);
  assert.equal(readSbatch('#SBATCH --gpus-per-node=a100:4\n')!.gpusPerNode?.value, 4);
  assert.equal(readSbatch('#SBATCH -N 2\n#SBATCH --ntasks-per-node=8\n#SBATCH --gpus-per-task=1\n')!.gpusPerNode?.value, 8);
  const total = readSbatch('#SBATCH --nodes=2\n#SBATCH -G 16\n')!;
  assert.equal(total.gpus?.value, 16);
  assert.equal(total.gpusPerNode, undefined, 'Slurm may spread --gpus unevenly over the nodes');
  assert.equal(readSbatch('#!/bin/bash\necho hi\n#SBATCH --nodes=2\n'), undefined);
  assert.equal(readSbatch('#SBATCH --nodes=2\n#SBATCH hetjob\n#SBATCH --nodes=1\n')!.heterogeneous !== undefined, true);
});

test('SLURM_* variables resolve from the header; per-process ones stay unknown', () => {
  const s = parseShell(`${HEADER.split('set -e')[0]}
NNODES=$SLURM_NNODES
GPUS=\${SLURM_GPUS_ON_NODE:-1}
WORLD=$((SLURM_NNODES * SLURM_GPUS_ON_NODE))
RANK=$SLURM_PROCID
srun torchrun --nnodes $SLURM_JOB_NUM_NODES --nproc_per_node $GPUS --node_rank $SLURM_NODEID pretrain_gpt.py --num-layers 2
`);
  assert.equal(s.vars.get('NNODES')?.value, '4');
  assert.equal(s.vars.get('GPUS')?.value, '8');
  assert.equal(s.vars.get('WORLD')?.value, '32');
  assert.equal(s.vars.get('SLURM_NTASKS')?.value, '4');
  assert.equal(s.vars.get('RANK')?.value, undefined);
  assert.match(s.vars.get('RANK')!.unknown!, /SLURM_PROCID/);
  const torchrun = s.launcher?.inner;
  assert.equal(torchrun?.args.get('--nnodes')?.value, 4);
  assert.equal(torchrun?.args.get('--node_rank')?.unknown !== undefined, true);
  // Without a header (a plain .sh run by hand), the scheduler's variables stay unknown.
  const plain = parseShell('NNODES=${SLURM_NNODES:-1}\n');
  assert.equal(plain.vars.get('NNODES')?.value, undefined);
});

test('a heterogeneous job resolves nothing from its header', () => {
  const s = parseShell('#SBATCH --nodes=4\n#SBATCH hetjob\n#SBATCH --nodes=1\nN=$SLURM_NNODES\n');
  assert.equal(s.vars.get('N')?.value, undefined);
});

const TRAIN = `#!/bin/bash
#SBATCH --nodes=4
#SBATCH --ntasks-per-node=8
#SBATCH --gpus-per-node=8
#SBATCH --partition=gpu-h100
export CUDA_DEVICE_MAX_CONNECTIONS=1
srun python pretrain_gpt.py --tensor-model-parallel-size 8 --pipeline-model-parallel-size 2 --sequence-parallel \\
  --num-layers 32 --hidden-size 4096 --num-attention-heads 32 --seq-length 4096 --max-position-embeddings 4096 \\
  --micro-batch-size 1 --global-batch-size 64 --bf16
`;

test('srun launching python: the world is nodes × tasks per node of the allocation, shown in the lens and the layout', () => {
  const a = analyze({ path: 'jobs/train.sbatch', text: TRAIN });
  const plan = a.docs[0].plan!;
  assert.equal(plan.world?.value, 32);
  assert.equal(plan.nodes.value, 4);
  const lens = layoutLenses(a);
  assert.equal(lens.length, 1);
  assert.match(lens[0].title, /^32 GPUs = TP 8 × PP 2 × CP 1 × DP 2 .*· 4 nodes × 8 GPUs \(SBATCH\)$/);
  assert.match(layoutText(a)!, /allocation: 4 nodes × 8 GPUs \(SBATCH\)/);
  const at = TRAIN.indexOf('--tensor-model-parallel-size 8') + '--tensor-model-parallel-size '.length;
  assert.match(hover(a, at)?.markdown ?? '', /Allocation: 4 nodes × 8 GPUs \(SBATCH\)/);
  assert.deepEqual(a.findings.filter((f) => f.severity === 'error'), []);
});

test('the GPUs per node of the allocation replace the profile\'s, unless a setting says', () => {
  const text = TRAIN.replace('--gpus-per-node=8', '--gres=gpu:4').replace('--ntasks-per-node=8', '--ntasks-per-node=4');
  const a = analyze({ path: 'train.sbatch', text });
  assert.equal(a.docs[0].plan!.hardware.gpusPerNode.value, 4);
  assert.equal(a.docs[0].plan!.world?.value, 16);
  assert.equal(analyze({ path: 'train.sbatch', text }, { gpusPerNode: 8 }).docs[0].plan!.hardware.gpusPerNode.value, 8);
});

test('hardware from the partition or constraint only through the slurm mapping of .shardwise.yaml', () => {
  assert.equal(analyze({ path: 'train.sbatch', text: TRAIN }).docs[0].plan!.hardware.from.kind, 'assumed');
  const cfg = parseProjectConfig('slurm:\n  partitions:\n    gpu-h100: b200\n  constraints:\n    a100: a100-80gb\n');
  assert.deepEqual(cfg.problems, []);
  const mapped = analyze({ path: 'train.sbatch', text: TRAIN }, cfg.settings).docs[0].plan!.hardware;
  assert.equal(mapped.profile.id, 'b200');
  assert.match(JSON.stringify(mapped.from), /slurm\.partitions\.gpu-h100/);
  // A feature names the nodes more closely than the partition does; `ib&a100` picks the one feature that maps.
  const featured = analyze({ path: 'train.sbatch', text: TRAIN.replace('#SBATCH --partition=gpu-h100', '#SBATCH --partition=gpu-h100\n#SBATCH --constraint=ib&a100') }, cfg.settings).docs[0].plan!.hardware;
  assert.equal(featured.profile.id, 'a100-80gb');
  // Alternatives that map to different profiles give nothing; an unmapped name gives nothing.
  const either = analyze({ path: 'train.sbatch', text: TRAIN.replace('--partition=gpu-h100', '--partition=gpu-h100,other') }, cfg.settings).docs[0].plan!.hardware;
  assert.equal(either.from.kind, 'assumed');
  assert.match(JSON.stringify(either.from), /no hardware is set/);
  // A directive still wins over the mapping.
  assert.equal(analyze({ path: 'train.sbatch', text: `# shardwise: hardware=h200\n${TRAIN}` }, cfg.settings).docs[0].plan!.hardware.profile.id, 'h200');
});

test('GPUs a job names without a mapping: a profile\'s name in a feature or partition is assumed; GPUs no profile describes make the hardware unknown, never the default', () => {
  const hw = (text: string) => analyze({ path: 'train.sbatch', text }).docs[0].plan!.hardware;
  // A site's partition name that holds a profile's name: likely, so assumed, and said.
  const named = hw(TRAIN);
  assert.equal(named.profile.id, 'h100-sxm');
  assert.equal(named.from.kind, 'assumed');
  assert.match(JSON.stringify(named.from), /--partition=gpu-h100/);
  assert.doesNotMatch(JSON.stringify(named.from), /no hardware is set/);
  // V100s by feature or by typed request: no profile describes them, so nothing resting on the hardware is known.
  for (const line of ['#SBATCH --constraint=v100-32g', '#SBATCH -C v100-32g', '#SBATCH --gres=gpu:v100:8']) {
    const h = hw(TRAIN.replace('#SBATCH --partition=gpu-h100', line));
    assert.equal(h.from.kind, 'unknown', line);
    assert.match(JSON.stringify(h.from), /v100/, line);
    assert.equal(h.nvlinkDomain.from.kind === 'hardware' && h.nvlinkDomain.from.unknown !== undefined, true, line);
  }
  // A feature that names no GPU (`ib`) says nothing about the hardware.
  assert.match(JSON.stringify(hw(TRAIN.replace('#SBATCH --partition=gpu-h100', '#SBATCH --constraint=ib')).from), /no hardware is set/);
  // What rests on the hardware is silent for V100s: no advice measured against an 80 GiB H100.
  const v100 = TRAIN.replace('#SBATCH --partition=gpu-h100', '#SBATCH --constraint=v100-32g').replace('--tensor-model-parallel-size 8 --pipeline-model-parallel-size 2', '--tensor-model-parallel-size 8 --pipeline-model-parallel-size 1');
  const codes = (t: string) => analyze({ path: 'train.sbatch', text: t }).findings.map((f) => f.code);
  assert.ok(codes(v100.replace('--constraint=v100-32g', '--constraint=h100')).includes('tp-larger-than-needed'));
  assert.ok(!codes(v100).includes('tp-larger-than-needed'));
});

test('the slurm key of .shardwise.yaml: unknown profiles and keys are reported with a did-you-mean', () => {
  const bad = parseProjectConfig('slurm:\n  partitions:\n    gpu: h900\n  partition: {}\n');
  assert.equal(bad.problems.length, 2);
  assert.match(bad.problems.join('\n'), /slurm\.partitions\.gpu.*unknown hardware profile "h900" \(did you mean h200\?\)/);
  // Two edits of a four-letter name are another name: `b200` is not offered for `h900`.
  assert.match(bad.problems.join('\n'), /slurm\.partition` \(did you mean `slurm\.partitions`\?\)/);
  assert.match(parseProjectConfig('slurm: gpu-h100\n').problems[0], /must be a mapping/);
});

test('.sbatch, .slurm and extensionless batch scripts are read as shell scripts; other files are not', () => {
  assert.equal(syntaxOf({ path: 'a/train.sbatch', text: '' }), 'shell');
  assert.equal(syntaxOf({ path: 'a/TRAIN.SLURM', text: '' }), 'shell');
  assert.equal(syntaxOf({ path: 'a/train', text: '#SBATCH --nodes=2\nsrun hostname\n' }), 'shell');
  assert.equal(syntaxOf({ path: 'a/train', text: '#!/usr/bin/env bash\necho\n' }), 'shell');
  assert.equal(syntaxOf({ path: 'a/config', text: '# a comment\nkey: value\n' }), 'yaml');
  assert.equal(syntaxOf({ path: 'a/notes.txt', text: '#SBATCH --nodes=2\n' }), 'yaml');
});

test('a Megatron launch script without an extension, recognised by its #SBATCH lines, is checked', () => {
  // Named release: before Megatron Core 0.9.0 PP is cut to fit, and the mismatch is a warning.
  const a = analyze({ path: 'jobs/train_gpt', text: TRAIN.replace('--pipeline-model-parallel-size 2', '--pipeline-model-parallel-size 8') }, { targetVersions: { 'megatron-core': '0.9.0' } });
  assert.deepEqual(a.findings.filter((f) => f.severity === 'error').map((f) => f.code), ['world-size-mismatch']);
});

test('forcing a format onto a batch script never throws (it once crashed: map.entries is not iterable)', () => {
  const texts = ['#!/bin/bash\n#SBATCH --nodes=2\nsrun python pretrain_gpt.py --tensor-model-parallel-size 2\n', '#SBATCH --nodes=2\nfoo\n', 'foo\n', ''];
  for (const format of ['megatron-args', 'megatron-yaml', 'megatron-bridge', 'nemo', 'accelerate', 'deepspeed']) {
    for (const body of texts) {
      for (const path of ['train.sbatch', 'train.slurm', 'train', 'train.sh']) {
        for (const languageId of [undefined, 'shellscript', 'yaml']) {
          const text = `# shardwise: format=${format}\n${body}`;
          for (const input of [{ path, text, languageId }, { path, text: body, languageId }]) {
            const settings = input.text === body ? { associations: { '*': format as 'nemo' } } : {};
            const a = analyze(input, settings);
            for (let o = 0; o <= input.text.length; o++) {
              hover(a, o);
              complete(a, o);
            }
            layoutLenses(a);
            for (const f of a.findings) f.fixes();
          }
        }
      }
    }
  }
  // The forced shell format on a batch script reads it as one.
  const forced = analyze({ path: 'train.sbatch', text: `# shardwise: format=megatron-args\n${TRAIN}` });
  assert.equal(forced.docs[0].format?.id, 'megatron-args');
  assert.equal(forced.docs[0].plan?.world?.value, 32);
});
