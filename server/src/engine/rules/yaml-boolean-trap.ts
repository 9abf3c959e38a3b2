/**
 * yaml-boolean-trap: an unquoted YAML scalar that YAML 1.1 (PyYAML) reads as something else than
 * what was meant: `no`/`NO`/`off` as booleans, `gpu_ids: 0` as a number, `1e8` as text, `010` as 8.
 */
import { PY_INT } from '../syntax/scalars';
import type { Node } from '../syntax/tree';
import type { Path } from '../types';
import { code, pathLabel, releaseAccepts, yamlTrap } from './helpers';
import type { JsonSchema } from '../schema/types';
import { defineRule, type RuleContext } from './rule';
import { wrapKeyUnread } from '../formats/accelerate/helpers';
import type { AccelerateModel } from '../formats/accelerate/model';
import { invalidEffect, normalized, yamlFalse, yamlFalseQuoteSafe } from '../schema/vocabulary';

function effect(schema: JsonSchema | undefined, tool: string): string {
  return invalidEffect(schema) ?? `${tool} then fails or misreads the value`;
}

export default defineRule({
  id: 'yaml-boolean-trap',
  severity: 'error',
  formats: 'all',
  fixes: {
    quote: { applicability: 'safe', changes: 'quotes the text the key needs' },
    'quote-as-loaded': { applicability: 'safe', changes: 'quotes the text the releases that load the boolean turn it into', unconditional: true },
    'write-number': { applicability: 'safe', changes: 'writes the number as YAML reads numbers' },
    'write-list': { applicability: 'safe', changes: 'writes the list as a YAML list' },
    'write-value-read': { applicability: 'safe', changes: 'writes the number YAML already reads', unconditional: true },
    'quote-as-text': { applicability: 'unsafe', changes: 'the value: text instead of the number YAML reads' },
  },
  docs: {
    summary: 'An unquoted value that YAML 1.1 reads as a different type than intended.',
    why: 'The launchers read YAML with PyYAML, which follows YAML 1.1: unquoted `no`, `NO`, `off`, `yes`, `on` are booleans, `0` is a number, `1e8` is text (a float needs a dot and a signed exponent), `010` is octal 8 and `1:30` is 90. `mixed_precision: no` reaches the launcher as `False` and crashes it (`\'bool\' object has no attribute \'lower\'`), except in the Accelerate releases whose loader turns that `False` back into `\'no\'` (there nothing is said); `gpu_ids: 0` crashes `split(",")`; `fsdp_min_num_params: 1e8` fails `int()`. The `MODEL_ARGS` of a Megatron-LM YAML are the exception: a shell harness turns them into flags with yq, which passes the text as written.',
    bad: "distributed_type: MULTI_GPU\nnum_processes: 2\nmixed_precision: no\n",
    good: "distributed_type: MULTI_GPU\nnum_processes: 2\nmixed_precision: 'no'\n",
    fix: 'Quotes the value (`\'no\'`), writes the number out (`100000000`) or turns a tuple string into a list, so the file says what it means.',
    upstream: [
      { label: 'Accelerate v1.14.0, `utils/launch.py`: the launcher calls `.lower()` on `mixed_precision`', url: 'https://github.com/huggingface/accelerate/blob/v1.14.0/src/accelerate/utils/launch.py#L168-L172' },
    ],
  },
  check(ctx) {
    if (ctx.doc.syntax !== 'yaml') return;
    // A Megatron-LM YAML's MODEL_ARGS are turned into command-line flags by a shell harness with yq
    // (Megatron-LM's tests/functional_tests/shell_test_utils/_run_training.sh, and the model zoos that
    // copy it), which passes each value's text as written: argparse gets `false`, `no`, `010` as
    // text whatever YAML 1.1 would have read, so no trap applies there.
    const textual = (path: Path) => ctx.format === 'megatron-yaml' && typeof path[0] === 'string' && /^MODEL_ARGS(_\d+)?$/.test(path[0]);
    // Each issue on its own: what is read for one does not weigh on another's finding.
    ctx.each(ctx.issues, (issue) => {
      // A wrap key the chosen policy never reads is never converted (fsdp-wrap-policy-mismatch says so).
      if (issue.kind !== 'invalid-value' || textual(issue.path) || wrapKeyUnread(ctx as RuleContext<AccelerateModel>, issue.path)) return;
      const trap = yamlTrap(ctx, issue);
      if (!trap || releaseAccepts(ctx, issue.schema, ctx.doc.node(issue.path))) return;
      const label = pathLabel(issue.path);
      if (trap.kind === 'quote') {
        const read = typeof trap.read === 'boolean' ? `the boolean \`${trap.read ? 'True' : 'False'}\`` : trap.read === null ? 'null (no value)' : `the number \`${trap.read}\``;
        // Where the tool does something known with `False` (the same run, or the only form that loads), the schema says.
        const asFalse = trap.read === false ? yamlFalse(issue.schema, (v) => ctx.atLeast(v)) : undefined;
        if (asFalse?.severity === 'none') return;
        // The text that means what was read (`'NO'` for `no`), and whether quoting it helps at all.
        const text = trap.as ?? trap.text;
        const quotable = asFalse?.quote !== false && (trap.as !== undefined || ctx.nav!.matches(issue.schema, normalized(issue.schema, trap.text)));
        ctx.report({
          at: issue.path,
          on: 'value',
          severity: asFalse?.severity,
          message: `Unquoted \`${trap.text}\` is read by YAML 1.1 as ${read}, not as the text ${code(text)} that ${label} needs: ${asFalse?.effect ?? effect(issue.schema, ctx.tool)}.${quotable ? ` Quote it: \`'${text}'\`.` : ''}`,
          fixes: quotable ? [{ kind: yamlFalseQuoteSafe(issue.schema) ? 'quote-as-loaded' : 'quote', title: `Quote as '${text}'`, edits: [{ op: 'set', path: issue.path, value: text, quote: 'single' }], recommended: true }] : [],
        });
      } else if (trap.kind === 'number') {
        ctx.report({
          at: issue.path,
          on: 'value',
          message: `\`${trap.text}\` is read by YAML 1.1 as the text ${code(trap.text)}, not a number (PyYAML wants a dot and a signed exponent, as in \`1.0e+8\`), so ${label} gets text: ${effect(issue.schema, ctx.tool)}. Write the number out: \`${trap.number}\`.`,
          fixes: [{ kind: 'write-number', title: `Write ${trap.number}`, edits: [{ op: 'set', path: issue.path, value: trap.number }], recommended: true }],
        });
      } else {
        ctx.report({
          at: issue.path,
          on: 'value',
          message: `\`${trap.text}\` is one string to YAML, not a list: ${label} needs a list, and ${effect(issue.schema, ctx.tool)}. Write a YAML list: \`[${trap.items.map(String).join(', ')}]\`.`,
          fixes: [{ kind: 'write-list', title: `Write [${trap.items.map(String).join(', ')}]`, edits: [{ op: 'set', path: issue.path, value: trap.items }], recommended: true }],
        });
      }
    });
    // Numbers that are valid but not what they look like: octal and base-60 integers.
    const visit = (node: Node, path: Path): void => {
      if (node.aliased || textual(path)) return;
      if (node.kind === 'map') for (const e of node.entries) visit(e.value, [...path, e.key]);
      else if (node.kind === 'seq') node.items.forEach((n, i) => visit(n, [...path, i]));
      else if (node.style === 'plain' && !node.tag && typeof node.value === 'number' && PY_INT.test(node.raw) && /^[-+]?(0[0-7_]+|\d[\d_]*(:[0-5]?\d)+)$/.test(node.raw)) {
        const kind = node.raw.includes(':') ? 'a base-60 number' : 'an octal number';
        ctx.report({
          at: path,
          on: 'value',
          severity: 'warning',
          message: `\`${node.raw}\` is read by YAML 1.1 as ${kind}, ${node.value}. Quote it if it is text, or write ${node.value} if that is the number you mean.`,
          fixes: [
            { kind: 'write-value-read', title: `Write ${node.value}`, edits: [{ op: 'set', path, value: node.value }] },
            { kind: 'quote-as-text', title: `Quote as '${node.raw}'`, edits: [{ op: 'set', path, value: node.raw, quote: 'single' }] },
          ],
        });
      }
    };
    if (ctx.doc.root) visit(ctx.doc.root, []);
  },
});
