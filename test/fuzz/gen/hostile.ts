/**
 * Hostile surroundings for ordinary files: settings and `.shardwise.yaml` text, linked files,
 * junk characters and escape sequences, line-ending variants, and forced format directives.
 */
import { FORMAT_IDS } from '../../../server/src/engine';
import type { Rng } from '../rng';
import { sources, vocabulary, type SourceFile } from '../sources';
import type { FuzzInput, LinkTarget } from '../types';
import { genJson, genShell, genYaml, type Generated } from './grammar';
import { mutate, MUTATIONS } from './mutation';

type Part = Omit<FuzzInput, 'id' | 'category'>;

/** Numbers no real setting holds, and a few that are fine. */
const NUMS = [0, -1, -0, NaN, Infinity, -Infinity, 1e12, 1e308, 2 ** 53 + 2, 1.5, 0.1, 99999999999, Number.MAX_SAFE_INTEGER, Number.MIN_VALUE, 1, 2, 8, 72];
/** Values of every wrong type. */
const WRONG = ['8', '', 'NaN', true, false, null, [], [8], {}, { a: 1 }, 'x'.repeat(1000), '__proto__'] as unknown[];

function num(r: Rng): number {
  return r.pick(NUMS);
}

function anyValue(r: Rng): unknown {
  return r.chance(0.6) ? num(r) : r.pick(WRONG);
}

/** A source file, mostly an example or a corpus config, sometimes a generated one. */
export function baseFile(r: Rng, index: number): Generated {
  const all = sources();
  if (all.length && r.chance(0.75)) {
    const s = all[index % all.length];
    return { path: s.path, text: s.text, variant: 'source' };
  }
  return r.pick([genYaml, genJson, genShell])(r);
}

const HARDWARE = ['h100-sxm', 'gb200-nvl72', 'mi300x', 'a100-40gb', 'unknown-gpu', '', '__proto__', 'toString', 'constructor', 'H100-SXM', ' h100-sxm ', 'x'.repeat(100_000), '\u001b[31mh100', 'h100\u202e'];
const VERSIONS = ['0', '1.10.0', '0.16.4', '0.12.0', '999999999.999999999.9', '', 'x', '1'.repeat(10_000), '0.0.0.0.0.0.1', '-1', '1..2', '1.2.3-rc1', '00001.00002'];

export function hostileModel(r: Rng): unknown {
  if (r.chance(0.15)) return { hidden: 1, heads: 99999999999, layers: 1e12 };
  if (r.chance(0.15)) return { hidden: 1, heads: 99999999999, layers: 2 };
  if (r.chance(0.2)) return r.pick(['llama-3-70b', 'unknown-model', '', '__proto__', 'constructor', 'deepseek-v3', 'x'.repeat(10_000)]);
  const dims: Record<string, unknown> = {};
  for (const k of ['layers', 'hidden', 'heads', 'queryGroups', 'ffn', 'vocab', 'experts', 'topK']) if (r.chance(0.7)) dims[k] = r.chance(0.8) ? num(r) : anyValue(r);
  if (r.chance(0.3)) dims.swiglu = r.pick([true, false, 'yes', 1]);
  return dims;
}

function hostileAssociations(r: Rng, path: string): Record<string, unknown> {
  const id = (): unknown => (r.chance(0.85) ? r.pick(FORMAT_IDS) : r.pick(['unknown', '', 'ACCELERATE', 1, null]));
  const out: Record<string, unknown> = {};
  const patterns = [
    'a{1..100000}.yaml',
    `{${Array.from({ length: 50 }, (_, i) => `a${i}`).join(',')}}{${Array.from({ length: 50 }, (_, i) => `b${i}`).join(',')}}`,
    '{1..9999999}',
    `${'{a,'.repeat(200)}x${'}'.repeat(200)}`,
    '*'.repeat(2000) + 'x',
    '**/'.repeat(500) + '*.yaml',
    'a'.repeat(100_000),
    '+(a|b)*(c)@(d)!(e)?(f)'.repeat(50),
    // Nested extended globs and many wildcards in one segment: exponential (or high-power) matching time.
    '*(*(*)))b',
    `${'*('.repeat(r.range(2, 12))}a${')'.repeat(r.range(2, 12))}b`,
    `${'*a'.repeat(r.range(4, 40))}b`,
    `**/${'?*'.repeat(r.range(4, 30))}.yaml`,
    '[' + 'a-z'.repeat(1000) + ']',
    '[[:alpha:]]*',
    '**',
    '*',
    path,
    `**/${path.split('/').pop()}`,
    '\\',
    '[',
    '{',
    '',
  ];
  for (let k = r.range(1, 4); k > 0; k--) out[r.pick(patterns)] = id();
  return out;
}

function hostileRules(r: Rng): unknown {
  if (r.chance(0.1)) return r.pick(WRONG);
  const out: Record<string, unknown> = {};
  const ids = vocabulary().ruleIds;
  for (let k = r.range(1, 6); k > 0; k--) {
    const id = r.chance(0.7) ? r.pick(ids) : r.pick(['unknown-rule', '__proto__', 'constructor', '', 'PARSE-ERROR', 'parse-error']);
    out[id] = r.chance(0.85) ? r.pick(['off', 'hint', 'information', 'warning', 'error']) : r.pick(['bogus', 1, null, true]);
  }
  if (r.chance(0.1)) for (const id of ids) out[id] = 'off';
  return out;
}

function hostileCheckout(r: Rng): unknown {
  if (r.chance(0.2)) return r.pick(WRONG);
  const flags = r.weighted<() => unknown>([
    [() => vocabulary().megatronFlags.slice(0, r.range(0, 50)), 2],
    [() => Array.from({ length: 100_000 }, (_, i) => `--fork-flag-${i}`), 1],
    [() => ['', '-', '--', '--\u001b[31mred', '--' + 'a'.repeat(10_000), 'no-dashes', '--num-layers'], 1],
    [() => r.pick(WRONG), 0.5],
  ])();
  return { parser: r.pick(['megatron/training/arguments.py', '', '\u001b]8;;http://x\u0007arguments.py', 'x'.repeat(10_000)]), flags };
}

/** A repository index as a host that went wrong (or a crafted setting) could pass it. */
function hostileRepository(r: Rng): unknown {
  if (r.chance(0.2)) return r.pick(WRONG);
  const flags = r.weighted<() => unknown>([
    [() => vocabulary().megatronFlags.slice(0, r.range(0, 50)).concat(['--framework-flag']), 2],
    [() => Array.from({ length: 60_000 }, (_, i) => `--repo-flag-${i}`), 1],
    [() => ['', '-', '--', '--\u001b[31mred', '--' + 'a'.repeat(10_000), 'no-dashes', '--num-layers'], 1],
    [() => r.pick(WRONG), 0.5],
  ])();
  const count = () => (r.chance(0.8) ? r.range(0, 5000) : r.pick(WRONG));
  return { flags, files: count(), withParsers: count(), complete: r.chance(0.3) ? r.pick(WRONG) : r.chance(0.5), incomplete: r.chance(0.5) ? r.pick(['the search stops after 10 s', '\u202eevil', 'x'.repeat(10_000)]) : undefined, parsers: r.chance(0.5) ? ['a/arguments.py', '\u001b]8;;http://x\u0007b.py'] : r.pick(WRONG), root: r.pick(['/repo', undefined, 42]) };
}

/** EngineSettings with hostile values; `untyped` also puts wrong types everywhere. */
export function hostileSettings(r: Rng, path: string, untyped: boolean): Record<string, unknown> {
  const s: Record<string, unknown> = {};
  const v = (): unknown => (untyped && r.chance(0.4) ? r.pick(WRONG) : num(r));
  if (r.chance(0.5)) s.hardware = untyped && r.chance(0.3) ? r.pick(WRONG) : r.pick(HARDWARE);
  if (r.chance(0.5)) s.gpusPerNode = v();
  if (r.chance(0.4)) s.nvlinkDomain = v();
  if (r.chance(0.4)) s.rules = hostileRules(r);
  if (r.chance(0.3)) s.targetVersions = untyped && r.chance(0.3) ? r.pick(WRONG) : { accelerate: r.pick(VERSIONS), deepspeed: r.pick(VERSIONS), 'megatron-core': r.pick(VERSIONS) };
  if (r.chance(0.3)) s.associations = hostileAssociations(r, path);
  if (r.chance(0.6)) s.model = hostileModel(r);
  for (const k of ['seqLength', 'microBatch', 'worldSize', 'nodes']) if (r.chance(0.4)) s[k] = v();
  if (r.chance(0.15)) s.megatronCheckout = hostileCheckout(r);
  if (r.chance(0.15)) s.repositoryFlags = hostileRepository(r);
  return s;
}

function yamlNum(r: Rng): string {
  return r.pick(['0', '-1', '.inf', '-.inf', '.nan', '1e12', '99999999999999999999', '1.5', '0x10', '010', "'8'", '8', '72', 'yes', '~', '[]', '{}', '*a', '&a 8']);
}

/** The text of a hostile `.shardwise.yaml`. */
export function hostileProject(r: Rng, path: string): string {
  const lines: string[] = [];
  const add = (k: string, val: string): void => void lines.push(`${k}: ${val}`);
  if (r.chance(0.3)) add('root', r.pick(['true', 'yes', '1', '[]']));
  if (r.chance(0.5)) add('hardware', r.pick(['h100-sxm', 'gb200-nvl72', 'unknown-gpu', "''", '42', '[h100-sxm]', '"\\e[31mred"', '&hw b200']));
  if (r.chance(0.5)) add('gpus_per_node', yamlNum(r));
  if (r.chance(0.4)) add('nvlink_domain', yamlNum(r));
  if (r.chance(0.4)) add('target_versions', r.pick(['{accelerate: 1.10.0, deepspeed: 0.16.4, megatron-core: 0.12.0}', '{accelerate: 1.10}', '{megatron_core: 999999999999.0}', '{unknown: 1}', '[]', '1.0', `{accelerate: "${'1.'.repeat(5000)}0"}`]));
  if (r.chance(0.4)) add('rules', r.pick(['{irrelevant-section: off, yaml-boolean-trap: warning}', '{unknown-key: bogus}', '{__proto__: error}', '[off]', 'off', `{${vocabulary().ruleIds.map((id) => `${id}: off`).join(', ')}}`]));
  if (r.chance(0.6)) add('model', r.pick(['{hidden: 1, heads: 99999999999, layers: 1e12}', '{hidden: 1, heads: 99999999999, layers: 2}', '{layers: 0, hidden: -1, heads: .nan}', '{preset: llama-3-70b, layers: 99999999999}', 'llama-3-70b', 'unknown', '{layers: 1e12, hidden: 1e12, heads: 1e12, ffn: 1e12, vocab: 1e12, experts: 1e12}', '{num_layers: 80, hidden_size: 8192, num_attention_heads: 64, num_query_groups: 99999999999}', '[]']));
  for (const k of ['seq_length', 'micro_batch_size', 'world_size', 'nodes']) if (r.chance(0.3)) add(k, yamlNum(r));
  if (r.chance(0.3)) {
    const assoc = hostileAssociations(r, path);
    add('associations', `{${Object.entries(assoc).map(([g, id]) => `${JSON.stringify(g)}: ${JSON.stringify(id)}`).join(', ')}}`);
  }
  if (r.chance(0.1)) add('unknown_setting', '1');
  r.shuffle(lines);
  let text = lines.join('\n') + '\n';
  if (r.chance(0.1)) text = `defaults: &d\n  gpus_per_node: 8\n${text}<<: *d\n`;
  if (r.chance(0.05)) text = `${text}---\nhardware: b200\n`;
  if (r.chance(0.05)) text = r.pick(['[1, 2]', 'just a string', '{', '"\u001b[31m"', '\u0000\u0001', `${'a: &a [*a]\n'}`, '- - -']);
  return text;
}

/** Editor settings (`shardwise.*`), read through settingsFromClient. */
export function hostileClient(r: Rng, path: string): unknown {
  if (r.chance(0.05)) return r.pick(WRONG);
  const s = hostileSettings(r, path, true);
  return {
    hardware: s.hardware,
    gpusPerNode: s.gpusPerNode,
    nvlinkDomain: s.nvlinkDomain,
    rules: s.rules,
    targetVersions: r.chance(0.5) ? { accelerate: r.pick(VERSIONS), deepspeed: r.pick(VERSIONS), megatronCore: r.pick(VERSIONS) } : anyValue(r),
    files: r.chance(0.5) ? { associations: hostileAssociations(r, path) } : anyValue(r),
    model: r.chance(0.5) ? r.pick(['llama-3-70b', 'unknown', '', '__proto__']) : anyValue(r),
    seqLength: anyValue(r),
    microBatchSize: anyValue(r),
  };
}

/** An in-file `# shardwise:` directive line with hostile values. */
export function hostileDirective(r: Rng): string {
  const pairs = [
    `format=${r.pick([...FORMAT_IDS, 'unknown', 'ACCELERATE'])}`,
    `hardware=${r.pick(['h100-sxm', 'unknown', '__proto__', 'x'.repeat(5000)])}`,
    `gpus_per_node=${r.pick(['0', '99999999999999999999999', '00008', '1e12', '-1'])}`,
    `nvlink_domain=${r.pick(['0', '99999999999', '72'])}`,
    'hidden=1 heads=99999999999 layers=1000000000000',
    `model=${r.pick(['llama-3-70b', '__proto__', 'constructor', 'unknown'])}`,
    `seq_length=${r.pick(['0', '99999999999999999999', '8192'])}`,
    `world_size=${r.pick(['0', '99999999999', '1e12'])}`,
    `nodes=${r.pick(['0', '99999999999'])}`,
    `micro_batch_size=${r.pick(['0', '99999999999'])}`,
    `accelerate=${r.pick(VERSIONS.slice(0, 9))}`,
    `megatron_core=${r.pick(VERSIONS.slice(0, 9))}`,
  ];
  return `# shardwise: ${r.shuffle(pairs).slice(0, r.range(1, 5)).join(' ')}`;
}

export function genSettingsInput(r: Rng, index: number): Part {
  const base = baseFile(r, index);
  const mode = r.pick(['typed', 'untyped', 'client', 'project', 'directive', 'all'] as const);
  const out: Part = { path: base.path, text: base.text, variant: `settings:${mode}`, languageId: base.languageId };
  if (mode === 'typed' || mode === 'all') out.settings = hostileSettings(r, base.path, false) as FuzzInput['settings'];
  if (mode === 'untyped') out.settings = hostileSettings(r, base.path, true) as FuzzInput['settings'];
  if (mode === 'client' || mode === 'all') out.client = hostileClient(r, base.path);
  if (mode === 'project' || mode === 'all') out.project = hostileProject(r, base.path);
  if (mode === 'directive' || mode === 'all') {
    const directive = hostileDirective(r);
    out.text = base.path.endsWith('.json') ? `${directive}\n${base.text}` : r.chance(0.5) ? `${directive}\n${base.text}` : `${base.text}\n${directive}\n`;
  }
  return out;
}

const PYTHON_ENTRY = (r: Rng): string =>
  r.weighted<() => string>([
    [() => `import argparse\nparser = argparse.ArgumentParser()\n${Array.from({ length: r.range(1, 20) }, (_, i) => `parser.add_argument('--own-flag-${i}', type=int)\n`).join('')}`, 3],
    [() => `group.add_argument("--x")\n`.repeat(10_000), 1],
    [() => `parser.add_argument('--\u001b[31mred', '--' + 'a'.repeat(10_000))\nparser.add_argument(${'('.repeat(5000)}\n`, 1],
    [() => 'p.add_argument("--a' + 'b'.repeat(2_100_000) + '")\n', 0.3],
    [() => Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 256)).toString('latin1'), 1],
    [() => '', 0.5],
  ])();

/** Accelerate configs, launch scripts and DeepSpeed JSONs whose linked files are hostile, themselves, or cycles. */
export function genLinksInput(r: Rng, index: number): Part {
  const all = sources();
  const dsJsons = all.filter((s) => s.path.endsWith('.json'));
  const accYamls = all.filter((s) => /accelerate/.test(s.path) && /\.ya?ml$/.test(s.path));
  const hostileTarget = (selfText: string, selfPath: string): LinkTarget =>
    r.weighted<() => LinkTarget>([
      [() => (dsJsons.length ? mutate(r, r.pick(dsJsons).text, r.pick(MUTATIONS), undefined) : '{}'), 3],
      [() => (dsJsons.length ? r.pick(dsJsons).text : '{"train_batch_size": 8}'), 2],
      [() => selfText, 2],
      [() => `compute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\ndeepspeed_config:\n  deepspeed_config_file: ${selfPath}\n`, 1],
      [() => r.pick(['', '{', '[]', 'null', '"string"', '1', '{"train_batch_size": "auto", "fp16": {"enabled": true}, "bf16": {"enabled": true}}', '\u0000\u0001\u0002', '{"\u001b[31mred": 1}']), 2],
      [() => `{${Array.from({ length: 20_000 }, (_, i) => `"k${i}": ${i}`).join(', ')}}`, 0.3],
      [() => `a: &a x\nb: [${Array(20_000).fill('*a').join(', ')}]\n`, 0.3],
      [() => '['.repeat(50_000), 0.3],
      // JSONC that jsonc-parser ends past the text (an unterminated comment holding CRLF), and comments where an edit would land.
      [() => r.pick(['{"train_batch_size": 8 /* note\r\n', '{"zero_optimization": {"stage": 2 /* x\r\n y', '{"a": 1}\r\n// tail', '{\r\n  // c\r\n  "fp16": {"enabled": true}, /* open']), 1],
      [() => `{\r\n${Array.from({ length: 2000 }, (_, i) => `  "train_batch_size": ${i},`).join('\r\n')}\r\n  "x": 1\r\n}`, 0.3],
      [() => null, 1],
      [() => ({ throws: 'resolver failure' }), 0.5],
    ])();
  const ref = (): string => r.pick(['ds_config.json', './ds_config.json', '../ds.json', '/abs/ds.json', '', ' ', '.', '/', 'ds.json\u0000x', 'ds{1..9}.json', '~/ds.json', '$HOME/ds.json', 'x'.repeat(100_000), '\u001b[31mds.json', 'accelerate.yaml', 'C:\\ds.json', 'ds.json ']);
  const kind = (['accelerate', 'script', 'accelerate', 'entry', 'referrers'] as const)[index % 5];
  if (kind === 'accelerate') {
    const path = r.pick(['accelerate.yaml', 'configs/accelerate.yaml']);
    const dsRef = r.chance(0.2) ? path : ref();
    const base = accYamls.length && r.chance(0.4) ? r.pick(accYamls).text.replace(/deepspeed_config_file:.*$/m, '') : 'compute_environment: LOCAL_MACHINE\nmixed_precision: bf16\nnum_processes: 8\n';
    const text = `${base.replace(/^distributed_type:.*$/m, '')}\ndistributed_type: DEEPSPEED\ndeepspeed_config:\n  deepspeed_config_file: ${r.chance(0.3) ? JSON.stringify(dsRef) : dsRef}\n  zero3_init_flag: ${r.pick(['true', 'false', 'yes'])}\n`;
    return { path, text, variant: 'links:accelerate', links: { [dsRef.trim()]: hostileTarget(text, path), [dsRef]: hostileTarget(text, path) } };
  }
  if (kind === 'script' || kind === 'entry') {
    const path = 'train.sh';
    const dsRef = r.chance(0.2) ? path : ref();
    const entry = kind === 'entry' ? r.pick(['tasks/main.py', 'my_pretrain.py', '${SCRIPT_DIR}/export.py', 'train.sh', 'tools/x.py']) : 'pretrain_gpt.py';
    const text = `#!/bin/bash\ndeepspeed --num_gpus 8 ${entry} \\\n  --deepspeed \\\n  --deepspeed_config ${dsRef} \\\n  --tensor-model-parallel-size ${r.pick(['2', '8', '16'])} \\\n  --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n  --own-flag-1 3 --zero-stage 3\n`;
    const links: Record<string, LinkTarget> = { [dsRef]: hostileTarget(text, path) };
    const entryRef = entry.replace(/^\$\{?\w+\}?\//, '');
    links[entryRef] = r.chance(0.2) ? text : r.chance(0.1) ? { throws: 'unreadable' } : PYTHON_ENTRY(r);
    return { path, text, variant: `links:${kind}`, links };
  }
  // A DeepSpeed JSON and the Accelerate configs that point at it.
  const base = dsJsons.length ? r.pick(dsJsons) : ({ path: 'ds_config.json', text: '{"train_batch_size": 8}' } as SourceFile);
  const path = 'ds_config.json';
  const referrers = Array.from({ length: r.pick([0, 1, 2, 25]) }, (_, i) => ({
    path: r.chance(0.1) ? path : `acc${i}.yaml`,
    text: r.weighted<() => string>([
      [() => `distributed_type: DEEPSPEED\nnum_processes: ${r.pick(['8', '99999999999', '-1', '0', '.inf', 'yes'])}\nnum_machines: ${r.pick(['1', '0', '99999999999'])}\nmixed_precision: ${r.pick(['bf16', 'fp16', 'no'])}\ndeepspeed_config:\n  deepspeed_config_file: ${path}\n`, 4],
      [() => base.text, 1],
      [() => Buffer.from(Array.from({ length: 3000 }, (_, k) => (k * 31 + i) % 256)).toString('latin1'), 1],
      [() => `a: &a x\nb: [${Array(30_000).fill('*a').join(', ')}]\n`, 0.2],
    ])(),
  }));
  return { path, text: base.text, variant: 'links:referrers', referrers };
}

/** Characters that must never reach a message unescaped, and binary junk. */
const NASTY = ['\u001b[31m', '\u001b[0m', '\u001b]8;;http://example.com\u0007link\u001b]8;;\u0007', '\u009b31m', '\u0085', '\u202e', '\u202d', '\u2066', '\u2067', '\u2068', '\u2069', '\u200f', '\u0000', '\u0007', '\u0008', '\u000b', '\u000c', '\u007f', '\u2028', '\u2029', '\ufeff', '\u200b', '\ud800', '\udfff'];

export function genJunkInput(r: Rng, index: number): Part {
  const kind = r.pick(['bytes', 'utf16', 'nul-sprinkle', 'key-escapes', 'value-escapes', 'json-escapes', 'shell-escapes', 'bidi', 'separators'] as const);
  if (kind === 'bytes') {
    const n = r.range(1, 20_000);
    const bytes = Array.from({ length: n }, () => r.int(256));
    return { path: r.pick(['x.yaml', 'x.json', 'x.sh', 'x']), text: Buffer.from(bytes).toString(r.chance(0.5) ? 'latin1' : 'utf8'), variant: 'junk:bytes' };
  }
  if (kind === 'utf16') {
    const n = r.range(1, 5000);
    let s = '';
    for (let i = 0; i < n; i++) s += String.fromCharCode(r.chance(0.5) ? r.int(0x80) : r.int(0x10000));
    return { path: r.pick(['x.yaml', 'x.json', 'x.sh']), text: s, variant: 'junk:utf16' };
  }
  const base = baseFile(r, index);
  if (kind === 'nul-sprinkle') {
    const chars = base.text.split('');
    for (let k = r.range(1, 20); k > 0; k--) chars.splice(r.int(chars.length + 1), 0, r.pick(NASTY));
    return { path: base.path, text: chars.join(''), variant: 'junk:sprinkle' };
  }
  const nasty = r.pick(NASTY);
  if (kind === 'key-escapes') {
    const key = r.pick(vocabulary().accelerateKeys);
    const quoted = r.pick([`"\\x1b[31m${key}"`, `"${key}\\e[0m"`, `"\\u202e${key}"`, `'${nasty}${key}'`, `${nasty}${key}`, `"\\x9b${key}"`, `"\\x1b]8;;http://x\\x07${key}\\x1b]8;;\\x07"`]);
    return { path: 'accelerate.yaml', text: `distributed_type: FSDP\nnum_processes: 8\n${quoted}: 1\nfsdp_config:\n  ${quoted.replace(key, `fsdp_${key}`)}: 2\n`, variant: 'junk:key-escapes' };
  }
  if (kind === 'value-escapes') {
    const key = r.pick(['mixed_precision', 'distributed_type', 'gpu_ids', 'num_processes', 'main_process_ip', 'dynamo_backend']);
    return { path: 'accelerate.yaml', text: `distributed_type: FSDP\nnum_processes: 8\n${key}: "${r.pick(['\\x1b[31mbf16', 'bf16\\u202e', '\\x9bFSDP', '\\0', '\\a\\b\\v\\f', '\\x1b]8;;http://x\\x07no\\x1b]8;;\\x07'])}"\n${key === 'mixed_precision' ? 'use_cpu' : 'mixed_precision'}: '${nasty}no'\n`, variant: 'junk:value-escapes' };
  }
  if (kind === 'json-escapes') {
    const key = r.pick(vocabulary().deepspeedKeys);
    return { path: 'ds_config.json', text: `{"train_batch_size": 8, "zero_optimization": {"stage": 3, "\\u001b[31m${key}": 1}, ${JSON.stringify(nasty + key)}: "${r.pick(['\\u001b[31mauto', '\\u202eauto', '\\u009b'])}", "fp16": {"enabled": "${nasty}"}}\n`, variant: 'junk:json-escapes' };
  }
  if (kind === 'shell-escapes') {
    const flag = r.pick(vocabulary().megatronFlags);
    return { path: 'train.sh', text: `#!/bin/bash\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n  ${flag.replace('--', `--${nasty}`)} 2 \\\n  --num-layers $'\\e[31m32' \\\n  --tensor-model-parallel-size "${nasty}8" \\\n  --${nasty}unknown 1\n`, variant: 'junk:shell-escapes' };
  }
  if (kind === 'bidi') {
    const text = base.text.replace(/^(\s*)([A-Za-z_-]+)(:|\s)/gm, (m, ind, key, sep) => (r.chance(0.3) ? `${ind}${key.slice(0, 2)}${r.pick(['\u202e', '\u2066', '\u2069', '\u200f', '\u061c'])}${key.slice(2)}${sep}` : m));
    return { path: base.path, text, variant: 'junk:bidi' };
  }
  // Unicode separators that are not line ends for LSP (U+2028, U+2029, NEL) and form feeds.
  const text = base.text.replace(/\n/g, () => (r.chance(0.2) ? r.pick(['\u2028\n', '\u2029', '\u0085', '\f\n', '\v\n', '\n']) : '\n'));
  return { path: base.path, text, variant: 'junk:separators' };
}

export const EOL_VARIANTS = ['crlf', 'cr', 'crlf-bom', 'bom', 'bom-cr', 'mixed', 'tabs', 'no-final-eol', 'extra-eols', 'trailing-space', 'emoji-keys', 'emoji-values', 'emoji-comments', 'cr-at-end'] as const;

export function eolVariant(text: string, variant: (typeof EOL_VARIANTS)[number], r: Rng): string {
  const lf = text.replace(/\r\n?/g, '\n');
  const emoji = (): string => r.pick(['\u{1F600}', '\u{1F680}', '\u{1F9EA}', '\u{10348}', '👨‍👩‍👧']);
  switch (variant) {
    case 'crlf':
      return lf.replace(/\n/g, '\r\n');
    case 'cr':
      return lf.replace(/\n/g, '\r');
    case 'crlf-bom':
      return '\ufeff' + lf.replace(/\n/g, '\r\n');
    case 'bom':
      return '\ufeff' + lf;
    case 'bom-cr':
      return '\ufeff' + lf.replace(/\n/g, '\r');
    case 'mixed':
      return lf.replace(/\n/g, () => r.pick(['\n', '\r\n', '\r']));
    case 'tabs':
      return lf.replace(/^( {2})+/gm, (m) => '\t'.repeat(m.length / 2)).replace(/: /g, () => (r.chance(0.2) ? ':\t' : ': '));
    case 'no-final-eol':
      return lf.replace(/\n+$/, '');
    case 'extra-eols':
      return lf + '\n\n\n\r\n\r';
    case 'trailing-space':
      return lf.replace(/\n/g, () => r.pick([' \n', '\t\n', '  \n', '\n']));
    case 'emoji-keys':
      return lf.replace(/^(\s*)([A-Za-z_][\w-]*)(:)/gm, (m, ind, key, c) => (r.chance(0.4) ? `${ind}${key.slice(0, 3)}${emoji()}${key.slice(3)}${c}` : m)).replace(/(--[a-z])([a-z-]+)/g, (m, a, b) => (r.chance(0.2) ? `${a}${emoji()}${b}` : m));
    case 'emoji-values':
      return lf.replace(/^(\s*[\w-]+: *)(\S.*)$/gm, (m, k, val) => (r.chance(0.4) ? `${k}${emoji()}${val}` : m)).replace(/"(\w)/g, (m, c) => (r.chance(0.3) ? `"${emoji()}${c}` : m));
    case 'emoji-comments':
      return `# ${emoji()}${emoji()} header\n` + lf.replace(/\n/g, () => (r.chance(0.3) ? `  # ${emoji()}\n` : '\n'));
    case 'cr-at-end':
      return lf.replace(/\n$/, '') + '\r';
  }
}

export function genEolInput(r: Rng, index: number): Part {
  const all = sources();
  const variant = EOL_VARIANTS[index % EOL_VARIANTS.length];
  const file = all.length ? all[Math.floor(index / EOL_VARIANTS.length) % all.length] : { path: 'x.yaml', text: 'distributed_type: FSDP\n' };
  // JSON has no comments: emoji comments there are emoji in the text, which is fine too.
  return { path: file.path, text: eolVariant(file.text, variant, r), variant: `eol:${variant}` };
}

const TINY = ['', '\n', 'x', 'x: 1', 'x: 1\n', 'a: b\nc: d\n', '- a\n', '[]', '{}', '--num-layers 2\n', 'torchrun pretrain_gpt.py\n', '#!/bin/bash\n', '---\n', '...\n', '~\n', 'null\n', '"', 'MODEL_ARGS:\n', 'MODEL_ARGS: 1\n', 'MODEL_ARGS:\n  --num-layers:\n', 'MODEL_ARGS: [--num-layers]\n', 'model:\n', 'trainer: 1\nmodel: 2\n', 'model: []\ntrainer: {}\n', '{"a": 1}', '1', '"str"', '[1, 2]', 'train:\n  micro_batch_size:\n', 'deepspeed_config: 1\n', 'distributed_type: DEEPSPEED\ndeepspeed_config:\n', 'zero_optimization: yes\n', '{"zero_optimization": 3}', 'ENV_VARS: x\nMODEL_ARGS: y\n'];

/** `# shardwise: format=<id>` forced onto files of other formats and onto tiny files. */
export function genDirectivesInput(r: Rng, index: number): Part {
  const ids = [...FORMAT_IDS, 'unknown', 'ACCELERATE', 'nemo,accelerate'];
  const id = ids[index % ids.length];
  const tiny = r.chance(0.5);
  const base = tiny ? { path: r.pick(['x.yaml', 'x.json', 'x.sh', 'x', 'tests/functional_tests/test_cases/gpt/x_1N8G/model_config.yaml']), text: r.pick(TINY) } : baseFile(r, Math.floor(index / ids.length));
  const directive = `# shardwise: format=${id}${r.chance(0.3) ? ' ' + hostileDirective(r).replace('# shardwise: ', '') : ''}`;
  const placement = r.pick(['first', 'first', 'last', 'trailing', 'twice', 'crlf', 'json-string'] as const);
  let text: string;
  if (placement === 'first') text = `${directive}\n${base.text}`;
  else if (placement === 'last') text = `${base.text}${base.text.endsWith('\n') || !base.text ? '' : '\n'}${directive}`;
  else if (placement === 'trailing') text = base.text.replace(/\n/, `  ${directive}\n`) || directive;
  else if (placement === 'twice') text = `${directive}\n# shardwise: format=${r.pick(FORMAT_IDS)}\n${base.text}`;
  else if (placement === 'crlf') text = `${directive}\r\n${base.text.replace(/\n/g, '\r\n')}`;
  else text = `{"note": "${directive}", "x": ${JSON.stringify(base.text.slice(0, 200))}}`;
  return { path: base.path, text, variant: `directives:${tiny ? 'tiny' : 'file'}:${placement}` };
}
