/**
 * The certainty-aware rule context: every value a rule reads (the Plan's fields, the format's model,
 * the flat instance, the schema issues, the document's values, the release) goes through a tracking
 * view that records how it is known (certainty.ts), and each finding is capped by the weakest value
 * read before it: unknown silences it, assumed makes it at most a warning that names the assumption.
 *
 * Reads accumulate over a rule's whole `check`, so a rule that makes several independent checks
 * scopes each one (`ctx.each`, `ctx.separately`; the check tables of formats/megatron/checks.ts and
 * rules/helpers.ts do it for theirs): inside a scope the reads before it still count, the reads in
 * it are forgotten when it ends. Over-counting can only silence or soften a finding, never make one.
 */
import { addInput, CLASSIFY, isFact, knownBasis, type Basis, type Certainty, type Classifier } from '../certainty';
import { certaintyOf, type Provenance } from '../plan/plan';
import type { Severity } from '../types';

/** Test hook: every tracked read counts as this certainty (see test/unit/certainty.test.ts). */
let probe: 'assumed' | 'unknown' | undefined;
export function setCertaintyProbe(mode: 'assumed' | 'unknown' | undefined): void {
  probe = mode;
}


export class ReadLog {
  basis: Basis = knownBasis();

  /** Starts over (a new rule's check): the views made for a document record into the same log. */
  reset(): void {
    this.basis = knownBasis();
  }

  record(c: Certainty, note?: string): void {
    // A written value is the strongest input: it changes nothing (most reads are of these).
    if (c === 'written' && !probe) return;
    if (probe) addInput(this.basis, probe, `every value is taken as ${probe} (test probe)`);
    else addInput(this.basis, c, note);
  }

  recordProvenance(from: Provenance): void {
    const c = certaintyOf(from);
    if (c.basis) {
      this.record(c.basis.certainty);
      for (const a of c.basis.assumptions) this.record('assumed', a);
      for (const u of c.basis.unknowns) this.record('unknown', u);
    } else this.record(c.certainty, c.note);
  }

  /** Runs `fn` with the reads before it counted and the reads in it forgotten afterwards. */
  separately<T>(fn: () => T): T {
    // What was read before is a prefix of the lists: restoring is truncating them (no copy).
    const b = this.basis;
    const certainty = b.certainty;
    const assumptions = b.assumptions.length;
    const unknowns = b.unknowns.length;
    try {
      return fn();
    } finally {
      this.basis = b;
      b.certainty = certainty;
      b.assumptions.length = assumptions;
      b.unknowns.length = unknowns;
    }
  }
}

const PROVENANCE_KINDS = new Set(['written', 'default', 'derived', 'hardware', 'setting', 'assumed', 'unknown']);

function isProvenance(x: unknown): x is Provenance {
  return !!x && typeof x === 'object' && PROVENANCE_KINDS.has((x as { kind?: unknown }).kind as string);
}

function hasProvenance(x: unknown): x is { from: Provenance } {
  return !!x && typeof x === 'object' && isProvenance((x as { from?: unknown }).from);
}

/** How a value read through a tracked view is known, from the marks it carries. */
function classify(log: ReadLog, v: unknown): void {
  if (v && typeof v === 'object') {
    const o = v as { from?: unknown; unknown?: unknown; assumed?: unknown };
    if (isProvenance(o.from)) return log.recordProvenance(o.from);
    if (typeof o.unknown === 'string' && o.unknown) return log.record('unknown', o.unknown);
    if (typeof o.assumed === 'string' && o.assumed) return log.record('assumed', o.assumed);
  }
  log.record('written');
}

/** The real object behind a tracking view (for iterating items one scope at a time). */
const targets = new WeakMap<object, object>();
export function untracked<T>(value: T): T {
  return (value && typeof value === 'object' ? (targets.get(value as unknown as object) as T | undefined) : undefined) ?? value;
}

/**
 * Pairs a view made outside this module (a rule's wrapper around a tracking view) with the real
 * object behind it, so that `untracked` of the wrapper gives that object.
 */
export function withUntracked<T extends object>(view: T, raw: T): T {
  if (view !== raw) targets.set(view, raw);
  return view;
}

/** Classifies one item as read (its marks), for a scope that handles that item alone. */
export function recordItem(log: ReadLog, item: unknown): void {
  classify(log, item);
}

const PRIMITIVE_METHODS = new Set<string | symbol>(['constructor', 'toString', 'valueOf', 'toJSON', Symbol.toPrimitive, Symbol.toStringTag]);

/**
 * A view of `value` that records every read in `log`. Method calls run on the real object (Maps,
 * classes with private fields work); property reads and call results are classified by their marks
 * (a Plan field's provenance, an `unknown` or `assumed` reason) or by the object's own classifier.
 */
export function tracked<T>(value: T, log: ReadLog, cache = new WeakMap<object, unknown>()): T {
  if (!value || (typeof value !== 'object' && typeof value !== 'function')) return value;
  const target = value as unknown as object;
  if (isFact(target)) return value;
  const hit = cache.get(target);
  if (hit) return hit as T;
  const own = (target as { [CLASSIFY]?: Classifier })[CLASSIFY];
  // One wrapper per method of the view (made when first called), not one per call.
  const methods = new Map<string | symbol, { fn: unknown; wrap: unknown }>();
  const proxy = new Proxy(target, {
    get(t, key) {
      const v = Reflect.get(t, key, t);
      if (typeof key === 'symbol' && key !== Symbol.iterator) return v;
      if (typeof v === 'function') {
        const made = methods.get(key);
        if (made && made.fn === v) return made.wrap;
        if (PRIMITIVE_METHODS.has(key)) return (v as (...a: unknown[]) => unknown).bind(t);
        // Arrays run their methods on the view, so the items they visit are read through it; other
        // objects (Maps, classes with private state) on themselves.
        const self = Array.isArray(t) ? proxy : t;
        const wrap = (...args: unknown[]) => {
          const r = (v as (...a: unknown[]) => unknown).apply(self, args);
          const c = own?.call(t, key, args, r);
          // The object's own classifier has weighed the result: it is handed on as it is.
          if (c) {
            log.record(c.certainty, c.note);
            return r;
          }
          classify(log, r);
          return r && typeof r === 'object' && !Array.isArray(r) && key !== Symbol.iterator ? tracked(r, log, cache) : r;
        };
        methods.set(key, { fn: v, wrap });
        return wrap;
      }
      const c = own?.call(t, key, undefined, v);
      if (c) log.record(c.certainty, c.note);
      // A value that carries its provenance (a Plan field, the hardware) counts when its value is
      // read, not when it is looked at: `field.from` (where it comes from) is no read of the value.
      else if (hasProvenance(v)) return tracked(v, log, cache);
      else if (hasProvenance(t)) {
        if (key !== 'from') log.recordProvenance(t.from);
      } else classify(log, v);
      return v && typeof v === 'object' ? tracked(v, log, cache) : v;
    },
    set() {
      return false;
    },
  });
  cache.set(target, proxy);
  targets.set(proxy, target);
  return proxy as T;
}

/** A finding's severity and message once its inputs are weighed: undefined when an input is unknown. */
export function capped(severity: Severity, message: string, basis: Basis, aboutUnknowns: boolean): { severity: Severity; message: string } | undefined {
  if (aboutUnknowns) return { severity, message };
  if (basis.certainty === 'unknown') return undefined;
  if (basis.certainty !== 'assumed') return { severity, message };
  // Said where it changes what the user should do: on a warning (an error it softened included).
  const said = severity === 'error' || severity === 'warning' ? basis.assumptions.filter((a) => !message.includes(a)) : [];
  const note = said.length ? ` This assumes ${said.join('; ')}.` : '';
  return { severity: severity === 'error' ? 'warning' : severity, message: message + note };
}
