/**
 * The Accelerate keys by release, as scripts/schema-history.mjs --accelerate reads them from every
 * vX.Y.Z tag (the config dataclasses of src/accelerate/commands/config/config_args.py, the flags
 * of src/accelerate/commands/launch.py and the sections it copies onto them), and the rules that
 * read those facts. The evidence is in the comments.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze, hover } from '../../server/src/engine';
import { mulberry32 } from './seeded';

const ACCELERATE = JSON.parse(readFileSync(join(__dirname, '../../schemas/accelerate.schema.json'), 'utf8'));
const DEFS: Record<string, any> = ACCELERATE.definitions;

/** The findings for an FSDP config whose fsdp_config holds `lines`, at `release`. */
function findings(section: string, lines: string, release: string) {
  const text = `compute_environment: LOCAL_MACHINE\ndistributed_type: ${section === 'fsdp_config' ? 'FSDP' : 'MULTI_GPU'}\nnum_processes: 2\n${section === 'fp8_config' ? 'mixed_precision: fp8\n' : ''}${section}:\n${lines}`;
  return analyze({ path: 'accelerate_config.yaml', text }, { targetVersions: { accelerate: release } }).findings.map((f) => ({ code: f.code, severity: f.severity, on: text.slice(f.span.start, f.span.end), message: f.message, fixes: f.fixes().map((x) => [x.edits.length > 0, x.applicability]) }));
}

test('fsdp_config before 0.12.0: the launcher reads the bare names of four keys, and adds the prefix only from 0.12.0', () => {
  // src/accelerate/commands/launch.py@v0.11.0 lines ~144-160: flags --offload_params, --min_num_params, --sharding_strategy
  // (and --fsdp_auto_wrap_policy, --fsdp_backward_prefetch_policy); lines ~652-653 copy each fsdp_config key onto args unchanged.
  // launch.py@v0.12.0 line ~770: `arg_to_set = "fsdp_" + arg_to_set` for a key without "fsdp", and the flags become --fsdp_offload_params etc.
  const fsdp = DEFS.fsdp_config;
  assert.equal(fsdp['x-key-prefix'].since, '0.12.0');
  const bare = Object.entries(fsdp.properties as Record<string, any>).filter(([, p]) => p['x-bare-until']).map(([k, p]) => [k, p['x-bare-until'], p['x-flag-since']?.[k]]);
  assert.deepEqual(bare.sort(), [
    ['fsdp_min_num_params', '0.12.0', '0.12.0'],
    ['fsdp_offload_params', '0.12.0', '0.12.0'],
    ['fsdp_sharding_strategy', '0.12.0', '0.12.0'],
    ['fsdp_transformer_layer_cls_to_wrap', '0.12.0', '0.12.0'],
  ]);
  // At 0.11.0 the bare key is read (no finding) and the prefixed one is ignored, with a rename to the name 0.11.0 reads.
  assert.deepEqual(findings('fsdp_config', '  offload_params: true\n', '0.11.0'), []);
  const old = findings('fsdp_config', '  fsdp_offload_params: true\n', '0.11.0');
  assert.equal(old.length, 1, JSON.stringify(old));
  assert.equal(old[0].code, 'version-unsupported-key');
  assert.equal(old[0].severity, 'warning');
  assert.match(old[0].message, /reads it as `offload_params` and ignores `fsdp_offload_params`/);
  // Renaming makes the setting take effect, so it is not applied on its own; removing leaves the run as it is.
  assert.deepEqual(old[0].fixes, [
    [true, 'unsafe'],
    [true, 'safe'],
  ]);
  // fsdp_auto_wrap_policy was a prefixed flag at 0.11.0: the prefixed key is read, the bare one is not.
  assert.deepEqual(findings('fsdp_config', '  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP\n  transformer_layer_cls_to_wrap: LlamaDecoderLayer\n', '0.11.0'), []);
  assert.deepEqual(findings('fsdp_config', '  auto_wrap_policy: TRANSFORMER_BASED_WRAP\n', '0.11.0').map((f) => [f.code, f.severity]), [['unknown-key', 'information']]);
  // From 0.12.0 both spellings are read.
  assert.deepEqual(findings('fsdp_config', '  fsdp_offload_params: true\n', '0.12.0'), []);
  assert.deepEqual(findings('fsdp_config', '  offload_params: true\n', '0.12.0'), []);
});

test('fp8_config: written by `accelerate config` from 0.34.0, read by the launcher only from 1.4.0', () => {
  // src/accelerate/commands/launch.py@v1.3.0 lines ~1027-1042 copy deepspeed_config, fsdp_config, megatron_lm_config,
  // dynamo_config, ipex_config and mpirun_config onto args, not fp8_config; @v1.4.0 line ~1062-1066 copies fp8_config
  // with `arg_to_set = "fp8_" + arg_to_set`.
  const fp8 = DEFS.fp8_config.properties as Record<string, any>;
  for (const k of ['backend', 'fp8_format', 'margin', 'interval', 'amax_history_len', 'amax_compute_algo', 'override_linear_precision', 'use_autocast_during_eval', 'opt_level']) assert.equal(fp8[k]['x-since'], '1.4.0', k);
  const at13 = findings('fp8_config', '  backend: TE\n  fp8_margin: 0\n', '1.3.0');
  assert.deepEqual(at13.map((f) => [f.code, f.on]), [['version-unsupported-key', 'backend'], ['version-unsupported-key', 'fp8_margin']]);
  assert.ok(at13.every((f) => /arrived in accelerate 1\.4\.0/.test(f.message) && !/reads it as/.test(f.message)), JSON.stringify(at13));
  assert.deepEqual(findings('fp8_config', '  backend: TE\n  fp8_margin: 0\n', '1.4.0').filter((f) => f.code === 'version-unsupported-key'), []);
});

const KEYS: { releases: string[]; keys: Record<string, Record<string, { from: string; to: string }[]>> } = JSON.parse(readFileSync(join(__dirname, '../../schemas/history/accelerate-keys.json'), 'utf8'));

test('a seeded sample of 20 Accelerate keys: x-since and x-flag-since are the first releases that read the key and its spelling', () => {
  const all = KEYS.releases;
  const keys = Object.keys(KEYS.keys);
  assert.ok(keys.length > 140, `${keys.length} keys`);
  const random = mulberry32(0xacce1);
  const picked = new Set<string>();
  while (picked.size < 20) picked.add(keys[Math.floor(random() * keys.length)]);
  for (const dotted of picked) {
    const [def, key] = dotted.split('.');
    const prop = DEFS[def].properties[key];
    const spellings = KEYS.keys[dotted];
    const firsts = Object.values(spellings).flatMap((runs) => runs.map((r) => r.from)).sort((a, b) => all.indexOf(a) - all.indexOf(b));
    assert.equal(prop['x-since'], firsts[0], `${dotted}: x-since`);
    const own = spellings[key]?.[0]?.from;
    assert.equal(prop['x-flag-since']?.[key], own && all.indexOf(own) > all.indexOf(firsts[0]) ? own : undefined, `${dotted}: x-flag-since`);
  }
});

test('every key the oldest tag (0.2.0) reads is dated 0.2.0, not later: the cluster and SageMaker fields of that release', () => {
  // src/accelerate/commands/config/config_args.py@v0.2.0: BaseConfig (compute_environment, distributed_type, fp16),
  // ClusterConfig (num_processes, machine_rank, num_machines, main_process_ip, main_process_port,
  // main_training_function) and SageMakerConfig (ec2_instance_type, iam_role_name, profile, region, num_machines,
  // base_job_name, pytorch_version, transformers_version).
  const oldest = KEYS.releases[0];
  assert.equal(oldest, '0.2.0');
  const read = Object.entries(KEYS.keys).filter(([, sp]) => Object.values(sp).some((runs) => runs[0]?.from === oldest)).map(([dotted]) => dotted);
  assert.equal(read.length, 20, read.join(', '));
  for (const dotted of read) {
    const [def, key] = dotted.split('.');
    assert.equal(DEFS[def].properties[key]['x-since'], oldest, dotted);
  }
  // Accelerate 0.2.x loads such a file: nothing says the keys are too new for it.
  const text = 'compute_environment: LOCAL_MACHINE\ndistributed_type: MULTI_GPU\nnum_processes: 2\nfp16: false\n';
  const at02 = analyze({ path: 'accelerate_config.yaml', text }, { targetVersions: { accelerate: '0.2.1' } }).findings.filter((f) => f.code === 'version-unsupported-key');
  assert.deepEqual(at02.map((f) => f.message), []);
});

test('the SageMaker defaults of Accelerate before 0.11.0 (x-default-before)', () => {
  // src/accelerate/commands/config/config_args.py@v0.10.0 lines ~159-160: pytorch_version: str = "1.6",
  // transformers_version: str = "4.4"; @v0.11.0 lines ~164-165 name SAGEMAKER_PYTORCH_VERSION and
  // SAGEMAKER_TRANSFORMERS_VERSION, "1.10.2" and "4.17.0" in src/accelerate/utils/constants.py@v0.11.0 lines ~23-25.
  const sm = DEFS.sagemaker.properties;
  assert.deepEqual([sm.pytorch_version.default, sm.pytorch_version['x-default-before']], ['1.10.2', { '0.11.0': '1.6' }]);
  assert.deepEqual([sm.transformers_version.default, sm.transformers_version['x-default-before']], ['4.17.0', { '0.11.0': '4.4' }]);
});

test('fsdp_backward_prefetch_policy: converted with a warning from 0.26.0, ignored from Accelerate 1.0.0, so renaming it to the key that is read keeps the run before 1.0.0 and changes it after (an unsafe fix, which fix-all leaves)', () => {
  // utils/launch.py@v0.25.0: the old key is the one read (nothing to say); @v0.26.0:191-197 and @v0.34.2:280 warn
  // (FutureWarning, "deprecated") and copy it onto args.fsdp_backward_prefetch: a note, deprecated since 0.26.0.
  // From 1.0.0 nothing reads it, and fsdp_backward_prefetch (default None: no prefetch) is what counts.
  const found = (release: string) => findings('fsdp_config', '  fsdp_backward_prefetch_policy: BACKWARD_PRE\n', release).filter((f) => f.code === 'deprecated-key');
  assert.deepEqual(found('0.25.0'), []);
  for (const release of ['0.26.0', '0.34.2']) {
    const [f, ...more] = found(release);
    assert.equal(more.length, 0);
    assert.equal(f.severity, 'information');
    assert.match(f.message, /deprecated since accelerate 0\.26\.0\. The launcher still reads it/);
    assert.deepEqual(f.fixes.map(([, a]) => a), ['safe']);
  }
  const [late] = found('1.14.0');
  assert.equal(late.severity, 'warning');
  assert.match(late.message, /deprecated since accelerate 0\.26\.0\..*silently ignored/);
  assert.deepEqual(late.fixes.map(([, a]) => a), ['unsafe']);
});

test("the launcher's default of a section key by release: what it exports when the key is absent", async () => {
  const { defaultAt } = await import('../../server/src/engine/schema/vocabulary');
  const fsdp = DEFS.fsdp_config.properties;
  // src/accelerate/commands/launch.py@v0.21.0: --fsdp_sync_module_states default="false"; @v0.22.0 default="true".
  assert.equal(defaultAt(fsdp.fsdp_sync_module_states, '0.21.0'), false);
  assert.equal(defaultAt(fsdp.fsdp_sync_module_states, '0.22.0'), true);
  // launch.py@v0.24.0: --fsdp_use_orig_params default="false"; @v0.25.0 default="true".
  assert.equal(defaultAt(fsdp.fsdp_use_orig_params, '0.24.0'), false);
  assert.equal(defaultAt(fsdp.fsdp_use_orig_params, '0.25.0'), true);
  // launch.py@v1.8.0: --fp8_format default="E4M3"; @v1.8.1 default="HYBRID".
  assert.equal(defaultAt(DEFS.fp8_config.properties.fp8_format, '1.8.0'), 'E4M3');
  assert.equal(defaultAt(DEFS.fp8_config.properties.fp8_format, '1.8.1'), 'HYBRID');
  // launch.py@v1.12.0: --fsdp_min_num_params default=1e8, a float argparse does not convert, exported as "100000000.0";
  // @v1.13.0 default=int(1e8).
  assert.match(fsdp.fsdp_min_num_params['x-default-note'], /float `1e8`.*before|before.*float `1e8`/);
});

test('distributed_type values by release: MPS is a type of 0.12.0 to 0.19.x', () => {
  // src/accelerate/utils/dataclasses.py@v0.12.0 … @v0.19.0 `MPS = "MPS"` in DistributedType; absent @v0.20.0.
  assert.deepEqual(DEFS.cluster.properties.distributed_type['x-enum-removed'], { MPS: { since: '0.12.0', removed: '0.20.0' } });
});

test('fp8_config.interval: Transformer Engine never uses it on PyTorch and removed it in 2.2', () => {
  // Accelerate utils/transformer_engine.py@v1.14.0 passes to_kwargs() (values other than the default) to te_recipe.DelayedScaling.
  // TransformerEngine transformer_engine/common/recipe/__init__.py@v1.8: `interval: int = -1`, a warning "`interval` argument is
  // deprecated and unused" when set; @v2.2: no `interval` field. `git grep '\.interval' v1.7 -- transformer_engine`: only jax/fp8.py.
  const text = DEFS.fp8_config.properties.interval.markdownDescription;
  assert.match(text, /never reads it/);
  assert.match(text, /TE 2\.2 removed the argument/);
});

test('fsdp_auto_wrap_policy before 0.34.0: an unknown value runs with no wrapping, so it is a warning and its correction is unsafe; the case is matched as written', () => {
  // src/accelerate/utils/dataclasses.py@v0.33.0 FullyShardedDataParallelPlugin.__post_init__ compares the
  // FSDP_AUTO_WRAP_POLICY value exactly with each policy and sets none otherwise (the same @v0.20.0);
  // @v0.34.0 refuses an unknown one ("Invalid auto wrap policy") and compares `.upper()`.
  const typo = (release: string) => findings('fsdp_config', '  fsdp_version: 1\n  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAPP\n', release).filter((f) => f.code === 'invalid-value');
  assert.deepEqual(typo('0.20.0').map((f) => [f.severity, f.fixes]), [['warning', [[true, 'unsafe']]]]);
  assert.ok(/wraps nothing/.test(typo('0.33.0')[0].message), typo('0.33.0')[0].message);
  assert.deepEqual(typo('0.34.0').map((f) => [f.severity, f.fixes]), [['error', [[true, 'safe']]]]);
  const lower = (release: string) => findings('fsdp_config', '  fsdp_version: 1\n  fsdp_auto_wrap_policy: transformer_based_wrap\n', release).filter((f) => f.code === 'invalid-value');
  assert.deepEqual(lower('0.33.0').map((f) => [f.severity, f.fixes]), [['warning', [[true, 'unsafe']]]]);
  assert.deepEqual(lower('0.34.0'), []);
});

test('fsdp_backward_prefetch: the case is matched as written before 0.34.0, where a lowercase name stops the plugin', () => {
  // src/accelerate/utils/dataclasses.py@v0.33.0 FullyShardedDataParallelPlugin.__post_init__:
  // FSDP_BACKWARD_PREFETCH.index(value) on the exported text (ValueError for another case); @v0.34.0 compares `.upper()`.
  const lower = (release: string) => findings('fsdp_config', '  fsdp_version: 1\n  fsdp_backward_prefetch: backward_pre\n', release).filter((f) => f.code === 'invalid-value');
  assert.deepEqual(lower('0.33.0').map((f) => [f.severity, f.fixes]), [['error', [[true, 'safe']]]]);
  assert.deepEqual(lower('0.34.0'), []);
});

test('an absent key the launcher exported as `none` before 0.16.0: zero3_init_flag was off there, even at ZeRO stage 3', async () => {
  const { defaultAt } = await import('../../server/src/engine/schema/vocabulary');
  // src/accelerate/commands/launch.py@v0.15.0:758 exports str(args.zero3_init_flag).lower() ("none" when absent) to
  // DEEPSPEED_ZERO3_INIT; utils/dataclasses.py@v0.15.0:389 switches it on only for == "true". From v0.16.0 the launcher
  // exports it only when set and the plugin falls back to is_zero3() (utils/dataclasses.py@v0.16.0:469).
  const flag = DEFS.deepspeed_config.properties.zero3_init_flag;
  assert.equal(defaultAt(flag, '0.15.0'), false);
  assert.equal(defaultAt(flag, '0.16.0'), undefined);
  assert.match(flag['x-default-note'], /from 0\.16\.0 enabled exactly when the ZeRO stage is 3.*Before 0\.16\.0.*off/s);
});

test('the SageMaker launch leaves debug, use_cpu, gpu_ids, enable_cpu_affinity and dynamo_config out of the job', () => {
  // src/accelerate/utils/launch.py@v1.14.0 prepare_sagemager_args_inputs builds the job from sagemaker_config.* and the
  // precision/compile arguments; commands/launch.py@v1.14.0 copies the file's fields onto the arguments only for
  // LOCAL_MACHINE, so args.debug (copied) is never used and the dynamo arguments keep their command-line values.
  // Before 0.11.0 the job's library versions were fixed in the launcher (commands/launch.py@v0.10.0:499-500).
  const sm = DEFS.sagemaker.properties;
  const unused = Object.entries(sm as Record<string, any>).filter(([, p]) => p['x-sagemaker-unused']).map(([k, p]) => [k, p['x-sagemaker-unused']]);
  assert.deepEqual(Object.fromEntries(unused), { use_cpu: true, debug: true, gpu_ids: true, pytorch_version: { before: '0.11.0' }, transformers_version: { before: '0.11.0' }, dynamo_config: true, enable_cpu_affinity: true, dynamo_backend: true });
  assert.equal(sm.debug['x-env'], undefined);
});

test('a file key the launcher ignores only from the release that added a defaulted flag of its name: rdzv_backend and same_network are dated', () => {
  // src/accelerate/commands/config/config_args.py@v0.13.0 has `rdzv_backend` and `same_network`; commands/launch.py@v0.13.0
  // has neither flag, so its copy loop (`getattr(args, name, None) is None` → setattr) takes both from the file and
  // utils/launch.py@v0.13.0 `_filter_args` passes rdzv_backend on to torchrun. --same_network (store_true, default False)
  // arrives at launch.py@v0.14.0, --rdzv_backend (default "static") at launch.py@v0.20.0: from then the loop skips them.
  // The other cluster keys whose flag has a non-None default (downcast_bf16 0.12.0, tpu_use_sudo 0.17.0,
  // enable_cpu_affinity 0.29.0) got the flag in the release that added the key; debug is copied on its own.
  const cluster = DEFS.cluster.properties;
  assert.match(cluster.rdzv_backend.markdownDescription, /From Accelerate 0\.20\.0 `accelerate launch` does not take this key from the file.*From 0\.13\.0 to 0\.19\.x .* passes the file value on/s);
  assert.match(cluster.same_network.markdownDescription, /From Accelerate 0\.14\.0 `accelerate launch` does not take this key from the file.*in 0\.13\.x .* uses the file value/s);
  assert.match(cluster.same_network['x-default-note'], /from 0\.14\.0 that file value is not applied.*0\.13\.x applies it/s);
  for (const key of ['downcast_bf16', 'tpu_use_sudo', 'enable_cpu_affinity']) assert.match(cluster[key].markdownDescription, /`accelerate launch` does not take this key from the file/);
});

test('x-launch-ignores: the top-level fields accelerate launch does not take from the file, by release', () => {
  // src/accelerate/commands/launch.py@v0.2.0 launch_command copies only num_processes, fp16 and main_training_function
  // (--num_machines default 1, --machine_rank default 0); @v0.3.0 copies every field onto an option left at None.
  // An option of the same name with a default is never None: --same_network (store_true) from @v0.14.0, --rdzv_backend
  // (default "static") from @v0.20.0, and --downcast_bf16 (@v0.12.0), --tpu_use_sudo (@v0.17.0), --enable_cpu_affinity
  // (@v0.29.0) from the release that adds the field. `debug` is store-true too, but read by name (`args.debug = defaults.debug`).
  const cluster = DEFS.cluster.properties as Record<string, any>;
  const ignored: Record<string, any> = Object.fromEntries(Object.entries(cluster).filter(([, p]) => p['x-launch-ignores']).map(([k, p]) => [k, p['x-launch-ignores']]));
  assert.deepEqual({ ...ignored }, {
    machine_rank: { before: '0.3.0' },
    num_machines: { before: '0.3.0' },
    main_process_ip: { before: '0.3.0' },
    main_process_port: { before: '0.3.0' },
    rdzv_backend: { since: '0.20.0' },
    same_network: { since: '0.14.0' },
    enable_cpu_affinity: true,
    downcast_bf16: true,
    tpu_use_sudo: true,
  });
  // Every text that says the launcher does not take a key from the file names such a key, and dates it where it is a run.
  for (const [key, p] of Object.entries(cluster)) {
    const says = /does not take this key from the file/.test(p.markdownDescription ?? '');
    assert.equal(says, ignored[key] !== undefined && !ignored[key].before, key);
    if (says && ignored[key].since) assert.ok(p.markdownDescription.includes(`From Accelerate ${ignored[key].since}`), key);
  }
});

test('the variables the launcher exports the DeepSpeed keys as have no ACCELERATE_ prefix before 0.16.0, and the hover says so', () => {
  // src/accelerate/commands/launch.py@v0.15.0:753-761 `current_env["DEEPSPEED_ZERO_STAGE"] = str(args.zero_stage)`,
  // GRADIENT_ACCUMULATION_STEPS, GRADIENT_CLIPPING, DEEPSPEED_OFFLOAD_*_DEVICE, DEEPSPEED_ZERO3_*, DEEPSPEED_CONFIG_FILE;
  // launch.py@v0.16.0:728-742 the same with the ACCELERATE_ prefix.
  const ds = DEFS.deepspeed_config.properties;
  assert.deepEqual(ds.zero_stage['x-env-before'], { '0.16.0': 'DEEPSPEED_ZERO_STAGE' });
  assert.deepEqual(ds.gradient_accumulation_steps['x-env-before'], { '0.16.0': 'GRADIENT_ACCUMULATION_STEPS' });
  assert.deepEqual(ds.deepspeed_config_file['x-env-before'], { '0.16.0': 'DEEPSPEED_CONFIG_FILE' });
  const text = 'compute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\nnum_processes: 2\ndeepspeed_config:\n  zero_stage: 2\n';
  const md = hover(analyze({ path: 'accelerate_config.yaml', text }), text.indexOf('zero_stage') + 2)!.markdown;
  assert.match(md, /Environment: `ACCELERATE_DEEPSPEED_ZERO_STAGE` \(`DEEPSPEED_ZERO_STAGE` before 0\.16\.0\)/);
});

test('release-dependent prose: the busy-port fallback from 1.8.0, free port 0 from 1.7.0, FSDP2 on PyTorch 2.5.1 in 1.6.x, the `_no_split_modules` fallback from 0.22.0', () => {
  // src/accelerate/utils/launch.py@v1.8.0:234-244 (standalone-like mode on a busy single-node port), absent @v1.7.0;
  // get_free_port for port 0 in utils/launch.py@v1.7.0, absent @v1.6.0; utils/constants.py@v1.6.0:44
  // FSDP2_PYTORCH_VERSION = "2.5.1", @v1.7.0:46 "2.6.0"; utils/dataclasses.py@v0.22.0 `_no_split_modules`, absent @v0.21.0.
  const port = DEFS.cluster.properties.main_process_port.markdownDescription as string;
  assert.match(port, /From 1\.8\.0, if the port is busy on a single node/);
  assert.match(port, /free port \(from 1\.7\.0\)/);
  const version = DEFS.fsdp_config.properties.fsdp_version;
  assert.match(version.markdownDescription, /2\.5\.1 in Accelerate 1\.6\.x/);
  const wrap = DEFS.fsdp_config.properties.fsdp_auto_wrap_policy.markdownDescription as string;
  assert.match(wrap, /from 0\.22\.0, the model's `_no_split_modules`/);
  assert.match(DEFS.fsdp_config.properties.fsdp_transformer_layer_cls_to_wrap['x-default-note'], /from 0\.22\.0/);
});
