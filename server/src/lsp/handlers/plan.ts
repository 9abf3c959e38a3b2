/**
 * "Plan a layout for this model…": the code action on a degree, the request that returns the
 * planner's layouts as edits (the VS Code client shows them in a quick pick), and the server's own
 * command for other clients, which offers them as buttons of a message and applies the one chosen.
 */
import { CodeActionKind, type CodeAction, type Connection, type Range, type ResponseError } from 'vscode-languageserver/node';
import { PLAN_ACTION_TITLE, planActionAt, type FileAnalysis } from '../../engine';
import { PLAN_LAYOUT_COMMAND, SERVER_PLAN_LAYOUT_COMMAND, type PlannedLayouts } from '../../protocol';
import { invalidParams, isObject, toRange } from '../convert';
import type { Workspace } from '../workspace';

/** The action at a range on a degree of a layout the planner can answer for. */
export function planAction(ws: Workspace, uri: string, a: FileAnalysis, requested: Range): CodeAction | undefined {
  const docIndex = planActionAt(a, a.lines.span(requested).start);
  if (docIndex === undefined) return undefined;
  const command = ws.client.clientCommands.has(PLAN_LAYOUT_COMMAND) ? PLAN_LAYOUT_COMMAND : SERVER_PLAN_LAYOUT_COMMAND;
  return { title: PLAN_ACTION_TITLE, kind: CodeActionKind.RefactorRewrite, command: { title: PLAN_ACTION_TITLE, command, arguments: [uri, docIndex] } };
}

/** The planner's layouts of a document, each with the workspace edit that writes it. */
export async function onPlanLayouts(ws: Workspace, params: unknown): Promise<PlannedLayouts | null> {
  if (!isObject(params) || typeof params.uri !== 'string') return null;
  const docIndex = typeof params.docIndex === 'number' && Number.isInteger(params.docIndex) && params.docIndex >= 0 ? params.docIndex : 0;
  const uri = params.uri;
  const a = await ws.current(uri);
  const version = ws.documents.get(uri)?.version;
  if (!a || version === undefined) return null;
  const r = ws.plannedLayouts(a, docIndex);
  if ('problem' in r) return { version, layouts: [], problem: r.problem };
  return {
    version,
    current: r.current,
    layouts: r.layouts.map((l) => ({ label: l.label, description: l.description, changes: l.changes, edit: { changes: { [uri]: l.edits.map((e) => ({ range: toRange(a.lines, e.span), newText: e.newText })) } } })),
  };
}

/** For clients without the quick pick: the layouts as buttons of a message; the one chosen is applied if the document did not change meanwhile. */
export async function runPlanCommand(ws: Workspace, connection: Connection, args: unknown[]): Promise<unknown> {
  if (typeof args[0] !== 'string') return invalidParams('arguments[0] (the document URI)') as ResponseError;
  const planned = await onPlanLayouts(ws, { uri: args[0], docIndex: args[1] });
  if (!planned) return null;
  if (!planned.layouts.length) {
    void connection.window.showInformationMessage(`Shardwise: ${planned.problem ?? 'no layout to offer'}.`);
    return null;
  }
  const items = planned.layouts.map((l, i) => ({ title: `${i + 1}. ${l.label} (${l.description})` }));
  const chosen = await connection.window.showInformationMessage(`Shardwise: layouts for this model, fastest first${planned.current ? ` (${planned.current})` : ''}. Each changes the layout, and each was applied to the file and checked before it is offered.`, ...items).catch(() => undefined);
  const index = chosen ? items.findIndex((x) => x.title === chosen.title) : -1;
  if (index < 0) return null;
  if (ws.documents.get(args[0])?.version !== planned.version) {
    void connection.window.showWarningMessage('Shardwise: the file changed while the layouts were offered; plan again.');
    return null;
  }
  if (!ws.client.applyEdit) {
    void connection.window.showInformationMessage(`Shardwise: this editor cannot take edits from the server; write it by hand: ${planned.layouts[index].changes}`);
    return planned.layouts[index];
  }
  const applied = await connection.workspace.applyEdit({ label: planned.layouts[index].changes, edit: planned.layouts[index].edit }).catch(() => undefined);
  return applied?.applied === true;
}
