/**
 * Properties over generated and hostile inputs: the engine never throws or hangs, every range lies
 * inside the document, and every offered fix removes its finding and leaves the file parseable.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { analyze, applyEdits, codeActions, complete, hover, type FileAnalysis } from '../../server/src/engine';
import { editDistance } from '../../server/src/engine/suggest';

function assertSane(a: FileAnalysis): void {
  const n = a.text.length;
  for (const f of a.findings) {
    assert.ok(f.span.start >= 0 && f.span.start <= f.span.end && f.span.end <= n, `range outside the text: ${f.code} ${JSON.stringify(f.span)} of ${n}`);
    assert.ok(f.message.length > 0);
    for (const fix of f.fixes()) for (const e of fix.edits) assert.ok(e.span.start >= 0 && e.span.end <= n && e.span.start <= e.span.end, `fix edit outside the text: ${fix.title}`);
  }
}

const yamlish = fc.array(
  fc.oneof(
    fc.constantFrom('distributed_type', 'num_processes', 'fsdp_config', 'mixed_precision', '  fsdp_version', '- ', ':', ': ', '&a ', '*a', '<<: ', '[', ']', '{', '}', ',', '"', "'", '#', '\n', '\n  ', '\t', '---\n', '!!str ', '? ', '|', '>', 'no', 'NO', '1e8', '010', '\r\n', '\u00e9', '\u0000', '\ud83d\ude00'),
    fc.string({ maxLength: 8 }),
  ),
  { maxLength: 60 },
).map((parts) => parts.join(''));

test('any text: analysis, hover and completion never throw and ranges stay inside the text', () => {
  fc.assert(
    fc.property(yamlish, fc.nat(), fc.boolean(), (text, pos, json) => {
      const a = analyze({ path: json ? 'x.json' : 'x.yaml', text });
      assertSane(a);
      const offset = text.length ? pos % (text.length + 1) : 0;
      hover(a, offset);
      for (const c of complete(a, offset)) assert.ok(c.replace.start >= 0 && c.replace.end <= text.length);
      codeActions(a, { start: 0, end: text.length });
    }),
    { numRuns: 600 },
  );
});

/** Generated Accelerate configs with plausible keys and both valid and mistaken values. */
const value = <T,>(...xs: T[]) => fc.constantFrom(...xs);
const section = (keys: Record<string, fc.Arbitrary<string>>) =>
  fc.subarray(Object.keys(keys), { minLength: 0 }).chain((picked) => fc.tuple(...picked.map((k) => keys[k].map((v) => [k, v] as const))));

const config = fc
  .record({
    top: section({
      distributed_type: value('MULTI_GPU', 'FSDP', 'DEEPSPEED', 'MEGATRON_LM', 'NO', "'NO'", 'multi_gpu', 'TPU', 'MULTI_CPU', 'XLA'),
      num_processes: value('1', '2', '8', '15', '16', '0', '010', '"8"'),
      num_machines: value('1', '2', '4'),
      machine_rank: value('0', '1', '3'),
      mixed_precision: value('no', "'no'", 'bf16', 'fp16', 'fp8', 'fp32', 'BF16'),
      gpu_ids: value('0', "'0'", 'all', '0,1', '0,1,2,3'),
      main_process_ip: value('10.0.0.1'),
      main_process_port: value('29500', '2:30'),
      fp16: value('true', 'false'),
      dynamo_backend: value("'NO'", 'inductor'),
      num_procesess: value('8'),
    }),
    fsdp: fc.option(
      section({
        fsdp_version: value('1', '2', '3'),
        fsdp_sharding_strategy: value('FULL_SHARD', 'SHARD_GRAD_OP', '1', 'full_shard'),
        fsdp_reshard_after_forward: value('true', 'false', 'FULL_SHARD', 'SHARD_GRAD_OP'),
        fsdp_backward_prefetch: value('BACKWARD_PRE'),
        fsdp_backward_prefetch_policy: value('BACKWARD_PRE'),
        fsdp_use_orig_params: value('true'),
        fsdp_sync_module_states: value('true', 'false'),
        fsdp_cpu_ram_efficient_loading: value('true', 'false'),
        fsdp_state_dict_type: value('LOCAL_STATE_DICT', 'SHARDED_STATE_DICT'),
        fsdp_auto_wrap_policy: value('TRANSFORMER_BASED_WRAP', 'SIZE_BASED_WRAP', 'NO_WRAP'),
        fsdp_transformer_layer_cls_to_wrap: value('LlamaDecoderLayer', '[A, B]', 'A, B'),
        fsdp_min_num_params: value('1e8', '100000000'),
        offload_params: value('true'),
        fsdp_versoin: value('2'),
      }),
    ),
    ds: fc.option(
      section({
        zero_stage: value('2', '3'),
        zero3_init_flag: value('true', 'false'),
        deepspeed_multinode_launcher: value('standard', 'pdsh'),
        deepspeed_config_file: value('ds.json'),
      }),
    ),
    pc: fc.option(
      section({
        parallelism_config_dp_replicate_size: value('1', '2', '4'),
        parallelism_config_dp_shard_size: value('1', '2', '4'),
        parallelism_config_tp_size: value('1', '2', '8'),
        parallelism_config_cp_size: value('1', '2'),
        parallelism_config_sp_size: value('1', '2'),
        parallelism_config_sp_seq_length_is_variable: value('false'),
        tp_size: value('2'),
      }),
    ),
    fp8: fc.option(section({ backend: value('TE', 'te', 'AO', 'MSAMP'), override_linear_precision: value('(false, false, false)', '[false, false, false]') })),
    indent: value('  ', '    '),
    comments: fc.boolean(),
  })
  .map(({ top, fsdp, ds, pc, fp8, indent, comments }) => {
    const lines: string[] = [];
    if (comments) lines.push('# generated config');
    for (const [k, v] of top) lines.push(`${k}: ${v}${comments ? '  # note' : ''}`);
    const sec = (name: string, entries: readonly (readonly [string, string])[] | null) => {
      if (!entries) return;
      if (entries.length === 0) lines.push(`${name}: {}`);
      else {
        lines.push(`${name}:`);
        for (const [k, v] of entries) lines.push(`${indent}${k}: ${v}`);
      }
    };
    sec('fsdp_config', fsdp);
    sec('deepspeed_config', ds);
    sec('parallelism_config', pc);
    sec('fp8_config', fp8);
    return lines.join('\n') + '\n';
  });

test('generated Accelerate configs: every offered fix removes its finding and keeps the file parseable', () => {
  fc.assert(
    fc.property(config, (text) => {
      const a = analyze({ path: 'accelerate.yaml', text });
      assertSane(a);
      for (const f of a.findings) {
        for (const fix of f.fixes()) {
          const fixed = applyEdits(text, fix.edits);
          const b = analyze({ path: 'accelerate.yaml', text: fixed });
          assert.ok(!b.findings.some((g) => g.code === 'parse-error'), `fix "${fix.title}" broke the YAML:\n${text}\n---\n${fixed}`);
          assert.ok(!b.findings.some((g) => g.code === f.code && g.message === f.message), `fix "${fix.title}" did not remove ${f.code}:\n${text}\n---\n${fixed}`);
        }
      }
    }),
    { numRuns: 300 },
  );
});

test('hostile inputs end with a clear finding, not a crash or a hang', { timeout: 120_000 }, () => {
  let bomb = 'a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n';
  for (let i = 1; i < 9; i++) bomb += `${'abcdefghi'[i]}: &${'abcdefghi'[i]} [${Array(9).fill('*' + 'abcdefghi'[i - 1]).join(', ')}]\n`;
  const inputs: Record<string, string> = {
    'deep flow nesting': '['.repeat(20_000) + ']'.repeat(20_000),
    'deep block nesting': Array.from({ length: 1000 }, (_, i) => ' '.repeat(i) + 'k:').join('\n'),
    'alias bomb': 'distributed_type: MULTI_GPU\nnum_processes: 2\n' + bomb,
    'binary junk': Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7919 + 13) % 256)).toString('latin1'),
    '5 MB config': 'distributed_type: XLA\nnum_processes: 8\ncommands:\n' + '  - echo training step with a long command line here\n'.repeat(100_000),
    'unclosed quote': 'distributed_type: "MULTI_GPU\nnum_processes: 2\n',
    'tabs for indentation': 'distributed_type: FSDP\nfsdp_config:\n\tfsdp_version: 2\n',
  };
  for (const [name, text] of Object.entries(inputs)) {
    const a = analyze({ path: 'x.yaml', text });
    assertSane(a);
    if (name !== '5 MB config' && name !== 'binary junk') assert.ok(a.findings.some((f) => f.code === 'parse-error'), `${name}: a parse-error finding`);
  }
  const huge = analyze({ path: 'x.yaml', text: 'distributed_type: MULTI_GPU\nnum_processes: 2\ncommands:\n' + '  - echo step\n'.repeat(2_000_000) });
  assert.match(huge.findings[0].message, /not analysed/);
  // A large file that does not begin as a config is not ours: nothing is said.
  assert.deepEqual(analyze({ path: 'x.yaml', text: 'a: b\n'.repeat(2_000_000) }).findings, []);
});

test('editDistance (rolling rows, early exit) equals the textbook optimal-string-alignment table', () => {
  const table = (a: string, b: string): number => {
    const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
    for (let i = 1; i <= a.length; i++) {
      for (let j = 1; j <= b.length; j++) {
        d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
    return d[a.length][b.length];
  };
  const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '_'), maxLength: 10 });
  fc.assert(
    fc.property(word, word, fc.integer({ min: 0, max: 4 }), (a, b, max) => {
      const exact = table(a, b);
      assert.equal(editDistance(a, b), exact);
      // With a bound: exact when within it, anything above it otherwise.
      const bounded = editDistance(a, b, max);
      if (exact <= max) assert.equal(bounded, exact);
      else assert.ok(bounded > max);
    }),
    { numRuns: 2000 },
  );
});
