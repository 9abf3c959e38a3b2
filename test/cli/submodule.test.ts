/**
 * The built CLI on temporary git repositories whose launch script runs a Megatron-LM git submodule
 * that is not checked out (as after a `git clone` without `--recurse-submodules`): git's index still
 * pins the submodule's commit. A commit that is one of NVIDIA/Megatron-LM's release tags names the
 * release the flags are judged by; any other commit, or the same commit of another repository,
 * names none, and nothing is judged by a release.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCli, type JsonFinding } from './run-cli';

const tmp = mkdtempSync(join(tmpdir(), 'shardwise-cli-submodule-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** NVIDIA/Megatron-LM's tag core_v0.15.0 (a release) and core_v0.15.0rc5 (a pre-release). */
const CORE_0_15_0 = '0d7e02bd26d3eb347ad8d1bef625002babfa6df7';
const CORE_0_15_0RC5 = '8479eb35fbca9631acb846c3ad5d868e02214227';
/** A commit that is no release tag's. */
const UNTAGGED = '2a75ac12c54ba6a42b34024756820bf819a2e25f';

/**
 * `--mtp-standalone` first appears in Megatron Core 0.16.0. `extra` adds a flag no Megatron-LM release
 * defines: a patched copy or an entry script that adds flags reads such a launch, so what upstream
 * refuses is then an assumption.
 */
const launch = (extra = '') => `#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 third_party/Megatron-LM/pretrain_gpt.py \\
    --tensor-model-parallel-size 2 --num-layers 4 --hidden-size 512 --num-attention-heads 8 \\
    --seq-length 1024 --max-position-embeddings 1024 --micro-batch-size 1 --global-batch-size 8 \\
    --mtp-standalone${extra} --bf16
`;

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, stdio: 'ignore' });
}

/** A repository with the launch script and a Megatron-LM submodule from `url` pinned at `commit`, not checked out. */
function repository(name: string, url: string, commit: string, script = launch()): string {
  const root = join(tmp, name);
  mkdirSync(join(root, 'scripts'), { recursive: true });
  git(root, 'init', '-q', '.');
  writeFileSync(join(root, '.gitmodules'), `[submodule "third_party/Megatron-LM"]\n\tpath = third_party/Megatron-LM\n\turl = ${url}\n`);
  writeFileSync(join(root, 'scripts', 'train.sh'), script);
  git(root, 'update-index', '--add', '--cacheinfo', `160000,${commit},third_party/Megatron-LM`);
  git(root, 'add', '.gitmodules', 'scripts');
  git(root, 'commit', '-q', '-m', 'init');
  // What a clone without --recurse-submodules leaves: an empty folder.
  mkdirSync(join(root, 'third_party', 'Megatron-LM'), { recursive: true });
  return root;
}

function check(root: string): { findings: JsonFinding[]; settings: string } {
  const r = runCli(['check', 'scripts/train.sh', '--output-format', 'json', '--show-info'], { cwd: root });
  const s = runCli(['check', '--show-settings', 'scripts/train.sh'], { cwd: root });
  return { findings: JSON.parse(r.out) as JsonFinding[], settings: s.out };
}

const rules = (f: JsonFinding[]) => f.map((x) => `${x.severity} ${x.code}`).sort();

test('a submodule pinned at a release tag is that release: a flag it does not have yet is an error, a flag Megatron-LM never had is not judged', () => {
  const { findings, settings } = check(repository('tagged', 'https://github.com/NVIDIA/Megatron-LM.git', CORE_0_15_0));
  assert.match(settings, /release: Megatron Core 0\.15\.0, the Megatron-LM at .*pinned at commit 0d7e02bd26, the commit of NVIDIA\/Megatron-LM's tag core_v0\.15\.0/);
  const added = findings.find((f) => f.code === 'version-unsupported-key');
  assert.ok(added, rules(findings).join(', '));
  assert.equal(added.severity, 'error');
  assert.match(added.message, /--mtp-standalone/);
  // Beside a flag no release has, the same finding rests on upstream running the launch: a warning that says so.
  const patched = check(repository('tagged-patched', 'https://github.com/NVIDIA/Megatron-LM.git', CORE_0_15_0, launch(' --a-flag-of-a-patched-copy'))).findings;
  const assumed = patched.find((f) => f.code === 'version-unsupported-key');
  assert.equal(assumed?.severity, 'warning', rules(patched).join(', '));
  assert.match(assumed?.message ?? '', /assumes upstream Megatron-LM runs this launch .*--a-flag-of-a-patched-copy/);
  assert.ok(!patched.some((f) => /a-flag-of-a-patched-copy/.test(f.message) && f.severity === 'error'), 'a flag upstream never had is no error');
  const note = findings.find((f) => f.code === 'fork-flags-not-checked');
  assert.match(note?.message ?? '', /Megatron Core 0\.15\.0's release tag/);
});

test('a submodule pinned at a pre-release tag is read as the release it leads to, as an assumption: a flag of a later release is still an error (no release the pre-release can be has it)', () => {
  const { findings, settings } = check(repository('pre-release', 'git@github.com:NVIDIA/Megatron-LM.git', CORE_0_15_0RC5));
  assert.match(settings, /release: Megatron Core 0\.15\.0rc5 \(assumed: /);
  const added = findings.find((f) => f.code === 'version-unsupported-key');
  assert.ok(added, rules(findings).join(', '));
  assert.equal(added.severity, 'error');
});

test('a submodule at a commit that is no release tag, or from a fork, names no release: nothing is judged by one', () => {
  for (const [name, url, commit] of [
    ['untagged', 'https://github.com/NVIDIA/Megatron-LM.git', UNTAGGED],
    ['fork', 'https://github.com/example/Megatron-LM.git', CORE_0_15_0],
  ] as const) {
    const { findings, settings } = check(repository(name, url, commit));
    assert.match(settings, /release: unknown: .*git submodule that is not checked out, pinned at a commit of /, name);
    assert.ok(!findings.some((f) => f.code === 'version-unsupported-key'), `${name}: ${rules(findings).join(', ')}`);
    assert.ok(findings.some((f) => f.code === 'fork-flags-not-checked'), name);
  }
});
