/**
 * The built CLI on a temporary repository whose framework adds its own flags to Megatron-LM's (as
 * RL frameworks and fine-tuning kits do through `extra_args_provider`): a flag the repository's
 * Python defines is not unknown; a misspelled one still is, and says what was searched.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { runCli, type JsonFinding } from './run-cli';

const tmp = mkdtempSync(join(tmpdir(), 'shardwise-cli-repository-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const LAUNCH = `#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 train.py \\
    --tensor-model-parallel-size 1 \\
    --overlap-grad-reduce \\
    --num-layers 4 \\
    --hidden-size 1024 \\
    --num-attention-heads 16 \\
    --rollout-global-batch-size 256 \\
    --kl-loss-coef 0.01 \\
    --rollout-global-batch-szie 128
`;

function repository(name: string, withGit: boolean): string {
  const root = join(tmp, name);
  if (withGit) mkdirSync(join(root, '.git'), { recursive: true });
  write(join(root, 'train.py'), 'from megatron.training import pretrain\nfrom rlkit.utils.arguments import add_rl_arguments\n\npretrain(None, None, None, None, extra_args_provider=add_rl_arguments)\n');
  write(
    join(root, 'rlkit', 'utils', 'arguments.py'),
    'def add_rl_arguments(parser):\n    group = parser.add_argument_group("rollout")\n    group.add_argument("--rollout-global-batch-size", type=int)\n    group.add_argument(\n        "--kl-loss-coef",\n        type=float,\n        default=0.0,\n    )\n    return parser\n',
  );
  write(join(root, 'rlkit', 'models.py'), 'class Model:\n    pass\n');
  // Installed packages are not the repository's: a flag defined only there stays unknown.
  write(join(root, '.venv', 'lib', 'site-packages', 'other', 'cli.py'), 'parser.add_argument("--rollout-global-batch-szie")\n');
  write(join(root, 'scripts', 'run.sh'), LAUNCH);
  return root;
}

function unknownKeys(cwd: string): JsonFinding[] {
  const r = runCli(['check', '.', '--output-format', 'json'], { cwd });
  assert.ok(r.code === 0 || r.code === 1, r.err);
  return (JSON.parse(r.out) as JsonFinding[]).filter((f) => f.code === 'unknown-key');
}

test("a launch script's flags that the repository's own Python defines are not unknown; a misspelled one is, and says what was searched", () => {
  const found = unknownKeys(repository('with-git', true));
  assert.deepEqual(
    found.map((f) => [f.file, f.range.start.line, f.severity]),
    [['scripts/run.sh', 10, 'warning']],
  );
  const message = found[0].message;
  assert.match(message, /^`--rollout-global-batch-szie` is not a known flag/);
  assert.match(message, /no parser in this repository defines it \(3 Python files searched, 1 with add_argument calls: `rlkit\/utils\/arguments\.py`\)/);
  assert.match(message, /Did you mean `--rollout-global-batch-size` or/);
});

test('a checkout without .git is a repository by its project files', () => {
  const root = repository('unpacked', false);
  write(join(root, 'pyproject.toml'), '[project]\nname = "rlkit"\n');
  assert.equal(unknownKeys(root).length, 1);
});

test('outside any repository the flags are judged as before, without the framework\'s', () => {
  const root = join(tmp, 'loose');
  write(join(root, 'run.sh'), LAUNCH);
  // The entry script is there and adds no flags of its own (a missing one would leave the flags unjudged).
  write(join(root, 'train.py'), 'from megatron.training import pretrain\n\npretrain(None, None, None, None)\n');
  const found = unknownKeys(root);
  assert.deepEqual(
    found.map((f) => f.message.split('`')[1]),
    ['--rollout-global-batch-size', '--kl-loss-coef', '--rollout-global-batch-szie'],
  );
  assert.ok(found.every((f) => !f.message.includes('parser in this repository')));
});

test('a launch script whose entry script is looked for and not there leaves its flags unjudged', () => {
  const root = join(tmp, 'stale');
  write(join(root, 'run.sh'), LAUNCH);
  assert.deepEqual(unknownKeys(root), []);
});

test('a flag the repository names as a string (through a helper, not add_argument) is one it handles', () => {
  const root = repository('literal', true);
  write(join(root, 'rlkit', 'patch.py'), 'def patch(parser):\n    patch_if_not_exist(parser, "--rollout-global-batch-szie", type=int)\n');
  assert.deepEqual(unknownKeys(root), []);
});

test('a repository whose Python reads its arguments with parse_known_args leaves the flags of its own entry scripts unjudged', () => {
  const root = repository('lenient', true);
  write(join(root, 'rlkit', 'cli.py'), 'import argparse\nparser = argparse.ArgumentParser()\nargs, rest = parser.parse_known_args()\n');
  assert.deepEqual(unknownKeys(root), []);
});
