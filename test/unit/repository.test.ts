/**
 * The index of a repository's `add_argument` flags (server/src/host/repository.ts), on temporary
 * folder trees: where the root is, what is read and what is skipped, symbolic links, the bounds and
 * what the index says when one is reached, and how a cached index follows the files.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ProjectConfigs } from '../../server/src/host/project-config';
import { analyze } from '../../server/src/engine';
import { RepositoryIndexes, RepositoryWalk, REPOSITORY_LIMITS, repositoryRoot, type RepositoryLimits } from '../../server/src/host/repository';

const base = mkdtempSync(join(tmpdir(), 'shardwise-repository-'));
after(() => rmSync(base, { recursive: true, force: true }));
let serial = 0;

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const parser = (...flags: string[]) => `import argparse\n\ndef add_args(parser):\n${flags.map((f) => `    parser.add_argument("${f}", type=int)\n`).join('')}    return parser\n`;

/**
 * A repository: `.git`, a nested package with parsers, a module without one, and what must be
 * skipped (a hidden folder, node_modules, a virtual environment, build output, a link loop, a link
 * out of the root).
 */
function repository(): { root: string; outside: string } {
  const top = join(base, `case-${serial++}`);
  const root = join(top, 'repo');
  const outside = join(top, 'elsewhere');
  mkdirSync(join(root, '.git'), { recursive: true });
  write(join(root, 'train.py'), 'from framework.args import add_args\n');
  write(join(root, 'framework', 'args.py'), parser('--my-framework-flag', '--rollout-batch-size'));
  write(join(root, 'framework', 'rl', 'ppo', 'options.py'), parser('--kl-coef', '-k'));
  write(join(root, 'framework', 'utils.py'), 'def helper():\n    return 1\n');
  write(join(root, '.hidden', 'secret.py'), parser('--hidden-flag'));
  write(join(root, 'node_modules', 'pkg', 'x.py'), parser('--node-modules-flag'));
  write(join(root, '.venv', 'lib', 'site.py'), parser('--venv-flag'));
  write(join(root, 'venv', 'lib', 'site.py'), parser('--venv-flag-2'));
  write(join(root, 'lib', 'site-packages', 'dep', 'cli.py'), parser('--site-packages-flag'));
  write(join(root, 'build', 'lib', 'copy.py'), parser('--build-flag'));
  write(join(root, 'dist', 'copy.py'), parser('--dist-flag'));
  write(join(root, 'framework', '__pycache__', 'args.py'), parser('--cache-flag'));
  write(join(outside, 'other.py'), parser('--outside-flag'));
  // A loop back to the root, a link to a folder and to a file out of it, and a link to a folder inside.
  symlinkSync('..', join(root, 'framework', 'loop'));
  symlinkSync(outside, join(root, 'out'));
  symlinkSync(join(outside, 'other.py'), join(root, 'other.py'));
  symlinkSync(join(root, 'framework', 'rl'), join(root, 'rl-link'));
  return { root, outside };
}

describe('the root of a file', () => {
  test('the nearest folder holding .git, a folder or a file', () => {
    const { root } = repository();
    assert.equal(repositoryRoot(join(root, 'framework', 'rl', 'ppo', 'run.sh'), base), root);
    const sub = join(root, 'third_party', 'Megatron-LM');
    write(join(sub, '.git'), 'gitdir: ../../.git/modules/Megatron-LM\n');
    assert.equal(repositoryRoot(join(sub, 'examples', 'train.sh'), base), sub);
  });

  test('without .git, the farthest folder with a project file; never the home folder or above it', () => {
    const top = join(base, `case-${serial++}`);
    write(join(top, 'proj', 'setup.py'), '');
    write(join(top, 'proj', 'pkg', 'requirements.txt'), '');
    assert.equal(repositoryRoot(join(top, 'proj', 'pkg', 'scripts', 'run.sh'), base), join(top, 'proj'));
    // The home folder's own .git (a dotfiles repository) is not the repository of a file under it.
    const home = join(base, `home-${serial++}`);
    mkdirSync(join(home, '.git'), { recursive: true });
    write(join(home, 'work', 'run.sh'), '');
    assert.equal(repositoryRoot(join(home, 'work', 'run.sh'), home), undefined);
    assert.equal(repositoryRoot(join(home, 'run.sh'), home), undefined);
  });
});

describe('the index', () => {
  test('reads every .py file under the root, skipping hidden folders, environments, build output and links out of the root', () => {
    const { root } = repository();
    const f = new RepositoryWalk(root).run().flags;
    assert.deepEqual([...f.flags].sort(), ['--kl-coef', '--my-framework-flag', '--rollout-batch-size', '-k']);
    // train.py, framework/args.py, framework/utils.py, framework/rl/ppo/options.py (once, though rl-link leads there too).
    assert.equal(f.files, 4);
    assert.equal(f.withParsers, 2);
    assert.deepEqual(f.parsers, ['framework/args.py', 'framework/rl/ppo/options.py']);
    assert.equal(f.complete, true);
    assert.equal(f.incomplete, undefined);
    assert.equal(f.root, root);
  });

  test('through ProjectConfigs, a file of the repository gets the flags as a setting', () => {
    const { root } = repository();
    const configs = new ProjectConfigs(new RepositoryIndexes({ home: base }));
    const settings = configs.located(join(root, 'scripts', 'run.sh'));
    assert.ok(settings.repositoryFlags?.flags.includes('--my-framework-flag'));
    assert.equal(configs.located(join(base, 'nowhere', 'run.sh')).repositoryFlags, undefined);
  });

  test('arguments the repository\'s own program sets on the parsed namespace lose Megatron\'s default; Megatron\'s package, tests and tools do not count', () => {
    const top = join(base, `case-${serial++}`);
    const root = join(top, 'repo');
    mkdirSync(join(root, '.git'), { recursive: true });
    // A framework that forces the distributed optimizer on, as slime's argument code does.
    write(join(root, 'framework', 'arguments.py'), 'def set_defaults(args):\n    # always use the distributed optimizer\n    args.use_distributed_optimizer = True\n    if args.x == 1:\n        args.bf16 = not args.fp16\n');
    write(join(root, 'megatron', 'training', 'arguments.py'), 'def validate_args(args):\n    args.sequence_parallel = False\n');
    write(join(root, 'tests', 'test_args.py'), 'args.overlap_grad_reduce = True\n');
    write(join(root, 'tools', 'convert.py'), 'args.tensor_model_parallel_size = 1\n');
    const f = new RepositoryWalk(root).run().flags;
    assert.deepEqual([...(f.argsSet ?? [])], ['bf16', 'use_distributed_optimizer']);
    const settings = new ProjectConfigs(new RepositoryIndexes({ home: base })).located(join(root, 'scripts', 'run.sh'));
    const script = '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --overlap-grad-reduce \\\n    --use-precision-aware-optimizer\n';
    const codes = (s: typeof settings) => analyze({ path: join(root, 'scripts', 'run.sh'), text: script }, { ...s, targetVersions: { 'megatron-core': '0.19.0' } }).findings.map((x) => x.code);
    assert.ok(!codes(settings).includes('precision-aware-optimizer-invalid'), 'the program turns the distributed optimizer on');
    assert.ok(codes({ ...settings, repositoryFlags: undefined }).includes('precision-aware-optimizer-invalid'), 'without the repository, the default (off) applies');
  });

  test('the DeepSpeed config keys the repository\'s own code reads, with a file that reads each, from files that name DeepSpeed only', () => {
    const top = join(base, `case-${serial++}`);
    const root = join(top, 'repo');
    mkdirSync(join(root, '.git'), { recursive: true });
    // A wrapper's DeepSpeedConfig subclass, as MS-AMP's msamp/deepspeed/runtime/config.py reads its section.
    write(join(root, 'fp8', 'deepspeed', 'config.py'), "from deepspeed.runtime.config import DeepSpeedConfig\nFP8 = 'fp8lib'\nFP8_LEVEL = 'opt_level'\n\nclass Config(DeepSpeedConfig):\n    def _initialize_params(self, param_dict):\n        self.level = get_scalar_param(param_dict.get(FP8, {}), FP8_LEVEL, 'O1')\n");
    write(join(root, 'train.py'), 'import deepspeed\n\ndef run(ds_config):\n    if "curriculum_plus" in ds_config:\n        ds_config.pop("my_launcher_key")\n    return ds_config["fp8lib"]\n');
    // Code that never names DeepSpeed reads another config.
    write(join(root, 'model.py'), 'def build(config):\n    return config["tensorbord"]\n');
    // Code that names DeepSpeed but reads another config, by a name that says so.
    write(join(root, 'hf.py'), 'import deepspeed\nhidden = model_config["hidden_size"]\nsteps = training_cfg.get("gradient_accumulation", 1)\n');
    const reads = new RepositoryWalk(root).run().flags.deepspeedReads;
    assert.deepEqual(reads, [
      { key: 'curriculum_plus', file: 'train.py' },
      // Named by the first file the walk reads (a folder's files before its subfolders).
      { key: 'fp8lib', file: 'train.py' },
      { key: 'my_launcher_key', file: 'train.py' },
      { key: 'opt_level', file: 'fp8/deepspeed/config.py' },
    ]);
  });

  test('each bound, when reached, makes the index incomplete and says which', () => {
    const { root } = repository();
    const walk = (limits: Partial<RepositoryLimits>, now?: () => number) => new RepositoryWalk(root, { ...REPOSITORY_LIMITS, ...limits }, now).run().flags;
    const files = walk({ files: 2 });
    assert.equal(files.complete, false);
    assert.equal(files.files, 2);
    assert.match(files.incomplete!, /stops after 2 Python files/);
    assert.match(walk({ folders: 2 }).incomplete!, /stops after 2 folders/);
    assert.match(walk({ depth: 1 }).incomplete!, /more than 1 levels deep/);
    assert.match(walk({ fileBytes: 64 }).incomplete!, /2 Python files over 64 bytes were not read/);
    const bytes = walk({ bytes: 200 });
    assert.match(bytes.incomplete!, /stops after 200 bytes of Python/);
    assert.ok(bytes.files < 4);
    // A clock that moves one second per look: the walk stops at its time bound.
    let t = 0;
    const slow = walk({ ms: 3_000 }, () => (t += 1_000));
    assert.match(slow.incomplete!, /stops after 3 s/);
  });

  test('an unreadable file or folder is counted, and the index says so', { skip: process.getuid?.() === 0 ? 'root reads everything' : false }, () => {
    const { root } = repository();
    const locked = join(root, 'framework', 'utils.py');
    chmodSync(locked, 0o000);
    try {
      const f = new RepositoryWalk(root).run().flags;
      assert.equal(f.complete, false);
      assert.match(f.incomplete!, /1 file or folder could not be read/);
      assert.ok(f.flags.includes('--my-framework-flag'));
    } finally {
      chmodSync(locked, 0o644);
    }
  });

  test('a root that is not there gives an empty, incomplete index', () => {
    const f = new RepositoryWalk(join(base, 'missing-root')).run().flags;
    assert.deepEqual([f.files, f.complete], [0, false]);
  });
});

describe('cache and invalidation', () => {
  test('the CLI walks a root once per run', () => {
    const { root } = repository();
    const indexes = new RepositoryIndexes({ home: base });
    const a = indexes.forFile(join(root, 'a.sh'));
    write(join(root, 'framework', 'more.py'), parser('--added-later'));
    const b = indexes.forFile(join(root, 'framework', 'b.sh'));
    assert.equal(a, b);
    assert.equal(indexes.walks, 1);
  });

  test('the language server walks in slices, answers nothing before it is prepared, and shares one walk', async () => {
    const { root } = repository();
    const indexes = new RepositoryIndexes({ home: base, background: true, limits: { sliceMs: 0 } });
    const file = join(root, 'run.sh');
    assert.equal(indexes.forFile(file), undefined);
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    await Promise.all([indexes.prepare(file), indexes.prepare(join(root, 'framework', 'x.sh'))]);
    clearInterval(ticking);
    assert.equal(indexes.walks, 1);
    assert.ok(indexes.forFile(file)?.flags.includes('--kl-coef'));
    // The event loop turned while the walk ran (sliceMs 0: one folder or file per turn).
    assert.ok(turns > 0);
  });

  test('a changed parser is read again alone; the roots whose flags changed are reported', async () => {
    const { root } = repository();
    const indexes = new RepositoryIndexes({ home: base, background: true });
    const file = join(root, 'run.sh');
    await indexes.prepare(file);
    const before = indexes.forFile(file)!;
    // The same flags: nothing to check again.
    write(join(root, 'framework', 'args.py'), `# a comment\n${parser('--my-framework-flag', '--rollout-batch-size')}`);
    assert.deepEqual(indexes.fileChanged(join(root, 'framework', 'args.py')), []);
    // A flag added to a file that had none.
    write(join(root, 'framework', 'utils.py'), parser('--utils-flag'));
    assert.deepEqual(indexes.fileChanged(join(root, 'framework', 'utils.py')), [root]);
    const after = indexes.forFile(file)!;
    assert.notEqual(after, before);
    assert.ok(after.flags.includes('--utils-flag'));
    assert.equal(after.withParsers, 3);
    assert.equal(indexes.walks, 1);
    // Files in skipped folders, and other files, change nothing.
    assert.deepEqual(indexes.fileChanged(join(root, '.hidden', 'secret.py')), []);
    assert.deepEqual(indexes.fileChanged(join(root, 'node_modules', 'pkg', 'x.py')), []);
    assert.deepEqual(indexes.fileChanged(join(root, 'framework', 'args.txt')), []);
    assert.deepEqual(indexes.fileChanged(join(base, 'elsewhere.py')), []);
  });

  test('a new or deleted Python file makes the root walk again before its next use', async () => {
    const { root } = repository();
    const indexes = new RepositoryIndexes({ home: base, background: true });
    const file = join(root, 'run.sh');
    await indexes.prepare(file);
    write(join(root, 'framework', 'new.py'), parser('--new-flag'));
    assert.deepEqual(indexes.fileChanged(join(root, 'framework', 'new.py')), [root]);
    await indexes.prepare(file);
    assert.equal(indexes.walks, 2);
    assert.ok(indexes.forFile(file)!.flags.includes('--new-flag'));
    unlinkSync(join(root, 'framework', 'rl', 'ppo', 'options.py'));
    assert.deepEqual(indexes.fileChanged(join(root, 'framework', 'rl', 'ppo', 'options.py')), [root]);
    await indexes.prepare(file);
    assert.equal(indexes.walks, 3);
    assert.ok(!indexes.forFile(file)!.flags.includes('--kl-coef'));
  });

  test('without a notification, a folder that changed is seen when the index is next used (at most every staleCheckMs)', async () => {
    const { root } = repository();
    let now = 1_000_000;
    const indexes = new RepositoryIndexes({ home: base, background: true, now: () => now });
    const file = join(root, 'run.sh');
    await indexes.prepare(file);
    write(join(root, 'framework', 'rl', 'unseen.py'), parser('--unseen-flag'));
    // The folder's modification time, moved on as a slow file system would show it.
    utimesSync(join(root, 'framework', 'rl'), new Date(), new Date(Date.now() + 5_000));
    await indexes.prepare(file);
    assert.equal(indexes.walks, 1, 'not compared again within staleCheckMs');
    now += REPOSITORY_LIMITS.staleCheckMs;
    await indexes.prepare(file);
    assert.equal(indexes.walks, 2);
    assert.ok(indexes.forFile(file)!.flags.includes('--unseen-flag'));
    // Nothing changed since: no new walk.
    now += REPOSITORY_LIMITS.staleCheckMs;
    await indexes.prepare(file);
    assert.equal(indexes.walks, 2);
  });
});
