/**
 * The Plan of real configs (corpus and examples/), pinned field by field to what the tool that
 * reads the file would compute: accelerate's own defaults and arithmetic, Megatron's grid.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { analyze, applyEdits, layoutLenses, layoutText } from '../../server/src/engine';
import { groupFabrics, layoutFits, planMemory } from '../../server/src/engine/plan/layout';
import type { Plan } from '../../server/src/engine/plan/plan';
import { corpusSkip, findCorpus } from '../corpus-path';

const CORPUS = findCorpus();
const ROOT = join(__dirname, '../..');

function planOf(file: string, settings = {}): Plan {
  const text = readFileSync(file, 'utf8');
  const a = analyze({ path: file, text }, settings);
  const plan = a.docs[0]?.plan;
  assert.ok(plan, `${file}: no plan`);
  return plan;
}

const acc = (name: string) => join(CORPUS, 'accelerate', name);
const meg = (name: string) => join(CORPUS, 'megatron', name);

test('HSDP + TP (torch_native_parallelism/configs/tp_hsdp.yaml): 2 × 2 × 2 mesh over 8 processes', { skip: corpusSkip() }, () => {
  const p = planOf(acc('examples__torch_native_parallelism__configs__tp_hsdp.yaml'));
  assert.equal(p.style, 'mesh');
  assert.equal(p.world?.value, 8);
  assert.equal(p.tp.value, 2);
  assert.equal(p.dpReplicate.value, 2);
  assert.equal(p.dpShard.value, 2);
  assert.equal(p.dp?.value, 4);
  assert.deepEqual(p.tp.from, { kind: 'written', path: ['parallelism_config', 'parallelism_config_tp_size'] });
  assert.equal(p.sharding.value.kind, 'fsdp');
  assert.equal(p.sharding.value.fsdp, 'full', 'fsdp_reshard_after_forward: true');
  assert.equal(p.sharding.value.group, 2, 'FSDP shards within dp_shard');
  assert.equal(p.precision.value, 'bf16');
});

test('context parallelism (torch_native_parallelism/configs/cp.yaml): CP 8, nothing else', { skip: corpusSkip() }, () => {
  const p = planOf(acc('examples__torch_native_parallelism__configs__cp.yaml'));
  assert.equal(p.cp.value, 8);
  assert.equal(p.dpShard.value, 1);
  assert.equal(p.dpReplicate.value, 1);
  assert.equal(p.dp?.value, 1);
  assert.equal(p.recompute.value, 'full', 'fsdp_activation_checkpointing: true');
});

test("the Megatron-LM plugin example: the plugin's defaults fill the gaps", { skip: corpusSkip() }, () => {
  const p = planOf(acc('docs__source__usage_guides__megatron_lm.md__L168.yaml'));
  assert.equal(p.style, 'megatron');
  assert.equal(p.world?.value, 4);
  assert.equal(p.tp.value, 2);
  assert.equal(p.pp.value, 2);
  assert.equal(p.cp.value, 2);
  // CP is not written: the plugin's default, 2 since accelerate 1.13.0 (1 before), an assumption while no release is named.
  assert.equal(p.cp.from.kind, 'assumed', 'CP is not written and no release is named');
  const named = planOf(acc('docs__source__usage_guides__megatron_lm.md__L168.yaml'), { targetVersions: { accelerate: '1.13.0' } });
  assert.equal(named.cp.value, 2);
  assert.equal(named.cp.from.kind, 'default', 'at a named 1.13.0 the default is known');
  assert.equal(planOf(acc('docs__source__usage_guides__megatron_lm.md__L168.yaml'), { targetVersions: { accelerate: '1.12.0' } }).cp.value, 1);
  assert.equal(p.etp.value, 1, 'the plugin sets expert TP to 1');
  assert.equal(p.dp, undefined, '4 GPUs do not divide by TP 2 × PP 2 × CP 2');
  assert.equal(p.numMicroBatches?.value, 2);
  assert.equal(p.sp.value, true);
  assert.equal(p.sharding.value.kind, 'distributed-optimizer');
  assert.equal(p.recompute.value, 'full', 'granularity defaults to full since 1.13');
});

test('the same example targeting accelerate 1.12 has no context parallelism, so DP = 4 / (2 × 2) = 1', { skip: corpusSkip() }, () => {
  const p = planOf(acc('docs__source__usage_guides__megatron_lm.md__L168.yaml'), { targetVersions: { accelerate: '1.12.0' } });
  assert.equal(p.cp.value, 1);
  assert.equal(p.dp?.value, 1);
});

test('DeepSpeed through accelerate keys: ZeRO stage and offload as written, sharded over every rank', { skip: corpusSkip() }, () => {
  const z2 = planOf(acc('docs__source__usage_guides__deepspeed.md__L102.yaml'));
  assert.equal(z2.style, 'zero');
  assert.deepEqual([z2.sharding.value.kind, z2.sharding.value.stage, z2.sharding.value.group], ['zero', 2, 2]);
  assert.equal(z2.gradAccum?.value, 1);
  const z3 = planOf(acc('docs__source__usage_guides__deepspeed.md__L128.yaml'));
  assert.deepEqual([z3.sharding.value.stage, z3.sharding.value.offloadOptimizer, z3.sharding.value.offloadParams], [3, true, true]);
  const file = planOf(acc('examples__config_yaml_templates__deepspeed.yaml'));
  assert.equal(file.sharding.from.kind, 'unknown', 'the stage is in the DeepSpeed JSON');
});

test('DeepSpeed with Ulysses SP 2 on 2 processes shards over 2 / 2 = 1 rank', { skip: corpusSkip() }, () => {
  const p = planOf(acc('docs__source__concept_guides__sequence_parallelism.md__L128.yaml'));
  assert.equal(p.spDegree.value, 2);
  assert.equal(p.dpShard.value, 1);
});

test('FSDP1 template: FULL_SHARD over both processes', { skip: corpusSkip() }, () => {
  const p = planOf(acc('examples__config_yaml_templates__fsdp.yaml'));
  assert.equal(p.runtime, 'FSDP1');
  assert.equal(p.world?.value, 2);
  assert.equal(p.dpShard.value, 2);
  assert.deepEqual(p.sharding.from, { kind: 'written', path: ['fsdp_config', 'fsdp_sharding_strategy'] });
});

test('multi-node DDP: num_processes is the total; per node is derived', { skip: corpusSkip() }, () => {
  const p = planOf(acc('examples__config_yaml_templates__multi_node.yaml'));
  assert.equal(p.world?.value, 8);
  assert.equal(p.nodes.value, 2);
  assert.equal(p.perNode?.value, 4);
  assert.equal(p.dpReplicate.value, 8);
  const mpi = planOf(acc('tests__test_configs__0_28_0_mpi.yaml'));
  assert.deepEqual([mpi.world?.value, mpi.nodes.value, mpi.perNode?.value], [16, 4, 4]);
});

test("'NO' is a single process", { skip: corpusSkip() }, () => {
  const p = planOf(acc('examples__config_yaml_templates__single_accelerator.yaml'));
  assert.equal(p.world?.value, 1);
  assert.equal(p.world?.from.kind, 'default');
});

test('Megatron YAML: expert DP from the expert grid; expert TP defaults to TP', { skip: corpusSkip() }, () => {
  const p = planOf(meg('Megatron-LM__tests__functional_tests__test_cases__moe__gpt3_mcore_te_tp2_pp1_te_8experts_etp1_ep4__model_config.yaml'), { worldSize: 8 });
  assert.equal(p.world?.value, 8);
  assert.deepEqual([p.tp.value, p.pp.value, p.ep.value, p.etp.value], [2, 1, 4, 1]);
  assert.equal(p.dp?.value, 4, '8 / TP 2');
  assert.equal(p.expertDp?.value, 2, '8 / (ETP 1 × EP 4 × PP 1)');
  assert.equal(p.globalBatch?.value, 32);
  assert.equal(p.numMicroBatches?.value, 2, 'GBS 32 / (MBS 4 × DP 4)');
  const moe = planOf(meg('Megatron-LM__tests__functional_tests__test_cases__moe__gpt3_mcore_te_tp2_pp1_te_8experts2parallel_overlap_grad_reduce_param_gather_groupedGEMM__model_config.yaml'), { worldSize: 8 });
  assert.equal(moe.etp.value, 2, 'expert TP not written: Megatron uses TP');
  assert.equal(moe.etp.from.kind, 'default');
  assert.equal(moe.expertDp?.value, 2, '8 / (ETP 2 × EP 2 × PP 1)');
  const cp = planOf(meg('Megatron-LM__tests__functional_tests__test_cases__hybrid__hybrid_mr_mcore_te_tp2_pp1_cp4_dgx_a100_1N8G__model_config.yaml'));
  assert.deepEqual([cp.tp.value, cp.cp.value, cp.dp?.value], [2, 4, 1]);
  assert.equal(cp.model, undefined, 'hybrid Mamba stacks have no transformer shape to estimate');
});

test('Megatron YAML: VPP from layers per virtual stage; the model shape from the flags', { skip: corpusSkip() }, () => {
  const p = planOf(meg('Megatron-LM__tests__functional_tests__test_cases__gpt__gpt3_7b_tp1_pp4_memory_speed__model_config.yaml'), { worldSize: 8 });
  assert.equal(p.vpp?.value, 8, '32 layers / PP 4 / 1 layer per virtual stage');
  assert.deepEqual([p.model?.value.layers, p.model?.value.hidden, p.model?.value.heads, p.model?.value.queryGroups], [32, 4096, 32, 8]);
  assert.equal(p.dp?.value, 2);
  assert.equal(p.sharding.value.kind, 'distributed-optimizer');
  assert.equal(p.overlap.gradReduce?.value, true);
});

test('examples/accelerate/megatron-70b.yaml: the layout and the memory the hover shows', () => {
  const file = join(ROOT, 'examples/accelerate/megatron-70b.yaml');
  const text = readFileSync(file, 'utf8');
  const a = analyze({ path: file, text }, { hardware: 'h100-sxm' });
  const p = a.docs[0].plan!;
  assert.deepEqual([p.world?.value, p.tp.value, p.pp.value, p.cp.value, p.dp?.value], [64, 16, 2, 1, 2]);
  assert.equal(p.model?.from.kind, 'setting');
  const lens = layoutLenses(a);
  assert.equal(lens.length, 1);
  assert.match(lens[0].title, /^64 GPUs = TP 16 × PP 2 × CP 1 × DP 2 · ~\d+(\.\d)? GiB\/GPU of 80 · h100-sxm$/);
  const text2 = layoutText(a)!;
  assert.match(text2, /DP \(data parallel\)\s+2\s+DP = 64 \/ \(TP 16 × PP 2 × CP 1\) = 2/);
  assert.match(text2, /TP 16: InfiniBand/);
});

test('layout fixes on generated Megatron-plugin layouts remove their finding and add no new error', () => {
  const degree = fc.constantFrom(1, 2, 3, 4, 8, 16);
  fc.assert(
    fc.property(fc.constantFrom(1, 2, 4, 8), fc.constantFrom(8, 12, 16, 24, 32, 64), degree, fc.constantFrom(1, 2, 4, 3), fc.constantFrom(undefined, 1, 2), fc.boolean(), fc.constantFrom('llama-3-8b', 'llama-3-70b', 'mixtral-8x7b', undefined), (nodes, world, tp, pp, cp, sp, model) => {
      const text = [
        `# shardwise: hardware=h100-sxm${model ? ` model=${model} seq_length=4096 micro_batch_size=1` : ''}`,
        'distributed_type: MEGATRON_LM',
        'mixed_precision: bf16',
        `num_machines: ${nodes}`,
        `num_processes: ${world}`,
        'main_process_ip: 10.0.0.1',
        'main_process_port: 29500',
        'megatron_lm_config:',
        `  megatron_lm_tp_degree: ${tp}`,
        `  megatron_lm_pp_degree: ${pp}`,
        ...(cp ? [`  megatron_lm_context_parallel_size: ${cp}`] : []),
        `  megatron_lm_sequence_parallelism: ${sp}`,
        '  megatron_lm_use_distributed_optimizer: true',
        '',
      ].join('\n');
      const a = analyze({ path: 'gen.yaml', text });
      const errorsBefore = new Set(a.findings.filter((f) => f.severity === 'error').map((f) => f.code));
      for (const f of a.findings) {
        for (const fix of f.fixes()) {
          const fixed = applyEdits(text, fix.edits);
          const b = analyze({ path: 'gen.yaml', text: fixed });
          const before = a.findings.filter((x) => x.code === f.code).length;
          const after = b.findings.filter((x) => x.code === f.code).length;
          assert.ok(after < before, `"${fix.title}" did not remove ${f.code}\n${text}\n---\n${fixed}`);
          const newErrors = b.findings.filter((x) => x.severity === 'error' && !errorsBefore.has(x.code));
          assert.deepEqual(newErrors.map((x) => x.code), [], `"${fix.title}" brought new errors\n${fixed}`);
        }
      }
    }),
    { numRuns: 150 },
  );
});

test('a layout that does not fill its world gives no DP, no memory per GPU and no world-spanning groups, and no finding reasons from them', () => {
  const broken: [string, string][] = [
    ['train.sh', '#!/bin/bash\n# shardwise: hardware=h100-sxm\ntorchrun --nproc_per_node 8 --nnodes 1 pretrain_gpt.py --tensor-model-parallel-size 3 --pipeline-model-parallel-size 4 --num-layers 30 --hidden-size 4096 --num-attention-heads 32 --seq-length 4096 --max-position-embeddings 4096 --micro-batch-size 1 --global-batch-size 64 --bf16 --use-distributed-optimizer\n'],
    ['slurm.sh', '#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=8\n#SBATCH --gpus-per-node=8\nsrun python pretrain_gpt.py --tensor-model-parallel-size 8 --pipeline-model-parallel-size 4 --num-layers 32 --hidden-size 4096 --num-attention-heads 32 --seq-length 4096 --max-position-embeddings 4096 --micro-batch-size 1 --global-batch-size 64 --bf16 --use-distributed-optimizer\n'],
    ['accelerate.yaml', '# shardwise: hardware=h100-sxm model=llama-3-8b seq_length=4096 micro_batch_size=1\ndistributed_type: MEGATRON_LM\nnum_processes: 8\nmegatron_lm_config:\n  megatron_lm_tp_degree: 4\n  megatron_lm_pp_degree: 4\n  megatron_lm_context_parallel_size: 1\n  megatron_lm_use_distributed_optimizer: true\n'],
    ['mesh.yaml', '# shardwise: model=llama-3-8b seq_length=4096 micro_batch_size=1\ndistributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_version: 2\nparallelism_config:\n  parallelism_config_dp_shard_size: 2\n  parallelism_config_tp_size: 2\n'],
  ];
  // What a layout that does not fill its world may still be told: the mismatch itself, and what holds for any world.
  const allowed = new Set(['world-size-mismatch', 'heads-not-divisible-by-tp', 'layers-not-divisible-by-pp', 'tp-exceeds-nvlink-domain', 'tp-without-sequence-parallel', 'missing-cuda-device-max-connections', 'missing-tp-comm-overlap', 'num-query-groups-without-gqa']);
  for (const [path, text] of broken) {
    const a = analyze({ path, text });
    const plan = a.docs[0]?.plan;
    assert.ok(plan, path);
    assert.equal(layoutFits(plan), false, path);
    assert.equal(planMemory(plan), undefined, path);
    assert.deepEqual(groupFabrics(plan).filter((g) => g.name === 'DP' || g.name === 'PP'), [], path);
    assert.ok(a.findings.some((f) => f.code === 'world-size-mismatch'), `${path}: ${a.findings.map((f) => f.code).join(', ')}`);
    for (const f of a.findings) {
      assert.ok(allowed.has(f.code), `${path}: ${f.code} reasons from a layout that does not fill the world: ${f.message}`);
      if (f.code !== 'world-size-mismatch') assert.doesNotMatch(f.message, /\bDP \d|GiB/, `${path}: ${f.code}: ${f.message}`);
    }
  }
});

test('a fine-tuning launch with a DeepSpeed JSON: DP = the launcher\'s processes, micro batch and accumulation the Trainer fills from the flags, ZeRO from the JSON, the model from a known checkpoint', () => {
  const json = '{ "train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto", "bf16": { "enabled": "auto" }, "zero_optimization": { "stage": 3 } }';
  const files: Record<string, string> = { 'ds.json': json, 'train.py': 'from transformers import HfArgumentParser, TrainingArguments\n' };
  const resolve = (ref: string) => ({ ref, path: `/w/${ref}`, text: files[ref], tried: [`/w/${ref}`] });
  const script = (extra: string) => `torchrun --nproc_per_node 8 train.py --model_name_or_path meta-llama/Meta-Llama-3-8B --output_dir out --per_device_train_batch_size 4 --gradient_accumulation_steps 2 --bf16 True --model_max_length 4096 --deepspeed ds.json${extra}\n`;
  const p = analyze({ path: '/w/finetune.sh', text: script(''), resolve }).docs[0].plan;
  assert.ok(p);
  assert.equal(p.world?.value, 8);
  assert.equal(p.dp?.value, 8);
  assert.equal(p.microBatch?.value, 4);
  assert.equal(p.gradAccum?.value, 2);
  assert.equal(p.globalBatch?.value, 64);
  assert.equal(p.precision.value, 'bf16');
  assert.equal(p.sharding.value.stage, 3);
  assert.equal(p.sharding.value.group, 8);
  assert.equal(p.seqLength?.value, 4096);
  assert.equal(p.model?.value.hidden, 4096);
  // LoRA trains adapters only: no full-training model is assumed for the memory estimate.
  const lora = analyze({ path: '/w/finetune.sh', text: script(' --use_peft --lora_r 16'), resolve }).docs[0].plan;
  assert.equal(lora?.model, undefined);
  assert.ok(lora?.notes.some((n) => /adapter/.test(n)));
});

test('a fine-tuning launch whose DeepSpeed JSON runs AutoTP: DP is the launcher\'s processes over the TP degree, and the global batch counts DP ranks', () => {
  const json = '{ "train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto", "tensor_parallel": { "autotp_size": 2 }, "zero_optimization": { "stage": 2 } }';
  const files: Record<string, string> = { 'ds.json': json, 'train.py': 'from transformers import HfArgumentParser, TrainingArguments\n' };
  const resolve = (ref: string) => ({ ref, path: `/w/${ref}`, text: files[ref], tried: [`/w/${ref}`] });
  const text = 'torchrun --nproc_per_node 8 train.py --output_dir out --per_device_train_batch_size 4 --gradient_accumulation_steps 2 --learning_rate 1e-5 --deepspeed ds.json\n';
  const p = analyze({ path: '/w/finetune.sh', text, resolve }).docs[0].plan;
  assert.ok(p);
  assert.equal(p.world?.value, 8);
  assert.equal(p.tp.value, 2);
  assert.equal(p.dp?.value, 4);
  assert.equal(p.sharding.value.group, 4);
  assert.equal(p.globalBatch?.value, 32);
});

test('memory per GPU of states sharded over a data-parallel group of unknown size is unknown, not that of one GPU', () => {
  const ds = JSON.stringify({ train_micro_batch_size_per_gpu: 'auto', zero_optimization: { stage: 3 } });
  const recipe = 'model_name_or_path: meta-llama/Meta-Llama-3-8B-Instruct\nstage: sft\ndo_train: true\nfinetuning_type: full\ndeepspeed: ds.json\nper_device_train_batch_size: 1\ncutoff_len: 2048\nbf16: true\noutput_dir: out\n';
  const resolve = (ref: string) => (ref === 'ds.json' ? { ref, path: '/p/ds.json', text: ds, tried: ['/p/ds.json'] } : { ref, tried: [] });
  const unknownWorld = analyze({ path: '/p/sft.yaml', text: recipe, resolve }).docs[0].plan!;
  assert.ok(unknownWorld.model, 'the recipe names a model the plan knows');
  assert.equal(unknownWorld.world, undefined);
  assert.equal(planMemory(unknownWorld), undefined);
  assert.doesNotMatch(layoutText(analyze({ path: '/p/sft.yaml', text: recipe, resolve })) ?? '', /GiB\/GPU/);
  // The same ZeRO-3 over a known world of 8 shards the states eight ways: a number, and a smaller one than on 1 GPU.
  const eight = analyze({ path: '/p/sft.yaml', text: recipe, resolve }, { worldSize: 8 }).docs[0].plan!;
  const one = analyze({ path: '/p/sft.yaml', text: recipe, resolve }, { worldSize: 1 }).docs[0].plan!;
  assert.ok(planMemory(eight) && planMemory(one) && planMemory(eight)!.bytes.total < planMemory(one)!.bytes.total);
});

test('a DeepSpeed JSON with elasticity enabled: the batch keys are not the Plan\'s, since DeepSpeed computes them itself (deepspeed/runtime/config.py@v0.19.5:717-773)', () => {
  const json = (elastic: boolean) => `{\n  "train_batch_size": 32,\n  "train_micro_batch_size_per_gpu": 4,\n  "gradient_accumulation_steps": 1,\n  "elasticity": { "enabled": ${elastic}, "ignore_non_elastic_batch_info": true, "max_train_batch_size": 64, "micro_batch_sizes": [2, 4] }\n}\n`;
  const plan = (text: string) => analyze({ path: 'ds_config.json', text }, { worldSize: 8 }).docs[0]?.plan;
  const off = plan(json(false));
  assert.equal(off?.globalBatch?.value, 32);
  assert.equal(off?.microBatch?.value, 4);
  const on = plan(json(true));
  assert.equal(on?.globalBatch, undefined);
  assert.equal(on?.microBatch, undefined);
  assert.equal(on?.gradAccum, undefined);
  assert.ok(on?.notes.some((n) => n.includes('elasticity')));
});

test('Megatron Bridge: a comm_overlap section with the distributed optimizer sets the DP overlaps over ddp.*', () => {
  // src/megatron/bridge/training/config.py@067f987:2027-2029 runs CommOverlapConfig.setup whenever comm_overlap is set;
  // training/comm_overlap.py@067f987:562-586,636-643: with ddp.use_distributed_optimizer it applies overlap_grad_reduce /
  // overlap_param_gather = the section's own value, else DP > 1, onto the DDP config.
  const text = 'model:\n  tensor_model_parallel_size: 1\n  pipeline_model_parallel_size: 1\nddp:\n  overlap_grad_reduce: false\n  use_distributed_optimizer: true\ncomm_overlap:\n  tp_comm_overlap: false\n  overlap_param_gather: false\ntrain:\n  exit_signal_handler_for_dataloader: true\n';
  const plan = (settings: object) => analyze({ path: 'override.yaml', text }, settings).docs[0]!.plan!;
  const p = plan({ worldSize: 8 });
  assert.equal(p.overlap.gradReduce?.value, true);
  assert.equal(p.overlap.gradReduce?.from.kind, 'derived');
  assert.equal(p.overlap.paramGather?.value, false);
  assert.deepEqual((p.overlap.paramGather?.from as { path: unknown }).path, ['comm_overlap', 'overlap_param_gather']);
  // DP 1: Bridge turns the overlap off.
  assert.equal(plan({ worldSize: 1 }).overlap.gradReduce?.value, false);
  // Without a comm_overlap section, ddp.overlap_grad_reduce is what the file says.
  const plain = analyze({ path: 'override.yaml', text: text.replace(/comm_overlap:\n(  .*\n)+/, '') }, { worldSize: 8 }).docs[0]!.plan!;
  assert.equal(plain.overlap.gradReduce?.value, false);
});

test('DeepSpeed: an offload section without `device` offloads to CPU before 0.5.7, and offloads nothing from it', () => {
  // deepspeed/runtime/zero/offload_constants.py@v0.5.6:26,54 OFFLOAD_*_DEVICE_DEFAULT = OFFLOAD_CPU_DEVICE; @v0.5.7 None.
  const text = '{\n  "train_micro_batch_size_per_gpu": 1,\n  "zero_optimization": { "stage": 3, "offload_param": { "pin_memory": true }, "offload_optimizer": { "pin_memory": true } }\n}\n';
  const sharding = (settings: object) => analyze({ path: 'ds_config.json', text }, settings).docs[0]!.plan!.sharding!.value as { offloadParams?: boolean; offloadOptimizer?: boolean };
  const old = sharding({ targetVersions: { deepspeed: '0.5.6' } });
  assert.equal(old.offloadParams, true);
  assert.equal(old.offloadOptimizer, true);
  const now = sharding({ targetVersions: { deepspeed: '0.5.7' } });
  assert.equal(now.offloadParams, false);
  assert.equal(now.offloadOptimizer, false);
  assert.equal(sharding({}).offloadParams, false);
});

test('the MoE dispatcher a Megatron launch writes: flex (DeepEP, HybridEP) sends a token once per remote NVLink domain, the others a copy per routed expert', () => {
  const script = (extra: string) =>
    `torchrun --nproc-per-node 8 --nnodes 4 pretrain_gpt.py --num-layers 8 --hidden-size 1024 --num-attention-heads 16 --seq-length 4096 --max-position-embeddings 4096 --micro-batch-size 1 --global-batch-size 64 --num-experts 64 --moe-router-topk 8 --expert-model-parallel-size 16 --bf16 ${extra}\n`;
  const planFor = (extra: string) => {
    const a = analyze({ path: '/x/train.sh', text: script(extra) }, {});
    const p = a.docs[0]?.plan;
    assert.ok(p);
    return p;
  };
  const unset = planFor('');
  assert.equal(unset.dedupDispatch?.value, false);
  assert.equal(unset.dedupDispatch?.from.kind, 'default');
  assert.equal(planFor('--moe-token-dispatcher-type alltoall').dedupDispatch?.from.kind, 'written');
  assert.equal(planFor('--moe-token-dispatcher-type flex').dedupDispatch?.value, true);
  assert.equal(planFor('--moe-token-dispatcher-type flex --moe-flex-dispatcher-backend hybridep').dedupDispatch?.value, true);
  assert.equal(planFor('--moe-token-dispatcher-type flex --moe-flex-dispatcher-backend ncclep').dedupDispatch?.value, false);
  assert.equal(planFor('--moe-token-dispatcher-type $DISPATCHER').dedupDispatch?.from.kind, 'unknown');
});
