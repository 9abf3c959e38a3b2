/**
 * Code actions (quick fixes at a range, fix-all by kind), their resolution, the layout lens, and
 * the commands the server runs for clients without their own.
 */
import { CodeActionKind, MessageType, ShowMessageNotification, type CodeAction, type CodeLens, type Connection, type Diagnostic, type Range, type ResponseError } from 'vscode-languageserver/node';
import { codeActions, explain, layoutLenses, layoutMarkdown, layoutText, ruleById, ruleDocsUrl, type FileAnalysis, type Fix, type TextEdit } from '../../engine';
import { FIX_ALL_KIND, FIX_ALL_TITLE, SERVER_PLAN_LAYOUT_COMMAND, SERVER_SHOW_LAYOUT_COMMAND, SERVER_SHOW_RULE_DOCUMENTATION_COMMAND, SHOW_LAYOUT_COMMAND, SHOW_RULE_DOCUMENTATION_COMMAND } from '../../protocol';
import { documentUri, invalidParams, isObject, rangeParam, sameRange, toRange } from '../convert';
import type { Workspace } from '../workspace';
import { planAction, runPlanCommand } from './plan';

type WorkspaceEdit = { changes: Record<string, { range: Range; newText: string }[]> };

/** Edits of the document, and of the linked files a fix also changes (their open document, or their file URI). */
function workspaceEdit(ws: Workspace, uri: string, a: FileAnalysis, list: TextEdit[], others?: Fix['otherFiles']): WorkspaceEdit {
  const edit: WorkspaceEdit = { changes: { [uri]: list.map((e) => ({ range: toRange(a.lines, e.span), newText: e.newText })) } };
  for (const o of others ?? []) edit.changes[ws.uriOfPath(o.path)] = o.edits.map((e) => ({ range: toRange(o.lines, e.span), newText: e.newText }));
  return edit;
}

export async function onCodeAction(ws: Workspace, params: unknown): Promise<CodeAction[] | ResponseError> {
  const uri = documentUri(params);
  if (uri === undefined) return invalidParams('textDocument.uri');
  const requested = rangeParam(isObject(params) ? params.range : undefined);
  if (!requested || !isObject(params)) return invalidParams('range');
  const context: Record<string, unknown> = isObject(params.context) ? params.context : {};
  const sent: Diagnostic[] = Array.isArray(context.diagnostics) ? context.diagnostics.filter((d): d is Diagnostic => isObject(d) && !!rangeParam(d.range)) : [];
  const only = Array.isArray(context.only) ? context.only.filter((k): k is string => typeof k === 'string') : undefined;
  const a = await ws.current(uri);
  if (!a) return [];
  const out: CodeAction[] = [];
  if (!only || only.some((k) => k.startsWith(CodeActionKind.QuickFix))) out.push(...quickFixes(ws, uri, a, requested, sent));
  if (!only || only.some((k) => CodeActionKind.RefactorRewrite.startsWith(k) && k !== '')) {
    const plan = planAction(ws, uri, a, requested);
    if (plan) out.push(plan);
  }
  // Fix-all: asked for by kind only (on save, or "Fix all"), never with the quick fixes at the cursor.
  if (only?.some((k) => k === CodeActionKind.Source || FIX_ALL_KIND === k || FIX_ALL_KIND.startsWith(`${k}.`))) {
    const action: CodeAction = { title: FIX_ALL_TITLE, kind: FIX_ALL_KIND, data: { uri, version: ws.documents.get(uri)?.version } };
    // Where the client resolves edits, the fixes are made and re-checked only when the action is chosen.
    if (ws.client.resolveEdits) out.push(action);
    else {
      const fixed = ws.fixAllEdits(a);
      if (fixed.length) out.push({ ...action, edit: workspaceEdit(ws, uri, a, fixed) });
    }
  }
  return out;
}

/** The quick fixes and "Show documentation" actions of the findings in a range. */
function quickFixes(ws: Workspace, uri: string, a: FileAnalysis, requested: Range, sent: Diagnostic[]): CodeAction[] {
  const range = a.lines.span(requested);
  return codeActions(a, { start: Math.min(range.start, range.end), end: Math.max(range.start, range.end) }).map((action) => {
    const f = action.finding;
    const diagnostic = f ? sent.find((d) => d.code === f.code && sameRange(toRange(a.lines, f.span), d.range)) ?? ws.diagnostic(uri, a, f) : undefined;
    // "Show documentation" runs the client's own command where it has one, else the server's.
    const command = action.command?.command === SHOW_RULE_DOCUMENTATION_COMMAND && !ws.client.clientCommands.has(SHOW_RULE_DOCUMENTATION_COMMAND) ? { ...action.command, command: SERVER_SHOW_RULE_DOCUMENTATION_COMMAND } : action.command;
    return {
      title: action.title,
      kind: CodeActionKind.QuickFix,
      diagnostics: diagnostic ? [diagnostic] : undefined,
      isPreferred: action.preferred,
      edit: action.edits ? workspaceEdit(ws, uri, a, action.edits, action.otherFiles) : undefined,
      command,
    };
  });
}

/** Fix-all's edits, made when the action is chosen; nothing when the document changed since it was offered. */
export async function onCodeActionResolve(ws: Workspace, action: CodeAction): Promise<CodeAction | ResponseError> {
  if (!isObject(action)) return invalidParams('code action');
  const data = action.data as { uri?: unknown; version?: unknown } | undefined;
  if (action.kind !== FIX_ALL_KIND || !isObject(data) || typeof data.uri !== 'string') return action;
  const uri = data.uri;
  const a = await ws.current(uri);
  if (!a || ws.documents.get(uri)?.version !== data.version) return action;
  return { ...action, edit: workspaceEdit(ws, uri, a, ws.fixAllEdits(a)) };
}

export async function onCodeLens(ws: Workspace, params: unknown): Promise<CodeLens[] | ResponseError> {
  const uri = documentUri(params);
  if (uri === undefined) return invalidParams('textDocument.uri');
  const a = await ws.current(uri);
  if (!a) return [];
  const command = ws.client.clientCommands.has(SHOW_LAYOUT_COMMAND) ? SHOW_LAYOUT_COMMAND : SERVER_SHOW_LAYOUT_COMMAND;
  return layoutLenses(a).map((l) => ({ range: toRange(a.lines, l.span), command: { title: l.title, command, arguments: [uri] } }));
}

/** A message for the user (a notification: every client shows one, and nothing waits for an answer). */
function show(connection: Connection, type: MessageType, message: string): void {
  void connection.sendNotification(ShowMessageNotification.type, { type, message }).catch(() => undefined);
}

/** The server's own commands: the layout as a message, a rule's documentation opened or told. */
export async function onExecuteCommand(ws: Workspace, connection: Connection, params: unknown): Promise<unknown> {
  const command = isObject(params) ? params.command : undefined;
  const args: unknown[] = isObject(params) && Array.isArray(params.arguments) ? params.arguments : [];
  if (command === SERVER_SHOW_LAYOUT_COMMAND) {
    if (typeof args[0] !== 'string') return invalidParams('arguments[0] (the document URI)');
    const uri = args[0];
    const a = await ws.current(uri);
    const text = a ? layoutText(a) : undefined;
    const name = decodeURIComponent(uri.replace(/[?#].*$/, '').split('/').pop() ?? uri);
    show(connection, MessageType.Info, text ? `Shardwise: the layout of ${name}\n${text}` : `Shardwise: ${name} does not describe a parallel layout.`);
    return (a && layoutMarkdown(a)) ?? null;
  }
  if (command === SERVER_SHOW_RULE_DOCUMENTATION_COMMAND) {
    if (typeof args[0] !== 'string') return invalidParams('arguments[0] (the rule id)');
    const rule = ruleById(args[0]);
    if (!rule) {
      show(connection, MessageType.Warning, `Shardwise has no rule named "${args[0]}".`);
      return null;
    }
    const href = ruleDocsUrl(rule.id);
    const opened = ws.client.showDocument ? await connection.window.showDocument({ uri: href, external: true }).then((r) => r?.success === true, () => false) : false;
    if (!opened) show(connection, MessageType.Info, `Shardwise ${rule.id}: ${rule.docs.summary} ${href}`);
    return explain(rule.id) ?? null;
  }
  if (command === SERVER_PLAN_LAYOUT_COMMAND) return runPlanCommand(ws, connection, args);
  return invalidParams(`command ${JSON.stringify(command)} (this server runs ${SERVER_SHOW_LAYOUT_COMMAND}, ${SERVER_SHOW_RULE_DOCUMENTATION_COMMAND} and ${SERVER_PLAN_LAYOUT_COMMAND})`);
}
