/**
 * The cross-file dependency graph of the open documents, built from each analysis: which open documents
 * must be re-analysed when a file changes, and which documents refer to a file (its referrers).
 *
 * Paths are canonical keys (`pathKey`). For each analysed open document the graph keeps
 *   - `watched`: every location its analysis looked at (each location tried for a reference, found
 *     or not, and the analysis's `dependencies`): a change there (an edit, a disk change, a file
 *     created or deleted, a document opened or closed) re-analyses it;
 *   - `targets`: where its references resolved: it is a referrer of each.
 * Entries of open documents are dropped when they close. A closed document that referred to files is
 * remembered (its path and targets only, no text) in a small least-recently-used list, so a
 * DeepSpeed JSON still sees the Accelerate config that launches it after that config's tab is closed.
 */

/** At most this many locations are kept per document (a hostile file cannot grow the graph). */
export const MAX_WATCHED_PER_DOCUMENT = 256;
/** Closed referrers remembered. */
export const MAX_CLOSED_REFERRERS = 32;

export interface Edges {
  watched: Set<string>;
  targets: Set<string>;
}

export interface ClosedReferrer {
  uri: string;
  /** The file's path (as given, for reading). */
  path: string;
  /** Canonical keys of the files it referred to, as of its last check. */
  targets: Set<string>;
  /** `mtime:size` of the file when `targets` was computed (undefined: check again). */
  stamp?: string;
}

export class DependencyGraph {
  private readonly edges = new Map<string, Edges>();
  private readonly watchers = new Map<string, Set<string>>();
  private readonly referrers = new Map<string, Set<string>>();
  /** Closed referrers by their path key, least recently used first. */
  private readonly closed = new Map<string, ClosedReferrer>();

  /**
   * Records a document's edges (replacing the previous ones). Returns the targets it gained or lost:
   * those files' referrers changed.
   */
  set(uri: string, watched: Iterable<string>, targets: Iterable<string>): string[] {
    const next: Edges = { watched: new Set<string>(), targets: new Set<string>() };
    for (const t of targets) if (next.targets.size < MAX_WATCHED_PER_DOCUMENT) next.targets.add(t);
    for (const w of [...next.targets, ...watched]) if (next.watched.size < MAX_WATCHED_PER_DOCUMENT) next.watched.add(w);
    const previous = this.remove(uri);
    this.edges.set(uri, next);
    for (const w of next.watched) add(this.watchers, w, uri);
    for (const t of next.targets) add(this.referrers, t, uri);
    const changed: string[] = [];
    for (const t of next.targets) if (!previous?.targets.has(t)) changed.push(t);
    for (const t of previous?.targets ?? []) if (!next.targets.has(t)) changed.push(t);
    return changed;
  }

  /** Forgets a document's edges (it closed); returns them. */
  remove(uri: string): Edges | undefined {
    const previous = this.edges.get(uri);
    if (!previous) return undefined;
    this.edges.delete(uri);
    for (const w of previous.watched) del(this.watchers, w, uri);
    for (const t of previous.targets) del(this.referrers, t, uri);
    return previous;
  }

  get(uri: string): Edges | undefined {
    return this.edges.get(uri);
  }

  /** The documents whose analysis looked at `key`. */
  dependents(key: string): string[] {
    return [...(this.watchers.get(key) ?? [])];
  }

  /** The open documents whose references resolved to `key`. */
  referrersOf(key: string): string[] {
    return [...(this.referrers.get(key) ?? [])];
  }

  /** Every document with edges. */
  documents(): string[] {
    return [...this.edges.keys()];
  }

  // ---------- closed referrers ----------

  /** Remembers a closed document that referred to files (the least recently used one goes first). */
  rememberClosed(key: string, entry: ClosedReferrer): void {
    this.closed.delete(key);
    if (entry.targets.size === 0) return;
    this.closed.set(key, entry);
    while (this.closed.size > MAX_CLOSED_REFERRERS) this.closed.delete(this.closed.keys().next().value!);
  }

  /** The remembered closed document at `key`, if any. */
  closedAt(key: string): ClosedReferrer | undefined {
    return this.closed.get(key);
  }

  forgetClosed(key: string): void {
    this.closed.delete(key);
  }

  /** Closed documents that referred to `key` (as of their last check). */
  closedReferrersOf(key: string): [string, ClosedReferrer][] {
    return [...this.closed].filter(([, c]) => c.targets.has(key));
  }

  /** Marks a closed referrer as used (it moves to the end of the eviction order). */
  touchClosed(key: string): void {
    const c = this.closed.get(key);
    if (c) {
      this.closed.delete(key);
      this.closed.set(key, c);
    }
  }

  /** Sizes, for tests and logs. */
  stats(): { documents: number; watchedKeys: number; referredKeys: number; closed: number } {
    return { documents: this.edges.size, watchedKeys: this.watchers.size, referredKeys: this.referrers.size, closed: this.closed.size };
  }
}

function add(map: Map<string, Set<string>>, key: string, uri: string): void {
  let s = map.get(key);
  if (!s) map.set(key, (s = new Set()));
  s.add(uri);
}

function del(map: Map<string, Set<string>>, key: string, uri: string): void {
  const s = map.get(key);
  if (!s) return;
  s.delete(uri);
  if (s.size === 0) map.delete(key);
}
