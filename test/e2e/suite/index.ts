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
import { SHOW_LAYOUT_COMMAND } from '../../../server/src/protocol';

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
const FIX_ALL_KIND = 'source.fixAll.shardwise';
const SCRIPT_HOVER_FLAG = '--tensor-model-parallel-size';
const SCRIPT_HOVER_EXPECT = [/Tensor parallelism/, /DP = 16 \/ \(TP 4 × PP 2 × CP 1\) = 2/, /Memory per GPU: ~[\d.]+ GiB of 80/];
const LAYOUT_VIEW_BEFORE = '16 GPUs = TP 4 × CP 1 × DP 2 × PP 2'; // the picture's equation for SCRIPT_FILE
const LAYOUT_VIEW_AFTER = '16 GPUs = TP 2 × CP 1 × DP 4 × PP 2'; // after TP=4 becomes TP=2
const SBATCH_FILE = 'megatron/train-gpt-13b.sbatch'; // a Slurm batch script (.sbatch: shellscript through package.json languages)
const SBATCH_CODE = 'slurm-allocation-mismatch';
const SBATCH_LENS = /^64 GPUs = TP 4 × PP 2 × CP 1 × DP 8 .*· 4 nodes × 8 GPUs \(SBATCH\)$/;
const DS_YAML_FILE = 'deepspeed/accelerate-zero3.yaml'; // an Accelerate config with `deepspeed_config_file: ds_zero3.json`
const DS_JSON_FILE = 'deepspeed/ds_zero3.json'; // the DeepSpeed JSON it points at (fp16 off, bf16 on)
const DS_REF = 'ds_zero3.json'; // the path as the YAML writes it
const DS_REF_LINE = /^\s*deepspeed_config_file:\s*ds_zero3\.json\s*$/;
const MP_CONFLICT_CODE = 'mixed-precision-conflict';
const MP_LINE = /^\s*mixed_precision:\s*bf16\s*$/; // the YAML line the conflict must be on
// The JSON's `enabled` values, as (prefix)(value): the edit flips the value only.
const JSON_FP16 = /("fp16"\s*:\s*\{\s*"enabled"\s*:\s*)(true|false)\b/;
const JSON_BF16 = /("bf16"\s*:\s*\{\s*"enabled"\s*:\s*)(true|false)\b/;
// Restricted Mode (test/e2e/run.mjs opens an untrusted copy of examples/ under this name, with
// `shardwise.maxFileSizeKB: 1` in its .vscode/settings.json): only the Restricted Mode test runs.
const RESTRICTED_WORKSPACE = 'examples-restricted';
const EXTENSION_ID = 'shardwise.shardwise';
const RESTRICTED_SETTING = 'shardwise.maxFileSizeKB';
const RESTRICTED_PROBE_FILE = 'e2e-restricted-probe.yaml'; // written by the test: over the workspace's 1 KiB limit
const RESTRICTED_PROBE_BYTES = 4096;
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

/** A WorkspaceEdit that sets the `enabled` values of the JSON's fp16 and bf16 sections (unsaved). */
function precisionEdit(doc: vscode.TextDocument, fp16: boolean, bf16: boolean): vscode.WorkspaceEdit {
  const text = doc.getText();
  const edit = new vscode.WorkspaceEdit();
  for (const [re, value] of [
    [JSON_FP16, fp16],
    [JSON_BF16, bf16],
  ] as const) {
    const m = re.exec(text);
    if (!m) fail(`${doc.uri.path} has no match for ${re} (did examples/ change?)`);
    const start = m.index + m[1].length;
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(start), doc.positionAt(start + m[2].length)), String(value));
  }
  return edit;
}

function targetOf(d: vscode.Location | vscode.LocationLink): vscode.Uri {
  return 'targetUri' in d ? d.targetUri : d.uri;
}

// ---- tests ----

/**
 * In Restricted Mode the extension runs (capabilities.untrustedWorkspaces in package.json) and a
 * workspace's value of a restricted setting is ignored. Without the capability VS Code disables
 * the installed extension in an untrusted workspace (the runner installs it from the .vsix; the
 * development extension only carries these tests, since VS Code never disables that one).
 */
function defineRestrictedModeTests({ suite, test, suiteTeardown }: TddContext): void {
  suite('shardwise in Restricted Mode', () => {
    suiteTeardown(async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    test(`diagnostics in an untrusted workspace on ${TRAPS_FILE}; the workspace's ${RESTRICTED_SETTING} is ignored`, async () => {
      if (vscode.workspace.isTrusted !== false) fail('vscode.workspace.isTrusted is not false: the workspace is trusted, so this is not Restricted Mode (the runner must enable workspace trust and leave the folder untrusted)');
      const settingsFile = fileUri('.vscode/settings.json');
      const settings = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(settingsFile)));
      if (settings[RESTRICTED_SETTING] !== 1) fail(`${settingsFile.path} does not set ${RESTRICTED_SETTING} to 1 (the runner writes it)`);
      const extension = vscode.extensions.getExtension(EXTENSION_ID);
      if (!extension) fail(`${EXTENSION_ID} is not enabled in Restricted Mode: does package.json declare capabilities.untrustedWorkspaces?`);
      if (extension.extensionUri.path.split('/').at(-2) !== 'extensions') fail(`${EXTENSION_ID} runs from ${extension.extensionUri.path}, not from the extensions folder: an extension under development is never disabled, so this proves nothing`);

      const doc = await open(TRAPS_FILE);
      await waitForBooleanTrap(doc);
      const keyLine = lineIndex(doc, new RegExp(`^\\s*${UNKNOWN_KEY}\\s*:`));
      await waitFor(`a ${SOURCE} ${UNKNOWN_KEY_CODE} diagnostic on line ${keyLine + 1}`, () => ours(doc.uri, UNKNOWN_KEY_CODE).find((d) => d.range.start.line === keyLine), () => showDiagnostics(doc.uri));

      // The same config padded past the workspace's 1 KiB limit is analysed all the same: that
      // limit is not taken from an untrusted workspace.
      const text = doc.getText();
      const pad = '# padding past the workspace limit\n';
      const probe = text + pad.repeat(Math.ceil((RESTRICTED_PROBE_BYTES - text.length) / pad.length));
      await vscode.workspace.fs.writeFile(fileUri(RESTRICTED_PROBE_FILE), new TextEncoder().encode(probe));
      const big = await open(RESTRICTED_PROBE_FILE);
      if (big.getText().length <= 1024) fail(`${RESTRICTED_PROBE_FILE} is only ${big.getText().length} characters, not over 1 KiB`);
      await waitForBooleanTrap(big);
    });
  });
}

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

    test('a Slurm batch script (.sbatch) is read as a launch script: the allocation mismatch on --nnodes, the allocation in the layout lens', async () => {
      const doc = await open(SBATCH_FILE);
      if (doc.languageId !== 'shellscript') fail(`${SBATCH_FILE} opened as ${doc.languageId}, expected shellscript`);
      const line = lineIndex(doc, /^\s*--nnodes 8\s*$/);
      const d = await waitFor(`${SBATCH_CODE} on --nnodes`, () => ours(doc.uri, SBATCH_CODE).find((x) => x.range.start.line === line), () => showDiagnostics(doc.uri));
      if (doc.getText(d.range) !== '8') fail(`${SBATCH_CODE} covers ${JSON.stringify(doc.getText(d.range))}`);
      if (d.severity !== vscode.DiagnosticSeverity.Error) fail(`${SBATCH_CODE} should be an error here, is ${d.severity}`);
      let seen: string[] = [];
      await waitFor(
        `a layout lens matching ${SBATCH_LENS}`,
        async () => {
          const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri, 10)) ?? [];
          seen = lenses.map((l) => l.command?.title ?? '(unresolved)');
          return seen.some((t) => SBATCH_LENS.test(t)) ? true : undefined;
        },
        () => `lenses: ${JSON.stringify(seen)}`,
      );
    });

    test('layout view: opens beside the launch script with its picture, and redraws when TP is edited', async () => {
      const doc = await open(SCRIPT_FILE);
      const api = vscode.extensions.getExtension<{ layoutView(): { uri: string; picture?: { svg: string; degrees: { name: string; value: number }[] } } | undefined }>(EXTENSION_ID)?.exports;
      if (!api) fail(`${EXTENSION_ID} exports no API`);
      await vscode.commands.executeCommand(SHOW_LAYOUT_COMMAND, doc.uri.toString());
      const svgOf = () => api.layoutView()?.picture?.svg ?? '';
      await waitFor('the layout picture of TP 4', () => (svgOf().includes(LAYOUT_VIEW_BEFORE) ? true : undefined), () => `the view shows: ${svgOf().slice(0, 300) || '(nothing)'}`);
      const tp = api.layoutView()?.picture?.degrees.find((d) => d.name === 'TP');
      if (tp?.value !== 4) fail(`the view's TP degree is ${JSON.stringify(tp)}`);
      const line = lineIndex(doc, /^TP=4$/);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, new vscode.Range(line, 3, line, 4), '2');
      if (!(await vscode.workspace.applyEdit(edit))) fail('the TP edit was not applied');
      try {
        await waitFor('the picture redrawn for TP 2', () => (svgOf().includes(LAYOUT_VIEW_AFTER) ? true : undefined), () => `the view shows: ${svgOf().slice(0, 300)}`);
      } finally {
        const undo = new vscode.WorkspaceEdit();
        undo.replace(doc.uri, new vscode.Range(line, 3, line, 4), '4');
        await vscode.workspace.applyEdit(undo);
        await doc.save();
      }
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

    test('fix-all (source.fixAll.shardwise) on the launch script applies only safe fixes; the unsafe TP fix stays a quick fix', async () => {
      const doc = await open(SCRIPT_FILE);
      const original = doc.getText();
      const typoLine = lineIndex(doc, new RegExp(`^\\s*${SCRIPT_TYPO}\\s*$`));
      await waitFor(`unknown-key on ${SCRIPT_TYPO}`, () => ours(doc.uri, UNKNOWN_KEY_CODE).find((d) => d.range.start.line === typoLine), () => showDiagnostics(doc.uri));
      const whole = new vscode.Range(0, 0, doc.lineCount, 0);
      let offered: string[] = [];
      const fixAll = await waitFor(
        `a ${FIX_ALL_KIND} action`,
        async () => {
          // The last argument asks VS Code to resolve the action's edit, as it does before applying one.
          const all = (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>('vscode.executeCodeActionProvider', doc.uri, whole, FIX_ALL_KIND, 50)) ?? [];
          offered = all.map((a) => a.title);
          return all.filter(isCodeAction).find((a) => a.kind?.value === FIX_ALL_KIND && a.edit);
        },
        () => `offered: ${offered.join(' | ') || 'nothing'}`,
      );
      if (!(await vscode.workspace.applyEdit(fixAll.edit!))) fail(`workspace.applyEdit refused "${fixAll.title}"`);
      const fixed = doc.getText();
      if (doc.lineAt(typoLine).text !== '    --overlap-grad-reduce') fail(`fix-all left line ${typoLine + 1} as ${JSON.stringify(doc.lineAt(typoLine).text)}`);
      if (!/^TP=4$/m.test(fixed) || !/^\s*--tensor-model-parallel-size \$TP\s*$/m.test(fixed)) fail('fix-all changed the tensor-parallel degree');
      if (fixed.split('\n').length !== original.split('\n').length) fail('fix-all added or removed a line (a switch or a flag)');
      const tpLine = lineIndex(doc, /^\s*--tensor-model-parallel-size \$TP\s*$/);
      const tpDiag = await waitFor('tp-larger-than-needed on $TP', () => ours(doc.uri, 'tp-larger-than-needed').find((d) => d.range.start.line === tpLine), () => showDiagnostics(doc.uri));
      const unsafe = await waitFor(
        'the unsafe "Set TP to …" quick fix',
        async () => {
          const all = (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>('vscode.executeCodeActionProvider', doc.uri, tpDiag.range, vscode.CodeActionKind.QuickFix.value, 50)) ?? [];
          offered = all.map((a) => a.title);
          return all.filter(isCodeAction).find((a) => /^Set TP to \d+ \(changes the layout: TP 4 → \d+/.test(a.title) && a.edit);
        },
        () => `offered: ${offered.join(' | ') || 'nothing'}`,
      );
      if (unsafe.isPreferred) fail(`"${unsafe.title}" changes the layout and must not be preferred`);
      // Back to the file as it was, for the tests that follow.
      const restore = new vscode.WorkspaceEdit();
      restore.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), original);
      if (!(await vscode.workspace.applyEdit(restore))) fail('could not restore the launch script');
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

    test('cross-file: editing the DeepSpeed JSON re-checks the Accelerate config that points at it', async () => {
      const yaml = await open(DS_YAML_FILE);
      const json = await open(DS_JSON_FILE);
      const line = lineIndex(yaml, MP_LINE);
      const conflictOnLine = () => ours(yaml.uri, MP_CONFLICT_CODE).find((d) => d.range.start.line === line);
      // As shipped, both say bf16: no conflict.
      await waitFor(`no ${MP_CONFLICT_CODE} before the edit`, () => (conflictOnLine() ? undefined : true), () => showDiagnostics(yaml.uri));

      if (!(await vscode.workspace.applyEdit(precisionEdit(json, true, false)))) fail(`workspace.applyEdit refused to switch ${DS_JSON_FILE} to fp16`);
      if (JSON_FP16.exec(json.getText())?.[2] !== 'true') fail(`after the edit ${DS_JSON_FILE} reads ${JSON.stringify(json.getText().slice(0, 400))}`);
      await waitFor(
        `${MP_CONFLICT_CODE} on line ${line + 1} of ${DS_YAML_FILE} after enabling fp16 in ${DS_JSON_FILE} (not saved)`,
        conflictOnLine,
        () => showDiagnostics(yaml.uri),
      );

      if (!(await vscode.workspace.applyEdit(precisionEdit(json, false, true)))) fail(`workspace.applyEdit refused to switch ${DS_JSON_FILE} back to bf16`);
      await waitFor(`${MP_CONFLICT_CODE} to disappear after switching ${DS_JSON_FILE} back to bf16`, () => (conflictOnLine() ? undefined : true), () => showDiagnostics(yaml.uri));
      // The JSON reads as shipped again; save it so that closing the editors asks nothing.
      await json.save();
    });

    test('cross-file: a document link and go-to-definition from deepspeed_config_file to the JSON', async () => {
      const yaml = await open(DS_YAML_FILE);
      const jsonUri = fileUri(DS_JSON_FILE);
      const line = lineIndex(yaml, DS_REF_LINE);
      const column = yaml.lineAt(line).text.indexOf(DS_REF);
      const pathRange = new vscode.Range(line, column, line, column + DS_REF.length);
      let links: vscode.DocumentLink[] = [];
      const link = await waitFor(
        `a document link on ${DS_REF} (line ${line + 1}) whose target is ${jsonUri.fsPath}`,
        async () => {
          links = (await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', yaml.uri)) ?? [];
          return links.find((l) => l.target?.fsPath === jsonUri.fsPath);
        },
        () => `links: ${links.length ? links.map((l) => `${l.target?.toString() ?? 'no target'}@${l.range.start.line + 1}:${l.range.start.character + 1}-${l.range.end.character + 1}`).join(', ') : 'none'}`,
      );
      if (!sameRange(link.range, pathRange)) fail(`the link covers ${JSON.stringify(yaml.getText(link.range))} (${link.range.start.line + 1}:${link.range.start.character + 1}-${link.range.end.character + 1}), expected ${JSON.stringify(DS_REF)}`);

      let found: string[] = [];
      const position = new vscode.Position(line, column + 3);
      const definition = await waitFor(
        `a definition at ${DS_REF} pointing at ${jsonUri.fsPath}`,
        async () => {
          const all = (await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>('vscode.executeDefinitionProvider', yaml.uri, position)) ?? [];
          found = all.map((d) => targetOf(d).toString());
          return all.find((d) => targetOf(d).fsPath === jsonUri.fsPath);
        },
        () => `definitions: ${found.length ? found.join(', ') : 'none'}`,
      );
      const range = 'targetUri' in definition ? definition.targetRange : definition.range;
      if (!range.start.isEqual(new vscode.Position(0, 0))) fail(`the definition points at ${range.start.line + 1}:${range.start.character + 1} of the JSON, expected its start`);
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
  if (vscode.workspace.workspaceFolders?.[0]?.name === RESTRICTED_WORKSPACE) defineRestrictedModeTests(tdd);
  else defineTests(tdd);
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
