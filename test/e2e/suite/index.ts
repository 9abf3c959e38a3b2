// Extension-host tests: run inside a real VS Code (code-server via test/e2e/run.mjs, or desktop
// VS Code via test/e2e/run-desktop.mjs) against a temp copy of examples/, driving the real `vscode`
// API. Exports `run(): Promise<void>`, the @vscode/test-electron contract. Bundled by the build to
// dist/test/e2e/suite/index.js (CJS, `vscode` external; mocha bundled in or resolved from the
// repo's node_modules).
//
// Every line the runner should count is printed as `[shardwise-e2e] pass: <title>` or
// `[shardwise-e2e] fail: <title> :: <message>` (see MARK), besides mocha's own spec output.

import { format } from 'node:util';
import * as vscode from 'vscode';
import Mocha from 'mocha';

// ---- expectations (file names are relative to the workspace folder, a copy of examples/) ----
const SOURCE = 'shardwise';
const TRAPS_FILE = 'accelerate/typo-and-traps.yaml';
const BOOLEAN_TRAP_CODE = 'yaml-boolean-trap';
const BOOLEAN_TRAP_LINE = /^\s*mixed_precision:\s*no\s*$/; // the line the diagnostic must be on
const BOOLEAN_TRAP_FIXED = /^\s*mixed_precision:\s*(['"])no\1\s*(#.*)?$/; // the line after the quick fix
const QUICK_FIX_TITLE_PREFIX = 'Quote';
const UNKNOWN_KEY_CODE = 'unknown-key';
const UNKNOWN_KEY = 'fsdp_versoin';
const HOVER_FILE = 'accelerate/multi-node.yaml';
const HOVER_KEY = 'num_processes';
const HOVER_EXPECT = /\btotal\b/i;
const COMPLETION_FILE = 'e2e-completion-probe.yaml'; // written into the workspace copy by the test
const COMPLETION_TEXT = '# shardwise: format=accelerate\ndistributed_type: ';
const COMPLETION_EXPECT = 'MULTI_GPU';
const LAYOUT_FILE = 'accelerate/megatron-70b.yaml';
const LAYOUT_KEY = 'megatron_lm_tp_degree';
const LAYOUT_HOVER_EXPECT = [/DP = 64 \/ \(TP 16 × PP 2 × CP 1\) = 2/, /Memory per GPU: ~[\d.]+ GiB of 80/];
const TP_CODE = 'tp-exceeds-nvlink-domain';
const TP_FIX_TITLE = /^Set TP to 8\b/;
const TP_FIXED_LINE = /^\s*megatron_lm_tp_degree:\s*8\s*$/;
const SCRIPT_FILE = 'megatron/pretrain-llama3-8b.sh';
const SCRIPT_TYPO = '--overlap-grad-reduse';
const SCRIPT_TYPO_FIX = 'Rename to `--overlap-grad-reduce`';
const SCRIPT_SP_CODE = 'tp-without-sequence-parallel';
const SCRIPT_HOVER_FLAG = '--tensor-model-parallel-size';
const SCRIPT_HOVER_EXPECT = [/Tensor parallelism/, /DP = 16 \/ \(TP 4 × PP 2 × CP 1\) = 2/, /Memory per GPU: ~[\d.]+ GiB of 80/];
const WAIT_MS = 20_000; // how long to poll for the language server's answers
const POLL_MS = 100;
const TEST_TIMEOUT_MS = 60_000;
const MARK = '[shardwise-e2e]';

// ---- helpers ----

type TddContext = {
  suite: Mocha.SuiteFunction;
  test: Mocha.TestFunction;
  suiteSetup: Mocha.HookFunction;
  suiteTeardown: Mocha.HookFunction;
  setup: Mocha.HookFunction;
  teardown: Mocha.HookFunction;
};

function fail(message: string): never {
  throw new Error(message);
}

function workspaceRoot(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) fail('no workspace folder is open (the runner must open a copy of examples/)');
  return folder.uri;
}

function fileUri(relative: string): vscode.Uri {
  return vscode.Uri.joinPath(workspaceRoot(), ...relative.split('/'));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `probe` until it returns something other than undefined, or fails with `describe()`. */
async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, describe: () => string, timeoutMs = WAIT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) fail(`timed out after ${timeoutMs} ms waiting for ${what}; ${describe()}`);
    await sleep(POLL_MS);
  }
}

function codeOf(d: vscode.Diagnostic): string {
  const code = d.code;
  if (code === undefined) return '';
  if (typeof code === 'object') return String(code.value);
  return String(code);
}

function ours(uri: vscode.Uri, code: string): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === SOURCE && codeOf(d) === code);
}

function showDiagnostics(uri: vscode.Uri): string {
  const all = vscode.languages.getDiagnostics(uri);
  if (all.length === 0) return `no diagnostics on ${uri.path}`;
  return `diagnostics on ${uri.path}: ` + all.map((d) => `${d.source ?? '?'}/${codeOf(d)}@${d.range.start.line + 1}:${d.range.start.character + 1} ${JSON.stringify(d.message)}`).join('; ');
}

function lineIndex(doc: vscode.TextDocument, pattern: RegExp): number {
  for (let i = 0; i < doc.lineCount; i++) if (pattern.test(doc.lineAt(i).text)) return i;
  return fail(`${doc.uri.path} has no line matching ${pattern} (did examples/ change?)`);
}

async function open(relative: string): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument(fileUri(relative));
  await vscode.window.showTextDocument(doc, { preview: false });
  return doc;
}

function sameRange(a: vscode.Range, b: vscode.Range): boolean {
  return a.start.isEqual(b.start) && a.end.isEqual(b.end);
}

function isCodeAction(a: vscode.CodeAction | vscode.Command): a is vscode.CodeAction {
  return typeof (a as vscode.Command).command !== 'string';
}

function hoverText(hovers: vscode.Hover[]): string {
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : c.value))
    .join('\n');
}

function labelOf(item: vscode.CompletionItem): string {
  return typeof item.label === 'string' ? item.label : item.label.label;
}

async function waitForBooleanTrap(doc: vscode.TextDocument): Promise<vscode.Diagnostic> {
  const line = lineIndex(doc, BOOLEAN_TRAP_LINE);
  return waitFor(
    `a ${SOURCE} ${BOOLEAN_TRAP_CODE} diagnostic on line ${line + 1}`,
    () => ours(doc.uri, BOOLEAN_TRAP_CODE).find((d) => d.range.start.line === line),
    () => showDiagnostics(doc.uri),
  );
}

// ---- tests ----

function defineTests({ suite, test, suiteTeardown }: TddContext): void {
  suite('shardwise in a real editor', () => {
    suiteTeardown(async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    test('diagnostics: yaml-boolean-trap and unknown-key on accelerate/typo-and-traps.yaml', async () => {
      const doc = await open(TRAPS_FILE);
      await waitForBooleanTrap(doc);
      const keyLine = lineIndex(doc, new RegExp(`^\\s*${UNKNOWN_KEY}\\s*:`));
      const keyStart = doc.lineAt(keyLine).text.indexOf(UNKNOWN_KEY);
      const keyRange = new vscode.Range(keyLine, keyStart, keyLine, keyStart + UNKNOWN_KEY.length);
      await waitFor(
        `a ${SOURCE} ${UNKNOWN_KEY_CODE} diagnostic on the ${UNKNOWN_KEY} key (line ${keyLine + 1})`,
        () => ours(doc.uri, UNKNOWN_KEY_CODE).find((d) => d.range.intersection(keyRange) !== undefined && !d.range.intersection(keyRange)!.isEmpty),
        () => showDiagnostics(doc.uri),
      );
    });

    test('quick fix: quoting the value removes yaml-boolean-trap', async () => {
      const doc = await open(TRAPS_FILE);
      const trap = await waitForBooleanTrap(doc);
      const line = trap.range.start.line;
      let offered: string[] = [];
      const actions = await waitFor(
        `a preferred quick fix for ${BOOLEAN_TRAP_CODE}`,
        async () => {
          const all = (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
            'vscode.executeCodeActionProvider',
            doc.uri,
            trap.range,
            vscode.CodeActionKind.QuickFix.value,
            50, // resolve lazily computed edits
          )) ?? [];
          offered = all.map((a) => `${a.title}${isCodeAction(a) ? ` [${a.kind?.value ?? 'no kind'}${a.isPreferred ? ', preferred' : ''}]` : ' [command]'}`);
          const fixes = all
            .filter(isCodeAction)
            .filter(
              (a) =>
                a.kind !== undefined &&
                vscode.CodeActionKind.QuickFix.contains(a.kind) &&
                // vscode.executeCodeActionProvider drops `diagnostics` from its results; when they
                // are there, they must name the trap.
                (a.diagnostics === undefined ||
                  a.diagnostics.length === 0 ||
                  a.diagnostics.some((d) => codeOf(d) === BOOLEAN_TRAP_CODE && sameRange(d.range, trap.range))) &&
                (a.isPreferred === true || a.title.startsWith(QUICK_FIX_TITLE_PREFIX)),
            );
          return fixes.length > 0 ? { all, fixes } : undefined;
        },
        () => `offered: ${offered.length ? offered.join(' | ') : 'no code actions'}`,
      );
      const fix = actions.fixes.find((a) => a.isPreferred) ?? actions.fixes[0]!;
      if (fix.edit) {
        const applied = await vscode.workspace.applyEdit(fix.edit);
        if (!applied) fail(`workspace.applyEdit refused the edit of "${fix.title}"`);
      }
      if (fix.command) await vscode.commands.executeCommand(fix.command.command, ...(fix.command.arguments ?? []));
      if (!fix.edit && !fix.command) fail(`code action "${fix.title}" has neither an edit nor a command`);
      await waitFor(
        `${BOOLEAN_TRAP_CODE} to disappear after "${fix.title}"`,
        () => (ours(doc.uri, BOOLEAN_TRAP_CODE).some((d) => d.range.start.line === line) ? undefined : true),
        () => showDiagnostics(doc.uri),
      );
      const after = doc.lineAt(line).text;
      if (!BOOLEAN_TRAP_FIXED.test(after)) fail(`after "${fix.title}" line ${line + 1} reads ${JSON.stringify(after)}, expected it to match ${BOOLEAN_TRAP_FIXED}`);
      await doc.save();
    });

    test('hover: num_processes in accelerate/multi-node.yaml explains it is the total', async () => {
      const doc = await open(HOVER_FILE);
      const line = lineIndex(doc, new RegExp(`^\\s*${HOVER_KEY}\\s*:`));
      const position = new vscode.Position(line, doc.lineAt(line).text.indexOf(HOVER_KEY) + 2);
      let last = '';
      await waitFor(
        `a hover at ${HOVER_KEY} matching ${HOVER_EXPECT}`,
        async () => {
          const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, position)) ?? [];
          last = hoverText(hovers);
          return HOVER_EXPECT.test(last) ? true : undefined;
        },
        () => (last ? `last hover: ${JSON.stringify(last.slice(0, 500))}` : 'no hover was returned'),
      );
    });

    test('hover: megatron_lm_tp_degree shows the derived DP and the memory per GPU', async () => {
      const doc = await open(LAYOUT_FILE);
      const line = lineIndex(doc, new RegExp(`^\\s*${LAYOUT_KEY}\\s*:`));
      const position = new vscode.Position(line, doc.lineAt(line).text.indexOf(LAYOUT_KEY) + 3);
      let last = '';
      await waitFor(
        `a hover at ${LAYOUT_KEY} with the layout and memory`,
        async () => {
          const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, position)) ?? [];
          last = hoverText(hovers);
          return LAYOUT_HOVER_EXPECT.every((re) => re.test(last)) ? true : undefined;
        },
        () => (last ? `last hover: ${JSON.stringify(last.slice(0, 800))}` : 'no hover was returned'),
      );
    });

    test('quick fix: setting TP to the NVLink domain clears tp-exceeds-nvlink-domain', async () => {
      const doc = await open(LAYOUT_FILE);
      const diag = await waitFor(`a ${TP_CODE} diagnostic`, () => ours(doc.uri, TP_CODE)[0], () => showDiagnostics(doc.uri));
      let offered: string[] = [];
      const fix = await waitFor(
        `a quick fix titled like ${TP_FIX_TITLE}`,
        async () => {
          const all = (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>('vscode.executeCodeActionProvider', doc.uri, diag.range, vscode.CodeActionKind.QuickFix.value, 50)) ?? [];
          offered = all.map((a) => a.title);
          return all.filter(isCodeAction).find((a) => TP_FIX_TITLE.test(a.title) && a.edit);
        },
        () => `offered: ${offered.join(' | ') || 'nothing'}`,
      );
      if (!(await vscode.workspace.applyEdit(fix.edit!))) fail(`workspace.applyEdit refused "${fix.title}"`);
      await waitFor(`${TP_CODE} to disappear after "${fix.title}"`, () => (ours(doc.uri, TP_CODE).length === 0 ? true : undefined), () => showDiagnostics(doc.uri));
      const line = diag.range.start.line;
      if (!TP_FIXED_LINE.test(doc.lineAt(line).text)) fail(`after "${fix.title}" line ${line + 1} reads ${JSON.stringify(doc.lineAt(line).text)}`);
      await doc.save();
    });

    test('diagnostics: a Megatron launch script gets unknown-key on its misspelled flag and the layout warning on $TP', async () => {
      const doc = await open(SCRIPT_FILE);
      const typoLine = lineIndex(doc, new RegExp(`^\\s*${SCRIPT_TYPO}\\s*$`));
      const typo = await waitFor(`unknown-key on ${SCRIPT_TYPO}`, () => ours(doc.uri, UNKNOWN_KEY_CODE).find((d) => d.range.start.line === typoLine), () => showDiagnostics(doc.uri));
      if (doc.getText(typo.range) !== SCRIPT_TYPO) fail(`unknown-key covers ${JSON.stringify(doc.getText(typo.range))}`);
      if (typo.severity !== vscode.DiagnosticSeverity.Error) fail(`unknown-key on a flag should be an error, is ${typo.severity}`);
      const tpLine = lineIndex(doc, /^\s*--tensor-model-parallel-size \$TP\s*$/);
      const sp = await waitFor(`${SCRIPT_SP_CODE} on $TP`, () => ours(doc.uri, SCRIPT_SP_CODE).find((d) => d.range.start.line === tpLine), () => showDiagnostics(doc.uri));
      if (doc.getText(sp.range) !== '$TP') fail(`${SCRIPT_SP_CODE} covers ${JSON.stringify(doc.getText(sp.range))}`);
    });

    test('hover: a flag in a launch script explains it and shows the derived layout', async () => {
      const doc = await open(SCRIPT_FILE);
      const line = lineIndex(doc, new RegExp(`^\\s*${SCRIPT_HOVER_FLAG}\\b`));
      const position = new vscode.Position(line, doc.lineAt(line).text.indexOf(SCRIPT_HOVER_FLAG) + 5);
      let last = '';
      await waitFor(
        `a hover at ${SCRIPT_HOVER_FLAG} with its help and the layout`,
        async () => {
          const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, position)) ?? [];
          last = hoverText(hovers);
          return SCRIPT_HOVER_EXPECT.every((re) => re.test(last)) ? true : undefined;
        },
        () => (last ? `last hover: ${JSON.stringify(last.slice(0, 800))}` : 'no hover was returned'),
      );
    });

    test('quick fix: renaming the misspelled flag in the bash array clears unknown-key', async () => {
      const doc = await open(SCRIPT_FILE);
      const line = lineIndex(doc, new RegExp(`^\\s*${SCRIPT_TYPO}\\s*$`));
      const diag = await waitFor(`unknown-key on ${SCRIPT_TYPO}`, () => ours(doc.uri, UNKNOWN_KEY_CODE).find((d) => d.range.start.line === line), () => showDiagnostics(doc.uri));
      let offered: string[] = [];
      const fix = await waitFor(
        `a quick fix titled ${SCRIPT_TYPO_FIX}`,
        async () => {
          const all = (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>('vscode.executeCodeActionProvider', doc.uri, diag.range, vscode.CodeActionKind.QuickFix.value, 50)) ?? [];
          offered = all.map((a) => a.title);
          return all.filter(isCodeAction).find((a) => a.title === SCRIPT_TYPO_FIX && a.edit);
        },
        () => `offered: ${offered.join(' | ') || 'nothing'}`,
      );
      if (!(await vscode.workspace.applyEdit(fix.edit!))) fail(`workspace.applyEdit refused "${fix.title}"`);
      await waitFor(`unknown-key to disappear from line ${line + 1}`, () => (ours(doc.uri, UNKNOWN_KEY_CODE).some((d) => d.range.start.line === line) ? undefined : true), () => showDiagnostics(doc.uri));
      if (doc.lineAt(line).text !== '    --overlap-grad-reduce') fail(`after "${fix.title}" line ${line + 1} reads ${JSON.stringify(doc.lineAt(line).text)}`);
      await doc.save();
    });

    test('completion: distributed_type offers MULTI_GPU', async () => {
      const uri = fileUri(COMPLETION_FILE);
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(COMPLETION_TEXT));
      const doc = await open(COMPLETION_FILE);
      const lastLine = doc.lineCount - 1;
      const position = new vscode.Position(lastLine, doc.lineAt(lastLine).text.length);
      let labels: string[] = [];
      await waitFor(
        `a completion item ${COMPLETION_EXPECT} at the value of distributed_type`,
        async () => {
          const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, position);
          // Word-based suggestions (kind Text) echo words of other open documents: not ours.
          const items = (list?.items ?? []).filter((i) => i.kind !== vscode.CompletionItemKind.Text);
          labels = items.map(labelOf);
          return labels.includes(COMPLETION_EXPECT) ? true : undefined;
        },
        () => `offered: ${labels.length ? labels.slice(0, 40).join(', ') : 'nothing (besides word-based suggestions)'}`,
      );
    });
  });
}

// ---- entry point (the @vscode/test-electron contract) ----

export function run(): Promise<void> {
  // The extension host forwards console.log's arguments unformatted; mocha's reporters log printf-style.
  Mocha.reporters.Base.consoleLog = (...args: unknown[]) => console.log(format(...args));
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: TEST_TIMEOUT_MS, reporter: 'spec' });
  const tdd = {} as TddContext;
  mocha.suite.emit('pre-require', tdd, 'shardwise-e2e-suite', mocha);
  defineTests(tdd);
  return new Promise<void>((resolve, reject) => {
    let passed = 0;
    let failed = 0;
    const runner = mocha.run((failures) => {
      console.log(`${MARK} done (${passed} passing, ${failed} failing)`);
      if (failures > 0) reject(new Error(`${failures} extension-host test(s) failed`));
      else resolve();
    });
    runner.on('pass', (t) => {
      passed++;
      console.log(`${MARK} pass: ${t.fullTitle()}`);
    });
    runner.on('fail', (t, err: Error) => {
      failed++;
      console.log(`${MARK} fail: ${t.fullTitle()} :: ${String(err?.message ?? err).replace(/\s+/g, ' ')}`);
    });
  });
}
