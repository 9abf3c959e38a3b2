/**
 * The extension as the VS Code Marketplace and Open VSX receive it: the manifest's listing fields,
 * the CHANGELOG entry of the version, the files `vsce` packs, README links that survive on a
 * registry page, and the packaged .vsix against scripts/check-vsix.mjs (the offline part of what
 * both registries validate). Reads dist/ (the unit layer runs after the build).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';

const root = join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const REPOSITORY = 'https://github.com/shardwise/shardwise';
const VSCE = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
const tmp = mkdtempSync(join(tmpdir(), 'shardwise-marketplace-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

interface Problem {
  source: string;
  field: string;
  message: string;
}
interface Vsix {
  bytes: number;
  entries: Map<string, Buffer>;
  manifest: { publisher: string; name: string; version: string; description: string; tags: string[]; categories: string[]; icon: string; properties: Record<string, string> };
  packageJson: Record<string, unknown> & { activationEvents?: string[] };
}
interface CheckVsix {
  OPEN_VSX_NAMESPACE: string;
  VSCODE_CATEGORIES: string[];
  MAX_TAGS: number;
  pngSize(buf: Buffer | undefined): { width: number; height: number } | undefined;
  markdownLinks(text: string): { url: string; image: boolean }[];
  readVsix(file: string): Promise<Vsix>;
  checkPackage(vsix: Vsix, options?: { namespace?: string }): Problem[];
}
const checker = (): Promise<CheckVsix> => import(pathToFileURL(join(root, 'scripts', 'check-vsix.mjs')).href) as Promise<CheckVsix>;

/** vsce with none of an outer `npm test`'s npm_* variables. */
async function vsce(...args: string[]) {
  const { npmFreeEnv } = (await import(pathToFileURL(join(root, 'scripts', 'npm-env.mjs')).href)) as { npmFreeEnv: () => NodeJS.ProcessEnv };
  const r = spawnSync(process.execPath, [VSCE, ...args], { cwd: root, env: npmFreeEnv(), encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, `vsce ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

function requireBundles() {
  for (const f of ['dist/client/extension.js', 'dist/server/main.js']) assert.ok(existsSync(join(root, f)), `${f} is missing: run \`node scripts/build.mjs\` first`);
}

test('the manifest has an icon: a square PNG of 128 or 256 pixels, rendered from the SVG beside it', async () => {
  const { pngSize } = await checker();
  assert.match(manifest.icon, /^images\/[\w-]+\.png$/);
  const file = join(root, manifest.icon);
  assert.ok(existsSync(file), `${manifest.icon} does not exist`);
  const size = pngSize(readFileSync(file));
  assert.ok(size, `${manifest.icon} is not a PNG (no PNG signature and IHDR chunk)`);
  assert.ok(size.width === size.height && [128, 256].includes(size.width), `${manifest.icon} is ${size.width}×${size.height}`);
  assert.ok(existsSync(file.replace(/\.png$/, '.svg')), 'the icon\'s SVG source is kept beside it');
});

test('the manifest links the repository, its README and its issues, and has a gallery banner', () => {
  assert.deepEqual(manifest.repository, { type: 'git', url: REPOSITORY });
  assert.match(manifest.homepage, new RegExp(`^${REPOSITORY}(#readme)?$`));
  assert.deepEqual(manifest.bugs, { url: `${REPOSITORY}/issues` });
  assert.match(manifest.galleryBanner?.color ?? '', /^#[0-9a-f]{6}$/i);
  assert.ok(['dark', 'light'].includes(manifest.galleryBanner?.theme), `galleryBanner.theme is ${manifest.galleryBanner?.theme}`);
  assert.ok(manifest.license && existsSync(join(root, 'LICENSE')), 'a license and its LICENSE file (Open VSX requires one)');
  assert.equal(manifest.publisher, 'shardwise', 'the publisher is the Open VSX namespace');
});

test('categories are VS Code categories; keywords are few and distinct; nothing activates on "*"', async () => {
  const { VSCODE_CATEGORIES, MAX_TAGS } = await checker();
  assert.ok(manifest.categories.length > 0);
  for (const c of manifest.categories) assert.ok(VSCODE_CATEGORIES.includes(c), `${c} is not a VS Code category`);
  assert.equal(new Set(manifest.categories).size, manifest.categories.length);
  const lower = manifest.keywords.map((k: string) => k.toLowerCase());
  assert.equal(new Set(lower).size, lower.length, `duplicate keywords: ${manifest.keywords}`);
  assert.ok(manifest.keywords.length > 0 && manifest.keywords.length <= MAX_TAGS);
  assert.ok(!manifest.activationEvents.includes('*'));
});

test('Restricted Mode and virtual workspaces are declared, and the description names the setting a workspace cannot set', () => {
  const trust = manifest.capabilities.untrustedWorkspaces;
  assert.equal(trust.supported, 'limited');
  assert.ok(trust.restrictedConfigurations.length > 0);
  for (const name of trust.restrictedConfigurations) assert.ok(trust.description.includes(`\`${name}\``), `the description does not name ${name}`);
  const virtual = manifest.capabilities.virtualWorkspaces;
  assert.equal(virtual.supported, 'limited');
  assert.ok(virtual.description.length > 20);
});

test('CHANGELOG.md has an entry for the version in package.json', () => {
  const text = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
  const escaped = manifest.version.replace(/\./g, '\\.');
  const heading = new RegExp(`^##\\s+\\[?v?${escaped}\\]?(\\s|$)`, 'm');
  const m = heading.exec(text);
  assert.ok(m, `no "## ${manifest.version}" heading in CHANGELOG.md`);
  const body = text.slice(m.index + m[0].length).split(/^##\s/m)[0]!;
  assert.match(body, /^\s*[-*] \S/m, `the ${manifest.version} entry lists nothing`);
});

test('vsce ls: the package holds exactly what the extension needs', async () => {
  requireBundles();
  const listed = (await vsce('ls', '--no-dependencies')).split('\n').map((l) => l.trim()).filter(Boolean).sort();
  const syntaxes = readdirSync(join(root, 'syntaxes')).map((f) => `syntaxes/${f}`);
  const expected = [
    'package.json',
    'README.md',
    'CHANGELOG.md',
    'LICENSE',
    'dist/client/extension.js',
    'dist/server/main.js',
    'docs/rules.md',
    'schemas/deepspeed.schema.json',
    manifest.icon,
    ...syntaxes,
  ].sort();
  assert.deepEqual(listed, expected);
  // Every file the manifest points at is among them.
  const strip = (p: string) => p.replace(/^\.\//, '');
  const referenced = [manifest.main, manifest.icon, ...manifest.contributes.grammars.map((g: { path: string }) => g.path), ...manifest.contributes.jsonValidation.map((j: { url: string }) => j.url)].map(strip);
  for (const r of referenced) assert.ok(listed.includes(r), `package.json points at ${r}, which is not packed`);
});

test('README: every link and image is one vsce rewrites to the repository, to a file that exists, and no image is an SVG', async () => {
  const { markdownLinks } = await checker();
  const text = readFileSync(join(root, 'README.md'), 'utf8');
  const links = markdownLinks(text);
  assert.ok(links.length > 0);
  // vsce rewrites inline Markdown links and images, and <img src> of plain path characters; not
  // reference definitions ([id]: path) nor <a href>.
  const rewritten = new Set([
    ...[...text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]),
    ...[...text.matchAll(/<img[^>]+src=["']([/.\w\s#-]+)['"][^>]*>/g)].map((m) => m[1]),
  ]);
  for (const { url, image } of links) {
    if (url.startsWith('#') || /^mailto:/i.test(url)) continue;
    if (image) assert.ok(!/\.svg(\?|#|$)/i.test(url), `image ${url} is an SVG: vsce refuses SVG images in a README`);
    if (/^https:\/\//.test(url)) continue;
    assert.ok(!/^[a-z][\w+.-]*:/i.test(url), `${url}: only https links work on a registry page`);
    assert.ok(rewritten.has(url), `${url} is written in a form vsce does not rewrite: use an inline [text](${url})`);
    const path = url.replace(/[#?].*$/, '');
    assert.ok(existsSync(join(root, path)), `${url} points at nothing in the repository`);
  }
});

test('the packaged .vsix passes the offline Marketplace and Open VSX checks, with absolute https links in its README', async () => {
  requireBundles();
  const { readVsix, checkPackage } = await checker();
  const file = join(tmp, 'shardwise.vsix');
  await vsce('package', '--no-dependencies', '-o', file);
  const vsix = await readVsix(file);
  assert.deepEqual(checkPackage(vsix), []);
  const readme = vsix.entries.get('extension/readme.md')!.toString('utf8');
  assert.match(readme, new RegExp(`\\]\\(${REPOSITORY}/blob/HEAD/docs/rules\\.md\\)`), 'README links are rewritten against the repository');
  assert.doesNotMatch(readme, /\]\((?!https:\/\/|#)[^)]+\)/, 'README keeps a relative link');
  assert.ok(vsix.entries.has(`extension/${manifest.icon}`));
});

test('the offline checks refuse what the registries refuse', async () => {
  const { readVsix, checkPackage } = await checker();
  const file = join(tmp, 'shardwise.vsix');
  if (!existsSync(file)) {
    requireBundles();
    await vsce('package', '--no-dependencies', '-o', file);
  }
  const packaged = await readVsix(file);
  /** The fields the checks find wrong in a changed copy of the packaged .vsix. */
  const fields = (mutate: (v: Vsix) => void, options?: { namespace?: string }) => {
    const v: Vsix = { ...packaged, entries: new Map(packaged.entries), manifest: structuredClone(packaged.manifest), packageJson: structuredClone(packaged.packageJson) };
    mutate(v);
    return checkPackage(v, options).map((p) => p.field);
  };
  assert.deepEqual(fields(() => {}), []);
  assert.ok(fields((v) => (v.manifest.properties['Microsoft.VisualStudio.Services.Branding.Theme'] = 'blue')).includes('galleryBanner.theme'));
  assert.ok(fields(() => {}, { namespace: 'someone-else' }).includes('publisher'));
  assert.ok(
    fields((v) => {
      delete v.packageJson.license;
      v.entries.delete('extension/LICENSE.txt');
    }).includes('license'),
  );
  assert.deepEqual(fields((v) => v.entries.delete('extension/LICENSE.txt')), [], 'a license in package.json is enough');
  assert.ok(fields((v) => (v.packageJson.activationEvents = ['*'])).includes('activationEvents'));
  assert.ok(fields((v) => (v.packageJson.engines = {})).includes('engines.vscode'));
  assert.ok(fields((v) => (v.manifest.version = 'latest')).includes('version'));
  assert.ok(fields((v) => (v.manifest.categories = ['Linting'])).includes('categories'));
  assert.ok(fields((v) => (v.manifest.tags = Array.from({ length: 11 }, (_, i) => `tag${i}`))).includes('keywords'));
  assert.ok(fields((v) => (v.manifest.properties['Microsoft.VisualStudio.Services.Links.Source'] = 'not a url')).includes('repository'));
  assert.ok(fields((v) => (v.manifest.description = 'a\u0007bell')).includes('description'));
  assert.ok(fields((v) => v.entries.set(`extension/${manifest.icon}`, Buffer.from('<svg/>'))).includes('icon'));
  assert.ok(fields((v) => v.entries.set('extension/readme.md', Buffer.from('![shot](images/shot.png)\n'))).includes('README'));
  assert.ok(fields((v) => v.entries.set('extension/readme.md', Buffer.from('See [rules](docs/rules.md).\n'))).includes('README'));
  assert.ok(fields((v) => v.entries.set('extension/readme.md', Buffer.from(`![logo](${REPOSITORY}/raw/HEAD/logo.svg)\n`))).includes('README'));
});
