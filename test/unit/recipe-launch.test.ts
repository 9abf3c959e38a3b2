/**
 * The commands that launch a fine-tuning recipe: LLaMA-Factory's `llamafactory-cli train` (the
 * processes it starts, src/llamafactory/launcher.py@ff6d4d1:56-132; the `key=value` overrides,
 * hparams/parser.py@ff6d4d1:117-120) and a launched script given the recipe (`--config`, TRL's
 * TrlParser; the first argument, HfArgumentParser subclasses).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyze } from '../../server/src/engine';
import { namesFile, recipeLaunches } from '../../server/src/engine/formats/trainer/launch';
import { parseShell } from '../../server/src/engine/syntax/shell';

const launch = (text: string) => recipeLaunches(parseShell(`#!/bin/bash\n${text}\n`));

test('FORCE_TORCHRUN with NNODES and NPROC_PER_NODE: torchrun with NNODES × NPROC_PER_NODE processes (launcher.py@ff6d4d1:60-66), assumed for the release (cli.py@v0.8.0:75-82; 0.7.1 ran in-process)', () => {
  const [l] = launch('FORCE_TORCHRUN=1 NNODES=2 NODE_RANK=0 NPROC_PER_NODE=8 llamafactory-cli train examples/a.yaml');
  assert.equal(l.ref, 'examples/a.yaml');
  assert.equal(l.world?.value, 16);
  assert.equal(l.world?.from.kind, 'assumed');
});

test('exported variables count; NNODES unset is 1 (launcher.py@ff6d4d1:64)', () => {
  const [l] = launch('export FORCE_TORCHRUN=true\nexport NPROC_PER_NODE=4\nlmf train a.yaml');
  assert.equal(l.world?.value, 4);
  assert.match((l.world?.from as { note: string }).note, /NNODES/);
});

test('a variable set but not exported does not reach llamafactory-cli: not known', () => {
  const [l] = launch('NPROC_PER_NODE=4\nFORCE_TORCHRUN=1 llamafactory-cli train a.yaml');
  assert.equal(l.world, undefined);
  assert.match(l.worldUnknown ?? '', /NPROC_PER_NODE/);
});

test('without NPROC_PER_NODE the count is the visible devices (launcher.py@ff6d4d1:66): unknown, no world', () => {
  const [l] = launch('FORCE_TORCHRUN=1 llamafactory-cli train a.yaml');
  assert.equal(l.world, undefined);
  assert.match(l.worldUnknown ?? '', /visible device/);
});

test('without FORCE_TORCHRUN, torchrun only with more than one device: the world is an assumption that says so', () => {
  const [l] = launch('NPROC_PER_NODE=8 llamafactory-cli train a.yaml');
  assert.equal(l.world?.value, 8);
  assert.match((l.world?.from as { note: string }).note, /more than one device/);
});

test('USE_RAY without FORCE_TORCHRUN: Ray runs the job (launcher.py@ff6d4d1:61), no world', () => {
  const [l] = launch('USE_RAY=1 NPROC_PER_NODE=8 llamafactory-cli train a.yaml');
  assert.equal(l.world, undefined);
});

test("FORCE_TORCHRUN=y is on from 0.9.2 only (is_env_enabled, misc.py@ff6d4d1:258-260; cli.py@v0.9.1 took true/1): not known", () => {
  const [l] = launch('FORCE_TORCHRUN=y NPROC_PER_NODE=8 llamafactory-cli train a.yaml');
  assert.equal(l.world, undefined);
});

test('key=value words after the recipe are overrides (OmegaConf.from_cli); a word not known may override any key', () => {
  const [l] = launch('llamafactory-cli train a.yaml per_device_train_batch_size=2 deepspeed=ds.json');
  assert.deepEqual([...l.overrides.keys()], ['per_device_train_batch_size', 'deepspeed']);
  assert.equal(l.open, undefined);
  const [m] = launch('llamafactory-cli train a.yaml $EXTRA');
  assert.ok(m.open);
});

test('llamafactory-cli chat/export are no training launch', () => {
  assert.deepEqual(launch('llamafactory-cli export a.yaml'), []);
});

test('accelerate launch … sft.py --config recipe.yaml: the recipe, and the other flags as overrides', () => {
  const ls = launch('accelerate launch --config_file zero3.yaml scripts/sft.py --config recipes/sft.yaml --learning_rate 1e-5');
  assert.equal(ls.length, 1);
  assert.equal(ls[0].ref, 'recipes/sft.yaml');
  assert.deepEqual([...ls[0].overrides.keys()], ['learning_rate']);
  const [p] = launch('accelerate launch --config_file zero3.yaml scripts/run_sft.py recipes/sft.yaml');
  assert.equal(p.ref, 'recipes/sft.yaml');
});

test('a launch names a file by its trailing path', () => {
  assert.ok(namesFile('examples/a.yaml', '/repo/examples/a.yaml'));
  assert.ok(namesFile('./a.yaml', '/repo/a.yaml'));
  assert.ok(!namesFile('examples/a.yaml', '/repo/other/a.yaml'));
  assert.ok(namesFile('../x/a.yaml', '/repo/x/a.yaml'));
});

test('a LoRA recipe launched through an FSDP Accelerate config gets its world from num_processes and no replica (DDP) Plan', () => {
  const files: Record<string, string> = { 'fsdp.yaml': 'compute_environment: LOCAL_MACHINE\ndistributed_type: FSDP\nfsdp_config:\n  fsdp_version: 2\nnum_machines: 1\nnum_processes: 2\n' };
  const recipe = 'model_name_or_path: meta-llama/Meta-Llama-3-8B-Instruct\nstage: sft\ndo_train: true\nfinetuning_type: lora\nlora_rank: 8\nquantization_bit: 4\ndataset: identity\ntemplate: llama3\noutput_dir: out\nper_device_train_batch_size: 1\ngradient_accumulation_steps: 8\nlearning_rate: 1.0e-4\nbf16: true\n';
  const a = analyze({
    path: '/r/examples/lora.yaml',
    text: recipe,
    resolve: (ref) => ({ ref, path: `/r/${ref}`, text: files[ref], tried: [] }),
    referrers: [{ path: '/r/train.sh', text: '#!/bin/bash\naccelerate launch --config_file fsdp.yaml src/train.py examples/lora.yaml\n' }],
  });
  const m = a.docs[0].model as { world?: { value: number } };
  assert.equal(m.world?.value, 2);
  assert.equal(a.docs[0].plan, undefined);
});
