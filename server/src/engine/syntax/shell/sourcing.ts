/**
 * `source FILE` / `. FILE`: the file runs in the script's own shell, so what it sets is set for the
 * rest of the script. A file the host can read is run where it is sourced (bounded: depth and count);
 * one it cannot read, or whose path is not known, leaves the training command open: anything it
 * might set is not known, and no flag can be concluded absent.
 */
import type { Span } from '../../types';
import { type Binding, type Ctx, type Env, type ExpandedWord, MAX_SUBSCRIPT_DEPTH, type Seg } from './types';
import { detach, short } from './expansion';

/** At most this many files are sourced in one analysis (all levels together). */
export const MAX_SOURCES = 16;
/** A sourced file larger than this is not read. */
const MAX_SOURCED_CHARS = 1_000_000;

/** A place in the script that may add flags the reader cannot see. */
export interface OpenWord {
  span: Span;
  reason: string;
}

export interface SourcedFile {
  ref: string;
  /** Where it was read from. */
  path?: string;
  /** Why it was not read. */
  why?: string;
}

/** What `readSourced` needs from the script that sources: its state, and a way to run a text in it. */
export interface SourceSite {
  ctx: Ctx;
  env: Env;
  opened: OpenWord[];
  sourced: SourcedFile[];
  set(name: string, b: Binding | undefined): void;
  run(text: string, ctx: Ctx, env: Env): { env: Env; opened: readonly OpenWord[]; sourced: readonly SourcedFile[]; ctx: Ctx };
}

export function readSourced(f: ExpandedWord | undefined, span: Span, site: SourceSite): void {
  if (!f) return;
  const ref = f.text;
  const unknown = f.passthrough ? 'it is passed to the script' : f.segs.find((s) => s.unknown)?.unknown;
  if (unknown) return taint(site, ref, `\`source ${short(ref)}\` reads a file whose path is not known (${unknown})`, 'its path is not known');
  const read = site.ctx.read;
  if (!read) return taint(site, ref, `\`source ${short(ref)}\` is not read here`, 'not read here');
  if (site.ctx.depth >= MAX_SUBSCRIPT_DEPTH || (site.ctx.sources ?? 0) >= MAX_SOURCES) return taint(site, ref, `\`source ${short(ref)}\` is past the ${MAX_SOURCES} sourced files (or the nesting) read per script`, 'too many sourced files');
  site.ctx.sources = (site.ctx.sources ?? 0) + 1;
  let r: { text?: string; path?: string; why?: string };
  try {
    r = read(ref);
  } catch {
    r = { why: 'it could not be read' };
  }
  if (r.text === undefined || r.text.length > MAX_SOURCED_CHARS) {
    const why = r.text !== undefined ? 'it is too large' : (r.why ?? 'it was not found');
    return taint(site, ref, `\`source ${short(ref)}\` is not read (${why})`, why);
  }
  site.sourced.push({ ref, path: r.path });
  // The sourced file sees the script's variables (their values, not where this script writes them).
  const env: Env = new Map();
  for (const [name, b] of site.env) env.set(name, detach(b));
  const before = new Map(env);
  const inner = site.run(r.text, { problems: [], work: site.ctx.work, depth: site.ctx.depth + 1, lineOf: () => site.ctx.lineOf(span.start), read, path: r.path ?? ref, topPath: site.ctx.topPath, sources: site.ctx.sources }, env);
  site.ctx.work = Math.max(site.ctx.work, inner.ctx.work);
  site.ctx.sources = inner.ctx.sources;
  // What it set or unset stays so in the script; its values are located where they are used.
  for (const [name, b] of inner.env) if (before.get(name) !== b) site.set(name, detach(b));
  for (const name of before.keys()) if (!inner.env.has(name)) site.set(name, undefined);
  for (const o of inner.opened) if (site.opened.length < 50) site.opened.push({ span, reason: `${o.reason} (in \`${short(ref)}\`)` });
  for (const s of inner.sourced) if (site.sourced.length < 50) site.sourced.push(s);
}

/**
 * A file sourced but not read may set any variable. What the script set before it keeps its value,
 * as an assumption (the file may change it); an array may also have had elements added, which stand
 * as one element whose text is not known (flags, or nothing). A variable the script has not set is
 * read later as coming from outside it, as any unset variable is.
 */
function taint(site: SourceSite, ref: string, what: string, why: string): void {
  site.sourced.push({ ref, why });
  const note = `${what}, and it may change this value`;
  for (const [name, b] of [...site.env]) {
    if (b.unknown) continue;
    if (b.kind === 'array') {
      const rest: Seg = { text: '', span: { start: 0, end: 0 }, quoted: true, unknown: `${what}, and it may add elements to ${name}`, passthrough: true, ref: null, detached: true };
      site.set(name, { ...b, items: [...b.items.map((i) => i.map((x) => (x.unknown ? x : { ...x, assumed: x.assumed ?? note }))), [rest]] });
    } else site.set(name, { ...b, segs: b.segs.map((x) => (x.unknown ? x : { ...x, assumed: x.assumed ?? note })) });
  }
}

/**
 * A variable the script appends to (`A+=(…)`, `A+=…`) without having set it, after a file sourced
 * but not read (`source "$DIR/params.sh"`, the usual place of such an array): that file may have set
 * it, so what it held stands as one part whose text is not known (flags, or nothing). Undefined when
 * every file sourced so far was read.
 */
export function setBySource(sourced: readonly SourcedFile[], name: string, array: boolean): Seg | undefined {
  const unread = sourced.find((s) => s.why !== undefined);
  if (!unread) return undefined;
  return { text: '', span: { start: 0, end: 0 }, quoted: true, unknown: `\`source ${short(unread.ref)}\` is not read (${unread.why}), and it may set ${name}`, passthrough: array || undefined, ref: null, detached: true };
}

