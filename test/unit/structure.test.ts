/**
 * The shape of the source that keeps it readable: no file over 800 lines and no function over 120
 * lines in server/src (generated code aside), an engine whose imports point one way — no cycle
 * in its import graph, type-only imports included — and one module that reads the schema's `x-`
 * keywords.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

const ROOT = resolve(__dirname, '../..');
const SRC = join(ROOT, 'server/src');
const ENGINE = join(SRC, 'engine');
const MAX_FILE_LINES = 800;
const MAX_FUNCTION_LINES = 120;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== 'generated') out.push(...sources(p));
    } else if (name.endsWith('.ts')) out.push(p);
  }
  return out.sort();
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

/** The functions of a file longer than the limit, as "path:line name (N lines)". */
export function longFunctions(sf: ts.SourceFile, limit: number): string[] {
  const out: string[] = [];
  const lineOf = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line;
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const lines = lineOf(node.body.getEnd()) - lineOf(node.body.getStart(sf)) + 1;
      if (lines > limit) {
        const name = (node as ts.FunctionLikeDeclaration).name?.getText(sf) ?? '(anonymous)';
        out.push(`${relative(ROOT, sf.fileName)}:${lineOf(node.getStart(sf)) + 1} ${name} (${lines} lines)`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Every relative module a file imports or re-exports, type-only imports included, resolved to a file. */
export function importsOf(sf: ts.SourceFile): string[] {
  const out: string[] = [];
  const add = (spec: string) => {
    if (!spec.startsWith('.')) return;
    const base = resolve(dirname(sf.fileName), spec);
    const file = [`${base}.ts`, join(base, 'index.ts'), base].find((p) => existsSync(p) && statSync(p).isFile());
    if (file) out.push(file);
  };
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) add(node.moduleSpecifier.text);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) add(node.argument.literal.text);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) add(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The strongly connected components with more than one module (or a module importing itself). */
export function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const strong = (v: string) => {
    indices.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) strong(v);
  return found;
}

test(`no file in server/src is over ${MAX_FILE_LINES} lines`, () => {
  const long = sources(SRC)
    .map((f) => ({ f, lines: readFileSync(f, 'utf8').split('\n').length }))
    .filter((x) => x.lines > MAX_FILE_LINES)
    .map((x) => `${relative(ROOT, x.f)} (${x.lines} lines)`);
  assert.deepEqual(long, []);
});

test(`no function in server/src is over ${MAX_FUNCTION_LINES} lines`, () => {
  assert.deepEqual(sources(SRC).flatMap((f) => longFunctions(parse(f), MAX_FUNCTION_LINES)), []);
});

test('the engine has no import cycle, type-only imports included', () => {
  const files = sources(ENGINE);
  const graph = new Map(files.map((f) => [f, importsOf(parse(f)).filter((d) => d.startsWith(ENGINE + '/'))]));
  const found = cycles(graph).map((scc) => `${scc.length} modules: ${scc.map((f) => relative(ENGINE, f)).join(', ')}`);
  assert.deepEqual(found, []);
});

/** The modules that read the schema's `x-` keywords: the vocabulary, its types, and the Megatron format's own keywords. */
const VOCABULARY_READERS = ['schema/vocabulary.ts', 'schema/types.ts', 'formats/megatron/schema.ts'];

test('the schema vocabulary (x- keywords) is read in one place', () => {
  const readers = sources(ENGINE)
    .filter((f) => !VOCABULARY_READERS.includes(relative(ENGINE, f)))
    .flatMap((f) => {
      const found: string[] = [];
      const sf = parse(f);
      const visit = (node: ts.Node) => {
        if (ts.isStringLiteral(node) && /^x-[a-z]/.test(node.text)) found.push(`${relative(ROOT, f)}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1} ${node.text}`);
        ts.forEachChild(node, visit);
      };
      visit(sf);
      return found;
    });
  assert.deepEqual(readers, []);
});

test('the checks see what they must: a long function, an import cycle', () => {
  const sf = ts.createSourceFile('/x/a.ts', `function f() {\n${'  x();\n'.repeat(130)}}\nconst g = () => 1;\n`, ts.ScriptTarget.Latest, true);
  assert.equal(longFunctions(sf, MAX_FUNCTION_LINES).length, 1);
  assert.deepEqual(cycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]])), [['a', 'b', 'c']]);
  assert.deepEqual(cycles(new Map([['a', ['b']], ['b', []]])), []);
});
