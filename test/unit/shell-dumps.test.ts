/**
 * The launch-script reader as data: every `test/shell/NAME.sh` is read with `parseShell` and rendered
 * as text — each flag with its value (or why it is unknown), where the key and the value are written
 * (line:column), where the value comes from (a literal, a variable and its assignment or default, an
 * array definition), the launcher chain with its options, the entry point, the variables as they
 * stand when the training command runs, the `#SBATCH` allocation and the problems. `NAME.edits`
 * (optional) holds one path edit (or a JSON array of edits made together) per line; each is rendered
 * as the lines it changes, before (`-`) and after (`+`), or as refused / no change.
 *
 * The rendering goes through the public surface of `syntax/shell` only (`parseShell`, the document's
 * tree, `vars`, `launcher`, `entrypoint`, `sbatch`, `launchContext`, `problems`, `edit`), so the
 * reader's internals can be reorganised without touching this file. The expected text is
 * `NAME.dump`, next to the script; a script without one fails.
 *
 * After an intended change of behaviour, rewrite the dumps and review the diff:
 *   SHARDWISE_UPDATE_DUMPS=1 node --import tsx --test test/unit/shell-dumps.test.ts
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseShell, type Launcher, type ShellDoc } from '../../server/src/engine/syntax/shell';
import { flagTakesValue } from '../../server/src/engine/formats/megatron/schema';

/** As the engine reads a launch script: with the arity of Megatron's flags (a `store_true` flag takes no value). */
const OPTIONS = { takesValue: flagTakesValue };
import type { PathEdit } from '../../server/src/engine/syntax/sourcedoc';
import type { Node } from '../../server/src/engine/syntax/tree';
import type { Span } from '../../server/src/engine/types';
import { applyEdits } from '../../server/src/engine/text';

const DIR = join(import.meta.dirname, '..', 'shell');
const UPDATE = process.env.SHARDWISE_UPDATE_DUMPS === '1';

function at(doc: ShellDoc, offset: number): string {
  const p = doc.lines.position(offset);
  return `${p.line + 1}:${p.character + 1}`;
}

function where(doc: ShellDoc, s: Span): string {
  return `${at(doc, s.start)} ${JSON.stringify(doc.text.slice(s.start, s.end))}`;
}

function inside(outer: Span, inner: Span): boolean {
  return outer.start <= inner.start && inner.end <= outer.end && outer.end > outer.start;
}

/** The variable definitions (arrays, `CMD='…'` strings) whose written value holds the span. */
function containers(doc: ShellDoc, s: Span): string[] {
  const out: string[] = [];
  for (const v of doc.vars.values()) if (inside(v.valueSpan, s) && !(v.valueSpan.start === s.start && v.valueSpan.end === s.end)) out.push(`${doc.text[v.valueSpan.start] === '(' ? 'array' : 'the value of'} ${v.name} (${at(doc, v.valueSpan.start)})`);
  return out;
}

const REF = /\$(?:\{[#!]?([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])|([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-]))/g;

/** Where a value written as `raw` at `s` comes from. */
function provenance(doc: ShellDoc, raw: string, s: Span): string[] {
  const lines: string[] = [];
  const names = [...new Set([...raw.matchAll(REF)].map((m) => m[1] ?? m[2]))];
  if (!names.length) lines.push('from: literal');
  for (const name of names) {
    const v = doc.vars.get(name);
    if (!v) {
      lines.push(`from: $${name}, not assigned in the script`);
      continue;
    }
    const value = v.unknown !== undefined ? `unknown (${v.unknown})` : JSON.stringify(v.value);
    let line = `from: $${name} = ${value}, assigned at ${at(doc, v.nameSpan.start)} as ${where(doc, v.valueSpan)}`;
    if (v.defaultSpan) line += `, default ${where(doc, v.defaultSpan)}`;
    lines.push(line);
  }
  for (const c of containers(doc, s)) lines.push(`written in ${c}`);
  return lines;
}

/** A flag's value; `key` is the flag's span, for a flag given without a value. */
function renderNode(doc: ShellDoc, n: Node, indent: string, key?: Span): string[] {
  if (n.kind === 'scalar') {
    const value = n.unknown !== undefined ? `unknown (${n.unknown})` : `${JSON.stringify(n.value)}${n.assumed ? ` (assumed: ${n.assumed})` : ''}`;
    const out = [`${indent}value ${value}`, `${indent}  at ${where(doc, n.span)}${n.raw === doc.text.slice(n.span.start, n.span.end) ? '' : ` raw ${JSON.stringify(n.raw)}`}`];
    if (n.raw !== '') for (const p of provenance(doc, n.raw, n.span)) out.push(`${indent}  ${p}`);
    else if (key) {
      out.push(`${indent}  from: the flag alone`);
      for (const c of containers(doc, key)) out.push(`${indent}  written in ${c}`);
    }
    return out;
  }
  if (n.kind === 'seq') {
    const out = [`${indent}list of ${n.items.length} at ${where(doc, n.span)}`];
    n.items.forEach((item, i) => out.push(`${indent}  [${i}]`, ...renderNode(doc, item, `${indent}    `)));
    return out;
  }
  return [`${indent}${n.kind} at ${where(doc, n.span)}`];
}

function renderLauncher(doc: ShellDoc, l: Launcher, depth: number): string[] {
  const pad = '  '.repeat(depth);
  const out = [`${pad}${l.kind} at ${where(doc, l.span)}`];
  for (const [k, a] of l.args) {
    const value = a.unknown !== undefined ? `unknown (${a.unknown})` : a.value === undefined ? '(no value)' : `${JSON.stringify(a.value)}${a.assumed ? ` (assumed: ${a.assumed})` : ''}`;
    out.push(`${pad}  ${k} = ${value}`, `${pad}    key at ${where(doc, a.keySpan)}`);
    if (a.value !== undefined || a.unknown !== undefined) {
      const raw = doc.text.slice(a.span.start, a.span.end);
      out.push(`${pad}    value at ${where(doc, a.span)}`, ...provenance(doc, raw, a.span).map((p) => `${pad}    ${p}`));
    }
  }
  if (l.inner) out.push(...renderLauncher(doc, l.inner, depth + 1));
  return out;
}

/** The lines an edit changes: the common head and tail of the two texts are left out. */
function lineDiff(before: string, after: string): string[] {
  if (before === after) return ['  (no change)'];
  const a = before.split('\n');
  const b = after.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  return [`  @@ line ${head + 1}`, ...a.slice(head, a.length - tail).map((l) => `  -${l}`), ...b.slice(head, b.length - tail).map((l) => `  +${l}`)];
}

export function dumpShell(text: string, edits: PathEdit[][]): string {
  const doc = parseShell(text, undefined, OPTIONS);
  const out: string[] = [];
  out.push('# flags');
  if (!doc.root) out.push('(no training command)');
  else {
    out.push(`command at ${where(doc, doc.root.span).split(' ')[0]}-${at(doc, doc.root.span.end)}`);
    for (const e of doc.root.entries) out.push(e.key, `  key at ${where(doc, e.keySpan)}`, ...renderNode(doc, e.value, '  ', e.keySpan));
  }
  out.push('', '# launchers');
  if (!doc.launcher) out.push('(none)');
  else out.push(...renderLauncher(doc, doc.launcher, 0));
  out.push(`entry point: ${doc.entrypoint ? `${JSON.stringify(doc.entrypoint.path)} at ${where(doc, doc.entrypoint.span)}` : '(none)'}`);
  const ctx = doc.launchContext;
  out.push(`started by: ${ctx.prefix.length ? JSON.stringify(ctx.prefix) : '(nothing before the launcher)'}${ctx.inLoop ? ', inside a loop' : ''}`);
  out.push(`anchor: ${doc.anchor ? where(doc, doc.anchor) : '(none)'}`);
  // Where more flags may come from than the script shows (the flag set is closed only without any).
  if (doc.open.length) out.push('', '# open', ...doc.open.map((o) => `at ${where(doc, o.span)}: ${o.reason}`));
  if (doc.sourced.length) out.push('', '# sourced', ...doc.sourced.map((f) => `${f.ref}: ${f.path ? `read from ${f.path}` : `not read (${f.why})`}`));
  out.push('', '# variables');
  if (!doc.vars.size) out.push('(none)');
  for (const v of doc.vars.values()) {
    const value = v.unknown !== undefined ? `unknown (${v.unknown})` : `${JSON.stringify(v.value)}${v.assumed ? ` (assumed: ${v.assumed})` : ''}`;
    out.push(`${v.name} = ${value}${v.exported ? ' (exported)' : ''}`, `  name at ${where(doc, v.nameSpan)}`, `  value at ${where(doc, v.valueSpan)}`);
    if (v.defaultSpan) out.push(`  default at ${where(doc, v.defaultSpan)}`);
    if (v.items) out.push(`  items ${JSON.stringify(v.items)}`);
  }
  if (doc.sbatch) {
    const s = doc.sbatch;
    out.push('', '# sbatch', `header at ${at(doc, s.span.start)}-${at(doc, s.span.end)}, ${s.options.length} options`);
    for (const k of ['nodes', 'ntasks', 'ntasksPerNode', 'gpusPerNode', 'gpus', 'gpusPerTask', 'constraint', 'partition'] as const) {
      const v = s[k];
      if (v) out.push(`${k} = ${JSON.stringify(v.value)} at ${where(doc, v.span)}`);
    }
    for (const [k, why] of s.unknown) out.push(`${k} unknown (${why})`);
    if (s.heterogeneous) out.push(`heterogeneous at ${where(doc, s.heterogeneous)}`);
  }
  out.push('', '# problems');
  if (!doc.problems.length) out.push('(none)');
  for (const p of doc.problems) out.push(`${p.severity} ${p.code}${p.fatal ? ' (fatal)' : ''} at ${where(doc, p.span)}`, `  ${p.message}`);
  if (edits.length) {
    out.push('', '# edits');
    for (const batch of edits) {
      out.push(batch.map((e) => JSON.stringify(e)).join(' + '));
      const result = doc.edit(batch);
      if (!result) out.push('  (refused)');
      else {
        const after = applyEdits(text, result);
        out.push(...lineDiff(text, after));
        const again = parseShell(after, undefined, OPTIONS);
        if (again.problems.length > doc.problems.length) out.push(`  (the result has ${again.problems.length} problems)`);
      }
    }
  }
  return `${out.join('\n')}\n`;
}

const scripts = readdirSync(DIR).filter((f) => f.endsWith('.sh')).sort();

test('every launch script under test/shell has its dump, and there are scripts', () => {
  assert.ok(scripts.length >= 30, `only ${scripts.length} scripts in ${DIR}`);
  for (const f of readdirSync(DIR)) {
    const base = f.replace(/\.(sh|dump|edits)$/, '');
    assert.ok(scripts.includes(`${base}.sh`), `${f} has no script ${base}.sh`);
  }
});

for (const file of scripts) {
  const name = file.slice(0, -3);
  test(`shell dump: ${name}`, () => {
    const text = readFileSync(join(DIR, file), 'utf8');
    const editsFile = join(DIR, `${name}.edits`);
    const edits: PathEdit[][] = existsSync(editsFile)
      ? readFileSync(editsFile, 'utf8')
          .split('\n')
          .filter((l) => l.trim())
          .map((l) => {
            const e = JSON.parse(l) as PathEdit | PathEdit[];
            return Array.isArray(e) ? e : [e];
          })
      : [];
    const actual = dumpShell(text, edits);
    const dumpFile = join(DIR, `${name}.dump`);
    if (UPDATE) writeFileSync(dumpFile, actual);
    assert.ok(existsSync(dumpFile), `${name}.sh has no ${name}.dump; write it with SHARDWISE_UPDATE_DUMPS=1 and review it`);
    assert.equal(actual, readFileSync(dumpFile, 'utf8'), `${name}: the reader's output changed; if intended, rewrite with SHARDWISE_UPDATE_DUMPS=1 and review the diff`);
  });
}
