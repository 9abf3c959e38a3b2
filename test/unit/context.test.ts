/**
 * What the engine reads from a file's context, as pure functions: the flags a repository's Python
 * defines (literal and built from a prefix), the config keys it assigns and reads, and the release a
 * checkout's package_info.py gives.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configAssignments, configReads, packageVersion, parserFlags } from '../../server/src/engine';
import { repositoryHas } from '../../server/src/engine/formats/megatron/checkout';

test('parser flags: literal spellings, and a family a parser builds from a prefix', () => {
  const py = 'p.add_argument("--lr", type=float)\np.add_argument("-x", "--extra")\nfor k in base:\n    prefixed = f"--sglang-{k}"\nname = "--vllm-" + k\n';
  assert.deepEqual(parserFlags(py).sort(), ['--extra', '--lr', '--sglang-*', '--vllm-*', '-x']);
  const r = { flags: parserFlags(py), files: 1, withParsers: 1, complete: true };
  assert.ok(repositoryHas(r, '--sglang-mem-fraction-static'));
  assert.ok(repositoryHas(r, '--sglang-dp-size=8'));
  assert.ok(!repositoryHas(r, '--sglangx'));
  assert.ok(!repositoryHas(r, '--lr-decay'));
  // A bare "--" + name is no family: it would accept every flag.
  assert.deepEqual(parserFlags('flag = "--" + name\n'), []);
});

test('config keys a repository assigns before use, and the ones it reads', () => {
  const py = 'def main(cfg):\n    cfg.model.global_batch_size = cfg.trainer.devices * cfg.model.micro_batch_size\n    OmegaConf.update(cfg, "model.tensor_model_parallel_size", 2)\n    if cfg.model.x == 1: pass\n    n = self.cfg.get("forward_micro_batch_size", 1)\n    m = model_cfg["kl_beta"]\n';
  assert.deepEqual(configAssignments(py).sort(), ['model.global_batch_size', 'model.tensor_model_parallel_size']);
  const reads = configReads(py);
  for (const k of ['forward_micro_batch_size', 'kl_beta', 'global_batch_size', 'micro_batch_size', 'devices', 'x']) assert.ok(reads.includes(k), k);
});

test('the release a checkout gives, a pre-release marked as one', () => {
  assert.equal(packageVersion("MAJOR = 0\nMINOR = 14\nPATCH = 1\nPRE_RELEASE = ''\n"), '0.14.1');
  assert.equal(packageVersion("MAJOR = 0\nMINOR = 14\nPATCH = 1\nPRE_RELEASE = 'rc0'\n"), '0.14.1rc0');
  assert.equal(packageVersion('MAJOR = 0\nMINOR = 14\n'), undefined);
});

test('argparse.BooleanOptionalAction defines the negative spelling too', () => {
  assert.deepEqual(parserFlags('p.add_argument("--offload-train", action=argparse.BooleanOptionalAction, default=True)\np.add_argument("--seed", type=int)\n').sort(), ['--no-offload-train', '--offload-train', '--seed']);
});
