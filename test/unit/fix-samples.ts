/**
 * The files the fix tests run on: the rule cases of test/rules/, the rule docs' examples, examples/
 * and, when it is there, ../shared/corpus, each with the settings it is checked under.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { RULES, type EngineSettings, type FileInput } from '../../server/src/engine';
import { ProjectConfigs } from '../../server/src/host/project-config';
import { createResolver } from '../../server/src/host/resolve';
import { findCorpus } from '../corpus-path';
import { cases, fixes } from '../rules/load';
import { hostFor, parseAnnotated } from './annotate';

export interface Sample {
  name: string;
  input: FileInput;
  settings: EngineSettings;
}

export const ROOT = join(__dirname, '..', '..');

function fixtureSamples(): Sample[] {
  const out: Sample[] = [];
  for (const c of cases) {
    out.push({ name: `fixture ${c.name}`, input: { path: c.path ?? 'config.yaml', text: parseAnnotated(c.src).text, ...hostFor(c) }, settings: c.settings ?? {} });
  }
  for (const c of fixes) {
    out.push({ name: `fix fixture ${c.name}`, input: { path: c.path ?? 'config.yaml', text: c.before, ...hostFor(c) }, settings: c.settings ?? {} });
  }
  for (const r of RULES) {
    const files = r.docs.files;
    const resolve = files ? (ref: string) => ({ ref, path: `/examples/${ref}`, text: files[ref], tried: [`/examples/${ref}`] }) : undefined;
    const path = /^\s*[{[]/.test(r.docs.bad) ? 'example.json' : /^#!|^\s*(torchrun|srun|python)\b/m.test(r.docs.bad) ? 'example.sh' : 'example.yaml';
    out.push({ name: `docs ${r.id} (bad)`, input: { path, text: r.docs.bad, resolve }, settings: {} });
    out.push({ name: `docs ${r.id} (good)`, input: { path, text: r.docs.good, resolve }, settings: {} });
  }
  return out;
}

function fileSamples(dir: string, label: string): Sample[] {
  if (!existsSync(dir)) return [];
  const out: Sample[] = [];
  const configs = new ProjectConfigs();
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ya?ml|json|sh)$/.test(name)) {
        const text = readFileSync(p, 'utf8');
        out.push({ name: `${label}/${relative(dir, p)}`, input: { path: p, text, resolve: createResolver({ from: p, bases: [dir] }) }, settings: configs.forFile(p).settings });
      }
    }
  };
  walk(dir);
  return out;
}

export const corpus = findCorpus();
export const samples: Sample[] = [...fixtureSamples(), ...fileSamples(join(ROOT, 'examples'), 'examples'), ...fileSamples(corpus, 'corpus')];

