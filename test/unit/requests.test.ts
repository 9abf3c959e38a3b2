import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gpuRequests, requestedHardware } from '../../server/src/engine';

test('a SkyPilot task names the GPU it asks for, in each of its spellings; alternatives only when they agree; SkyPilot\'s A100 is the 40 GB part', () => {
  const ids = (acc: string) => gpuRequests('sky.yaml', `resources:\n  accelerators: ${acc}\nrun: torchrun train.py --deepspeed ds_z3.json\n`).map((r) => r.id);
  assert.deepEqual(ids('H100:8'), ['h100-sxm']);
  assert.deepEqual(ids('{A100-80GB: 8}'), ['a100-80gb']);
  assert.deepEqual(ids('A100:8'), ['a100-40gb']);
  assert.deepEqual(ids('[H200:8, H200:4]'), ['h200']);
  assert.deepEqual(ids('[A100:8, H100:8]'), [], 'the cloud picks one of two: neither is known');
  assert.deepEqual(ids('L4:1'), [], 'no profile for an L4');
  assert.deepEqual(gpuRequests('sky.yaml', 'resources:\n  accelerators: H100:8\nrun: torchrun train.py --deepspeed ds_z3.json\n')[0].runs, ['ds_z3.json']);
  assert.deepEqual(gpuRequests('cfg.yaml', 'resources:\n  accelerators: H100:8\n'), [], 'a resources section alone is not a task');
});

test('a Kubernetes pod template that asks for NVIDIA GPUs on nodes labelled with one product names it; a choice of products or an unknown one names none', () => {
  const job = (selector: string, gpu = 'nvidia.com/gpu: 8') => `apiVersion: batch/v1\nkind: Job\nspec:\n  template:\n    spec:\n${selector}\n      containers:\n        - name: t\n          command: [torchrun, train.py, --config, fsdp.yaml]\n          resources:\n            limits:\n              ${gpu}\n`;
  const ids = (t: string) => gpuRequests('job.yaml', t).map((r) => r.id);
  assert.deepEqual(ids(job('      nodeSelector:\n        nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3')), ['h100-sxm']);
  assert.deepEqual(ids(job('      nodeSelector:\n        cloud.google.com/gke-accelerator: nvidia-tesla-a100')), ['a100-40gb']);
  assert.deepEqual(ids(job('      nodeSelector:\n        node.kubernetes.io/instance-type: p5.48xlarge')), ['h100-sxm']);
  const affinity = (values: string) => `      affinity:\n        nodeAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n            nodeSelectorTerms:\n              - matchExpressions:\n                  - key: nvidia.com/gpu.product\n                    operator: In\n                    values: ${values}`;
  assert.deepEqual(ids(job(affinity('[NVIDIA-B200]'))), ['b200']);
  assert.deepEqual(ids(job(affinity('[NVIDIA-B200, NVIDIA-H200]'))), [], 'either product');
  assert.deepEqual(ids(job('      nodeSelector:\n        nvidia.com/gpu.product: Tesla-T4')), []);
  assert.deepEqual(ids(job('      nodeSelector:\n        nvidia.com/gpu.product: NVIDIA-H200', 'cpu: 4')), [], 'no GPU asked for');
  assert.deepEqual(gpuRequests('job.yaml', job('      nodeSelector:\n        nvidia.com/gpu.product: NVIDIA-H200'))[0].runs, ['fsdp.yaml']);
  assert.deepEqual(gpuRequests('bad.yaml', 'kind: Job\napiVersion: v1\nspec: [nvidia.com/gpu\n'), [], 'a file that does not parse asks for nothing');
});

test('a job that runs the file is evidence; jobs that do not are an assumption, and only when they agree', () => {
  const r = (id: string, runs: string[]) => ({ id, file: 'sky.yaml', what: `accelerators: ${id}`, runs });
  assert.deepEqual(requestedHardware([r('h200', ['train.sh']), r('b200', [])], (_, p) => p === 'train.sh'), { id: 'h200', note: 'from `accelerators: h200` in sky.yaml, which runs this file' });
  assert.equal(requestedHardware([r('h200', []), r('h200', ['other.sh'])], (_, p) => p === 'train.sh')?.assumed, true);
  assert.equal(requestedHardware([r('h200', []), r('b200', [])], (_, p) => p === 'train.sh'), undefined, 'jobs that differ say nothing');
});

test('a job runs a file only when a path it names resolves to that file: another folder\'s file of the same name is not its evidence', async () => {
  const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const { RepositoryPins } = await import('../../server/src/host/pins');
  const root = mkdtempSync(join(tmpdir(), 'shardwise-jobs-'));
  mkdirSync(join(root, '.git'));
  for (const d of ['sky', 'a', 'b']) mkdirSync(join(root, d));
  writeFileSync(join(root, 'sky', 'job.yaml'), 'resources:\n  accelerators: H200:8\nrun: bash a/train.sh\n');
  writeFileSync(join(root, 'a', 'train.sh'), '');
  writeFileSync(join(root, 'b', 'train.sh'), '');
  const pins = new RepositoryPins();
  const a = pins.hardwareFor(join(root, 'a', 'train.sh'));
  const b = pins.hardwareFor(join(root, 'b', 'train.sh'));
  assert.equal(a?.id, 'h200');
  assert.equal(a?.assumed, undefined, 'the job names a/train.sh: evidence');
  assert.match(a?.note ?? '', /in \.\.\/sky\/job\.yaml, which runs this file/);
  assert.equal(b?.assumed, true, 'b/train.sh shares only the name: at most an assumption');
  // A change to a job it read, in the folder or a job folder, is a change of settings; other YAML files are not.
  assert.ok(pins.readsJobsFrom(join(root, 'sky', 'job.yaml')));
  assert.ok(pins.readsJobsFrom(join(root, 'a', 'new-job.yaml')), 'a YAML file appearing in a folder it listed may be a new job');
  assert.ok(!pins.readsJobsFrom(join(root, 'elsewhere', 'x.yaml')), 'a folder it never listed');
  assert.ok(!pins.readsJobsFrom(join(root, 'sky', 'train.sh')));
});
