/** The shapes shared by the generators, the oracle, the workers and the runner. */
import type { EngineSettings } from '../../server/src/engine';

export const CATEGORIES = ['mutation', 'yaml', 'json', 'shell', 'bomb', 'settings', 'links', 'junk', 'eol', 'directives', 'cli'] as const;
export type Category = (typeof CATEGORIES)[number];

/** What a linked file reference resolves to: its text, not found (null), or a resolver that throws. */
export type LinkTarget = string | null | { throws: string };

export interface FuzzInput {
  /** `<category>-<index>` (with the seed, enough to generate the input again). */
  id: string;
  category: Category;
  /** Which generator or variant made it (`bomb:aliases-block`, `mutation:truncate`), for failure signatures. */
  variant: string;
  path: string;
  text: string;
  languageId?: string;
  /** Passed to `analyze` as is (may be deliberately ill-typed: hostile settings). */
  settings?: EngineSettings;
  /** Editor settings, read through `settingsFromClient` (untrusted input). */
  client?: unknown;
  /** The text of a `.shardwise.yaml`, read through `parseProjectConfig` and merged over the settings. */
  project?: string;
  /** Reference → target, served through `FileInput.resolve`. */
  links?: Record<string, LinkTarget>;
  /** Configs that refer to this file (`FileInput.referrers`). */
  referrers?: { path: string; text: string }[];
  /** Cursor offsets for hover and completion (the oracle adds a few of its own). */
  cursors?: number[];
  /** For a `cli` input: the encoding its config is saved in (cli-oracle.ts). */
  encoding?: 'utf8' | 'bom' | 'crlf' | 'latin1';
  /** The same input at a smaller size: analysis time must grow about linearly from it to this one. */
  growth?: { text: string; factor: number };
}

export const FAILURE_KINDS = ['crash', 'hang', 'range', 'completion-range', 'unsanitised', 'fix-breaks-syntax', 'fix-all-oscillation', 'wrote-outside', 'bytes-changed', 'fix-not-removing'] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

/** Kinds that are reported but do not fail a run. */
export const INFORMATIONAL: readonly FailureKind[] = ['fix-not-removing'];

export interface Failure {
  kind: FailureKind;
  /** What makes two failures the same defect (kind, stage, rule, first engine stack frame...). */
  signature: string;
  /** One line for the reader. */
  detail: string;
}

export interface CheckResult {
  id: string;
  category: Category;
  variant: string;
  failures: Failure[];
  /** Wall time of the whole input's checks. */
  ms: number;
  /** Time per stage, for the slow ones. */
  stages: Record<string, number>;
}

/** The generation size: `full` for the runner, `bounded` (smaller bombs, with a growth check) for `npm test`. */
export type Scale = 'full' | 'bounded';

/** JSON that keeps NaN, ±Infinity and -0 (hostile settings are full of them). */
export function toJson(value: unknown, indent = 2): string {
  return JSON.stringify(
    value,
    (_k, v) => {
      if (typeof v === 'number' && !Number.isFinite(v)) return { $number: String(v) };
      if (typeof v === 'number' && Object.is(v, -0)) return { $number: '-0' };
      if (typeof v === 'bigint') return { $number: v.toString() };
      return v;
    },
    indent,
  );
}

export function fromJson<T = unknown>(text: string): T {
  return JSON.parse(text, (_k, v) => (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 1 && typeof v.$number === 'string' ? Number(v.$number) : v)) as T;
}
