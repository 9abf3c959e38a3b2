import type { Path } from '../types';
import { pointer, type Instance } from './check';

/** Reads the normalized instance by canonical paths, and answers where each value was written. */
export class InstanceView {
  constructor(readonly instance: Instance) {}

  get(path: Path): unknown {
    let v: unknown = this.instance.value;
    for (const s of path) {
      if (!v || typeof v !== 'object') return undefined;
      v = (v as Record<string, unknown>)[s as string];
    }
    return v;
  }

  has(path: Path): boolean {
    return this.get(path) !== undefined;
  }

  /** The path as written in the document for a canonical path, if the value was written. */
  source(path: Path): Path | undefined {
    return this.instance.source.get(pointer(path));
  }

  num(path: Path): number | undefined {
    const v = this.get(path);
    return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
  }

  str(path: Path): string | undefined {
    const v = this.get(path);
    return typeof v === 'string' ? v : undefined;
  }

  bool(path: Path): boolean | undefined {
    const v = this.get(path);
    return typeof v === 'boolean' ? v : undefined;
  }

  keys(path: Path): string[] {
    const v = this.get(path);
    return v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v) : [];
  }
}
