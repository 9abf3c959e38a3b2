/**
 * deprecated-key: a renamed or removed key or value.
 */
import type { Deprecation } from '../schema/types';
import type { PathEdit } from '../syntax/sourcedoc';
import type { Path, Severity } from '../types';
import { code, deprecatedValue, lastKey, pathLabel, walkSchema } from './helpers';
import { defineRule, type FixSpec, type RuleContext } from './rule';

const SEVERITY: Record<Deprecation['effect'], Severity> = { error: 'error', ignored: 'warning', 'no-effect': 'warning', migrated: 'information' };
const EFFECT: Record<Deprecation['effect'], string> = {
  error: 'the tool now refuses to load a file that has it',
  ignored: 'it is now ignored without a word',
  'no-effect': 'it has no effect',
  migrated: 'it still works (converted when the file is loaded), but under its old name',
};

export default defineRule({
  id: 'deprecated-key',
  severity: 'warning',
  formats: 'all',
  docs: {
    summary: 'A key or value that was renamed or removed.',
    why: 'Tools rename settings between releases. Some old names are still converted on load (information), some are now silently ignored (warning: the setting no longer does what the file says), some make the file fail to load (error). The message gives the version and the replacement.',
    bad: 'distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_backward_prefetch_policy: BACKWARD_PRE\n',
    good: 'distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_backward_prefetch: BACKWARD_PRE\n',
    fix: 'Renames the key (or moves its value) to the replacement, converting the value when the meaning changed; removes it when there is no replacement.',
  },
  check(ctx) {
    walkSchema(ctx, (path, schema, node) => {
      const dep = schema['x-deprecated'];
      if (!dep || (node.kind === 'scalar' && node.value === null)) return;
      ctx.report({
        at: path,
        severity: SEVERITY[dep.effect],
        message: deprecationMessage(pathLabel(path), dep, ctx.tool),
        fixes: keyFixes(ctx, path, dep, node.kind === 'scalar' ? node.value : ctx.doc.value(path)),
      });
    });
    for (const issue of ctx.issues) {
      if (issue.kind !== 'invalid-value') continue;
      const node = ctx.doc.node(issue.path);
      const written = node?.kind === 'scalar' ? node.value : issue.value;
      const found = deprecatedValue(issue.schema, issue.value, written);
      if (!found) continue;
      const { dep } = found;
      const fixes: FixSpec[] = dep.replacement !== undefined && !dep.replacement.includes('.') ? [{ title: `Change to ${code(dep.replacement)}`, edits: [{ op: 'set', path: issue.path, value: dep.replacement }], preferred: true }] : [];
      ctx.report({
        at: issue.path,
        on: 'value',
        severity: SEVERITY[dep.effect],
        message: deprecationMessage(`${code(written)} for ${code(lastKey(issue.path))}`, dep, ctx.tool),
        fixes,
      });
    }
  },
});

function deprecationMessage(subject: string, dep: Deprecation, tool: string): string {
  const since = dep.since ? ` since ${tool} ${dep.since}` : '';
  const why = dep.message ? dep.message.trim().replace(/\.?$/, '.') : `${EFFECT[dep.effect].replace(/^./, (c) => c.toUpperCase())}.`;
  const use = dep.replacement && !why.includes(dep.replacement) ? ` Use ${code(dep.replacement)} instead.` : '';
  return `${subject} is deprecated${since}. ${why}${use}`;
}

function keyFixes(ctx: RuleContext, path: Path, dep: Deprecation, value: unknown): FixSpec[] {
  const remove: PathEdit = { op: 'remove', path };
  if (!dep.replacement) return dep.effect === 'migrated' ? [] : [{ title: `Remove ${code(lastKey(path))}`, edits: [remove], preferred: true }];
  const target: Path = dep.replacement.includes('.') ? dep.replacement.split('.') : [...path.slice(0, -1), dep.replacement];
  const mapped = dep.replacementValue ? dep.replacementValue[JSON.stringify(value)] : value;
  if (dep.replacementValue && !(JSON.stringify(value) in dep.replacementValue)) return [];
  if (ctx.doc.node(target)) return [{ title: `Remove ${code(lastKey(path))} (${code(dep.replacement)} is already set)`, edits: [remove], preferred: true }];
  if (mapped === null) return [{ title: `Remove ${code(lastKey(path))}`, edits: [remove], preferred: true }];
  const targetSchema = ctx.nav?.at(target, ctx.doc.value([]), ctx.version);
  if (ctx.nav && targetSchema && !ctx.nav.matches(targetSchema, mapped)) return [{ title: `Remove ${code(lastKey(path))}`, edits: [remove] }];
  if (!dep.replacement.includes('.') && mapped === value) return [{ title: `Rename to ${code(dep.replacement)}`, edits: [{ op: 'rename', path, key: dep.replacement }], preferred: true }];
  return [{ title: `Replace with ${code(`${dep.replacement}: ${typeof mapped === 'string' ? mapped : JSON.stringify(mapped)}`)}`, edits: [remove, { op: 'set', path: target, value: mapped }], preferred: true }];
}
