/**
 * The language server's state: the open documents, the analysis of each one's newest version, the
 * settings each reads, the cross-file graph, and the scheduling that analyses only the newest
 * version of a document once a burst of edits pauses. Everything per document is evicted on close.
 *
 * An edit travels: `changed` → `schedule` → `flush` (once the edits pause) → `analyzeDocument`
 * (engine `analyze`, with the host's resolver and the document's referrers) → `record` (graph edges;
 * documents whose references moved are invalidated) → `publish` (push clients) or a later pull.
 */
import { MessageType, ShowMessageNotification, TextDocuments, type Connection, type Diagnostic } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { analyze, DEFAULT_MAX_FILE_SIZE, fixRound, isPinFile, mergeSettings, plannedLayouts, settingsFromClient, type EngineSettings, type FileAnalysis, type FileInput, type Finding, type TextEdit } from '../engine';
import { DependencyGraph, type ClosedReferrer } from '../host/graph';
import { MEGATRON_PARSERS, PROJECT_CONFIG_NAMES, ProjectConfigs } from '../host/project-config';
import { EDITOR_BUDGET_MS, timeBudget } from '../host/budget';
import { fileStamp } from '../host/read';
import { RepositoryIndexes } from '../host/repository';
import { createResolver, inside, pathKey, readTextFile } from '../host/resolve';
import type { ClientSettings } from '../protocol';
import { NO_FEATURES, type ClientFeatures } from './client';
import { toDiagnostic } from './convert';
import { HEAVY_CHARS, heavyNote, runHeavy, SLOW_MS, type HeavyResult } from './heavy';
import { URI } from './uri';

/** A heavy document's analysis in a worker: of which version and text, its diagnostics when done, and how to end it. */
interface HeavyEntry {
  version: number;
  text: string;
  promise: Promise<Diagnostic[]>;
  cancel(): void;
}

interface Cached {
  version: number;
  /** The text analysed: a client may send a version number twice (a regression, a reopen). */
  text: string;
  analysis: FileAnalysis;
}

/**
 * How long analysis waits, at most, for a stream of edits to pause: it runs once a turn of the event
 * loop passes without a new edit, or after this long under a continuous stream.
 */
const MAX_SETTLE_MS = 100;

/** At most this many referrers are given to one analysis (the engine reads no more either). */
const MAX_REFERRERS = 20;

/** Whether a changed file is one the project settings are read from (every open document is re-checked). */
export function isSettingsFile(path: string): boolean {
  const p = path.replace(/\\/g, '/');
  const name = p.slice(p.lastIndexOf('/') + 1);
  return PROJECT_CONFIG_NAMES.includes(name) || name === 'pyproject.toml' || isPinFile(name) || MEGATRON_PARSERS.some((m) => p.endsWith(`/${m}`));
}

export class Workspace {
  readonly documents = new TextDocuments(TextDocument);
  client: ClientFeatures = NO_FEATURES;
  /** Folders a relative reference is tried against after the referring file's own folder. */
  roots: string[] = [];
  /** The settings the client sent with `initialize` or `didChangeConfiguration` (when it does not answer pulls). */
  clientSettings: EngineSettings = {};
  /** After `shutdown` nothing is analysed or published any more. */
  shutDown = false;
  /** The last pull report per document: the same version with the same diagnostics is `unchanged`. */
  readonly reported = new Map<string, { key: string; resultId: string }>();
  private resultSerial = 0;
  private readonly cache = new Map<string, Cached>();
  private readonly settingsCache = new Map<string, Promise<EngineSettings>>();
  private readonly pending = new Set<string>();
  /** Problems of the project settings already shown to the user (see warnSettingsProblems). */
  private readonly shownSettingsProblems = new Set<string>();
  private readonly graph = new DependencyGraph();
  /** Open `file:` documents by path key (their text wins over the disk when another file reads them). */
  private readonly openByPath = new Map<string, string>();
  /** The input and settings each analysis was made from, for fix-all's re-check. */
  private readonly inputs = new WeakMap<FileAnalysis, { input: FileInput; settings: EngineSettings }>();
  /** A document was re-checked for a reason the client does not see (a linked file, the settings): ask it to pull again. */
  private refreshWanted = false;
  private flushScheduled = false;
  private flushing = false;
  /** Edits seen (for waiting until a burst of them pauses) and the count at the last look. */
  private edits = 0;
  private editsSeen = 0;
  private settleSince: number | undefined;
  /** Heavy documents (heavy.ts): the analysis of each one's newest version in a worker, and its diagnostics once done. */
  private readonly heavy = new Map<string, HeavyEntry>();
  /**
   * Documents whose analyses on this thread took longer than SLOW_MS twice in a row (once may be the
   * server warming up, or a busy machine): their later versions are heavy. The count per document.
   */
  private readonly slowRuns = new Map<string, number>();

  constructor(
    private readonly connection: Connection,
    // Repositories are walked in slices between requests, before a document's settings are read.
    private readonly projectConfigs: ProjectConfigs = new ProjectConfigs(new RepositoryIndexes({ background: true })),
  ) {}

  /** The analysis of the document's current version (computed now if the cache is behind). */
  async current(uri: string): Promise<FileAnalysis | undefined> {
    const doc = this.documents.get(uri);
    if (!doc) return undefined;
    const hit = this.cachedAnalysis(doc);
    if (hit) return hit;
    const settings = await this.settingsFor(uri);
    // Closed while the settings were read: nothing is cached or recorded for it (reopened: start over).
    if (this.documents.get(uri) !== doc) return this.documents.get(uri) ? this.current(uri) : undefined;
    // A heavy document is analysed in a worker: nothing here waits for it (hover, completion and fixes are off for it).
    if (this.isHeavy(doc, settings)) return undefined;
    const analysis = this.cachedAnalysis(doc) ?? this.analyzeDocument(doc, settings);
    this.cache.set(uri, { version: doc.version, text: doc.getText(), analysis });
    return analysis;
  }

  diagnostics(uri: string, a: FileAnalysis): Diagnostic[] {
    return a.findings.map((f) => this.diagnostic(uri, a, f));
  }

  diagnostic(uri: string, a: FileAnalysis, f: Finding): Diagnostic {
    return toDiagnostic(uri, a, f, this.client, (path) => this.uriOfPath(path));
  }

  /** A result id for a pull report: the same while the version and the diagnostics stay the same. */
  resultId(uri: string, version: number, items: Diagnostic[]): string {
    const key = `${version}\n${JSON.stringify(items)}`;
    let last = this.reported.get(uri);
    if (!last || last.key !== key) this.reported.set(uri, (last = { key, resultId: `${version}.${++this.resultSerial}` }));
    return last.resultId;
  }

  /** The URI to show for a linked file: the open document's own URI when it is open. */
  uriOfPath(path: string): string {
    return this.openByPath.get(pathKey(path)) ?? URI.file(path);
  }

  /** The safe fixes of one analysis, as one re-checked set. */
  fixAllEdits(a: FileAnalysis): TextEdit[] {
    const made = this.inputs.get(a);
    if (!made) return [];
    try {
      const round = fixRound(a, made.input, made.settings);
      // What was not applied, and why, for the output channel (the action itself has no room for it).
      for (const r of round.refused) this.connection.console.info(`shardwise: fix-all did not apply "${r.fix.title}" [${r.finding.code}]: ${r.reason}`);
      return round.edits;
    } catch (err) {
      this.connection.console.error(`shardwise: fix-all failed: ${(err as Error)?.stack ?? err}`);
      return [];
    }
  }

  /** The planner's layouts for a document of an analysis, as checked edits (see plannedLayouts). */
  plannedLayouts(a: FileAnalysis, docIndex: number): ReturnType<typeof plannedLayouts> {
    const made = this.inputs.get(a);
    if (!made) return { problem: 'the document is not analysed yet' };
    try {
      return plannedLayouts(a, made.input, made.settings, docIndex);
    } catch (err) {
      this.connection.console.error(`shardwise: the layout planner failed: ${(err as Error)?.stack ?? err}`);
      return { problem: 'the layout planner failed (the output channel has the details)' };
    }
  }

  // --- Document lifecycle -------------------------------------------------------------------

  opened(doc: TextDocument): void {
    const path = URI.fsPath(doc.uri);
    if (!path) return;
    const key = pathKey(path);
    this.openByPath.set(key, doc.uri);
    // Open now: its edges are recorded when it is analysed.
    this.graph.forgetClosed(key);
  }

  changed(doc: TextDocument): void {
    const uri = doc.uri;
    this.schedule(uri, true);
    // The documents that read this file (its referrers, or the files it is a referrer of) are stale.
    const path = URI.fsPath(uri);
    if (path) for (const dependent of this.graph.dependents(pathKey(path))) if (dependent !== uri) this.invalidate(dependent);
  }

  closed(doc: TextDocument): void {
    const uri = doc.uri;
    this.cache.delete(uri);
    this.dropHeavy(uri);
    this.slowRuns.delete(uri);
    this.settingsCache.delete(uri);
    this.pending.delete(uri);
    this.reported.delete(uri);
    const edges = this.graph.remove(uri);
    const path = URI.fsPath(uri);
    if (path) {
      const key = pathKey(path);
      if (this.openByPath.get(key) === uri) {
        this.openByPath.delete(key);
        // Another open URI for the same file (`file:///a%20b` and `file:///a b`) takes its place.
        const other = this.documents.all().find((d) => d.uri !== uri && URI.fsPath(d.uri) !== undefined && pathKey(URI.fsPath(d.uri)!) === key);
        if (other) this.openByPath.set(key, other.uri);
      }
      // Remembered (path and targets, no text): its targets still have it as a referrer, read from disk.
      if (edges && edges.targets.size > 0) this.graph.rememberClosed(key, { uri, path, targets: new Set(edges.targets) });
      // Documents that read its unsaved text now read the disk.
      for (const dependent of this.graph.dependents(key)) this.invalidate(dependent);
    }
    for (const target of edges?.targets ?? []) this.invalidateAt(target, uri);
    if (!this.shutDown && !this.client.pull) void this.connection.sendDiagnostics({ uri, diagnostics: [] }).catch(() => undefined);
  }

  // --- Settings and files changed outside the documents --------------------------------------

  /** The editor's settings changed: pushed with the notification to clients that do not answer pulls. */
  settingsChanged(pushed: ClientSettings | undefined): void {
    if (!this.client.pullSettings) {
      try {
        this.clientSettings = settingsFromClient(pushed);
      } catch {
        this.clientSettings = {};
      }
    }
    this.revalidateAll();
  }

  /**
   * Files changed on disk: settings files re-check everything; a Python file re-checks the documents
   * of its repository when the flags its parsers define changed; other files re-check what read them.
   */
  filesChanged(paths: { path?: string; display: string }[]): void {
    const roots = new Set<string>();
    for (const { path } of paths) if (path?.endsWith('.py')) for (const root of this.projectConfigs.repositories.fileChanged(path)) roots.add(root);
    if (roots.size) this.recheckUnder(roots);
    // A job description read for the hardware (a SkyPilot task, a Kubernetes manifest) is a setting too.
    if (paths.some((p) => isSettingsFile(p.path ?? p.display) || (p.path !== undefined && this.projectConfigs.pins.readsJobsFrom(p.path)))) {
      this.projectConfigs.clear();
      this.shownSettingsProblems.clear();
      this.revalidateAll();
    }
    for (const { path } of paths) {
      if (!path) continue;
      const key = pathKey(path);
      // Created, changed or deleted: every document that looked there (found or not) is re-checked.
      for (const dependent of this.graph.dependents(key)) this.invalidate(dependent);
      // A remembered closed referrer changed on disk: the files it pointed at, and points at now.
      const closed = this.graph.closedAt(key);
      if (closed) {
        const before = [...closed.targets];
        closed.stamp = undefined;
        this.closedText(key, closed);
        for (const target of new Set([...before, ...closed.targets])) this.invalidateAt(target);
      }
    }
  }

  /** The open documents inside these folders are checked again with their settings read again (the repository's flags changed). */
  private recheckUnder(roots: Set<string>): void {
    for (const doc of this.documents.all()) {
      const path = URI.fsPath(doc.uri);
      if (!path || ![...roots].some((root) => inside(root, path) !== undefined)) continue;
      this.settingsCache.delete(doc.uri);
      this.invalidate(doc.uri);
    }
  }

  /** The workspace folders changed: every document that resolved a reference is re-checked. */
  foldersChanged(added: string[], removed: string[]): void {
    const gone = new Set(removed.map(pathKey));
    this.roots = [...this.roots.filter((r) => !gone.has(pathKey(r))), ...added];
    for (const uri of this.graph.documents()) this.invalidate(uri);
  }

  shutdown(): void {
    this.shutDown = true;
    this.pending.clear();
    this.dropHeavy();
  }

  /** Per-document state sizes, to tell that closing a document forgets it. */
  status() {
    return {
      documents: this.documents.keys().length,
      cached: this.cache.size,
      settings: this.settingsCache.size,
      pending: this.pending.size,
      openByPath: this.openByPath.size,
      reported: this.reported.size,
      graph: this.graph.stats(),
    };
  }

  // --- Scheduling ---------------------------------------------------------------------------

  private schedule(uri: string, edited = false): void {
    if (this.shutDown) return;
    this.pending.add(uri);
    if (edited) this.edits++;
    if (!this.flushScheduled && !this.flushing) {
      this.flushScheduled = true;
      // No fixed delay: the next turn of the event loop, so a burst of edits is analysed once.
      setImmediate(() => void this.flush());
    }
  }

  /**
   * Analyse the newest version of every pending document, until none is pending (a document whose
   * dependency changed while others were analysed is handled in the same pass); stale versions are
   * never analysed. Waits until a stream of edits pauses for one turn of the event loop (the
   * connection handles one message per turn), so a burst of queued edits is analysed once.
   */
  private async flush(): Promise<void> {
    this.flushScheduled = false;
    if (this.shutDown) return;
    const now = Date.now();
    if (this.edits !== this.editsSeen && (this.settleSince === undefined || now - this.settleSince < MAX_SETTLE_MS)) {
      this.settleSince ??= now;
      this.editsSeen = this.edits;
      this.flushScheduled = true;
      setImmediate(() => void this.flush());
      return;
    }
    this.settleSince = undefined;
    this.editsSeen = this.edits;
    this.flushing = true;
    try {
      while (this.pending.size > 0 && !this.shutDown) {
        const uri = this.pending.values().next().value as string;
        this.pending.delete(uri);
        await this.analyzePending(uri);
      }
    } finally {
      this.flushing = false;
      if (this.client.pull && this.refreshWanted && this.pending.size === 0 && !this.shutDown) {
        this.refreshWanted = false;
        if (this.client.pullRefresh) void this.connection.languages.diagnostics.refresh().catch(() => undefined);
      }
      // Scheduled while analysing (the loop exits only when nothing is pending, but be sure).
      if (this.pending.size > 0 && !this.shutDown && !this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => void this.flush());
      }
    }
  }

  /** One pending document: analysed at its newest version and, for push clients, published. */
  private async analyzePending(uri: string): Promise<void> {
    try {
      const doc = this.documents.get(uri);
      if (!doc) return;
      const settings = await this.settingsFor(uri);
      // A newer edit (or a dependency's) arrived while settings were read: it is pending again and
      // is handled next; a document closed (or closed and reopened) meanwhile is not analysed here.
      if (this.shutDown || this.pending.has(uri) || this.documents.get(uri) !== doc) return;
      if (this.isHeavy(doc, settings) && !this.cachedAnalysis(doc)) {
        void this.heavyDiagnostics(doc, settings);
        return;
      }
      const analysis = this.cachedAnalysis(doc) ?? this.analyzeDocument(doc, settings);
      this.cache.set(uri, { version: doc.version, text: doc.getText(), analysis });
      if (!this.client.pull) void this.connection.sendDiagnostics({ uri, version: doc.version, diagnostics: this.diagnostics(uri, analysis) }).catch(() => undefined);
    } catch (err) {
      this.connection.console.error(`shardwise: analysing ${uri} failed: ${(err as Error)?.stack ?? err}`);
    }
  }

  /** The diagnostics of the document's current version, for a pull: from the worker for a heavy one. */
  async pullDiagnostics(uri: string): Promise<Diagnostic[] | undefined> {
    const doc = this.documents.get(uri);
    if (!doc) return undefined;
    const settings = await this.settingsFor(uri);
    if (this.documents.get(uri) !== doc) return undefined;
    if (this.isHeavy(doc, settings) && !this.cachedAnalysis(doc)) return this.heavyDiagnostics(doc, settings);
    const a = await this.current(uri);
    return a && this.documents.get(uri) ? this.diagnostics(uri, a) : undefined;
  }

  /** Whether the document is analysed in a worker (heavy.ts): by its length (when the size limit lets it be analysed), or by how long its analyses took. */
  private isHeavy(doc: TextDocument, settings: EngineSettings): boolean {
    const length = doc.getText().length;
    return (this.slowRuns.get(doc.uri) ?? 0) >= 2 || (length > HEAVY_CHARS && length <= (settings.maxFileSize ?? DEFAULT_MAX_FILE_SIZE));
  }

  /**
   * The diagnostics of a heavy document's current version, analysed in a worker (one analysis per
   * version: a newer one ends the older one's worker). Published to push clients when done; the
   * files it read and links to go into the graph as for any analysis.
   */
  private heavyDiagnostics(doc: TextDocument, settings: EngineSettings): Promise<Diagnostic[]> {
    const uri = doc.uri;
    const text = doc.getText();
    const known = this.heavy.get(uri);
    if (known && known.version === doc.version && known.text === text) return known.promise;
    known?.cancel();
    const path = URI.fsPath(uri);
    const key = path ? pathKey(path) : undefined;
    const open = this.documents.all().flatMap((d): [string, string][] => {
      const p = URI.fsPath(d.uri);
      return p && d.uri !== uri ? [[pathKey(p), d.getText()]] : [];
    });
    const job = runHeavy({ uri, path, text, languageId: doc.languageId, settings, roots: this.roots, open, uris: [...this.openByPath], referrers: key ? this.referrersFor(key, uri) : undefined, client: this.client });
    const entry: HeavyEntry = {
      version: doc.version,
      text,
      cancel: job.cancel,
      promise: job.promise.then((result: HeavyResult) => {
        const current = this.heavy.get(uri) === entry;
        const diagnostics = [...('diagnostics' in result ? result.diagnostics : []), heavyNote(result, text.length)];
        if ('error' in result && current) this.connection.console.error(`shardwise: analysing ${uri} in a worker: ${result.error}`);
        if (!current || this.shutDown) return diagnostics;
        if ('targets' in result) for (const k of this.graph.set(uri, result.watched, result.targets)) this.invalidateAt(k, uri);
        if (!this.client.pull) void this.connection.sendDiagnostics({ uri, version: doc.version, diagnostics }).catch(() => undefined);
        return diagnostics;
      }),
    };
    this.heavy.set(uri, entry);
    return entry.promise;
  }

  /** Ends the worker of one heavy document (or of every one) and forgets its analysis. */
  private dropHeavy(uri?: string): void {
    for (const [key, entry] of this.heavy) {
      if (uri !== undefined && key !== uri) continue;
      entry.cancel();
      this.heavy.delete(key);
    }
  }

  /** The cached analysis when it is of the document's current text and version. */
  private cachedAnalysis(doc: TextDocument): FileAnalysis | undefined {
    const hit = this.cache.get(doc.uri);
    return hit && hit.version === doc.version && hit.text === doc.getText() ? hit.analysis : undefined;
  }

  /** A dependency of the document changed: its cached analysis is stale and it is analysed again. */
  private invalidate(uri: string): void {
    if (!this.documents.get(uri)) return;
    this.cache.delete(uri);
    this.dropHeavy(uri);
    this.refreshWanted = true;
    this.schedule(uri);
  }

  /** Invalidates the open document at a path key, if any (other than `except`). */
  private invalidateAt(key: string, except?: string): void {
    const uri = this.openByPath.get(key);
    if (uri && uri !== except) this.invalidate(uri);
  }

  private revalidateAll(): void {
    this.settingsCache.clear();
    this.cache.clear();
    this.dropHeavy();
    this.refreshWanted = true;
    for (const doc of this.documents.all()) this.schedule(doc.uri);
  }

  // --- Settings -----------------------------------------------------------------------------

  private settingsFor(uri: string): Promise<EngineSettings> {
    let p = this.settingsCache.get(uri);
    if (!p) {
      p = this.readSettings(uri);
      this.settingsCache.set(uri, p);
    }
    return p;
  }

  /** Nearest wins: the editor's settings, then `.shardwise.yaml` (in-file directives win inside the engine). */
  private async readSettings(uri: string): Promise<EngineSettings> {
    let editor = this.clientSettings;
    if (this.client.pullSettings) {
      try {
        editor = settingsFromClient((await this.connection.workspace.getConfiguration({ scopeUri: uri, section: 'shardwise' })) as ClientSettings);
      } catch {
        editor = this.clientSettings;
      }
    }
    const path = URI.fsPath(uri);
    try {
      if (!path) return editor;
      // The flags of the file's repository, walked in slices (the server answers requests meanwhile).
      await this.projectConfigs.repositories.prepare(path);
      const loaded = this.projectConfigs.forFile(path);
      this.warnSettingsProblems(loaded.problems);
      return mergeSettings(editor, loaded.settings);
    } catch (err) {
      this.connection.console.error(`shardwise: reading the project settings of ${path} failed: ${(err as Error)?.stack ?? err}`);
      return editor;
    }
  }

  /**
   * A mistake in `.shardwise.yaml` or `[tool.shardwise]` (an unknown key, rule id or hardware
   * profile) is shown once, as a warning: the setting is skipped while the rest apply, where the CLI
   * stops. Shown again after the file changes if the mistake is still there.
   */
  private warnSettingsProblems(problems: readonly string[]): void {
    for (const problem of problems) {
      if (this.shownSettingsProblems.has(problem)) continue;
      this.shownSettingsProblems.add(problem);
      this.connection.console.warn(`shardwise: ${problem}`);
      void this.connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message: `Shardwise: ${problem} The setting is skipped until it is corrected.` }).catch(() => undefined);
    }
  }

  // --- Analysis and the files around it -----------------------------------------------------

  /** The text of the open document at an absolute path (unsaved edits win over the disk). */
  private readonly openText = (path: string): string | undefined => {
    const uri = this.openByPath.get(pathKey(path));
    return uri ? this.documents.get(uri)?.getText() : undefined;
  };

  private analyzeDocument(doc: TextDocument, settings: EngineSettings): FileAnalysis {
    const path = URI.fsPath(doc.uri);
    const key = path ? pathKey(path) : undefined;
    const tried = new Set<string>();
    const input: FileInput = {
      path: path ?? URI.path(doc.uri),
      text: doc.getText(),
      languageId: doc.languageId,
      // Absolute as is, then the file's folder, then each workspace folder; open documents first.
      resolve: createResolver({ from: path, bases: this.roots, openText: this.openText, onTry: (p) => tried.add(pathKey(p)) }),
      referrers: key ? this.referrersFor(key, doc.uri) : undefined,
      budget: timeBudget(EDITOR_BUDGET_MS, 'the editor'),
    };
    const started = Date.now();
    const analysis = analyze(input, settings);
    const slow = Date.now() - started > SLOW_MS;
    this.slowRuns.set(doc.uri, slow ? (this.slowRuns.get(doc.uri) ?? 0) + 1 : 0);
    this.inputs.set(analysis, { input, settings });
    this.record(doc.uri, analysis, tried);
    return analysis;
  }

  /** Updates the graph from an analysis; a file the document now refers to, or no longer does, is re-checked. */
  private record(uri: string, analysis: FileAnalysis, tried: Set<string>): void {
    const targets = (analysis.links ?? []).flatMap((l) => (l.target ? [pathKey(l.target)] : []));
    const watched = [...tried, ...(analysis.dependencies ?? []).map(pathKey)];
    for (const key of this.graph.set(uri, watched, targets)) this.invalidateAt(key, uri);
  }

  /**
   * The files that refer to the one at `key`: open documents whose analysis resolved a reference to
   * it, then remembered closed ones (read from disk, re-checked when the file changed).
   */
  private referrersFor(key: string, self: string, depth = 0): { path: string; text: string }[] | undefined {
    const out: { path: string; text: string }[] = [];
    for (const uri of this.graph.referrersOf(key)) {
      if (uri === self || out.length >= MAX_REFERRERS) continue;
      const doc = this.documents.get(uri);
      const path = URI.fsPath(uri);
      if (doc && path) out.push({ path, text: doc.getText() });
    }
    for (const [closedKey, closed] of this.graph.closedReferrersOf(key)) {
      if (out.length >= MAX_REFERRERS) break;
      if (this.openByPath.has(closedKey) || closedKey === key) continue;
      const text = this.closedText(closedKey, closed);
      if (text !== undefined && closed.targets.has(key)) {
        out.push({ path: closed.path, text });
        this.graph.touchClosed(closedKey);
      }
    }
    // And the files that refer to those (the launch script of an Accelerate config that names this file).
    if (depth === 0) {
      for (const r of [...out]) {
        for (const up of this.referrersFor(pathKey(r.path), self, 1) ?? []) {
          if (out.length >= MAX_REFERRERS) break;
          if (pathKey(up.path) !== key && !out.some((x) => pathKey(x.path) === pathKey(up.path))) out.push(up);
        }
      }
    }
    return out.length ? out : undefined;
  }

  /**
   * The disk text of a remembered closed referrer; its targets are computed again when the file
   * changed since they were (it may have been closed without saving). Forgotten when unreadable.
   */
  private closedText(key: string, closed: ClosedReferrer): string | undefined {
    const stamp = fileStamp(closed.path);
    const text = stamp === undefined ? undefined : readTextFile(closed.path);
    if (stamp === undefined || text === undefined) {
      this.graph.forgetClosed(key);
      return undefined;
    }
    if (closed.stamp !== stamp) {
      try {
        const settings = mergeSettings(this.clientSettings, this.projectConfigs.forFile(closed.path).settings);
        const a = analyze({ path: closed.path, text, resolve: createResolver({ from: closed.path, bases: this.roots, openText: this.openText }) }, settings);
        closed.targets = new Set((a.links ?? []).flatMap((l) => (l.target ? [pathKey(l.target)] : [])));
        closed.stamp = stamp;
      } catch {
        this.graph.forgetClosed(key);
        return undefined;
      }
      if (closed.targets.size === 0) {
        this.graph.forgetClosed(key);
        return undefined;
      }
    }
    return text;
  }
}
