#!/usr/bin/env node
// Offline checks of a packaged .vsix against what the VS Code Marketplace and Open VSX accept, so
// that `vsce publish` and `ovsx publish` fail on nothing this machine could have seen.
//
//   node scripts/check-vsix.mjs [shardwise.vsix] [--namespace shardwise]
//
// Open VSX takes the same .vsix as the Marketplace (`ovsx publish shardwise.vsix`); `ovsx` has no
// packaging step of its own and checks almost nothing before uploading: the registry does. The
// checks marked `open-vsx` follow the registry's server (eclipse/openvsx: ExtensionValidator,
// ExtensionProcessor, PublishExtensionVersionHandler, ExtensionService): the namespace is the
// vsixmanifest's Publisher, names match [\w\-+$~]+, the version is semantic and not reserved,
// text fields hold no control characters and stay under 255 characters (description 2048,
// banner color 16), homepage/repository/bugs are URLs with a host, galleryBanner.theme is dark or
// light, and open-vsx.org refuses an extension without a license (a `license` or a LICENSE file).
// What only the registry can answer is left to publishing: whether the namespace exists and the
// token may publish to it, whether this version is already published, whether the dependencies
// exist.
// The checks marked `marketplace`, `vsce` and `vscode` are the Marketplace's tag limit, what vsce
// asks about or refuses (`*` activation, no repository, the engine range, SVG or relative images),
// and VS Code's list of categories; `listing` marks what Shardwise's own listing is held to (an
// icon of 128 pixels or more, a banner, https homepage and issue links), which neither registry
// requires.

import { createRequire } from 'node:module';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
// vsce's own zip reader and XML parser, resolved as vsce resolves them (both are its dependencies).
const vsceRequire = createRequire(require.resolve('@vscode/vsce/package.json'));
const yauzl = vsceRequire('yauzl');
const xml2js = vsceRequire('xml2js');

/** The Open VSX namespace Shardwise publishes to; it must be the manifest's publisher. */
export const OPEN_VSX_NAMESPACE = 'shardwise';

/**
 * VS Code's extension categories (EXTENSION_CATEGORIES in vs/platform/extensions/common/extensions.ts,
 * as of VS Code 1.139); the Marketplace files an extension under these only.
 */
export const VSCODE_CATEGORIES = [
  'AI',
  'Azure',
  'Chat',
  'Data Science',
  'Debuggers',
  'Extension Packs',
  'Education',
  'Formatters',
  'Keymaps',
  'Language Packs',
  'Linters',
  'Machine Learning',
  'Notebooks',
  'Programming Languages',
  'SCM Providers',
  'Snippets',
  'Testing',
  'Themes',
  'Visualization',
  'Other',
];

/**
 * The Marketplace refuses a publish with more tags (keywords plus the ones vsce derives from
 * languages, grammars and JSON validation; hidden `__` tags excepted): "You exceeded the number of
 * allowed tags of 10" from January 2023 (microsoft/vsmarketplace#569); the docs now say 30.
 * Staying within 10 passes both.
 */
export const MAX_TAGS = 10;

const NAME = /^[\w\-+$~]+$/; // Open VSX: namespace and extension names
const MAX_STRING = 255;
const MAX_DESCRIPTION = 2048;
const MAX_GALLERY_COLOR = 16;
const MAX_VSIX_BYTES = 512 * 1024 * 1024; // Open VSX refuses larger uploads
const RESERVED_VERSIONS = ['latest', 'pre-release', 'reviews'];
const TARGET_PLATFORMS = ['win32-x64', 'win32-ia32', 'win32-arm64', 'linux-x64', 'linux-arm64', 'linux-armhf', 'alpine-x64', 'alpine-arm64', 'darwin-x64', 'darwin-arm64', 'web', 'universal'];
// semver.org's regular expression (Open VSX parses versions as semantic versions).
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;
// vsce's validateEngineCompatibility.
const ENGINE = /^\*$|^(\^|>=)?((\d+)|x)\.((\d+)|x)\.((\d+)|x)(-.*)?$/;
// Open VSX's checkCharacters: control, format, unassigned, private-use, line and paragraph separators.
const BAD_CHARACTER = /[\p{Cc}\p{Cf}\p{Cn}\p{Co}\p{Zl}\p{Zp}]/u;
const LICENSE_FILES = ['extension/LICENSE.md', 'extension/LICENSE', 'extension/LICENSE.txt'];
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

// ---------- reading ----------

/** Every entry of a zip file, by its name as stored. */
export function readZipEntries(file) {
  return new Promise((resolveEntries, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const entries = new Map();
      zip.on('error', reject);
      zip.on('end', () => resolveEntries(entries));
      zip.on('entry', (entry) => {
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        zip.openReadStream(entry, (streamErr, stream) => {
          if (streamErr) return reject(streamErr);
          const chunks = [];
          stream.on('data', (c) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

/** The vsixmanifest's metadata as plain values. */
export async function parseVsixManifest(text) {
  const xml = await xml2js.parseStringPromise(text);
  const m = xml?.PackageManifest?.Metadata?.[0] ?? {};
  const textOf = (node) => (node === undefined ? undefined : typeof node === 'string' ? node : node._ ?? '');
  const list = (node) => (textOf(node) ? textOf(node).split(',') : []);
  const identity = m.Identity?.[0]?.$ ?? {};
  const properties = {};
  for (const p of m.Properties?.[0]?.Property ?? []) properties[p.$.Id] = p.$.Value;
  return {
    publisher: identity.Publisher,
    name: identity.Id,
    version: identity.Version,
    targetPlatform: identity.TargetPlatform,
    displayName: textOf(m.DisplayName?.[0]),
    description: textOf(m.Description?.[0]),
    tags: list(m.Tags?.[0]),
    categories: list(m.Categories?.[0]),
    icon: textOf(m.Icon?.[0]),
    properties,
  };
}

/** { file, bytes, entries, manifest (vsixmanifest metadata), packageJson } of a .vsix. */
export async function readVsix(file) {
  const entries = await readZipEntries(file);
  const xml = entries.get('extension.vsixmanifest');
  const pkg = entries.get('extension/package.json');
  return {
    file,
    bytes: statSync(file).size,
    entries,
    manifest: xml ? await parseVsixManifest(xml.toString('utf8')) : undefined,
    packageJson: pkg ? JSON.parse(pkg.toString('utf8')) : undefined,
  };
}

// ---------- checks ----------

/** Width and height from a PNG's IHDR chunk, or undefined when `buf` is not a PNG. */
export function pngSize(buf) {
  if (!buf || buf.length < 24 || !buf.subarray(0, 8).equals(PNG_SIGNATURE) || buf.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

/**
 * Links and images of a Markdown text: inline `[t](url)` / `![t](url)`, reference definitions
 * `[id]: url`, and HTML `<img src>` / `<a href>`. Returns [{ url, image }].
 */
export function markdownLinks(text) {
  const out = [];
  const inline = /(!?)\[(?:[^\]\[]|!\[[^\]\[]*\]\([^)]*\))*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
  for (const m of text.matchAll(inline)) out.push({ url: m[2], image: m[1] === '!' });
  // Inline links inside an image's alt text, e.g. [![alt](img)](link), are found by the pass above
  // only for the outer link; look inside the brackets too.
  for (const m of text.matchAll(/!\[[^\]\[]*\]\(\s*<?([^)\s>]+)>?[^)]*\)/g)) if (!out.some((l) => l.url === m[1] && l.image)) out.push({ url: m[1], image: true });
  const imageRefs = new Set([...text.matchAll(/!\[[^\]]*\]\[([^\]]*)\]/g)].map((m) => m[1].toLowerCase()));
  for (const m of text.matchAll(/^ {0,3}\[([^\]]+)\]:\s*<?(\S+?)>?(?:\s+["'(].*)?$/gm)) out.push({ url: m[2], image: imageRefs.has(m[1].toLowerCase()) });
  for (const m of text.matchAll(/<img\b[^>]*?\bsrc\s*=\s*["']([^"']+)["']/gi)) out.push({ url: m[1], image: true });
  for (const m of text.matchAll(/<a\b[^>]*?\bhref\s*=\s*["']([^"']+)["']/gi)) out.push({ url: m[1], image: false });
  return out;
}

function isUrlWithHost(value) {
  let v = value;
  if (v.startsWith('git+') && v.length > 4) v = v.slice(4);
  try {
    const url = new URL(v);
    return !(/^https?:$/.test(url.protocol) && !url.host);
  } catch {
    return false;
  }
}

/**
 * Every problem of a read .vsix ({ entries, manifest, packageJson, bytes }), as
 * [{ source, field, message }]; empty when both registries should accept it.
 */
export function checkPackage(vsix, { namespace = OPEN_VSX_NAMESPACE } = {}) {
  const problems = [];
  const add = (source, field, message) => problems.push({ source, field, message });
  const { entries, manifest: meta, packageJson: pkg } = vsix;

  if (!meta) add('open-vsx', 'extension.vsixmanifest', 'the archive has no extension.vsixmanifest');
  if (!pkg) add('open-vsx', 'package.json', 'the archive has no extension/package.json');
  if (vsix.bytes > MAX_VSIX_BYTES) add('open-vsx', 'size', `${vsix.bytes} bytes is over the 512 MB upload limit`);
  if (!meta || !pkg) return problems;

  // Identity: the namespace is the publisher; names, version, target platform.
  if (meta.publisher !== namespace) add('open-vsx', 'publisher', `the publisher is ${JSON.stringify(meta.publisher)}, but the Open VSX namespace is ${JSON.stringify(namespace)}: ovsx publishes into the namespace named by the publisher`);
  for (const [field, value] of [
    ['publisher', meta.publisher],
    ['name', meta.name],
  ]) {
    if (!value || value === '-' || !NAME.test(value)) add('open-vsx', field, `${JSON.stringify(value)} is not a valid name ([\\w-+$~]+)`);
    else if (value.length > MAX_STRING) add('open-vsx', field, `longer than ${MAX_STRING} characters`);
  }
  if (pkg.publisher !== meta.publisher || pkg.name !== meta.name || pkg.version !== meta.version) add('open-vsx', 'identity', `package.json says ${pkg.publisher}.${pkg.name}@${pkg.version}, the vsixmanifest ${meta.publisher}.${meta.name}@${meta.version}`);
  if (!meta.version || !SEMVER.test(meta.version)) add('open-vsx', 'version', `${JSON.stringify(meta.version)} is not a semantic version`);
  if (RESERVED_VERSIONS.includes(meta.version)) add('open-vsx', 'version', `${meta.version} is reserved`);
  if (meta.targetPlatform && !TARGET_PLATFORMS.includes(meta.targetPlatform)) add('open-vsx', 'targetPlatform', `unsupported target platform ${meta.targetPlatform}`);

  // Text fields.
  const text = (field, value, limit = MAX_STRING) => {
    if (value === undefined || value === null) return;
    if (BAD_CHARACTER.test(value)) add('open-vsx', field, `holds a control, format or private-use character: ${JSON.stringify(value)}`);
    if (value.length > limit) add('open-vsx', field, `is ${value.length} characters, over the limit of ${limit}`);
  };
  text('displayName', meta.displayName);
  text('description', meta.description, MAX_DESCRIPTION);
  for (const c of meta.categories) text('categories', c);
  for (const t of meta.tags) text('keywords', t);
  text('license', pkg.license);

  // Links: the vsixmanifest's Learn, Source and Support links are what Open VSX stores as
  // homepage, repository and bugs.
  for (const [field, id, fromManifest] of [
    ['homepage', 'Microsoft.VisualStudio.Services.Links.Learn', pkg.homepage],
    ['repository', 'Microsoft.VisualStudio.Services.Links.Source', pkg.repository],
    ['bugs', 'Microsoft.VisualStudio.Services.Links.Support', pkg.bugs],
  ]) {
    const value = meta.properties[id];
    if (!fromManifest || !value) {
      add(field === 'repository' ? 'vsce' : 'listing', field, `package.json has no ${field}: the registry pages link nowhere`);
      continue;
    }
    if (!isUrlWithHost(value)) add('open-vsx', field, `${JSON.stringify(value)} is not a URL with a host`);
    else if (!/^(git\+)?https:\/\//.test(value)) add('listing', field, `${value} is not an https URL`);
    if (value.length > MAX_STRING) add('open-vsx', field, `longer than ${MAX_STRING} characters`);
  }
  if (pkg.markdown !== undefined && !['github', 'standard'].includes(pkg.markdown)) add('open-vsx', 'markdown', `${pkg.markdown} is neither github nor standard`);
  if (pkg.qna !== undefined && pkg.qna !== false && !['marketplace', 'false'].includes(pkg.qna) && !isUrlWithHost(String(pkg.qna))) add('open-vsx', 'qna', `${pkg.qna} is neither marketplace, false nor a URL`);
  const color = meta.properties['Microsoft.VisualStudio.Services.Branding.Color'];
  const theme = meta.properties['Microsoft.VisualStudio.Services.Branding.Theme'];
  if (!color || !theme) add('listing', 'galleryBanner', 'galleryBanner needs a color and a theme');
  if (color !== undefined) {
    text('galleryBanner.color', color, MAX_GALLERY_COLOR);
    if (!/^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$/.test(color)) add('listing', 'galleryBanner.color', `${color} is not a #rgb or #rrggbb color`);
  }
  if (theme !== undefined && !['dark', 'light'].includes(theme)) add('open-vsx', 'galleryBanner.theme', `${theme} is neither dark nor light`);

  // License: open-vsx.org accepts no extension without one.
  if (!pkg.license && !LICENSE_FILES.some((f) => entries.has(f))) add('open-vsx', 'license', 'neither a license in package.json nor a LICENSE file in the package');

  // Dependencies are resolved by the registry; their form is checked here.
  for (const field of ['extensionDependencies', 'extensionPack']) {
    for (const dep of pkg[field] ?? []) if (!/^[^.]+\.[^.]+$/.test(dep)) add('open-vsx', field, `${dep} is not namespace.name`);
  }

  // What vsce asks about or refuses, and what VS Code reads.
  const engine = pkg.engines?.vscode;
  if (!engine || !ENGINE.test(engine)) add('vsce', 'engines.vscode', `${JSON.stringify(engine)} is not a VS Code version range`);
  if (engine === '*') add('vsce', 'engines.vscode', '"*" claims every VS Code version');
  if ((pkg.activationEvents ?? []).includes('*')) add('vsce', 'activationEvents', '"*" activates the extension on every start-up');
  if (pkg.main && !entries.has(`extension/${pkg.main.replace(/^\.\//, '')}`)) add('vscode', 'main', `${pkg.main} is not in the package`);
  for (const c of meta.categories) if (!VSCODE_CATEGORIES.includes(c)) add('vscode', 'categories', `${JSON.stringify(c)} is not one of VS Code's categories (${VSCODE_CATEGORIES.join(', ')})`);
  const tags = meta.tags.filter((t) => !t.startsWith('__'));
  if (tags.length > MAX_TAGS) add('marketplace', 'keywords', `${tags.length} tags (${tags.join(', ')}), over ${MAX_TAGS}: fewer keywords`);

  // Icon: a PNG in the package, named by the vsixmanifest.
  if (!pkg.icon) add('listing', 'icon', 'package.json has no icon');
  else {
    const path = `extension/${pkg.icon.replace(/^\.\//, '')}`;
    const size = pngSize(entries.get(path));
    if (!entries.has(path)) add('marketplace', 'icon', `${pkg.icon} is not in the package`);
    else if (!size) add('marketplace', 'icon', `${pkg.icon} is not a PNG`);
    else if (size.width !== size.height || size.width < 128) add('listing', 'icon', `${pkg.icon} is ${size.width}×${size.height}; a square of at least 128 pixels is needed`);
    if (meta.icon !== path) add('marketplace', 'icon', `the vsixmanifest names ${JSON.stringify(meta.icon)} as the icon, not ${path}`);
  }

  // README and CHANGELOG as packaged: the registries show them on a page of their own, where a
  // relative link leads nowhere; vsce rewrites relative links against `repository`.
  for (const [field, entry] of [
    ['README', 'extension/readme.md'],
    ['CHANGELOG', 'extension/changelog.md'],
  ]) {
    const buf = entries.get(entry);
    if (!buf) {
      add('marketplace', field, `the package has no ${entry}`);
      continue;
    }
    for (const { url, image } of markdownLinks(buf.toString('utf8'))) {
      if (url.startsWith('#') || /^mailto:/i.test(url)) {
        if (image) add('vsce', field, `image ${url} has no https source`);
        continue;
      }
      if (!/^https:\/\/[^/]/i.test(url)) add('vsce', field, `${image ? 'image' : 'link'} ${url} is not an absolute https URL`);
      else if (image && /\.svg(\?|#|$)/i.test(url)) add('vsce', field, `image ${url} is an SVG (the Marketplace shows PNG, JPEG or GIF)`);
    }
  }
  return problems;
}

/** Reads and checks a .vsix: { vsix, problems }. */
export async function checkVsix(file, options) {
  const vsix = await readVsix(file);
  return { vsix, problems: checkPackage(vsix, options) };
}

// ---------- command line ----------

async function main(argv) {
  let file = 'shardwise.vsix';
  let namespace = OPEN_VSX_NAMESPACE;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--namespace') namespace = argv[++i];
    else if (argv[i].startsWith('--namespace=')) namespace = argv[i].slice('--namespace='.length);
    else if (!argv[i].startsWith('-')) file = argv[i];
    else {
      console.error(`usage: node scripts/check-vsix.mjs [file.vsix] [--namespace ${OPEN_VSX_NAMESPACE}] (unknown option ${argv[i]})`);
      return 2;
    }
  }
  let result;
  try {
    result = await checkVsix(resolve(file), { namespace });
  } catch (err) {
    console.error(`check-vsix: cannot read ${file}: ${err.message}`);
    return 2;
  }
  const { vsix, problems } = result;
  const m = vsix.manifest;
  console.log(`${file}: ${m?.publisher}.${m?.name} ${m?.version}, ${vsix.entries.size} files, ${(vsix.bytes / 1024).toFixed(0)} KiB`);
  for (const [name, buf] of [...vsix.entries].sort(([a], [b]) => a.localeCompare(b))) console.log(`  ${name} (${buf.length} bytes)`);
  if (problems.length) {
    for (const p of problems) console.log(`✘ [${p.source}] ${p.field}: ${p.message}`);
    console.log(`check-vsix: ${problems.length} problem${problems.length === 1 ? '' : 's'}; fix them before publishing`);
    return 1;
  }
  console.log(`check-vsix: ok for the VS Code Marketplace and Open VSX (namespace ${namespace}).`);
  console.log('Not checked offline: that the namespace exists and your token may publish to it, that this version is new, that dependencies exist.');
  console.log(`Publish: npx vsce publish --packagePath ${file}   and   npx ovsx publish ${file} -p $OVSX_PAT`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then((code) => (process.exitCode = code));
}
