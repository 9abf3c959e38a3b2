/**
 * The layout view: a webview beside the editor with the picture of a file's layout (from the
 * server's LAYOUT_PICTURE_REQUEST), redrawn as the file is edited, coloured as picked, following the
 * theme; each degree is a link to the line that sets it. A strict content-security policy: no
 * remote resource, one inline script with a nonce that only posts messages back.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { LAYOUT_PICTURE_REQUEST, type LayoutPicture } from '../../server/src/protocol';

const COLOURS = [
  ['tp', 'TP group'],
  ['pp', 'PP stage'],
  ['dp', 'DP replica'],
  ['cp', 'CP group'],
  ['ep', 'EP group'],
] as const;

export class LayoutView implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private uri: string | undefined;
  private colourBy = 'tp';
  private picture: LayoutPicture | undefined;
  private asked = 0;
  private pending: NodeJS.Timeout | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly client: () => LanguageClient | undefined) {
    this.subscriptions.push(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (this.panel && e.document.uri.toString() === this.uri) this.schedule();
      }),
      vscode.window.onDidChangeActiveColorTheme(() => this.render()),
    );
  }

  /** What the view shows now (for tests and for other extensions): the file and its picture. */
  current(): { uri: string; picture: LayoutPicture | undefined } | undefined {
    return this.panel && this.uri ? { uri: this.uri, picture: this.picture } : undefined;
  }

  async show(uri: string): Promise<boolean> {
    this.uri = uri;
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel('shardwise.layout', 'Shardwise layout', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, { enableScripts: true, localResourceRoots: [] });
      this.panel.onDidDispose(() => {
        this.panel = undefined;
        this.picture = undefined;
      });
      this.panel.webview.onDidReceiveMessage((m) => void this.onMessage(m));
    } else this.panel.reveal(vscode.ViewColumn.Beside, true);
    this.panel.title = `Layout: ${decodeURIComponent(uri.split('/').pop() ?? uri)}`;
    return this.refresh();
  }

  /** Redrawn on the next turn after an edit: the server analyses the newest version only. */
  private schedule(): void {
    if (this.pending) clearTimeout(this.pending);
    this.pending = setTimeout(() => void this.refresh(), 0);
  }

  private async refresh(): Promise<boolean> {
    const client = this.client();
    if (!client || !this.uri || !this.panel) return false;
    const ask = ++this.asked;
    const picture = await client.sendRequest<LayoutPicture | null>(LAYOUT_PICTURE_REQUEST, { uri: this.uri, colourBy: this.colourBy }).then(
      (p) => p ?? undefined,
      () => undefined,
    );
    // A newer request went out meanwhile: its answer is the one to show.
    if (ask !== this.asked || !this.panel) return !!picture;
    this.picture = picture;
    this.render();
    return !!picture;
  }

  private async onMessage(m: unknown): Promise<void> {
    if (typeof m !== 'object' || m === null) return;
    const msg = m as { type?: unknown; value?: unknown; index?: unknown };
    if (msg.type === 'colour' && typeof msg.value === 'string' && COLOURS.some(([id]) => id === msg.value)) {
      this.colourBy = msg.value;
      await this.refresh();
    } else if (msg.type === 'reveal' && typeof msg.index === 'number' && this.uri) {
      const range = this.picture?.degrees[msg.index]?.range;
      if (!range) return;
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(this.uri));
      const r = new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
      await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, selection: r });
    }
  }

  private render(): void {
    if (!this.panel) return;
    const nonce = randomBytes(16).toString('base64');
    const p = this.picture;
    const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
    const options = COLOURS.map(([id, label]) => `<option value="${id}"${id === this.colourBy ? ' selected' : ''}>${label}</option>`).join('');
    const degrees = (p?.degrees ?? [])
      .map((d, i) => (d.range ? `<a href="#" data-index="${i}" title="Go to the line that sets it">${esc(d.name)} ${d.value}</a>` : `<span title="not written in the file">${esc(d.name)} ${d.value}</span>`))
      .join(' · ');
    const body = p ? `<p class="degrees">${degrees}</p>${p.svg}` : '<p>This file does not describe a parallel layout whose degrees multiply to its world size (see the Problems panel).</p>';
    this.panel.webview.html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'nonce-${nonce}'">
<style>body{color:var(--vscode-editor-foreground);background:var(--vscode-editor-background);font-family:var(--vscode-font-family)}svg{--sw-fg:var(--vscode-editor-foreground);max-width:100%;height:auto}a{color:var(--vscode-textLink-foreground)}.degrees{font-size:12px}</style>
</head><body>
<label>Colour by <select id="colour">${options}</select></label>
${body}
<script nonce="${nonce}">
const vscode = acquireVsCodeApi();
document.getElementById('colour').addEventListener('change', (e) => vscode.postMessage({ type: 'colour', value: e.target.value }));
for (const a of document.querySelectorAll('a[data-index]')) a.addEventListener('click', (e) => { e.preventDefault(); vscode.postMessage({ type: 'reveal', index: Number(a.dataset.index) }); });
</script>
</body></html>`;
  }

  dispose(): void {
    if (this.pending) clearTimeout(this.pending);
    this.panel?.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
