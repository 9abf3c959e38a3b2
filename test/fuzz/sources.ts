/**
 * What the generators draw from: the example workspace, the shared corpus of upstream configs (read
 * in place, when it is there), and the key names, flags and values of the schemas.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { RULES } from '../../server/src/engine';
import { findCorpus } from '../corpus-path';

export const ROOT = join(__dirname, '..', '..');

export interface SourceFile {
  /** A path the engine sees (keeps the file name, which formats detect on). */
  path: string;
  text: string;
  origin: 'example' | 'corpus';
}

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (/\.(ya?ml|json|sh)$/.test(name)) out.push(p);
  }
  return out;
}

let cachedSources: SourceFile[] | undefined;

/** Every example and corpus config (the corpus only when it is there: a clone without ../shared has examples only). */
export function sources(): SourceFile[] {
  if (cachedSources) return cachedSources;
  const examples = join(ROOT, 'examples');
  const corpus = findCorpus();
  cachedSources = [
    ...walk(examples).map((p) => ({ path: relative(ROOT, p), text: readFileSync(p, 'utf8'), origin: 'example' as const })),
    ...walk(corpus).map((p) => ({ path: join('corpus', relative(corpus, p)), text: readFileSync(p, 'utf8'), origin: 'corpus' as const })),
  ];
  return cachedSources;
}

export function hasCorpus(): boolean {
  return sources().some((s) => s.origin === 'corpus');
}

export interface Vocabulary {
  accelerateKeys: string[];
  accelerateSections: string[];
  deepspeedKeys: string[];
  deepspeedSections: string[];
  megatronFlags: string[];
  megatronDests: string[];
  bridgeKeys: string[];
  bridgeSections: string[];
  nemoKeys: string[];
  enumValues: string[];
  ruleIds: string[];
}

let cachedVocabulary: Vocabulary | undefined;

type Json = Record<string, any>;

/** Property names anywhere under a schema node (properties, definitions, if/then/else...), with the sections that have properties. */
function collect(node: unknown, keys: Set<string>, sections: Set<string>, enums: Set<string>): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const x of node) collect(x, keys, sections, enums);
    return;
  }
  const n = node as Json;
  if (Array.isArray(n.enum)) for (const v of n.enum) if (typeof v === 'string') enums.add(v);
  if (n.properties && typeof n.properties === 'object') {
    for (const [k, v] of Object.entries(n.properties as Json)) {
      keys.add(k);
      if (v && typeof v === 'object' && (v as Json).properties) sections.add(k);
    }
  }
  for (const [k, v] of Object.entries(n)) if (k !== 'enum' && typeof v === 'object') collect(v, keys, sections, enums);
}

export function vocabulary(): Vocabulary {
  if (cachedVocabulary) return cachedVocabulary;
  const read = (id: string): Json => JSON.parse(readFileSync(join(ROOT, 'schemas', `${id}.schema.json`), 'utf8'));
  const enums = new Set<string>();
  const acc = read('accelerate');
  const accKeys = new Set<string>();
  const accSections = new Set<string>(Object.keys(acc.definitions ?? {}).filter((k) => k.endsWith('_config')));
  collect(acc, accKeys, accSections, enums);
  const ds = read('deepspeed');
  const dsKeys = new Set<string>();
  const dsSections = new Set<string>();
  collect(ds, dsKeys, dsSections, enums);
  const mg = read('megatron');
  const flags = new Set<string>();
  const bridge = new Set<string>();
  const nemo = new Set<string>();
  for (const p of Object.values(mg.properties as Json)) {
    if (typeof p['x-flag'] === 'string') flags.add(p['x-flag']);
    for (const f of p['x-flags'] ?? []) if (typeof f === 'string') flags.add(f);
    for (const b of p['x-bridge'] ?? []) if (typeof b === 'string') bridge.add(b);
    for (const b of p['x-nemo'] ?? []) if (typeof b === 'string') nemo.add(b);
    if (Array.isArray(p.enum)) for (const v of p.enum) if (typeof v === 'string') enums.add(v);
  }
  const ruleIds = RULES.map((r) => r.id).sort();
  cachedVocabulary = {
    accelerateKeys: [...accKeys].sort(),
    accelerateSections: [...accSections].sort(),
    deepspeedKeys: [...dsKeys].sort(),
    deepspeedSections: [...dsSections].sort(),
    megatronFlags: [...flags].sort(),
    megatronDests: Object.keys(mg.properties).sort(),
    bridgeKeys: [...bridge].sort(),
    bridgeSections: Object.keys(mg['x-bridge-sections'] ?? {}).sort(),
    nemoKeys: [...nemo].sort(),
    enumValues: [...enums].sort(),
    ruleIds,
  };
  return cachedVocabulary;
}
