/**
 * Fixes users can trust. Over every file we have (the rule cases of test/rules/, the rule docs'
 * examples, examples/ and, when it is there, ../shared/corpus):
 * - every fix a rule produces is of a kind the rule declares, with that applicability;
 * - a preferred fix is safe and belongs to an error or a warning;
 * - fixing a file (safe fixes, and separately with the unsafe ones) never makes it unparsable,
 *   never adds an error, never adds a finding of a rule whose fix was applied, and a second run
 *   changes nothing.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze, fixText, ruleById, RULES, type EngineSettings, type FileAnalysis, type Finding } from '../../server/src/engine';
import { corpus, ROOT, samples, type Sample } from './fix-samples';

test('the samples include examples/ and, when it is there, the corpus', (t) => {
  assert.ok(samples.some((s) => s.name.startsWith('examples/')), 'examples/ not found');
  if (!existsSync(corpus)) t.skip(`no corpus at ${corpus}`);
  else assert.ok(samples.filter((s) => s.name.startsWith('corpus/')).length >= 100, 'the corpus has fewer files than expected');
});

test('every fix a rule produces is of a kind it declares, with the declared applicability', () => {
  const undeclared: string[] = [];
  const produced = new Set<string>();
  for (const s of samples) {
    const a = analyze(s.input, s.settings);
    for (const f of a.findings) {
      for (const fix of f.fixes()) {
        const declared = ruleById(f.code)?.fixes?.[fix.kind];
        produced.add(`${f.code}/${fix.kind}`);
        if (!declared) undeclared.push(`${s.name}: ${f.code} offers "${fix.title}" of kind "${fix.kind}", which the rule does not declare`);
        // A safe kind rests on what its finding rests on: unsafe when the finding assumes something, unless the edit means the same anyway.
        else assert.equal(fix.applicability, declared.applicability === 'safe' && f.assumed?.length && !declared.unconditional ? 'unsafe' : declared.applicability, `${s.name}: ${f.code}/${fix.kind}`);
      }
    }
  }
  assert.deepEqual(undeclared, []);
  // The declarations are not dead letters: each kind is produced by some sample.
  const unused = RULES.flatMap((r) => Object.keys(r.fixes ?? {}).map((k) => `${r.id}/${k}`)).filter((k) => !produced.has(k));
  assert.deepEqual(unused, [], `declared kinds that no sample produces: ${unused.join(', ')}`);
});

test('a preferred fix is safe, recommended, and belongs to an error or a warning; unsafe titles say what they change', () => {
  for (const s of samples) {
    const a = analyze(s.input, s.settings);
    for (const f of a.findings) {
      const fixes = f.fixes();
      assert.ok(fixes.filter((x) => x.recommended).length <= 1, `${s.name}: ${f.code} recommends more than one fix`);
      for (const fix of fixes) {
        if (fix.preferred) {
          assert.equal(fix.applicability, 'safe', `${s.name}: preferred unsafe fix "${fix.title}"`);
          assert.ok(f.severity === 'error' || f.severity === 'warning', `${s.name}: ${f.severity} ${f.code} has a preferred fix`);
        }
        if (fix.applicability === 'unsafe') assert.match(fix.title, /\((changes [^)]+|safe only if what the finding assumes holds)\)$/, `${s.name}: "${fix.title}"`);
      }
    }
  }
});

/** How often each (rule, message) appears, to tell new findings from old ones. */
function tally(findings: readonly Finding[], keep: (f: Finding) => boolean = () => true): Map<string, number> {
  const out = new Map<string, number>();
  for (const f of findings) if (keep(f)) out.set(`${f.code}: ${f.message}`, (out.get(`${f.code}: ${f.message}`) ?? 0) + 1);
  return out;
}

function added(before: Map<string, number>, after: Map<string, number>): string[] {
  return [...after].filter(([k, n]) => n > (before.get(k) ?? 0)).map(([k]) => k);
}

function checkFixing(s: Sample, unsafe: boolean): void {
  const before = analyze(s.input, s.settings);
  const r = fixText(s.input, s.settings, { unsafe });
  const after = r.analysis;
  const parse = (a: FileAnalysis) => tally(a.findings, (f) => f.code === 'parse-error');
  assert.deepEqual(added(parse(before), parse(after)), [], `${s.name}: the fixed file no longer parses`);
  const errors = (a: FileAnalysis) => tally(a.findings, (f) => f.severity === 'error');
  assert.deepEqual(added(errors(before), errors(after)), [], `${s.name}: fixing added an error`);
  const fixed = new Set(r.applied.map((x) => x.finding.code));
  const own = (a: FileAnalysis) => tally(a.findings, (f) => fixed.has(f.code));
  assert.deepEqual(added(own(before), own(after)), [], `${s.name}: a fixed rule reports something new`);
  if (!unsafe) for (const x of r.applied) assert.equal(x.fix.applicability, 'safe', `${s.name}: --fix applied "${x.fix.title}"`);
  const again = fixText({ ...s.input, text: r.text }, s.settings, { unsafe });
  assert.equal(again.text, r.text, `${s.name}: a second run changed the file again`);
}

test('fixing a file (safe fixes) never breaks it, never adds an error or a finding of a fixed rule, and settles', () => {
  for (const s of samples) checkFixing(s, false);
});

test('fixing a file with the unsafe fixes too never breaks it, never adds an error or a finding of a fixed rule, and settles', () => {
  for (const s of samples) checkFixing(s, true);
});

test('fixes that write the same flag are merged or dropped, never stacked (launch script, overlap advice raised to warnings)', () => {
  const path = join(ROOT, 'examples', 'megatron', 'pretrain-llama3-8b.sh');
  const text = readFileSync(path, 'utf8');
  const settings: EngineSettings = { rules: { 'missing-overlap-grad-reduce': 'warning', 'missing-overlap-param-gather': 'warning', 'tp-larger-than-needed': 'off' } };
  const r = fixText({ path, text }, settings, { unsafe: true });
  const count = (flag: string) => r.text.split('\n').filter((l) => new RegExp(`^\\s*${flag}\\s*(\\\\)?$`).test(l)).length;
  assert.equal(count('--overlap-grad-reduce'), 1, r.text);
  assert.equal(count('--overlap-param-gather'), 1, r.text);
  assert.equal(count('--overlap-grad-reduse'), 0, r.text);
  assert.ok(!r.analysis.findings.some((f) => f.code === 'duplicate-key' || f.severity === 'error'), r.analysis.findings.map((f) => `${f.code}: ${f.message}`).join('\n'));
  assert.equal(fixText({ path, text: r.text }, settings, { unsafe: true }).text, r.text, 'a second run changed the script again');
});

test('a misspelled key is not renamed onto a key the section already has', () => {
  const text = 'distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_version: 1\n  fsdp_versoin: 2\n';
  const a = analyze({ path: 'a.yaml', text });
  const typo = a.findings.find((f) => f.code === 'unknown-key')!;
  assert.ok(!typo.fixes().some((x) => x.title.includes('Rename')), typo.fixes().map((x) => x.title).join(' | '));
  assert.equal(fixText({ path: 'a.yaml', text }, {}).text.match(/fsdp_version/g)?.length, 1);
  // In a script argparse keeps the last of two spellings: renaming the typo would change TP from $TP to 2.
  const script = '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\nTP=8\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --tensor-model-parallel-size $TP \\\n    --tensor-model-paralel-size 2 \\\n    --bf16\n';
  const flag = analyze({ path: 'train.sh', text: script }).findings.find((f) => f.code === 'unknown-key')!;
  assert.ok(flag, 'the misspelled flag is reported');
  assert.ok(!flag.fixes().some((x) => x.title.includes('Rename')), flag.fixes().map((x) => x.title).join(' | '));
});

test('a typo fix is safe only where the tool refuses the file as written: a slip in a section that ignores unknown keys is an unsafe rename fix-all leaves alone; strictness follows the release', () => {
  const text = 'compute_environment: LOCAL_MACHINE\ndistributed_type: FSDP\nmixed_precision: bf16\nnum_processes: 8\nnum_machiness: 1\nfsdp_config:\n  fsdp_versoin: 2\n';
  const rename = (key: string) => analyze({ path: 'a.yaml', text }, {}).findings.find((f) => f.code === 'unknown-key' && f.message.includes(key))!.fixes().find((x) => x.title.startsWith('Rename'))!;
  assert.equal(rename('num_machiness').applicability, 'safe', 'Accelerate refuses an unknown top-level key: the file cannot run as written');
  assert.equal(rename('fsdp_versoin').applicability, 'unsafe', 'fsdp_config ignores it: the run is FSDP1 today, FSDP2 after the rename');
  const fixed = fixText({ path: 'a.yaml', text }, {}).text;
  assert.match(fixed, /^num_machines: 1$/m);
  assert.match(fixed, /^ {2}fsdp_versoin: 2$/m);
  // DeepSpeed reads `fp16` key by key until 0.17.0 and refuses unknown keys there from 0.17.1.
  const ds = '{\n  "train_micro_batch_size_per_gpu": 1,\n  "fp16": { "enabled": true, "loss_scal": 128 }\n}\n';
  const at = (v: string) => analyze({ path: 'ds_config.json', text: ds }, { targetVersions: { deepspeed: v } }).findings.find((f) => f.code === 'unknown-key')!;
  assert.equal(at('0.16.0').severity, 'warning');
  assert.match(at('0.16.0').message, /ignores it/);
  assert.equal(at('0.16.0').fixes().find((x) => x.title.startsWith('Rename'))!.applicability, 'unsafe');
  assert.equal(at('0.17.1').severity, 'error');
  assert.equal(at('0.17.1').fixes().find((x) => x.title.startsWith('Rename'))!.applicability, 'safe');
  // With no release named, the refusal rests on the newest release: a warning, and the rename is not safe.
  const unnamed = analyze({ path: 'ds_config.json', text: ds }, {}).findings.find((f) => f.code === 'unknown-key')!;
  assert.equal(unnamed.severity, 'warning');
  assert.equal(unnamed.fixes().find((x) => x.title.startsWith('Rename'))!.applicability, 'unsafe');
  // Where the slip is ignored and its value is the default of the key it misspells (loss_scale 0,
  // dynamic scaling, runtime/constants.py@v0.16.0:158), nothing changes either way: a note, and a safe rename.
  const same = analyze({ path: 'ds_config.json', text: ds.replace('128', '0') }, { targetVersions: { deepspeed: '0.16.0' } }).findings.find((f) => f.code === 'unknown-key')!;
  assert.equal(same.severity, 'information');
  assert.match(same.message, /equals `loss_scale`'s default/);
  assert.equal(same.fixes().find((x) => x.title.startsWith('Rename'))!.applicability, 'safe');
});

test('adding a missing prefix makes an ignored parallelism_config key take effect: an unsafe fix --fix leaves alone (accelerate src/accelerate/commands/launch.py@v1.14.0 sets every key of the section on its arguments, so the bare key is never refused)', () => {
  const text = 'distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_version: 2\nparallelism_config:\n  parallelism_config_dp_shard_size: 4\n  parallelism_config_cp_size: 2\n  cp_comm_strategy: alltoall\n';
  const f = analyze({ path: 'a.yaml', text }, { targetVersions: { accelerate: '1.14.0' } }).findings.find((x) => x.code === 'missing-key-prefix')!;
  const fix = f.fixes().find((x) => x.title.startsWith('Rename'))!;
  assert.equal(fix.applicability, 'unsafe', 'the context-parallel exchange would turn from allgather into alltoall');
  assert.match(fix.title, /takes effect/);
  assert.match(fixText({ path: 'a.yaml', text }, { targetVersions: { accelerate: '1.14.0' } }).text, /^ {2}cp_comm_strategy: alltoall$/m);
});

test('a safe fix of a finding that assumes the release is unsafe; the same fix with the release named is safe; a fix that writes the same value another way stays safe', () => {
  const tuple = 'distributed_type: MULTI_GPU\nnum_processes: 2\nmixed_precision: fp8\nfp8_config:\n  backend: TE\n  override_linear_precision: (false, false, false)\n';
  const fixOf = (settings: object, code: string, text: string, path: string) => analyze({ path, text }, settings).findings.find((f) => f.code === code)!.fixes()[0];
  const assumed = fixOf({}, 'yaml-boolean-trap', tuple, 'a.yaml');
  assert.equal(assumed.applicability, 'unsafe', 'Accelerate 1.4 runs the tuple string, so the list may break a run that works');
  assert.match(assumed.title, /safe only if what the finding assumes holds/);
  assert.equal(fixOf({ targetVersions: { accelerate: '1.9.0' } }, 'yaml-boolean-trap', tuple, 'a.yaml').applicability, 'safe');
  const ds = '{\n  "train_micro_batch_size_per_gpu": 4,\n  "scheduler": { "type": "WarmupLR", "params": { "warmup_num_steps": 1e3 } }\n}\n';
  const integer = fixOf({}, 'optimizer-config-invalid', ds, 'ds_config.json');
  assert.equal(integer.applicability, 'safe', '1000 and 1e3 run the same on every release');
});

test('sequence-parallel-without-tp offers no fix beside the TP communication overlap: Megatron-LM 0.9 checks the overlap against --sequence-parallel before it turns SP off at TP 1 (training/arguments.py@core_v0.9.0:215, :500), so dropping the flag would stop a file that runs', () => {
  const script = (overlap: boolean) => `#!/bin/bash\ntorchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --micro-batch-size 1 --global-batch-size 8 --tensor-model-parallel-size 1 --sequence-parallel${overlap ? ' --tp-comm-overlap' : ''}\n`;
  const finding = (overlap: boolean) => analyze({ path: 'train.sh', text: script(overlap) }, { targetVersions: { 'megatron-core': '0.9.0' } }).findings.find((f) => f.code === 'sequence-parallel-without-tp');
  assert.ok(finding(true), 'the note itself stays');
  assert.equal(finding(true)!.fixes().length, 0);
  assert.ok(finding(false)!.fixes().length > 0, 'without the overlap the flag can go');
});
