import assert from 'node:assert/strict';
import { test } from 'node:test';
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
