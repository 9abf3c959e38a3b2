/**
 * The VS Code extension: starts the Shardwise language server and adds the commands around it.
 * The only code that imports `vscode`.
 */
import * as vscode from 'vscode';
import { LayoutView } from './layout-view';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { LAYOUT_REQUEST, PLAN_LAYOUT_COMMAND, RULE_DOCUMENTATION_REQUEST, SHOW_LAYOUT_COMMAND, SHOW_RULE_DOCUMENTATION_COMMAND, type InitializationOptions } from '../../server/src/protocol';
import { planLayout } from './plan-layout';

let client: LanguageClient | undefined;
let output: vscode.LogOutputChannel | undefined;

const LANGUAGES = ['yaml', 'json', 'jsonc', 'shellscript'];

/** What the extension offers other extensions (and its tests): the layout view's file and picture. */
export interface ShardwiseApi {
  layoutView(): ReturnType<LayoutView['current']>;
}

export async function activate(context: vscode.ExtensionContext): Promise<ShardwiseApi> {
  output = vscode.window.createOutputChannel('Shardwise', { log: true });
  context.subscriptions.push(output);
  const serverModule = context.asAbsolutePath('dist/server/main.js');
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
  };
  // The commands below, which the server's code lenses and code actions then use instead of its own.
  const initializationOptions: InitializationOptions = { clientCommands: [SHOW_LAYOUT_COMMAND, SHOW_RULE_DOCUMENTATION_COMMAND, PLAN_LAYOUT_COMMAND] };
  const clientOptions: LanguageClientOptions = {
    documentSelector: LANGUAGES.flatMap((language) => [
      { scheme: 'file', language },
      { scheme: 'untitled', language },
    ]),
    // The files whose changes on disk matter (settings, linked JSON) are registered by the server
    // itself (workspace/didChangeWatchedFiles), as in every editor that lets it.
    initializationOptions,
    // Diagnostics are pulled (the server announces textDocument/diagnostic): on open, as the
    // document changes, and again when the server says a linked file or the settings changed.
    diagnosticPullOptions: { onChange: true, onSave: true },
    middleware: {
      // VS Code's JSON support, and the YAML extension where installed, already outline these files.
      provideDocumentSymbols: (document, token, next) => (document.languageId === 'json' || document.languageId === 'jsonc' || (document.languageId === 'yaml' && vscode.extensions.getExtension('redhat.vscode-yaml')) ? undefined : next(document, token)),
    },
    outputChannel: output,
    traceOutputChannel: output,
    diagnosticCollectionName: 'shardwise',
  };
  client = new LanguageClient('shardwise', 'Shardwise', serverOptions, clientOptions);
  let layoutView = new LayoutView(() => client);
  context.subscriptions.push({ dispose: () => layoutView.dispose() });

  context.subscriptions.push(
    vscode.commands.registerCommand(SHOW_RULE_DOCUMENTATION_COMMAND, async (id?: string) => {
      const rule = id ?? (await vscode.window.showInputBox({ prompt: 'Shardwise rule id', placeHolder: 'e.g. yaml-boolean-trap' }));
      if (!rule || !client) return;
      const markdown = await client.sendRequest<string | null>(RULE_DOCUMENTATION_REQUEST, { id: rule });
      if (!markdown) {
        void vscode.window.showWarningMessage(`Shardwise has no rule named "${rule}".`);
        return;
      }
      const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: markdown });
      await vscode.commands.executeCommand('markdown.showPreview', doc.uri);
    }),
    vscode.commands.registerCommand(SHOW_LAYOUT_COMMAND, async (uri?: string) => {
      const target = uri ?? vscode.window.activeTextEditor?.document.uri.toString();
      if (!target || !client) return;
      if (await layoutView.show(target)) return;
      // No picture: the view says why when the file has a layout at all; otherwise nothing to show.
      const markdown = await client.sendRequest<string | null>(LAYOUT_REQUEST, { uri: target });
      if (!markdown) {
        layoutView.dispose();
        layoutView = new LayoutView(() => client);
        void vscode.window.showInformationMessage('Shardwise: this file does not describe a parallel layout.');
      }
    }),
    vscode.commands.registerCommand(PLAN_LAYOUT_COMMAND, (uri?: string, docIndex?: number) => planLayout(client, uri, docIndex)),
    vscode.commands.registerCommand('shardwise.restartServer', async () => {
      await client?.restart();
    }),
    vscode.commands.registerCommand('shardwise.showOutput', () => output?.show(true)),
  );
  await client.start();
  return { layoutView: () => layoutView.current() };
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
