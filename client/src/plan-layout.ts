/**
 * "Plan a layout for this model…" in VS Code: the planner's layouts for the file (from the server)
 * in a quick pick, fastest first, each with its memory per GPU, estimated step time and what it
 * changes; the one picked is written into the file as one edit, if the file did not change meanwhile.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { PLAN_LAYOUTS_REQUEST, type PlannedLayouts } from '../../server/src/protocol';

export async function planLayout(client: LanguageClient | undefined, uri?: string, docIndex?: number): Promise<boolean> {
  const target = uri ?? vscode.window.activeTextEditor?.document.uri.toString();
  if (!target || !client) return false;
  const planned = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Shardwise: planning layouts…' }, () =>
    client.sendRequest<PlannedLayouts | null>(PLAN_LAYOUTS_REQUEST, { uri: target, docIndex: docIndex ?? 0 }),
  );
  if (!planned || !planned.layouts.length) {
    void vscode.window.showInformationMessage(`Shardwise: ${planned?.problem ?? 'this file describes no layout the planner reads'}.`);
    return false;
  }
  const items = planned.layouts.map((l) => ({ label: l.label, description: l.description, detail: l.changes, layout: l }));
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Shardwise: plan a layout for this model',
    placeHolder: `Fastest first${planned.current ? ` (${planned.current})` : ''}; the one you pick is written into the file and checked again`,
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!picked) return false;
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === target);
  if (!doc || doc.version !== planned.version) {
    void vscode.window.showWarningMessage('Shardwise: the file changed while the layouts were offered; plan again.');
    return false;
  }
  const edit = new vscode.WorkspaceEdit();
  for (const [u, edits] of Object.entries(picked.layout.edit.changes)) {
    const at = vscode.Uri.parse(u);
    for (const e of edits) edit.replace(at, new vscode.Range(e.range.start.line, e.range.start.character, e.range.end.line, e.range.end.character), e.newText);
  }
  return vscode.workspace.applyEdit(edit);
}
