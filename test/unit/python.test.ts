import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parserDataclasses } from '../../server/src/engine/formats/trainer/dataclasses';
import { patchesMegatron } from '../../server/src/engine/formats/megatron/source';
import { importsMegatron } from '../../server/src/engine/formats/megatron/script';
import { pythonImports, pythonStatements } from '../../server/src/engine/syntax/python';

/** Each import as `module(level) names` for short comparisons. */
function shown(text: string): string[] {
  return pythonImports(text).map((i) => `${'.'.repeat(i.level)}${i.module}${i.as ? ` as ${i.as}` : ''}${i.names ? `: ${i.names.map((n) => (n.as === n.name ? n.name : `${n.name} as ${n.as}`)).join(', ')}` : ''}`);
}

test('Python imports in every form the language allows are read', () => {
  const text = [
    'import os, sys as system',
    'import a.b as c, d.e',
    'from utils.args_loader import (',
    '    foo,  # a comment with a ( bracket',
    '    parse_args as pa,',
    ')',
    'from . import sibling',
    'from .. pkg import y',
    'from \\',
    '    megatron.core \\',
    '    import z',
    'from importlib import reload; import json',
    'if TYPE_CHECKING: from t import U',
    'try:',
    '    import transformers',
    'except ImportError: pass',
    'from x.import_utils import *',
    'from .sib import (a,',
    '  b)',
    'from . import importer',
  ].join('\n');
  assert.deepEqual(shown(text), [
    'os', 'sys as system', 'a.b as c', 'd.e', 'utils.args_loader: foo, parse_args as pa', '.: sibling', '..pkg: y',
    'megatron.core: z', 'importlib: reload', 'json', 't: U', 'transformers', 'x.import_utils: *', '.sib: a, b', '.: importer',
  ]);
});

test('Strings and comments import nothing, and their brackets do not join lines', () => {
  const text = ['"""A docstring:', 'import fake', 'from not_this import x', '"""', "s = 'unclosed ( ' + r\"\\\"(\"", '# import commented', 'import real'].join('\n');
  assert.deepEqual(shown(text), ['real']);
  assert.deepEqual(pythonStatements('x = f(1,\n  2)\ny = 3; z = [\n]').map((x) => x.replace(/\s+/g, ' ')), ['x = f(1, 2)', 'y = 3', 'z = [ ]']);
});

test('Megatron imports and patch modules are found however the import is written', () => {
  assert.equal(importsMegatron('import os, megatron'), true);
  assert.equal(importsMegatron('from \\\n  megatron.training import get_args'), true);
  assert.equal(importsMegatron('"""\nimport megatron\n"""\nimport torch'), false);
  assert.equal(patchesMegatron('from mindspeed_llm import (\n    megatron_adaptor,\n)\n'), 'imports `from mindspeed_llm import megatron_adaptor`');
  assert.equal(patchesMegatron('from megatron_patch.training import pretrain'), 'imports `from megatron_patch`');
});

test('HfArgumentParser reads the flags into TrainingArguments only when one of its dataclasses is one', () => {
  const kind = (...texts: string[]) => parserDataclasses(texts)?.kind;
  // Transformers' own, a TRL trainer config, a local subclass (also through an alias or a module attribute).
  assert.equal(kind('from transformers import HfArgumentParser, TrainingArguments\np = HfArgumentParser((A, TrainingArguments))'), 'trainer');
  assert.equal(kind('from trl import SFTConfig, TrlParser, ModelConfig, ScriptArguments\np = TrlParser((ScriptArguments, SFTConfig, ModelConfig))'), 'trainer');
  assert.equal(kind('import transformers as tf\nclass Args(tf.TrainingArguments):\n  x: int = 1\np = tf.HfArgumentParser(Args)'), 'trainer');
  assert.equal(kind('from transformers import TrainingArguments as HfTA\nclass TrainingArguments(HfTA): pass\nHfArgumentParser([TrainingArguments])'), 'trainer');
  assert.equal(kind('from transformers import HfArgumentParser\nARGS = [M, D, Seq2SeqTrainingArguments]\np = HfArgumentParser(ARGS)'), 'trainer');
  // The program's own dataclasses only, in its text or in a module it imports; TRL's own argument dataclasses.
  assert.deepEqual(parserDataclasses(['@dataclass\nclass ScriptArguments:\n  bf16: bool = False\nargs = HfArgumentParser(ScriptArguments).parse_args_into_dataclasses()']), { kind: 'own', classes: ['ScriptArguments'] });
  assert.equal(kind('from args import A, B\np = HfArgumentParser(\n    (A, B)\n)', 'class Base:\n  pass\nclass A(Base): pass\nclass B(object): pass'), 'own');
  assert.equal(kind('from trl import ModelConfig, ScriptArguments, TrlParser\np = TrlParser((ScriptArguments, ModelConfig))'), 'own');
  // A class that is not defined in the files read, or TRL's PPOConfig (a TrainingArguments only from 0.12.0): not known.
  assert.equal(kind('from pkg.args import TrainArgs\np = HfArgumentParser(TrainArgs)'), 'unknown');
  assert.equal(kind('from pkg.args import Base\nclass Mine(Base): pass\np = HfArgumentParser(Mine)'), 'unknown');
  assert.equal(kind('from trl import PPOConfig\np = HfArgumentParser(PPOConfig)'), 'unknown');
  assert.equal(kind('class MyParser(HfArgumentParser):\n  pass\np = MyParser((A, B))'), 'unknown');
  // A repository's own subclass of HfArgumentParser is read as HfArgumentParser.
  assert.equal(kind('from transformers import HfArgumentParser\nclass H4ArgumentParser(HfArgumentParser):\n  pass\nclass Args:\n  x: int = 1\np = H4ArgumentParser(Args)'), 'own');
  assert.equal(kind('class TrlParser(HfArgumentParser):\n  pass\nfrom trl import SFTConfig\np = TrlParser(SFTConfig)'), 'trainer');
  // No HfArgumentParser at all (or only in a comment or a string): nothing to say.
  assert.equal(kind('# HfArgumentParser(TrainingArguments)\nx = "HfArgumentParser"'), undefined);
});
