/**
 * Text from grammar-ish fragments with real key and flag names: YAML (anchors, aliases, merge keys,
 * multi-document streams, flow collections, quoting, block scalars, tags), JSON (DeepSpeed-shaped,
 * with JSONC and broken syntax now and then) and bash launch scripts (arrays, variables with
 * defaults, arithmetic, functions, here-docs, continuation lines, launcher chains, `bash -c`).
 */
import type { Rng } from '../rng';
import { vocabulary } from '../sources';

export interface Generated {
  path: string;
  text: string;
  variant: string;
  languageId?: string;
}

/** Values that YAML 1.1 and the tools read in surprising ways, and plain ones. */
const TRAPS = ['yes', 'no', 'Yes', 'NO', 'on', 'off', 'On', 'OFF', 'y', 'n', 'true', 'false', 'True', 'FALSE', '~', 'null', 'Null', '010', '0o10', '0x1F', '1e8', '1.0e+8', '.inf', '-.Inf', '.nan', '2:30', '1_000', '0b101', '+1', '-0', '00', '1.', '.5'];
const NUMBERS = ['0', '1', '2', '3', '4', '7', '8', '16', '64', '128', '1024', '-1', '-8', '99999999999', '1e12', '9007199254740993', '1e400', '0.5', '1.5', '3.14', '1e-9', 'NaN', '-inf'];
const WORDS = ['FSDP', 'MULTI_GPU', 'DEEPSPEED', 'MEGATRON_LM', 'NO', 'bf16', 'fp16', 'fp8', 'FULL_SHARD', 'SHARD_GRAD_OP', 'TRANSFORMER_BASED_WRAP', 'LlamaDecoderLayer', 'LOCAL_MACHINE', 'auto', 'all', 'main', 'static', 'cpu', 'nvme', 'none', 'ds.json', './ds_config.json', 'selective', 'full', 'uniform', 'block', 'transformer_engine', 'local', 'alltoall', 'allgather', 'mcore', 'te', 'TE', 'MSAMP', 'hybrid', 'inductor', 'e4m3'];

function identifier(r: Rng): string {
  const chars = 'abcdefghijklmnopqrstuvwxyz_0123456789';
  let s = r.pick(['x', 'fsdp_', 'ds_', 'tp_', 'model_', '']);
  const n = r.range(1, 12);
  for (let i = 0; i < n; i++) s += chars[r.int(chars.length)];
  return s || 'k';
}

/** A string with the characters quoting must get right. */
function awkward(r: Rng): string {
  return r.pick(['a: b', '#not a comment', 'it\'s', 'say "hi"', 'tab\there', 'line\nbreak', 'back\\slash', '- dash', '[x]', '{y}', '&anchor', '*alias', '!tag', '%pct', '@at', '`tick`', '|pipe', '>fold', 'é', '日本', '\u{1F680}', ' lead', 'trail ', '', '...', '---', '? q', ': c', 'a,b', '$TP', '${TP:-8}']);
}

function yamlQuoted(r: Rng, s: string): string {
  if (r.chance(0.5)) return `'${s.replace(/'/g, "''").replace(/\n/g, '\n\n')}'`;
  const esc = s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t');
  const extra = r.chance(0.1) ? r.pick(['\\x1b[31m', '\\u202e', '\\0', '\\e', '\\N', '\\_', '\\L', '\\P', '\\uD800', '\\U0001F600', '\\x', '\\q']) : '';
  return `"${esc}${extra}"`;
}

class YamlWriter {
  readonly anchors: string[] = [];
  constructor(
    readonly r: Rng,
    readonly keys: () => string,
  ) {}

  scalar(): string {
    const r = this.r;
    const kind = r.weighted([
      ['trap', 3],
      ['number', 3],
      ['word', 4],
      ['quoted', 2],
      ['alias', this.anchors.length ? 1 : 0],
      ['tagged', 0.5],
      ['empty', 0.5],
      ['weird', 0.3],
    ] as const);
    switch (kind) {
      case 'trap':
        return r.pick(TRAPS);
      case 'number':
        return r.pick(NUMBERS);
      case 'word':
        return r.chance(0.3) ? r.pick(vocabulary().enumValues) : r.pick(WORDS);
      case 'quoted':
        return yamlQuoted(r, r.chance(0.5) ? awkward(r) : r.pick([...TRAPS, ...WORDS]));
      case 'alias':
        return `*${r.chance(0.9) ? r.pick(this.anchors) : 'undefined_anchor'}`;
      case 'tagged':
        return `${r.pick(['!!str', '!!int', '!!float', '!!bool', '!!null', '!!binary', '!custom', '!<tag:yaml.org,2002:str>', '!!python/object:os.system'])} ${r.pick([...TRAPS, ...NUMBERS, ...WORDS])}`;
      case 'empty':
        return '';
      default:
        return r.pick([':', '- ', '[', '{', '"unterminated', "'open", '&', '*', '|', '>', '@', '`', '%', '? ', '\\', '#x']);
    }
  }

  anchor(): string {
    const name = this.r.chance(0.7) ? this.r.pick(['a', 'b', 'base', 'defaults', 'cfg']) : identifier(this.r);
    this.anchors.push(name);
    return `&${name} `;
  }

  flow(depth: number): string {
    const r = this.r;
    if (depth <= 0 || r.chance(0.3)) return this.scalar() || 'x';
    if (r.chance(0.5)) {
      const n = r.range(0, 4);
      return `[${Array.from({ length: n }, () => this.flow(depth - 1)).join(r.pick([', ', ',', ' , ']))}${r.chance(0.1) ? ',' : ''}]`;
    }
    const n = r.range(0, 4);
    return `{${Array.from({ length: n }, () => `${this.keys()}: ${this.flow(depth - 1)}`).join(', ')}${r.chance(0.1) ? ',' : ''}}`;
  }

  blockScalar(indent: string): string {
    const r = this.r;
    const head = r.pick(['|', '>', '|-', '>+', '|2', '>-', '|+']);
    const lines = Array.from({ length: r.range(0, 4) }, () => `${indent}  ${r.pick(['text', 'no', '--num-layers 32', '# not a comment', '  more indented', '', 'key: value'])}`);
    return `${head}\n${lines.join('\n')}`;
  }

  mapping(indent: string, depth: number, out: string[]): void {
    const r = this.r;
    const n = r.range(1, depth > 1 ? 8 : 4);
    for (let i = 0; i < n; i++) {
      if (r.chance(0.05)) out.push(`${indent}# ${r.pick(['comment', 'shardwise-disable-next-line ' + r.pick(vocabulary().ruleIds), 'shardwise: hardware=b200', 'TODO'])}`);
      if (r.chance(0.05) && this.anchors.length) {
        out.push(`${indent}<<: ${r.chance(0.7) ? `*${r.pick(this.anchors)}` : `[${this.anchors.slice(0, 3).map((a) => `*${a}`).join(', ')}]`}`);
        continue;
      }
      let key = this.keys();
      if (r.chance(0.05)) key = yamlQuoted(r, key);
      if (r.chance(0.02)) key = `? ${key}\n${indent}:`;
      const anchor = r.chance(0.08) ? this.anchor() : '';
      const trail = r.chance(0.05) ? `  # ${r.pick(['note', 'shardwise-disable-line ' + r.pick(vocabulary().ruleIds)])}` : '';
      const kind = depth > 0 ? r.weighted([['scalar', 6], ['map', 2], ['seq', 1], ['flow', 1], ['block', 0.5]] as const) : 'scalar';
      if (kind === 'scalar') {
        const v = this.scalar();
        out.push(`${indent}${key}:${v || anchor ? ' ' : ''}${anchor}${v}${trail}`);
      } else if (kind === 'map') {
        out.push(`${indent}${key}:${anchor ? ' ' + anchor.trim() : ''}${trail}`);
        this.mapping(indent + r.pick(['  ', '  ', '    ', ' ', '\t']), depth - 1, out);
      } else if (kind === 'seq') {
        out.push(`${indent}${key}:${anchor ? ' ' + anchor.trim() : ''}`);
        const inner = r.chance(0.5) ? indent : indent + '  ';
        for (let j = r.range(0, 4); j > 0; j--) {
          if (r.chance(0.3)) {
            const sub: string[] = [];
            this.mapping(inner + '  ', depth - 1, sub);
            sub[0] = `${inner}- ${sub[0].trimStart()}`;
            out.push(...sub);
          } else out.push(`${inner}- ${this.scalar()}`);
        }
      } else if (kind === 'flow') out.push(`${indent}${key}: ${anchor}${this.flow(3)}${trail}`);
      else out.push(`${indent}${key}: ${anchor}${this.blockScalar(indent)}`);
    }
  }
}

type YamlFamily = 'accelerate' | 'megatron-yaml' | 'yaml-cfg' | 'bridge' | 'nemo' | 'mixed';

const YAML_PATHS: Record<YamlFamily, string[]> = {
  accelerate: ['accelerate_config.yaml', 'configs/fsdp.yaml', 'default_config.yml', 'launch.yaml'],
  'megatron-yaml': ['tests/functional_tests/test_cases/gpt/gpt3_tp2_pp2_1N8G/model_config.yaml', 'tests/functional_tests/test_cases/moe/x_gb200/model_config.yaml', 'model_config.yaml'],
  'yaml-cfg': ['examples/gpt3/gpt_config.yaml', 'gpt_config.yaml'],
  bridge: ['conf/llama3_8b_pretrain_override_example.yaml', 'override.yaml'],
  nemo: ['conf/training/gpt3/5b.yaml', 'megatron_gpt_config.yaml'],
  mixed: ['config.yaml', 'x.yml', 'noext'],
};

export function genYaml(r: Rng): Generated {
  const v = vocabulary();
  const family = r.pick(['accelerate', 'accelerate', 'megatron-yaml', 'yaml-cfg', 'bridge', 'nemo', 'mixed'] as const);
  const keysFor = (): (() => string) => {
    switch (family) {
      case 'accelerate':
        return () => (r.chance(0.85) ? r.pick(v.accelerateKeys.concat(v.accelerateSections)) : identifier(r));
      case 'megatron-yaml':
        return () => (r.chance(0.8) ? r.pick(v.megatronFlags) : r.pick(['MODEL_ARGS', 'ENV_VARS', 'TEST_TYPE', 'MODE', 'CUDA_DEVICE_MAX_CONNECTIONS', identifier(r)]));
      case 'yaml-cfg':
        return () => (r.chance(0.85) ? r.pick(v.megatronDests) : identifier(r));
      case 'bridge':
        return () => (r.chance(0.5) ? r.pick(v.bridgeKeys) : r.chance(0.6) ? r.pick(v.bridgeKeys).split('.').pop()! : r.pick(v.bridgeSections));
      case 'nemo':
        return () => (r.chance(0.5) ? r.pick(v.nemoKeys).split('.').pop()! : r.pick(['trainer', 'model', 'devices', 'num_nodes', 'precision', 'exp_manager', identifier(r)]));
      default:
        return () => r.pick([...v.accelerateKeys, ...v.megatronDests, ...v.deepspeedKeys, identifier(r)]);
    }
  };
  const docs: string[] = [];
  const ndocs = r.chance(0.15) ? r.range(2, 5) : 1;
  for (let d = 0; d < ndocs; d++) {
    const w = new YamlWriter(r, keysFor());
    const out: string[] = [];
    if (family === 'accelerate' && r.chance(0.7)) out.push(`distributed_type: ${r.pick(['FSDP', 'MULTI_GPU', 'DEEPSPEED', 'MEGATRON_LM', 'NO', "'NO'", 'XLA'])}`);
    if (family === 'megatron-yaml') {
      out.push('ENV_VARS:', '  CUDA_DEVICE_MAX_CONNECTIONS: ' + r.pick(['1', '32', "'1'"]), 'MODEL_ARGS:');
      for (let i = r.range(1, 25); i > 0; i--) out.push(`  ${r.pick(v.megatronFlags)}: ${w.scalar()}`);
    } else if (family === 'nemo') {
      out.push('trainer:', `  devices: ${r.pick(NUMBERS)}`, `  num_nodes: ${r.pick(NUMBERS)}`, 'model:');
      w.mapping('  ', 2, out);
    } else if (family === 'bridge' && r.chance(0.5)) {
      for (let i = r.range(1, 20); i > 0; i--) out.push(`${r.pick(v.bridgeKeys)}: ${w.scalar()}`);
    } else w.mapping('', r.range(1, 4), out);
    let doc = out.join('\n');
    if (d > 0 || r.chance(0.1)) doc = `${r.pick(['---', '--- ', '--- !!map', '---  # doc'])}\n${doc}`;
    if (r.chance(0.05)) doc = `%YAML 1.1\n${d === 0 ? '---\n' : ''}${doc}`;
    if (r.chance(0.05)) doc += '\n...';
    docs.push(doc);
  }
  let text = docs.join('\n') + (r.chance(0.9) ? '\n' : '');
  if (r.chance(0.1)) text = `# shardwise: ${r.pick(['format=accelerate', 'format=megatron-yaml', 'format=megatron-bridge', 'format=nemo', 'hardware=gb200-nvl72', 'model=llama-3-70b', 'world_size=64 nodes=8'])}\n${text}`;
  return { path: r.pick(YAML_PATHS[family]), text, variant: `yaml:${family}`, languageId: r.chance(0.1) ? 'yaml' : undefined };
}

function jsonString(r: Rng, s: string): string {
  const base = JSON.stringify(s);
  if (!r.chance(0.05)) return base;
  return base.slice(0, -1) + r.pick(['\\ud800', '\\u0000', '\\u001b[31m', '\\x41', '\\', '\t', '\u0001', '\\uZZZZ', '\\u202e']) + '"';
}

function jsonValue(r: Rng, depth: number, key: () => string): string {
  const kind = depth <= 0 ? 'scalar' : r.weighted([['scalar', 6], ['object', 2], ['array', 1]] as const);
  if (kind === 'object') return jsonObject(r, depth - 1, key);
  if (kind === 'array') return `[${Array.from({ length: r.range(0, 4) }, () => jsonValue(r, depth - 1, key)).join(', ')}]`;
  const make = r.weighted<() => string>([
    [() => r.pick(['0', '1', '2', '3', '8', '16', '32', '-1', '1e9', '5e8', '0.0001', '1e400', '-0', '18446744073709551616', '1.5', '3']), 5],
    [() => r.pick(['true', 'false', 'null']), 2],
    [() => jsonString(r, r.pick(['auto', 'cpu', 'nvme', 'none', 'Adam', 'AdamW', 'WarmupLR', '/local_nvme', 'ds.json', 'true', '8', ...WORDS])), 4],
    [() => r.pick(['NaN', 'Infinity', '-Infinity', 'undefined', "'single'", 'auto', '0x10', '01', '.5', '+1']), 0.2],
  ]);
  return make();
}

function jsonObject(r: Rng, depth: number, key: () => string): string {
  const n = r.range(0, 7);
  const entries: string[] = [];
  for (let i = 0; i < n; i++) {
    const k = key();
    const quotedKey = r.chance(0.02) ? k : r.chance(0.02) ? `'${k}'` : jsonString(r, k);
    entries.push(`${quotedKey}${r.chance(0.01) ? ' ' : ': '}${jsonValue(r, depth, key)}`);
    if (r.chance(0.03)) entries.push(`${jsonString(r, k)}: ${jsonValue(r, 0, key)}`); // duplicate key
  }
  const sep = r.pick([',\n', ', ', ',']);
  let body = entries.join(sep);
  if (r.chance(0.05)) body += ',';
  if (r.chance(0.04)) body = `// comment\n${body}`;
  if (r.chance(0.03)) body += ' /* block */';
  return `{${r.chance(0.5) ? '\n' : ''}${body}${r.chance(0.5) ? '\n' : ''}}`;
}

export function genJson(r: Rng): Generated {
  const v = vocabulary();
  const top = (): string => (r.chance(0.8) ? r.pick(v.deepspeedKeys) : identifier(r));
  const sections = v.deepspeedSections;
  const entries: string[] = [];
  for (let i = r.range(1, 8); i > 0; i--) {
    if (r.chance(0.5)) {
      const s = r.pick(sections);
      entries.push(`  ${JSON.stringify(s)}: ${jsonObject(r, 2, top)}`);
    } else entries.push(`  ${JSON.stringify(top())}: ${jsonValue(r, 2, top)}`);
  }
  if (r.chance(0.5)) entries.unshift(`  "train_micro_batch_size_per_gpu": ${r.pick(['1', '2', '"auto"', '0', '-4'])}`, `  "zero_optimization": {"stage": ${r.pick(['0', '1', '2', '3', '4', '"3"'])}}`);
  let text = `{\n${entries.join(',\n')}\n}`;
  if (r.chance(0.05)) text = text.slice(0, r.int(text.length)); // truncated
  if (r.chance(0.03)) text = `[${text}]`;
  if (r.chance(0.03)) text = `${text}\n${text}`;
  return { path: r.pick(['ds_config.json', 'ds_zero3.json', 'zero_stage2_config.json', 'config.json', 'ds.jsonc', 'noext']), text: text + (r.chance(0.8) ? '\n' : ''), variant: 'json:deepspeed', languageId: r.chance(0.1) ? r.pick(['json', 'jsonc']) : undefined };
}

/** A flag's value as scripts write it. */
function shellValue(r: Rng, vars: string[]): string {
  const make = r.weighted<() => string>([
    [() => r.pick(['1', '2', '4', '8', '16', '32', '4096', '8192', '0', '-1', '1e-4', '3.0e-4', '0.1', '99999999999', 'bf16', 'cosine', 'mmap', 'GPT2BPETokenizer', 'local', 'selective', 'full']), 5],
    [() => (vars.length ? r.pick([`$${r.pick(vars)}`, `\${${r.pick(vars)}}`, `"$${r.pick(vars)}"`, `\${${r.pick(vars)}:-${r.range(1, 8)}}`]) : '8'), 3],
    [() => r.pick(['$((TP*2))', '$(( 8 / PP ))', '$((1<<3))', '$((GPUS_PER_NODE*NNODES))', '$(nproc)', '`hostname`', '$1', '"$@"', '${SLURM_NNODES:-1}', '${#ARR[@]}', '${X%%.*}', '${X:0:2}', '${X/a/b}', '$RANDOM', '${!ref}']), 1],
    [() => r.pick(['"quoted value"', "'single'", '"a b c"', '"$DATA_PATH/file"', '"unterminated', "'unterminated", '"x\\"y"', "$'ansi\\n'", '~/path', '/data/*.bin', '{1..4}']), 1],
  ]);
  return make();
}

function flagList(r: Rng, vars: string[], n: number): string[] {
  const v = vocabulary();
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const flag = r.chance(0.93) ? r.pick(v.megatronFlags) : r.pick(['--num-layrs', '--tensor-model-parallel', '--foo', '-x', '--', '--tp=2', '--seq_length', '--bf16']);
    const value = r.chance(0.7) ? shellValue(r, vars) : '';
    out.push(value ? (r.chance(0.1) ? `${flag}=${value}` : `${flag} ${value}`) : flag);
  }
  return out;
}

export function genShell(r: Rng): Generated {
  const lines: string[] = [];
  const vars: string[] = [];
  if (r.chance(0.8)) lines.push(r.pick(['#!/bin/bash', '#!/usr/bin/env bash', '#!/bin/sh', '#!/bin/bash -ex']));
  if (r.chance(0.3)) lines.push(r.pick(['set -euo pipefail', 'set -x', 'source ./env.sh', '. /etc/profile']));
  if (r.chance(0.6)) lines.push(`export CUDA_DEVICE_MAX_CONNECTIONS=${r.pick(['1', '32', '$X'])}`);
  for (let i = r.range(0, 8); i > 0; i--) {
    const name = r.pick(['TP', 'PP', 'CP', 'EP', 'GPUS_PER_NODE', 'NNODES', 'NODE_RANK', 'MBS', 'GBS', 'SEQ', 'LAYERS', 'HIDDEN', 'HEADS', 'DATA_PATH', 'X', 'WORLD_SIZE']);
    vars.push(name);
    lines.push(
      r.pick([
        `${name}=${r.range(1, 16)}`,
        `${name}=\${${name}:-${r.range(1, 16)}}`,
        `${name}=\${1:-8}`,
        `${name}=$(( ${r.pick(vars)} * ${r.range(1, 4)} ))`,
        `${name}=$((${r.pick(vars)}/0))`,
        `${name}="$(nproc)"`,
        `export ${name}=\${${name}:=${r.range(1, 8)}}`,
        `readonly ${name}=${r.range(1, 8)}`,
        `${name}=\${SLURM_NNODES:-2}`,
        `${name}=$(( ${'('.repeat(r.range(1, 6))}2${')'.repeat(r.range(1, 6))} ))`,
        `${name}=\`echo 4\``,
        `${name}+=1`,
      ]),
    );
  }
  const arrays: string[] = [];
  for (let i = r.range(0, 4); i > 0; i--) {
    const name = r.pick(['MODEL_ARGS', 'GPT_ARGS', 'TRAINING_ARGS', 'DISTRIBUTED_ARGS', 'DATA_ARGS', 'OUTPUT_ARGS', 'MOE_ARGS']);
    arrays.push(name);
    const flags = name === 'DISTRIBUTED_ARGS' ? ['--nproc_per_node $GPUS_PER_NODE', '--nnodes $NNODES', '--node_rank $NODE_RANK', '--master_port 6000'] : flagList(r, vars, r.range(1, 15));
    if (r.chance(0.15)) lines.push(`${name}=(${flags.join(' ')})`);
    else if (r.chance(0.1)) lines.push(`declare -a ${name}=(`, ...flags.map((f) => `  ${f}`), ')');
    else lines.push(`${name}=(`, ...flags.map((f) => `    ${f}${r.chance(0.05) ? '  # comment' : ''}`), ')');
    if (r.chance(0.15)) lines.push(`${name}+=(${flagList(r, vars, 2).join(' ')})`);
  }
  if (r.chance(0.2)) lines.push('if [ "$NNODES" -gt 1 ]; then', `  TP=${r.range(1, 8)}`, 'else', `  TP=${r.range(1, 8)}`, 'fi');
  if (r.chance(0.1)) lines.push('for i in 1 2 3; do', '  echo $i', 'done');
  if (r.chance(0.1)) lines.push('case "$MODE" in', '  small) LAYERS=2 ;;', '  *) LAYERS=32 ;;', 'esac');
  if (r.chance(0.15)) lines.push(r.pick(['cat <<EOF > ds.json', "cat <<-'EOF' > ds.json", 'cat << "EOF"']), '{"train_batch_size": 8, "zero_optimization": {"stage": 3}}', r.pick(['EOF', '\tEOF', 'EOF ', 'NOTEOF']));
  const entry = r.pick(['pretrain_gpt.py', 'pretrain_bert.py', 'pretrain_t5.py', '${MEGATRON_PATH}/pretrain_gpt.py', 'tasks/main.py', 'tools/run_text_generation.py', 'pretrain_gpt2.py', 'train.py', 'examples/multimodal/train.py']);
  const launcher = r.pick([
    'torchrun $' + '{DISTRIBUTED_ARGS[@]}',
    'torchrun --nproc_per_node 8 --nnodes 2',
    'python -m torch.distributed.run --nproc-per-node=8',
    'python -m torch.distributed.launch --nproc_per_node 8',
    'srun -N 2 --ntasks-per-node 8 python',
    'srun -N $NNODES torchrun --nproc_per_node $GPUS_PER_NODE',
    'mpirun -np 16 python',
    'deepspeed --num_gpus 8',
    'python',
    'python3 -u',
  ]);
  const args = [...arrays.map((a) => `"\${${a}[@]}"`), ...flagList(r, vars, r.range(0, 12))];
  if (r.chance(0.1)) args.push('--deepspeed', '--deepspeed_config ds.json');
  const cmd = `${launcher.replace('${DISTRIBUTED_ARGS[@]}', '"${DISTRIBUTED_ARGS[@]}"')} ${entry}`;
  const style = r.pick(['continuation', 'continuation', 'one-line', 'function', 'bash-c']);
  if (style === 'continuation') {
    lines.push(`${cmd} \\`);
    args.forEach((a, i) => lines.push(`    ${a}${i < args.length - 1 ? (r.chance(0.03) ? ' \\ ' : ' \\') : ''}`));
  } else if (style === 'one-line') lines.push(`${cmd} ${args.join(' ')}${r.chance(0.3) ? ' 2>&1 | tee log.txt' : ''}`);
  else if (style === 'function') lines.push('run() {', `  ${cmd} ${args.join(' ')} "$@"`, '}', 'run --seed 1');
  else lines.push(`bash -c "${cmd.replace(/"/g, '\\"')} ${args.join(' ').replace(/"/g, '\\"')}"`);
  if (r.chance(0.05)) lines.push(r.pick(['"unterminated', "echo 'open", '$(', 'echo $((', '`', 'fi', 'done', '}', 'EOF', '\\']));
  return { path: r.pick(['train.sh', 'examples/gpt3/train_gpt3_175b_distributed.sh', 'launch.sh', 'run_pretrain.sh', 'script']), text: lines.join('\n') + '\n', variant: `shell:${style}`, languageId: r.chance(0.1) ? 'shellscript' : undefined };
}
