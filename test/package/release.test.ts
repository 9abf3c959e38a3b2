/**
 * The release: .github/workflows/release.yml publishes, on a version tag, the files one run of
 * scripts/release-dry-run.mjs built and checked, and nothing else; and that script, run here as
 * the workflow runs it, produces the npm package, the .vsix and the wheel, installs each from its
 * file and runs it on examples/ (with the Action's check step on the npm package).
 * The full dry run builds every package (about 30 s on two cores): it runs under CI=true or with
 * SHARDWISE_RELEASE_DRY_RUN=1, and is skipped with a notice otherwise. Run on its own by `npm test`
 * (it rewrites dist/ with the production bundles).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { parse } from 'yaml';
import { root } from './tree';

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
}
interface Job {
  needs?: string | string[];
  permissions?: Record<string, string>;
  environment?: { name: string };
  steps: Step[];
}
interface Workflow {
  on: { push: { tags: string[] } };
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
}

const workflow = parse(readFileSync(join(root, '.github', 'workflows', 'release.yml'), 'utf8')) as Workflow;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string; scripts: Record<string, string>; devDependencies: Record<string, string> };
const runs = (job: Job): string => job.steps.map((s) => s.run ?? '').join('\n');
const needs = (job: Job): string[] => [job.needs ?? []].flat();
type DryRun = {
  dryRun(o: { out: string; tag?: string; log?: (line: string) => void }): Promise<{ version: string; tgz: string; vsix: string; whl: string }>;
  releaseNotes(changelog: string, version: string): string | undefined;
};
const script = (): Promise<DryRun> => import(join(root, 'scripts', 'release-dry-run.mjs')) as Promise<DryRun>;

test('the workflow runs on version tags only, with no permission unless a job asks for it', () => {
  assert.deepEqual(workflow.on, { push: { tags: ['v*'] } });
  assert.deepEqual(workflow.permissions, {});
});

test('one job builds, with the dry run script, and every other job publishes what it uploaded', () => {
  const { build, ...publishers } = workflow.jobs;
  assert.ok(build, 'a job named build');
  assert.match(runs(build), /^node scripts\/release-dry-run\.mjs --out release --tag "\$GITHUB_REF_NAME"$/m, 'the build is the dry run, with the tag to check against package.json');
  assert.equal(pkg.scripts['release:dry-run'], 'node scripts/release-dry-run.mjs', 'npm run release:dry-run is the same script');
  const upload = build.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
  assert.equal(upload?.with?.path, 'release/');
  assert.deepEqual(build.permissions, { contents: 'read' });
  for (const [name, job] of Object.entries(publishers)) {
    assert.ok(needs(job).length > 0, `${name} waits for the build`);
    const download = job.steps.find((s) => s.uses?.startsWith('actions/download-artifact@'));
    assert.equal(download?.with?.name, upload?.with?.name, `${name} takes the build's artifact`);
    // Nothing is built twice: a publishing job packs and builds nothing of its own.
    assert.doesNotMatch(runs(job), /npm (run|pack)|build\.mjs|wheel\.mjs|vsce package|python3? -m build/, name);
  }
});

test('each registry gets its file of the build, by the means it trusts', () => {
  const { npm, vscode, pypi, github } = workflow.jobs;
  assert.match(runs(npm), /^npm publish "release\/shardwise-\$\{GITHUB_REF_NAME#v\}\.tgz" --provenance --access public$/m);
  assert.equal(npm.permissions?.['id-token'], 'write', 'provenance needs the OIDC token');
  assert.match(runs(vscode), /npx --no-install vsce publish --packagePath "release\/shardwise-\$\{GITHUB_REF_NAME#v\}\.vsix"/);
  assert.match(runs(vscode), /npx --no-install ovsx publish "release\/shardwise-\$\{GITHUB_REF_NAME#v\}\.vsix"/);
  // `--no-install`: the publishing tools are the ones package-lock.json pins, never fetched at publish time.
  for (const tool of ['@vscode/vsce', 'ovsx']) assert.match(pkg.devDependencies[tool] ?? '', /^\d+\.\d+\.\d+$/, `${tool} is pinned exactly`);
  const vsceStep = vscode.steps.find((s) => /vsce publish/.test(s.run ?? ''));
  const ovsxStep = vscode.steps.find((s) => /ovsx publish/.test(s.run ?? ''));
  assert.equal(vsceStep?.env?.VSCE_PAT, '${{ secrets.VSCE_PAT }}');
  assert.equal(ovsxStep?.env?.OVSX_PAT, '${{ secrets.OVSX_PAT }}');
  const upload = pypi.steps.find((s) => s.uses?.startsWith('pypa/gh-action-pypi-publish@'));
  assert.ok(upload, 'PyPI through pypa/gh-action-pypi-publish');
  assert.equal(upload.with?.password, undefined, 'trusted publishing: no token');
  assert.equal(pypi.permissions?.['id-token'], 'write');
  assert.equal(pypi.environment?.name, 'pypi');
  assert.match(runs(pypi), /mv release\/\*\.whl pypi\//, 'the upload folder holds the wheel alone');
  assert.deepEqual(needs(github).sort(), ['npm', 'pypi', 'vscode'], 'the GitHub release comes last, once every registry has its file');
  assert.equal(github.permissions?.contents, 'write');
  assert.match(runs(github), /gh release create "\$GITHUB_REF_NAME" .*--notes-file release\/release-notes\.md release\/\*\.tgz release\/\*\.vsix release\/\*\.whl release\/SHA256SUMS/s);
});

test('the release notes are the CHANGELOG section of the version, and a tag of another version stops the release', async () => {
  const { dryRun, releaseNotes } = await script();
  const notes = releaseNotes('# Changelog\n\n## 0.2.0\n\nNew.\n\n## 0.1.0\n\nFirst.\n', '0.1.0');
  assert.equal(notes, 'First.');
  assert.equal(releaseNotes('# Changelog\n\n## 0.10.0\n\nx\n', '0.1.0'), undefined);
  assert.ok(releaseNotes(readFileSync(join(root, 'CHANGELOG.md'), 'utf8'), pkg.version), `CHANGELOG.md has a section for ${pkg.version}`);
  const out = mkdtempSync(join(tmpdir(), 'shardwise-release-tag-'));
  after(() => rmSync(out, { recursive: true, force: true }));
  await assert.rejects(dryRun({ out, tag: 'v999.0.0', log: () => {} }), new RegExp(`the tag v999\\.0\\.0 is not v${pkg.version.replace(/\./g, '\\.')}`));
  assert.deepEqual(readdirSync(out), [], 'nothing was built');
});

const enabled = process.env.CI === 'true' || process.env.SHARDWISE_RELEASE_DRY_RUN === '1';
test('the dry run builds every package, installs each from its file and runs it on examples/', { skip: enabled ? false : 'the release dry run is slow: set SHARDWISE_RELEASE_DRY_RUN=1 (CI=true runs it)' }, async () => {
  const { dryRun } = await script();
  const out = mkdtempSync(join(tmpdir(), 'shardwise-release-'));
  after(() => rmSync(out, { recursive: true, force: true }));
  const lines: string[] = [];
  const started = Date.now();
  const result = await dryRun({ out, tag: `v${pkg.version}`, log: (l) => lines.push(l) });
  const seconds = (Date.now() - started) / 1000;
  const v = pkg.version;
  assert.deepEqual(readdirSync(out).sort(), ['SHA256SUMS', `shardwise-${v}-py3-none-any.whl`, `shardwise-${v}.tgz`, `shardwise-${v}.vsix`, 'release-notes.md'].sort());
  for (const f of [result.tgz, result.vsix, result.whl]) assert.ok(existsSync(f));
  const sums = readFileSync(join(out, 'SHA256SUMS'), 'utf8').trim().split('\n');
  assert.equal(sums.length, 3);
  // Each install ran and reported: the log says so, one line per kind of install.
  for (const what of [/npm install --global .*shardwise check examples\/ → shardwise: \d+ config files checked/, /pip install .*the same findings/, /\.vsix unpacked: its language server publishes \d+ diagnostics/, /action\.yml's check step on the npm package: \d+ annotations/]) {
    assert.ok(lines.some((l) => what.test(l)), `${what}: ${lines.join('\n')}`);
  }
  console.log(`release dry run: ${seconds.toFixed(1)} s`);
});
