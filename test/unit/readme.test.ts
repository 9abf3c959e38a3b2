/**
 * README.md as a newcomer reads it: the first screen is for users (what it catches, with a picture,
 * then one install line per channel, each a channel the release workflow publishes to, then the
 * command line), and contributors get exactly two commands further down, the test one being what
 * CI runs.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const root = join(__dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; publisher: string; version: string };
const workflow = readFileSync(join(root, '.github', 'workflows', 'release.yml'), 'utf8');
const at = (text: string): number => {
  const i = readme.indexOf(text);
  assert.ok(i >= 0, `README has ${text}`);
  return i;
};
/** The section under a `## ` heading, up to the next one. */
const section = (heading: string): string => {
  const start = at(`\n## ${heading}\n`);
  const next = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, next < 0 ? undefined : next);
};
const shBlocks = (): string[][] =>
  [...readme.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1].split('\n').filter((l) => l.trim() && !l.startsWith('#')).map((l) => l.replace(/\s+#.*$/, '').trim()));

test('the first screen is for users: a picture of the editor, the install lines, the command line, then the details', () => {
  const picture = readme.match(/!\[[^\]]+\]\((images\/[\w-]+\.png)\)/);
  assert.ok(picture, 'a picture');
  assert.ok(picture.index! < at('\n## Install\n'), 'the picture comes before the install lines');
  assert.ok(at('\n## Install\n') < at('\n## Use\n') && at('\n## Use\n') < at('\n## What it catches\n'));
  assert.ok(readFileSync(join(root, picture[1])).subarray(1, 4).toString() === 'PNG', `${picture[1]} is a PNG`);
  assert.deepEqual(shBlocks()[0], ['shardwise check .'], 'the first command shown is the check of a folder');
  assert.ok(readme.indexOf('npm start') > at('\n## Development\n'), 'contributors\' commands are further down');
});

test('one install line per channel, each one the release workflow publishes to on a version tag', () => {
  const install = section('Install');
  const tag = `v${pkg.version}`;
  const channels: [string, RegExp][] = [
    ['npm install -g shardwise', /npm publish "release\/shardwise-/],
    ['pipx install shardwise', /pypa\/gh-action-pypi-publish@/],
    [`code --install-extension ${pkg.publisher}.${pkg.name}`, /vsce publish --packagePath/],
    ['Open VSX', /ovsx publish/],
    [`rev: ${tag}`, /pypa\/gh-action-pypi-publish@/], // the pre-commit hooks install the wheel of that release
    [`uses: shardwise/shardwise@${tag}`, /npm publish/], // the Action at that tag installs the npm package
    ['shardwise-language-server --stdio', /npm publish/],
  ];
  for (const [line, publisher] of channels) {
    assert.ok(install.includes(line), `the install section has ${line}`);
    assert.match(workflow, publisher, `${line}: the workflow publishes it`);
  }
  // The examples further down name the same release.
  for (const m of readme.matchAll(/(?:rev: |shardwise\/shardwise@)(v[\d.]+)/g)) assert.equal(m[1], tag, m[0]);
});

test('a newcomer gets exactly two commands, npm start and npm test, and CI runs the test command', () => {
  const withNpm = shBlocks().filter((b) => b.some((l) => /^npm (start|test)\b/.test(l)));
  assert.deepEqual(withNpm, [['npm start', 'npm test']]);
  const ci = readFileSync(join(root, '.ci', 'run'), 'utf8').split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'));
  assert.ok(ci.includes('npm test'), '.ci/run runs `npm test`');
});

test("the OS packages the README says npm start installs are the ones .ci/e2e-deps.sh installs for it, code-server's Kerberos headers among them", () => {
  const script = readFileSync(join(root, '.ci', 'e2e-deps.sh'), 'utf8');
  const start = /^start_packages=\(([^)]*)\)$/m.exec(script)?.[1].split(/\s+/).filter(Boolean);
  assert.ok(start, '.ci/e2e-deps.sh lists start_packages');
  assert.ok(start.includes('libkrb5-dev'), "code-server's kerberos module compiles against the Kerberos headers");
  const development = section('Development');
  for (const p of start) assert.ok(development.includes(`\`${p}\``), `README's Development names ${p}`);
});
