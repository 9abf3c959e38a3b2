#!/usr/bin/env node
// `npm run bench`: Shardwise's language server against yaml-language-server 2.0.0, on the same
// files and the same schema (schemas/accelerate.schema.json), in the same run, on this machine.
// A benchmark, never a test: it asserts nothing about speed; it prints a table with ratios.
//
//   node test/bench/run.mjs [--quick] [--skip-50k] [--no-peer] [--timeout=SECONDS] [--json=FILE]
//                           [--cache-dir=DIR] [--keep-inputs]
//
// Method (after /work/shared/reference/peers.md §3): each server runs over stdio, driven by a small
// JSON-RPC client in this file that answers `workspace/configuration` with the server's settings.
// A latency is the time from just before a message is written to the server's stdin to the moment
// the matching answer is parsed from its stdout:
//   - didChange → the publishDiagnostics of that change: a one-line incremental edit that adds or
//     removes one error (`main_process_port: 29500` ↔ `95000`, above the schema maximum),
//     alternating, so the two states have different diagnostic counts. A publish matches when it
//     carries the change's version, or (for a server that publishes no version) when its count is
//     the count of the new text. Every matched publish's count is checked against its state, so a
//     stale publish is never timed.
//   - didOpen → first publishDiagnostics (same URI each time, closed in between, a new version
//     number on each open so that yaml-language-server's parse cache, keyed on URI + version and
//     kept after close, cannot answer from the previous open);
//   - spawn → initialize result (fresh processes);
//   - hover on the `num_processes` key.
// Median and p95 are nearest-rank, over n ≥ 30 measured iterations after warm-up (--quick: fewer).
// RSS is VmRSS from /proc/<pid>/status of a fresh server: after a warm-up, and after 100
// open → diagnostics → close cycles of distinct URIs with the 5k-line file (retention); VmHWM is the peak.
//
// Inputs (generated at bench time into a temp folder; nothing large is committed):
//   - small: ~60-line Accelerate config (examples/accelerate/clean-fsdp2-hsdp.yaml grown with the
//     comments and keys a real config has) with 3 planted errors (an enum typo, a key typo inside
//     fsdp_config, a boolean written as text);
//   - large-5k / large-50k: an XLA (TPU pod) Accelerate config whose long sections are the
//     `commands` list (setup commands `accelerate tpu-config` runs on every VM) and the `tpu_env`
//     list, split around `main_process_port` so the edited line is mid-file, plus the same 3 planted
//     errors. Both lists are arrays of strings in the schema, so both servers parse every line and
//     validate every item against the schema (Accelerate has no list of runs; this is the one
//     place a real config grows long).
//
// The peer is installed by `npm ci` from test/bench/package.json + package-lock.json into a cache
// folder outside the clone ($SHARDWISE_BENCH_CACHE, or $XDG_CACHE_HOME/shardwise-bench, or
// ~/.cache/shardwise-bench), with a stamp file so later runs skip the install.
// It gets `yaml.schemas: { "file:///…/accelerate.schema.json": ["*.yaml"] }`, SchemaStore off,
// validation on, `yaml.customTags: []`; it validates after a fixed delay, which is the point of the
// comparison.

import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, homedir, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BENCH = join(ROOT, 'test', 'bench');
const SCHEMA = join(ROOT, 'schemas', 'accelerate.schema.json');
const SHARDWISE_MAIN = join(ROOT, 'dist', 'server', 'main.js');
const PEER_NAME = 'yaml-language-server';
const PEER_VERSION = '2.0.0';

// ---------------------------------------------------------------------------------------------
// Options

const { values: opt } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    'skip-50k': { type: 'boolean', default: false },
    'no-peer': { type: 'boolean', default: false },
    timeout: { type: 'string' },
    json: { type: 'string' },
    'cache-dir': { type: 'string' },
    'keep-inputs': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});
if (opt.help) {
  process.stdout.write(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 7).map((l) => l.replace(/^\/\/ ?/, '')).join('\n') + '\n');
  process.exit(0);
}
const QUICK = opt.quick;
const N = QUICK ? 6 : 30; // measured iterations per latency
const WARMUP = QUICK ? 2 : 5;
const SPAWNS = QUICK ? 2 : 7;
const CYCLES = QUICK ? 20 : 100;
const WITH_50K = !opt['skip-50k'] && !QUICK;
const HARD_TIMEOUT_S = Number(opt.timeout ?? (QUICK ? 600 : 2400));
const WAIT_MS = 180_000; // one answer; far above anything expected, only to never hang

// ---------------------------------------------------------------------------------------------
// Hard overall timeout and child bookkeeping: no server outlives the bench.

const live = new Set();
let inputsDir; // removed on every way out unless --keep-inputs
function removeInputs() {
  if (inputsDir && !opt['keep-inputs']) rmSync(inputsDir, { recursive: true, force: true });
}
function killAll() {
  for (const child of live) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}
const hardTimer = setTimeout(() => {
  console.error(`\nbench: overall timeout (${HARD_TIMEOUT_S} s) reached; killing the servers.`);
  killAll();
  removeInputs();
  process.exit(1);
}, HARD_TIMEOUT_S * 1000);
process.on('exit', killAll);
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    killAll();
    removeInputs();
    process.exit(130);
  });
}

function log(...args) {
  console.error(...args);
}

// ---------------------------------------------------------------------------------------------
// Peer installation (cached)

function peerCacheRoot() {
  if (opt['cache-dir']) return resolve(opt['cache-dir']);
  if (process.env.SHARDWISE_BENCH_CACHE) return resolve(process.env.SHARDWISE_BENCH_CACHE);
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'shardwise-bench');
}

function installPeer() {
  const manifest = readFileSync(join(BENCH, 'package.json'));
  const lock = readFileSync(join(BENCH, 'package-lock.json'));
  const hash = createHash('sha256').update(manifest).update('\0').update(lock).digest('hex').slice(0, 16);
  const dir = join(peerCacheRoot(), `peers-${hash}`);
  const bin = join(dir, 'node_modules', PEER_NAME, 'bin', PEER_NAME);
  const stamp = join(dir, '.installed.json');
  if (existsSync(stamp) && existsSync(bin)) return { bin, dir, cached: true };
  log(`bench: installing ${PEER_NAME}@${PEER_VERSION} into ${dir} (npm ci) …`);
  try {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(BENCH, 'package.json'), join(dir, 'package.json'));
    copyFileSync(join(BENCH, 'package-lock.json'), join(dir, 'package-lock.json'));
  } catch (e) {
    throw new Error(`cannot prepare the peer cache folder ${dir}: ${e.message}. Set --cache-dir=DIR or SHARDWISE_BENCH_CACHE to a writable folder.`);
  }
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', '--engine-strict=false'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 10 * 60_000,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  if (r.error || r.status !== 0 || !existsSync(bin)) {
    const why = r.error ? r.error.message : r.status !== 0 ? `npm ci exited with ${r.status}${r.signal ? ` (${r.signal})` : ''}` : `${bin} is missing after npm ci`;
    const tail = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-25).join('\n');
    throw new Error(
      `could not install the peer ${PEER_NAME}@${PEER_VERSION}: ${why}\n${tail ? `--- npm output (tail) ---\n${tail}\n` : ''}` +
        'Check that npm can reach its registry (proxy / offline cache), then run the bench again; ' +
        `or run with --no-peer to measure Shardwise alone. Cache folder: ${dir}`,
    );
  }
  writeFileSync(stamp, JSON.stringify({ package: `${PEER_NAME}@${PEER_VERSION}`, hash, node: process.version, installedAt: new Date().toISOString() }, null, 2) + '\n');
  return { bin, dir, cached: false };
}

// ---------------------------------------------------------------------------------------------
// Inputs

/** The realistic ~60-line config: examples/accelerate/clean-fsdp2-hsdp.yaml grown, 3 planted errors. */
function smallConfig() {
  return [
    '# Llama-3.1-8B supervised fine-tuning on 2 nodes x 8 H100 SXM.',
    '# Launch on every node: accelerate launch --config_file fsdp2-hsdp.yaml --machine_rank $RANK train.py',
    '# FSDP2 with hybrid sharding: replicate across the nodes, shard within a node, TP inside.',
    '# 16 processes = dp_replicate 2 x dp_shard 4 x tp 2.',
    'compute_environment: LOCAL_MACHINE',
    'debug: false',
    'distributed_type: FSDP',
    "downcast_bf16: 'no'",
    'enable_cpu_affinity: false',
    'gpu_ids: all',
    '',
    '# --- rendezvous ---------------------------------------------------------',
    'num_machines: 2',
    'machine_rank: 0',
    'main_process_ip: 10.0.0.1',
    'main_process_port: 29500',
    'rdzv_backend: static',
    'same_network: true',
    'num_processes: 16',
    '',
    '# --- precision and entry point ----------------------------------------',
    'mixed_precision: bf16',
    'main_training_function: main',
    'use_cpu: false',
    '',
    '# --- FSDP (v2) ---------------------------------------------------------',
    'fsdp_config:',
    '  fsdp_version: 2',
    '  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP',
    '  fsdp_transformer_layer_cls_to_wrap: LlamaDecoderLayer',
    '  # Reshard after forward (ZeRO-3 style): less memory, one more all-gather per layer.',
    '  fsdp_reshard_after_forward: true',
    '  fsdp_state_dict_type: SHARDED_STATE_DIC', // planted 1: enum typo
    '  fsdp_cpu_ram_efficient_loading: false',
    '  fsdp_offload_params: false',
    '  fsdp_activation_checkpointing: true',
    '  fsdp_activaton_checkpointing_reentrant: false', // planted 2: unknown key in fsdp_config
    '',
    '# --- N-D parallelism ----------------------------------------------------',
    'parallelism_config:',
    '  parallelism_config_dp_replicate_size: 2',
    '  parallelism_config_dp_shard_size: 4',
    '  parallelism_config_tp_size: 2',
    '  parallelism_config_cp_size: 1',
    '',
    '# --- torch.compile --------------------------------------------------------',
    'dynamo_config:',
    '  dynamo_backend: INDUCTOR',
    '  dynamo_mode: default',
    '  dynamo_use_fullgraph: false',
    '  dynamo_use_dynamic: maybe', // planted 3: not a boolean
    '  dynamo_use_regional_compilation: true',
    '',
    '# Checkpoints are written by the training script (save_state every 500 steps);',
    '# the sharded state dict above keeps each rank writing only its own shard.',
    '# Numbers for this layout: ~41 GiB per GPU with activation checkpointing,',
    '# ~3,900 tokens/s per GPU at sequence length 8192.',
    '',
  ].join('\n');
}

const COMMAND_TEMPLATES = [
  (i) => `pip install --upgrade --quiet "torch~=2.6.0" "torch_xla[tpu]~=2.6.0" -f https://storage.googleapis.com/libtpu-releases/index.html # step ${i}`,
  (i) => `gsutil -m cp -r gs://my-bucket/datasets/shard-${String(i).padStart(5, '0')} /mnt/data/`,
  (i) => `export XLA_PERSISTENT_CACHE_PATH=/mnt/cache/xla-${i % 64} && mkdir -p "$XLA_PERSISTENT_CACHE_PATH"`,
  (i) => `python -c "import torch_xla; print(torch_xla.__version__)" >> /tmp/setup-${i}.log`,
  (i) => `sudo sysctl -w net.core.rmem_max=${4194304 + i} && echo tuned >> /tmp/setup.log`,
];

/**
 * A long XLA config: header keys, `commands` (half the lines), `main_process_port` mid-file (the
 * edited line), `tpu_env` (the other half), a dynamo section; the 3 planted errors as in `small`.
 */
function largeConfig(totalLines) {
  const head = [
    '# TPU v5p-128 pod: setup commands and environment for every VM, used by',
    '# `accelerate tpu-config` and `accelerate launch` (generated by the Shardwise bench).',
    'compute_environment: LOCAL_MACHINE',
    'distributed_type: XLA',
    "downcast_bf16: 'no'",
    'mixed_precision: bf16',
    'num_machines: 1',
    'machine_rank: 0',
    'num_processes: 8',
    'main_training_function: main',
    'tpu_name: train-v5p-128',
    'tpu_zone: us-east5-a',
    'tpu_use_cluster: true',
    'tpu_use_sudo: false',
    'tpu_vm:',
    '  - train-v5p-128-w-0',
    '  - train-v5p-128-w-1',
    'dynamo_config:',
    '  dynamo_backend: AOT_TORCHXLA_TRACE_ONCE',
    '  dynamo_mode: defualt', // planted 1: enum typo
    '  dynamo_use_fullgraph: maybe', // planted 2: not a boolean
    'tpu_zonee: us-east5-b', // planted 3: unknown top-level key
    'commands:',
  ];
  const tail = ['# end of the generated config', ''];
  const listLines = totalLines - head.length - tail.length - 2; // 2: main_process_port + tpu_env:
  const half = Math.floor(listLines / 2);
  const out = [...head];
  for (let i = 0; i < half; i++) {
    if (i % 500 === 499) out.push(`  # --- batch ${Math.floor(i / 500) + 1} of setup commands ---`);
    else out.push(`  - ${COMMAND_TEMPLATES[i % COMMAND_TEMPLATES.length](i)}`);
  }
  out.push('main_process_port: 29500');
  out.push('tpu_env:');
  for (let i = 0; i < listLines - half; i++) out.push(`  - XLA_FLAG_${i}=--xla_tpu_enable_latency_hiding_scheduler=true`);
  out.push(...tail);
  return out.join('\n');
}

function makeInputs(dir) {
  const files = [
    { name: 'small', file: join(dir, 'small.yaml'), text: smallConfig() },
    { name: 'large-5k', file: join(dir, 'large-5k.yaml'), text: largeConfig(5000) },
  ];
  if (WITH_50K) files.push({ name: 'large-50k', file: join(dir, 'large-50k.yaml'), text: largeConfig(50_000) });
  for (const f of files) {
    writeFileSync(f.file, f.text);
    f.uri = pathToFileURL(f.file).href;
    const lines = f.text.split('\n');
    f.lines = f.text.endsWith('\n') ? lines.length - 1 : lines.length;
    f.editLine = lines.findIndex((l) => l.startsWith('main_process_port: '));
    f.hoverLine = lines.findIndex((l) => l.startsWith('num_processes: '));
    if (f.editLine < 0 || f.hoverLine < 0) throw new Error(`input ${f.name}: no edit or hover line`);
  }
  return files;
}

/** The one-line incremental edit for state 0 (valid port) or 1 (out-of-range port). */
function editFor(f, state) {
  const line = f.editLine;
  return { range: { start: { line, character: 'main_process_port: '.length }, end: { line, character: 'main_process_port: '.length + 5 } }, text: state ? '95000' : '29500' };
}

// ---------------------------------------------------------------------------------------------
// A minimal LSP client over stdio (framed JSON-RPC)

const CLIENT_CAPABILITIES = {
  workspace: {
    applyEdit: true,
    workspaceEdit: { documentChanges: true },
    didChangeConfiguration: { dynamicRegistration: true },
    didChangeWatchedFiles: { dynamicRegistration: true },
    configuration: true,
    workspaceFolders: true,
  },
  textDocument: {
    synchronization: { dynamicRegistration: true, willSave: true, willSaveWaitUntil: true, didSave: true },
    publishDiagnostics: { relatedInformation: true, versionSupport: true, tagSupport: { valueSet: [1, 2] }, codeDescriptionSupport: true, dataSupport: true },
    completion: { completionItem: { snippetSupport: true, documentationFormat: ['markdown', 'plaintext'], insertReplaceSupport: true }, contextSupport: true },
    hover: { contentFormat: ['markdown', 'plaintext'] },
    codeAction: { isPreferredSupport: true, codeActionLiteralSupport: { codeActionKind: { valueSet: ['', 'quickfix', 'refactor', 'source', 'source.fixAll'] } } },
  },
  window: { workDoneProgress: true, showMessage: {}, showDocument: { support: true } },
  general: { positionEncodings: ['utf-16'] },
};

class LspServer {
  constructor(spec, workspace) {
    this.spec = spec;
    this.workspace = workspace;
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = new Set();
    this.chunks = [];
    this.buffered = 0;
    this.stderr = '';
    this.exited = false;
    this.configAnswered = 0;
    this.publishesOnClose = undefined;
  }

  /** Spawns and initializes; returns ms from spawn to the initialize result. */
  async start() {
    const t0 = performance.now();
    const child = spawn(process.execPath, [...this.spec.args, '--stdio'], { cwd: this.workspace, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    live.add(child);
    this.exitPromise = new Promise((res) => {
      child.once('exit', (code, signal) => {
        this.exited = true;
        this.exitInfo = `exited with ${code ?? signal}`;
        live.delete(child);
        for (const [, p] of this.pending) p.reject(new Error(`${this.spec.name} ${this.exitInfo}${this.stderrTail()}`));
        this.pending.clear();
        for (const l of [...this.listeners]) l.fail?.(new Error(`${this.spec.name} ${this.exitInfo}${this.stderrTail()}`));
        res();
      });
    });
    child.on('error', () => undefined);
    child.stdin.on('error', () => undefined);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (s) => (this.stderr = (this.stderr + s).slice(-8000)));
    child.stdout.on('data', (b) => this.onData(b));
    const folder = pathToFileURL(this.workspace).href;
    const result = await this.request('initialize', {
      processId: process.pid,
      clientInfo: { name: 'shardwise-bench', version: '1' },
      rootUri: folder,
      workspaceFolders: [{ uri: folder, name: 'bench' }],
      capabilities: CLIENT_CAPABILITIES,
      initializationOptions: this.spec.initializationOptions,
      trace: 'off',
    });
    const ms = performance.now() - t0;
    this.capabilities = result?.capabilities;
    this.notify('initialized', {});
    return ms;
  }

  /** Sends the settings and waits until the server has pulled them (if it pulls). */
  async configure() {
    const before = this.configAnswered;
    this.notify('workspace/didChangeConfiguration', { settings: this.spec.settingsAll() });
    const until = performance.now() + 10_000;
    while (this.configAnswered === before && performance.now() < until && !this.exited) await sleep(20);
    await sleep(150); // let the server apply them (schema association) before the first document
  }

  stderrTail() {
    const t = this.stderr.trim();
    return t ? `\n--- ${this.spec.name} stderr (tail) ---\n${t.slice(-2000)}` : '';
  }

  onData(buf) {
    this.chunks.push(buf);
    this.buffered += buf.length;
    for (;;) {
      let data = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
      this.chunks = [data];
      const headerEnd = data.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const header = data.subarray(0, headerEnd).toString('ascii');
      const m = /Content-Length:\s*(\d+)/i.exec(header);
      if (!m) throw new Error(`${this.spec.name}: bad header ${JSON.stringify(header)}`);
      const len = Number(m[1]);
      const start = headerEnd + 4;
      if (data.length < start + len) return;
      const at = performance.now();
      const msg = JSON.parse(data.subarray(start, start + len).toString('utf8'));
      data = data.subarray(start + len);
      this.chunks = data.length ? [data] : [];
      this.buffered = data.length;
      this.dispatch(msg, at);
      if (!data.length) return;
    }
  }

  dispatch(msg, at) {
    if (msg.id !== undefined && msg.method === undefined) {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      clearTimeout(p.timer);
      if (msg.error) p.reject(new Error(`${this.spec.name}: ${p.method} failed: ${msg.error.message}`));
      else p.resolve({ result: msg.result, at });
      return;
    }
    if (msg.id !== undefined) {
      // A request from the server.
      let result = null;
      if (msg.method === 'workspace/configuration') {
        result = (msg.params?.items ?? []).map((item) => this.spec.settingsFor(item.section));
        this.configAnswered++;
      } else if (msg.method === 'workspace/workspaceFolders') {
        result = [{ uri: pathToFileURL(this.workspace).href, name: 'bench' }];
      }
      this.write({ jsonrpc: '2.0', id: msg.id, result });
      return;
    }
    if (msg.method === 'textDocument/publishDiagnostics') {
      for (const l of [...this.listeners]) l.onPublish(msg.params, at);
    }
  }

  write(msg) {
    const body = Buffer.from(JSON.stringify(msg), 'utf8');
    this.child.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]));
  }

  /** Resolves `{ result, at, ms }`; `ms` from just before the write to the parsed response. */
  request(method, params, timeoutMs = WAIT_MS) {
    const id = this.nextId++;
    return new Promise((res, rej) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        rej(new Error(`${this.spec.name}: no answer to ${method} within ${timeoutMs} ms${this.stderrTail()}`));
      }, timeoutMs);
      const t0 = performance.now();
      this.pending.set(id, {
        method,
        timer,
        resolve: (r) => res(method === 'initialize' ? r.result : { ...r, ms: r.at - t0 }),
        reject: rej,
      });
      if (this.exited) {
        clearTimeout(timer);
        this.pending.delete(id);
        rej(new Error(`${this.spec.name} ${this.exitInfo}`));
        return;
      }
      this.write({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method, params) {
    this.write({ jsonrpc: '2.0', method, params });
  }

  /**
   * Writes a notification and resolves with ms until a publishDiagnostics for `uri` satisfies
   * `match` (registered before the write, so nothing is missed).
   */
  notifyAndWait(method, params, uri, match, what, timeoutMs = WAIT_MS) {
    return new Promise((res, rej) => {
      let t0 = 0;
      const listener = {
        onPublish: (p, at) => {
          if (p.uri !== uri) return;
          let ok;
          try {
            ok = match(p);
          } catch (e) {
            done();
            rej(e);
            return;
          }
          if (ok) {
            done();
            res({ ms: at - t0, params: p });
          }
        },
        fail: (e) => {
          done();
          rej(e);
        },
      };
      const timer = setTimeout(() => {
        done();
        rej(new Error(`${this.spec.name}: no diagnostics for ${what} within ${timeoutMs} ms${this.stderrTail()}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.listeners.delete(listener);
      };
      this.listeners.add(listener);
      t0 = performance.now();
      this.notify(method, params);
    });
  }

  /** VmRSS and VmHWM of the server process, MiB (Linux). */
  memory() {
    try {
      const s = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
      const kib = (k) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(s)?.[1] ?? NaN);
      return { rss: kib('VmRSS') / 1024, hwm: kib('VmHWM') / 1024 };
    } catch {
      return { rss: NaN, hwm: NaN };
    }
  }

  async stop() {
    if (!this.exited) {
      try {
        await this.request('shutdown', null, 10_000);
        this.notify('exit', null);
        await Promise.race([this.exitPromise, sleep(5_000)]);
      } catch {
        // unresponsive: killed below
      }
    }
    if (!this.exited) {
      this.child.kill('SIGKILL');
      await Promise.race([this.exitPromise, sleep(5_000)]);
    }
    for (const s of [this.child.stdin, this.child.stdout, this.child.stderr]) s?.destroy();
  }
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

// ---------------------------------------------------------------------------------------------
// Server specs

function shardwiseSpec() {
  return {
    name: 'Shardwise',
    args: [SHARDWISE_MAIN],
    settingsFor: (section) => (section === 'shardwise' ? {} : null),
    settingsAll: () => ({ shardwise: {} }),
  };
}

function peerSpec(bin) {
  const yaml = {
    validate: true,
    hover: true,
    completion: true,
    format: { enable: false },
    schemas: { [pathToFileURL(SCHEMA).href]: ['*.yaml'] },
    schemaStore: { enable: false, url: '' },
    kubernetesCRDStore: { enable: false },
    customTags: [],
    disableDefaultProperties: false,
    maxItemsComputed: 5000,
    keyOrdering: false,
    suggest: { parentSkeletonSelectedFirst: false },
  };
  const sections = {
    yaml,
    http: { proxy: '', proxyStrictSSL: true },
    '[yaml]': { 'editor.tabSize': 2, 'editor.insertSpaces': true, 'editor.formatOnType': false },
    editor: { tabSize: 2, insertSpaces: true, detectIndentation: false },
    files: { associations: {} },
  };
  return {
    name: `${PEER_NAME} ${PEER_VERSION}`,
    args: [bin],
    settingsFor: (section) => (section in sections ? sections[section] : null),
    settingsAll: () => sections,
  };
}

// ---------------------------------------------------------------------------------------------
// Measurements

function percentile(values, p) {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
const stats = (values) => ({ n: values.length, median: percentile(values, 50), p95: percentile(values, 95), min: Math.min(...values), max: Math.max(...values) });

/** Opens `f` at `uri`, waits for its diagnostics; returns ms and the count. */
async function openAndWait(server, f, uri, expectCount, version = 1) {
  const { ms, params } = await server.notifyAndWait(
    'textDocument/didOpen',
    { textDocument: { uri, languageId: 'yaml', version, text: f.text } },
    uri,
    (p) => (p.version === undefined || p.version === null || p.version === version) && (expectCount === undefined || p.diagnostics.length === expectCount),
    `didOpen of ${f.name}`,
  );
  return { ms, count: params.diagnostics.length };
}

async function closeAndSettle(server, uri) {
  if (server.publishesOnClose === false) {
    server.notify('textDocument/didClose', { textDocument: { uri } });
    return;
  }
  try {
    await server.notifyAndWait('textDocument/didClose', { textDocument: { uri } }, uri, (p) => p.diagnostics.length === 0, 'didClose', server.publishesOnClose ? WAIT_MS : 3_000);
    server.publishesOnClose = true;
  } catch (e) {
    if (server.publishesOnClose === undefined && !server.exited) server.publishesOnClose = false;
    else throw e;
  }
}

/** Latency of didOpen, didChange and hover on one file, for one running server. */
async function measureFile(server, f) {
  const uri = f.uri;
  // Cold open, then learn the two states' diagnostic counts.
  const cold = await openAndWait(server, f, uri);
  const counts = [cold.count, undefined];
  let version = 1;
  let state = 0;
  const change = async (expect) => {
    state ^= 1;
    version += 1;
    const v = version;
    const e = editFor(f, state);
    const { ms, params } = await server.notifyAndWait(
      'textDocument/didChange',
      { textDocument: { uri, version: v }, contentChanges: [e] },
      uri,
      (p) => {
        if (p.version !== undefined && p.version !== null) {
          if (p.version < v) return false;
          if (expect !== undefined && p.diagnostics.length !== expect) throw new Error(`${server.spec.name}: version ${v} of ${f.name} published ${p.diagnostics.length} diagnostics, expected ${expect}`);
          return true;
        }
        return expect === undefined ? true : p.diagnostics.length === expect;
      },
      `didChange of ${f.name}`,
    );
    return { ms, count: params.diagnostics.length };
  };
  // Learn state 1's count (versioned servers tell us; unversioned: wait past the delay for a change).
  if (server.versioned) {
    counts[1] = (await change(undefined)).count;
  } else {
    // Wait until the count differs from state 0's: the peer publishes after its fixed delay.
    state ^= 1;
    version += 1;
    const { params } = await server.notifyAndWait(
      'textDocument/didChange',
      { textDocument: { uri, version }, contentChanges: [editFor(f, state)] },
      uri,
      (p) => p.diagnostics.length !== counts[0],
      `didChange of ${f.name}`,
    );
    counts[1] = params.diagnostics.length;
  }
  if (counts[0] === counts[1]) throw new Error(`${server.spec.name}: the edit on ${f.name} does not change the number of diagnostics (${counts[0]}); cannot tell publishes apart`);
  const changeTimes = [];
  for (let i = 0; i < WARMUP + N; i++) {
    const r = await change(counts[state ^ 1]);
    if (i >= WARMUP) changeTimes.push(r.ms);
  }
  // Back to state 0 for hover and the open measurements.
  if (state !== 0) await change(counts[0]);

  const hoverPos = { line: f.hoverLine, character: 3 };
  const hoverTimes = [];
  let hoverOk = true;
  for (let i = 0; i < WARMUP + N; i++) {
    const r = await server.request('textDocument/hover', { textDocument: { uri }, position: hoverPos });
    if (!r.result) hoverOk = false;
    if (i >= WARMUP) hoverTimes.push(r.ms);
  }

  await closeAndSettle(server, uri);
  const openTimes = [];
  for (let i = 0; i < WARMUP + N; i++) {
    // A new version number on every reopen: a cache keyed on (URI, version) would otherwise
    // answer from the previous open and skip the parse that a real open needs.
    const r = await openAndWait(server, f, uri, counts[0], 1000 + i);
    if (i >= WARMUP) openTimes.push(r.ms);
    await closeAndSettle(server, uri);
  }
  return { cold: cold.ms, counts, change: stats(changeTimes), open: stats(openTimes), hover: { ...stats(hoverTimes), ok: hoverOk } };
}

async function startServer(spec, workspace) {
  const s = new LspServer(spec, workspace);
  const ms = await s.start();
  await s.configure();
  return { server: s, initMs: ms };
}

/** Detects whether a server publishes document versions, on the small file. */
async function probe(server, f) {
  const uri = f.uri.replace(/\.yaml$/, '-probe.yaml');
  const { params } = await server.notifyAndWait('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 7, text: f.text } }, uri, () => true, 'probe');
  server.versioned = params.version === 7;
  await closeAndSettle(server, uri);
  return params.diagnostics;
}

async function measureMemory(spec, workspace, small, big) {
  const { server } = await startServer(spec, workspace);
  try {
    await probe(server, small);
    // Warm-up: a few open → change → close rounds on the small file.
    for (let i = 0; i < 3; i++) {
      const uri = pathToFileURL(join(workspace, `warm-${i}.yaml`)).href;
      await openAndWait(server, small, uri);
      await server.notifyAndWait('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [editFor(small, 1)] }, uri, (p) => p.version === 2 || p.version === undefined || p.version === null, 'warm-up change');
      await closeAndSettle(server, uri);
    }
    await sleep(500);
    const warm = server.memory();
    // RSS along the way too: a plateau is heap the process keeps, steady growth is retention.
    const trend = [];
    for (let i = 0; i < CYCLES; i++) {
      const uri = pathToFileURL(join(workspace, `cycle-${String(i).padStart(3, '0')}.yaml`)).href;
      await openAndWait(server, big, uri);
      await closeAndSettle(server, uri);
      if ((i + 1) % Math.max(1, Math.round(CYCLES / 5)) === 0 && i + 1 < CYCLES) trend.push([i + 1, Math.round(server.memory().rss)]);
    }
    await sleep(1000);
    const after = server.memory();
    trend.push([CYCLES, Math.round(after.rss)]);
    return { warm: warm.rss, after: after.rss, peak: after.hwm, trend };
  } finally {
    await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// Report

const fmtMs = (v) => (Number.isFinite(v) ? (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)) : '–');
const fmtMiB = (v) => (Number.isFinite(v) ? v.toFixed(0) : '–');
const ratio = (peer, ours) => (Number.isFinite(peer) && Number.isFinite(ours) && ours > 0 ? `${(peer / ours).toFixed(peer / ours >= 10 ? 0 : 1)}×` : '–');

function table(rows, names) {
  const [a, b] = names;
  const head = `| measure | input | ${a} median | ${a} p95 | ${b ?? 'peer'} median | ${b ?? 'peer'} p95 | ratio${b ? ' peer ÷ Shardwise' : ''} (median) |`;
  const sep = '|---|---|--:|--:|--:|--:|--:|';
  const body = rows.map((r) => `| ${r.measure} | ${r.input} | ${r.ours.median} | ${r.ours.p95} | ${r.peer?.median ?? '–'} | ${r.peer?.p95 ?? '–'} | ${r.ratio ?? '–'} |`);
  return [head, sep, ...body].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Main

async function main() {
  if (!existsSync(SHARDWISE_MAIN)) {
    log('bench: dist/server/main.js is missing; building (node scripts/build.mjs) …');
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  }
  let peer;
  if (!opt['no-peer']) {
    try {
      peer = installPeer();
      log(`bench: peer ${PEER_NAME}@${PEER_VERSION} ${peer.cached ? 'from cache' : 'installed'}: ${peer.dir}`);
    } catch (e) {
      console.error(`\nbench: ${e.message}`);
      process.exitCode = 1;
      return;
    }
  }
  const workspace = mkdtempSync(join(tmpdir(), 'shardwise-bench-'));
  inputsDir = workspace;
  const results = { meta: {}, startup: {}, files: {}, memory: {} };
  try {
    const files = makeInputs(workspace);
    const specs = [shardwiseSpec(), ...(peer ? [peerSpec(peer.bin)] : [])];
    let commit = '';
    try {
      commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      // not a clone
    }
    results.meta = {
      date: new Date().toISOString(),
      node: process.version,
      cpus: `${cpus().length} × ${cpus()[0]?.model ?? '?'}`,
      memGiB: +(totalmem() / 2 ** 30).toFixed(1),
      loadavgStart: loadavg().map((x) => +x.toFixed(2)),
      commit,
      mode: QUICK ? 'quick' : 'full',
      n: N,
      warmup: WARMUP,
      spawns: SPAWNS,
      cycles: CYCLES,
      inputs: files.map((f) => ({ name: f.name, lines: f.lines, bytes: Buffer.byteLength(f.text) })),
    };
    log(`bench: ${results.meta.mode} run · node ${process.version} · ${results.meta.cpus} · inputs ${files.map((f) => `${f.name} (${f.lines} lines)`).join(', ')}`);

    // 1. spawn → initialize result, alternating servers.
    for (const spec of specs) results.startup[spec.name] = [];
    for (let i = 0; i < SPAWNS; i++) {
      for (const spec of specs) {
        const s = new LspServer(spec, workspace);
        try {
          results.startup[spec.name].push(await s.start());
        } finally {
          await s.stop();
        }
      }
    }
    for (const spec of specs) {
      results.startup[spec.name] = stats(results.startup[spec.name]);
      log(`  spawn → initialize · ${spec.name}: median ${fmtMs(results.startup[spec.name].median)} ms`);
    }

    // 2. latency per file, one server at a time.
    for (const spec of specs) {
      const { server } = await startServer(spec, workspace);
      try {
        const diags = await probe(server, files[0]);
        log(`  ${spec.name}: publishes versions: ${server.versioned ? 'yes' : 'no'}, empty diagnostics on close: ${server.publishesOnClose ? 'yes' : 'no'}; small file: ${diags.length} diagnostics (${[...new Set(diags.map((d) => d.code ?? d.message.slice(0, 30)))].join(', ')})`);
        if (diags.length < 3) throw new Error(`${spec.name} reports ${diags.length} diagnostics on the small file with 3 planted errors: is the schema picked up?`);
        for (const f of files) {
          const r = await measureFile(server, f);
          (results.files[f.name] ??= {})[spec.name] = r;
          log(`  ${spec.name} · ${f.name}: diagnostics ${r.counts[0]}↔${r.counts[1]} · didChange median ${fmtMs(r.change.median)} ms · didOpen ${fmtMs(r.open.median)} ms · hover ${fmtMs(r.hover.median)} ms`);
        }
      } finally {
        await server.stop();
      }
    }

    // 3. memory: fresh servers, warm-up, then CYCLES distinct URIs with the 5k file.
    for (const spec of specs) {
      results.memory[spec.name] = await measureMemory(spec, workspace, files[0], files[1]);
      const m = results.memory[spec.name];
      log(`  ${spec.name}: RSS after warm-up ${fmtMiB(m.warm)} MiB · after ${CYCLES} open/close cycles ${fmtMiB(m.after)} MiB · peak ${fmtMiB(m.peak)} MiB · trend ${m.trend.map(([c, r]) => `${c}:${r}`).join(' ')}`);
    }
    results.meta.loadavgEnd = loadavg().map((x) => +x.toFixed(2));

    // Report.
    const [ours, theirs] = specs.map((s) => s.name);
    const rows = [];
    const lat = (measure, input, a, b, key) => rows.push({ measure, input, ours: { median: fmtMs(a?.median), p95: fmtMs(a?.p95) }, peer: b ? { median: fmtMs(b.median), p95: fmtMs(b.p95) } : undefined, ratio: b ? ratio(b.median, a.median) : undefined, key });
    lat('spawn → initialize result (ms)', '–', results.startup[ours], theirs && results.startup[theirs]);
    for (const f of files) {
      const r = results.files[f.name];
      lat('didChange → diagnostics (ms)', `${f.name} (${f.lines} lines)`, r[ours].change, theirs && r[theirs].change);
    }
    for (const f of files) {
      const r = results.files[f.name];
      lat('didOpen → diagnostics (ms)', `${f.name}`, r[ours].open, theirs && r[theirs].open);
    }
    for (const f of files) {
      const r = results.files[f.name];
      rows.push({
        measure: 'first didOpen → diagnostics, cold (ms)',
        input: f.name,
        ours: { median: fmtMs(r[ours].cold), p95: '' },
        peer: theirs ? { median: fmtMs(r[theirs].cold), p95: '' } : undefined,
        ratio: theirs ? ratio(r[theirs].cold, r[ours].cold) : undefined,
      });
    }
    for (const f of files) {
      const r = results.files[f.name];
      const note = (x) => (x.hover.ok ? '' : ' (null)');
      rows.push({
        measure: 'hover on `num_processes` (ms)',
        input: f.name,
        ours: { median: fmtMs(r[ours].hover.median) + note(r[ours]), p95: fmtMs(r[ours].hover.p95) },
        peer: theirs ? { median: fmtMs(r[theirs].hover.median) + note(r[theirs]), p95: fmtMs(r[theirs].hover.p95) } : undefined,
        ratio: theirs ? ratio(r[theirs].hover.median, r[ours].hover.median) : undefined,
      });
    }
    const mem = (measure, key) =>
      rows.push({
        measure,
        input: key === 'warm' ? 'small' : `large-5k × ${CYCLES}`,
        ours: { median: fmtMiB(results.memory[ours][key]), p95: '' },
        peer: theirs ? { median: fmtMiB(results.memory[theirs][key]), p95: '' } : undefined,
        ratio: theirs ? ratio(results.memory[theirs][key], results.memory[ours][key]) : undefined,
      });
    mem('RSS after warm-up (MiB)', 'warm');
    mem(`RSS after ${CYCLES} open/close cycles, distinct URIs (MiB)`, 'after');
    mem('peak RSS, VmHWM (MiB)', 'peak');

    const md = [
      `### Shardwise vs ${theirs ?? '(no peer)'} — ${results.meta.mode} run, ${results.meta.date.slice(0, 10)}`,
      '',
      `node ${results.meta.node} · ${results.meta.cpus} · ${results.meta.memGiB} GiB · load ${results.meta.loadavgStart.join(' ')} → ${results.meta.loadavgEnd.join(' ')}${commit ? ` · commit ${commit}` : ''}`,
      `n = ${N} measured after ${WARMUP} warm-up per latency (nearest-rank median / p95); ${SPAWNS} spawns; inputs: ${results.meta.inputs.map((i) => `${i.name} ${i.lines} lines / ${(i.bytes / 1024).toFixed(0)} KiB`).join(', ')}`,
      `RSS over the ${CYCLES} cycles (cycle:MiB): ${specs.map((s) => `${s.name === ours ? 'Shardwise' : 'peer'} ${results.memory[s.name].trend.map(([c, r]) => `${c}:${r}`).join(' ')}`).join('; ')}`,
      `diagnostics per state (valid port ↔ out-of-range port): ${files.map((f) => `${f.name}: ${specs.map((s) => `${s.name === ours ? 'Shardwise' : 'peer'} ${results.files[f.name][s.name].counts.join('↔')}`).join(', ')}`).join('; ')}`,
      '',
      table(rows, [ours, theirs]),
      '',
    ].join('\n');
    process.stdout.write(`\n${md}\n`);
    if (opt.json) writeFileSync(resolve(opt.json), JSON.stringify(results, null, 2) + '\n');
  } finally {
    if (opt['keep-inputs']) log(`bench: inputs kept in ${workspace}`);
    else removeInputs();
  }
}

main()
  .catch((e) => {
    console.error(`\nbench: failed: ${e?.stack ?? e}`);
    process.exitCode = 1;
  })
  .finally(() => {
    killAll();
    clearTimeout(hardTimer);
  });
