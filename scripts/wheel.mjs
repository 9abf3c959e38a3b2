#!/usr/bin/env node
// Builds the Python wheel (python/): the production bundles of the CLI and the language server,
// staged with LICENSE and the version of package.json into a copy of python/, then built offline by
// a Python that has `build`, `setuptools` (61 or newer) and `wheel` (`python -m build --no-isolation`,
// so nothing is fetched). The wheel is pure Python: py3-none-any.
//   node scripts/wheel.mjs [--out-dir DIR]      (default python/dist; the staging copy is python/build/)
// SHARDWISE_PYTHON names the Python to build with; otherwise /usr/bin/python3, then python3.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** package.json's version, which the wheel carries; only X.Y.Z, which PEP 440 reads the same. */
export function packageVersion() {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  if (!/^\d+\.\d+\.\d+$/.test(version)) {
    throw new Error(`package.json's version ${JSON.stringify(version)} is not X.Y.Z: a wheel's version is PEP 440 (a pre-release is written 1.2.0rc1 there), so map it in scripts/wheel.mjs before building`);
  }
  return version;
}

/** What each need imports, and the Debian packages that provide it. */
const needed = {
  build: { probe: 'import build, wheel, setuptools; assert int(setuptools.__version__.split(".")[0]) >= 61, "setuptools " + setuptools.__version__ + " is older than 61"', debian: 'python3-build python3-setuptools python3-wheel' },
  venv: { probe: 'import venv, ensurepip', debian: 'python3-venv' },
};

/**
 * The first Python that can do each of `needs` (`build`: build a wheel offline; `venv`: make a venv
 * with pip), as `{ python }`, or `{ problem }` saying what each candidate lacks.
 */
export function findPython(needs = ['build']) {
  const candidates = process.env.SHARDWISE_PYTHON ? [process.env.SHARDWISE_PYTHON] : ['/usr/bin/python3', 'python3'];
  const problems = [];
  for (const python of candidates) {
    const r = spawnSync(python, ['-c', needs.map((n) => needed[n].probe).join('; ')], { encoding: 'utf8' });
    if (r.status === 0) return { python };
    const last = r.error ? r.error.message : (r.stderr.trim().split('\n').pop() ?? `exit status ${r.status}`);
    problems.push(`${python}: ${last}`);
  }
  return { problem: `no Python here can ${needs.join(' and ')} (${problems.join('; ')}); on Debian/Ubuntu: apt-get install ${needs.map((n) => needed[n].debian).join(' ')}` };
}

function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...options });
  if (r.status !== 0) throw new Error(`${[cmd, ...args].join(' ')} failed (${r.error?.message ?? `exit status ${r.status}`})`);
}

/**
 * Builds the wheel into `outDir` and returns its path. `build: false` packs the production bundles
 * dist/ already holds (the release's one build) instead of building them again.
 */
export function buildWheel(outDir = join(root, 'python', 'dist'), { build = true } = {}) {
  const version = packageVersion();
  const { python, problem } = findPython(['build']);
  if (!python) throw new Error(problem);
  if (build) run(process.execPath, [join(root, 'scripts', 'build.mjs'), '--production'], { cwd: root });

  const stage = join(root, 'python', 'build', 'stage');
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  for (const f of ['pyproject.toml', 'README.md', 'src']) cpSync(join(root, 'python', f), join(stage, f), { recursive: true });
  copyFileSync(join(root, 'LICENSE'), join(stage, 'LICENSE'));
  const pkg = join(stage, 'src', 'shardwise');
  writeFileSync(join(pkg, '_version.py'), `# Written by scripts/wheel.mjs from package.json.\n__version__ = ${JSON.stringify(version)}\n`);
  mkdirSync(join(pkg, 'js'));
  copyFileSync(join(root, 'dist', 'cli', 'main.js'), join(pkg, 'js', 'cli.js'));
  copyFileSync(join(root, 'dist', 'server', 'main.js'), join(pkg, 'js', 'server.js'));

  mkdirSync(outDir, { recursive: true });
  run(python, ['-m', 'build', '--no-isolation', '--wheel', '--outdir', outDir, stage], { cwd: stage });
  const wheel = join(outDir, `shardwise-${version}-py3-none-any.whl`);
  if (!existsSync(wheel)) throw new Error(`the build left no ${wheel}`);
  return wheel;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--out-dir');
  if ((at >= 0 && !args[at + 1]) || args.some((a, i) => a !== '--out-dir' && i !== at + 1)) {
    console.error('usage: node scripts/wheel.mjs [--out-dir DIR]');
    process.exit(2);
  }
  try {
    const wheel = buildWheel(at >= 0 ? resolve(args[at + 1]) : undefined);
    console.log(`wheel: ${wheel} (${(statSync(wheel).size / 1048576).toFixed(2)} MB)`);
  } catch (e) {
    console.error(`wheel: ${e.message}`);
    process.exit(1);
  }
}
