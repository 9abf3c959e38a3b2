/** The document notifications, checked before the documents apply them. */
import type { Connection, Range, TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { isObject, isVersion, rangeParam } from './convert';

/**
 * The document notifications, each checked before `TextDocuments` applies it: a malformed one
 * (no URI, a version that is not a number, a change whose range or text is not one) would corrupt
 * the document or throw mid-update, so it is dropped and logged. Ranges outside the document are
 * valid and clamped by the document itself (past the end of a line: its end; past the last line:
 * the end of the text; an end before the start: swapped).
 */
export function checkedDocumentNotifications(connection: Connection): Parameters<TextDocuments<TextDocument>['listen']>[0] {
  const drop = (method: string, why: string) => connection.console.warn(`shardwise: dropped a malformed ${method} notification: ${why}`);
  const identifier = (p: unknown): { uri: string } | undefined => (isObject(p) && isObject(p.textDocument) && typeof p.textDocument.uri === 'string' ? (p.textDocument as { uri: string }) : undefined);
  return {
    onDidOpenTextDocument: (handler) =>
      connection.onDidOpenTextDocument((p) => {
        const td = identifier(p) as { uri: string; languageId?: unknown; version?: unknown; text?: unknown } | undefined;
        if (!td) return drop('didOpen', 'no textDocument.uri');
        if (typeof td.text !== 'string') return drop('didOpen', 'textDocument.text is not a string');
        if (!isVersion(td.version)) return drop('didOpen', 'textDocument.version is not an integer');
        return handler({ textDocument: { uri: td.uri, languageId: typeof td.languageId === 'string' ? td.languageId : '', version: td.version, text: td.text } });
      }),
    onDidChangeTextDocument: (handler) =>
      connection.onDidChangeTextDocument((p) => {
        const td = identifier(p) as { uri: string; version?: unknown } | undefined;
        if (!td) return drop('didChange', 'no textDocument.uri');
        if (!isVersion(td.version)) return drop('didChange', 'textDocument.version is not an integer');
        const changes = (p as { contentChanges?: unknown }).contentChanges;
        if (!Array.isArray(changes)) return drop('didChange', 'contentChanges is not an array');
        const checked: ({ text: string } | { range: Range; text: string })[] = [];
        for (const c of changes) {
          if (!isObject(c) || typeof c.text !== 'string') return drop('didChange', 'a change without text');
          if (c.range === undefined) checked.push({ text: c.text });
          else {
            const range = rangeParam(c.range, false);
            if (!range) return drop('didChange', 'a change whose range is not a range');
            checked.push({ range, text: c.text });
          }
        }
        return handler({ textDocument: { uri: td.uri, version: td.version }, contentChanges: checked });
      }),
    onDidCloseTextDocument: (handler) =>
      connection.onDidCloseTextDocument((p) => {
        const td = identifier(p);
        return td ? handler({ textDocument: { uri: td.uri } }) : drop('didClose', 'no textDocument.uri');
      }),
    onWillSaveTextDocument: (handler) => connection.onWillSaveTextDocument((p) => (identifier(p) ? handler(p) : undefined)),
    onWillSaveTextDocumentWaitUntil: (handler) => connection.onWillSaveTextDocumentWaitUntil((p, token) => (identifier(p) ? handler(p, token) : [])),
    onDidSaveTextDocument: (handler) => connection.onDidSaveTextDocument((p) => (identifier(p) ? handler(p) : undefined)),
  };
}
