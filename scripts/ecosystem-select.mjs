#!/usr/bin/env node
// Picks the files of a new ecosystem set (test/ecosystem/manifest.json) from a repository at a commit,
// by the selection rule the manifest describes, so that adding a repository is reproducible and does
// not depend on what anyone looked at in it:
//
//   node scripts/ecosystem-select.mjs --git-dir DIR --repo owner/name --id ID [--commit C]
//        [--budget N] [--other-cap N] [--write]
//
// Candidates: files ending in .json .yaml .yml .sh .conf .sbatch .slurm (or extensionless scripts
// under scripts/), at most 1 MB, not LFS pointers, not binary. "other" (files that are not configs of
// any format Shardwise reads, and must get no finding): CI workflows, package and tool configs,
// Kubernetes/Helm manifests, Hugging Face model/tokenizer/generation JSON, dataset arrays; at most
// --other-cap of them. "paths": every other candidate when there are at most --budget; else 80 % of
// the budget from paths under example/launch/script/conf/config/recipe/test-case folders and the rest
// from the others, each ordered by the SHA-1 of the path (stable across commits).
// Without --write the set is printed as JSON; with --write it is added to (or replaces the same id in)
// the manifest.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const MANIFEST = join(ROOT, 'test/ecosystem/manifest.json');

function args(argv) {
  const o = { budget: 150, otherCap: 25, write: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = () => argv[++i];
    if (a === '--git-dir') o.gitDir = v();
    else if (a === '--repo') o.repo = v();
    else if (a === '--id') o.id = v();
    else if (a === '--commit') o.commit = v();
    else if (a === '--budget') o.budget = Number(v());
    else if (a === '--other-cap') o.otherCap = Number(v());
    else if (a === '--write') o.write = true;
    else throw new Error(`unknown option ${a}`);
  }
  if (!o.gitDir || !o.repo || !o.id) throw new Error('--git-dir, --repo and --id are needed');
  return o;
}

function git(gitDir, argv, input) {
  const r = spawnSync('git', ['--git-dir', gitDir, ...argv], { input, maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`git ${argv.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

const CANDIDATE = /\.(json|ya?ml|sh|conf|sbatch|slurm)$/i;
const FAVOURED = /(^|\/)(examples?|launch\w*|scripts?|conf|configs?|recipes?|tests?\/functional_tests|test_cases)\//i;
const OTHER_PATH = [
  /^\.github\//, /(^|\/)\.gitlab-ci\.ya?ml$/, /(^|\/)\.pre-commit-(config|hooks)\.ya?ml$/, /(^|\/)\.readthedocs\.ya?ml$/,
  /(^|\/)(package|package-lock|tsconfig|tslint|lerna|renovate|\.eslintrc|\.prettierrc)\.json$/, /(^|\/)(mkdocs|codecov|\.codecov|environment|docker-compose|compose|Chart|values|kustomization|\.clang-format|\.yamllint|citation|CITATION)\.ya?ml$/i,
  /(^|\/)(charts|helm|manifests|k8s|kubernetes)\//i, /(^|\/)golden_values[^/]*\.json$/,
  /(^|\/)(tokenizer|tokenizer_config|special_tokens_map|generation_config|vocab|preprocessor_config)\.json$/,
];

function otherByContent(path, text) {
  if (/\.ya?ml$/i.test(path)) return /^apiVersion:\s*\S/m.test(text) && /^kind:\s*\S/m.test(text);
  if (!/\.json$/i.test(path)) return false;
  const t = text.trimStart();
  if (t.startsWith('[')) return true; // a dataset or a list of records
  return /"architectures"\s*:/.test(text) && /"model_type"\s*:/.test(text);
}

const sha = (p) => createHash('sha1').update(p).digest('hex');
const byHash = (a, b) => (sha(a) < sha(b) ? -1 : 1);

function main() {
  const o = args(process.argv.slice(2));
  const commit = o.commit ?? git(o.gitDir, ['rev-parse', 'HEAD']).toString().trim();
  const tree = git(o.gitDir, ['ls-tree', '-r', '-l', '-z', '--full-tree', commit]).toString('latin1');
  const blobs = [];
  for (const rec of tree.split('\0')) {
    if (!rec) continue;
    const tab = rec.indexOf('\t');
    const [mode, type, oid, size] = rec.slice(0, tab).split(/\s+/);
    const path = Buffer.from(rec.slice(tab + 1), 'latin1').toString('utf8');
    if (type !== 'blob' || mode === '120000' || !(Number(size) <= 1 << 20)) continue;
    if (!CANDIDATE.test(path) && !/(^|\/)scripts?\/[^/.]+$/.test(path)) continue;
    blobs.push({ path, oid });
  }
  const out = git(o.gitDir, ['cat-file', '--batch'], blobs.map((b) => b.oid).join('\n') + '\n');
  let off = 0;
  for (const b of blobs) {
    const nl = out.indexOf(10, off);
    const size = Number(out.subarray(off, nl).toString('latin1').split(' ')[2]);
    b.bytes = out.subarray(nl + 1, nl + 1 + size);
    off = nl + 1 + size + 1;
  }
  const paths = [];
  const other = [];
  for (const b of blobs) {
    if (b.bytes.includes(0)) continue;
    const text = b.bytes.toString('utf8');
    if (text.startsWith('version https://git-lfs')) continue;
    if (!CANDIDATE.test(b.path) && !text.startsWith('#!')) continue;
    if (OTHER_PATH.some((re) => re.test(b.path)) || otherByContent(b.path, text)) other.push(b.path);
    else paths.push(b.path);
  }
  let chosen = paths.sort(byHash);
  if (chosen.length > o.budget) {
    const favoured = chosen.filter((p) => FAVOURED.test(p));
    const rest = chosen.filter((p) => !FAVOURED.test(p));
    const n = Math.min(favoured.length, Math.max(Math.round(o.budget * 0.8), o.budget - rest.length));
    chosen = [...favoured.slice(0, n), ...rest.slice(0, o.budget - n)];
  }
  const set = { id: o.id, repo: o.repo, commit, paths: chosen.sort(), other: other.sort(byHash).slice(0, o.otherCap).sort() };
  if (!o.write) {
    process.stdout.write(JSON.stringify(set, null, 2) + '\n');
    return;
  }
  const m = JSON.parse(readFileSync(MANIFEST, 'utf8'));
  const i = m.sets.findIndex((s) => s.id === set.id);
  if (i >= 0) m.sets[i] = set;
  else m.sets.push(set);
  writeFileSync(MANIFEST, JSON.stringify(m, null, 2) + '\n');
  process.stderr.write(`${set.id}: ${set.paths.length} paths, ${set.other.length} other (of ${paths.length + other.length} candidates)\n`);
}

main();
