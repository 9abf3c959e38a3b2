/**
 * The rule contract. One rule per file, named by its id; every rule carries its own documentation
 * (what it catches, why, a bad and a good example), from which `docs/rules.md` and
 * `shardwise explain` are generated and against which the examples are tested.
 */
import type { Plan } from '../plan/plan';
import type { Instance, SchemaIssue } from '../schema/check';
import type { SchemaNav } from '../schema/navigate';
import type { EngineSettings, FormatId } from '../settings';
import type { PathEdit, SourceDoc, SyntaxProblem } from '../syntax/sourcedoc';
import type { FindingTag, Path, Severity, Span } from '../types';
import type { ArgumentChecks } from '../formats/megatron/runtime';

export interface RuleDocs {
  /** One sentence: what the rule catches. */
  summary: string;
  /** Markdown: why it matters (what the tool does with it, what it costs). */
  why: string;
  /** A document that triggers the rule. */
  bad: string;
  /** The same document, fixed. */
  good: string;
  /** Markdown: what the quick fix does, if the rule has one. */
  fix?: string;
  /** Other files the examples refer to (a DeepSpeed JSON next to an Accelerate config), by name. */
  files?: Record<string, string>;
  /** Files that refer to the examples (the script that launches a recipe), by name. */
  referrers?: Record<string, string>;
  /**
   * The same mistake in a Megatron-LM launch script, when `bad` and `good` are of another format:
   * a launch script's user looks for flags, not keys.
   */
  shell?: { bad: string; good: string };
  /**
   * Where upstream does what `why` says: its source lines at a release tag (never a branch, whose
   * lines move), e.g. Megatron-LM's check that stops at startup.
   */
  upstream?: readonly { label: string; url: string }[];
}

export interface Rule<M = unknown> {
  id: string;
  /** Default severity; findings may be lower when the upstream effect is milder (a note says so). */
  severity: Severity;
  /** Formats whose documents the rule checks; 'all' for syntax and schema rules. */
  formats: readonly FormatId[] | 'all';
  /**
   * The runtime's argument checks the rule reports, where it reports a refusal that one runtime
   * makes and others do not (formats/megatron/runtime.ts): `validate_args`, Megatron-LM's, and
   * `validate_yaml`, its `--yaml-cfg` reader's. The rule then runs only on files whose runtime makes
   * one of them, never on a Megatron Bridge or NeMo file, which meet neither.
   */
  runtime?: readonly ArgumentChecks[];
  docs: RuleDocs;
  /**
   * Every kind of fix the rule can offer, with its applicability. A fix whose kind is not declared
   * here is offered as unsafe and fails the test that ties declarations to produced fixes.
   */
  fixes?: Readonly<Record<string, FixKind>>;
  /**
   * The rule also checks documents read by a fork of their tool (Megatron-DeepSpeed): arithmetic
   * the fork shares (degrees, heads, layers, batch), not advice in upstream's flags.
   */
  forks?: boolean;
  /** The rule also runs on documents no format claims (it decides from the text whether to speak). */
  unclaimed?: boolean;
  /**
   * Re-check every fix by analysing the fixed text: a fix is offered only if it removes a finding of
   * this rule and brings no new kind of error (layout fixes, where one degree changes others).
   */
  verifyFixes?: boolean;
  /** What every finding of the rule says about its text (a report may say otherwise). */
  tags?: readonly FindingTag[];
  /**
   * What the rule's findings are about when it is not values the config sets up: `text` (the words
   * as written: syntax, a key given twice, a YAML scalar's reading) or `unknowns` (what the tool
   * cannot see, said once per file). Their findings are not capped by the certainty of what they
   * read; every other rule's are (rules/certain.ts).
   */
  about?: 'text' | 'unknowns';
  check(ctx: RuleContext<M>): void;
}

/**
 * `safe`: the run computes the same thing, and the file now says what it evidently meant (a quoted
 * `no`, an unambiguous misspelling, a key the tool ignores anyway). `unsafe`: it changes what is
 * trained or how (a degree, a batch size, a precision, a switch, the number of GPUs). Fix-all and
 * `--fix` apply safe fixes only.
 */
export type Applicability = 'safe' | 'unsafe';

export interface FixKind {
  applicability: Applicability;
  /**
   * For an unsafe fix, what it changes ("the layout", "the batch size"), shown in its title; for a
   * safe one, what it writes. Both appear in the rule docs.
   */
  changes: string;
  /**
   * A safe fix whose edit means the same under any release, hardware or branch (a number written
   * another way, a suppression that silences nothing): it stays safe when its finding assumes
   * something. Any other safe fix rests on what its finding rests on, and is unsafe when that is assumed.
   */
  unconditional?: boolean;
}

export interface FixSpec {
  /** A key of the rule's `fixes` declaration. */
  kind: string;
  title: string;
  edits: PathEdit[];
  /** The fix the rule recommends for its finding (at most one). Fix-all applies it when it is safe. */
  recommended?: boolean;
  /** Path edits in another file the fix also makes (a linked file, whose document the model holds). */
  other?: { path: string; doc: SourceDoc; edits: PathEdit[] };
}

export interface Report {
  message: string;
  /** A source path (reported on its key, value or whole entry) or an explicit span. */
  at: Path | Span;
  on?: 'key' | 'value' | 'entry';
  severity?: Severity;
  fixes?: FixSpec[];
  /** Overrides the rule's `tags` for this finding. */
  tags?: readonly FindingTag[];
  /** The other places the finding is about; one not written in its document is left out. */
  related?: RelatedSpec[];
}

export interface RelatedSpec {
  at: Path | Span;
  on?: 'key' | 'value' | 'entry';
  message: string;
  /** In a linked file: its path and document (the model holds them); absent for this document. */
  other?: { path: string; doc: SourceDoc };
}

export interface RuleContext<M = unknown> {
  readonly doc: SourceDoc;
  readonly format: FormatId;
  /** How messages name the tool that reads the file. */
  readonly tool: string;
  /**
   * How messages name the releases the schema's versions count (Megatron Bridge and NeMo read
   * Megatron Core's arguments, so their `since` and `removed` versions are Megatron Core's).
   */
  readonly versions: string;
  readonly model: M;
  /** The parallel layout, when the format describes one. */
  readonly plan: Plan | undefined;
  readonly settings: EngineSettings;
  readonly nav: SchemaNav | undefined;
  readonly issues: readonly SchemaIssue[];
  /** Problems found while reading the text (parse errors, duplicate keys). */
  readonly problems: readonly SyntaxProblem[];
  /**
   * The flat instance of a format that builds its own (Megatron flags, Bridge and NeMo paths):
   * schema property → value, with the document path each came from. Undefined for other formats.
   */
  readonly flat: Instance | undefined;
  /** Where a schema path is written in this document (identity unless the format maps keys). */
  writePath(schemaPath: Path): Path | undefined;
  /**
   * The release of the tool that reads the file, when it is known (undefined: judged against the
   * newest). Reading it counts as reading how the release is known: a release nobody named is an
   * assumption, one the file's context hides is unknown.
   */
  readonly version: string | undefined;
  /** The same release in words, for messages (`1.5.0 (requirements.txt: accelerate==1.5.0)`); not tracked. */
  readonly versionLabel: string | undefined;
  /** The same release, for finding a key's schema (navigation, not a judgement): not tracked. */
  readonly schemaVersion: string | undefined;
  /**
   * Whether the release that reads the file is at least `version` (the newest when none is known).
   * Counts as reading how the release is known, unless every release the schemas cover agrees.
   */
  atLeast(version: string): boolean;
  /**
   * As `atLeast`, but undefined, with nothing recorded, where the release is a pre-release of exactly
   * `version` (which `atLeast` counts as unknown): for a rule that can say what both answers mean.
   */
  atLeastIfSettled(version: string): boolean | undefined;
  /**
   * Why the tool may accept keys the schema does not know (`FormatSupport.openKeys`), if it may:
   * fixes that rename or remove keys are then unsafe.
   */
  readonly keysOpen: string | undefined;
  /** The tool passes over a key its config lacks (`FormatSupport.unknownKeys`): nothing is refused for it. */
  readonly keysSkipped: boolean;
  /** The tool keeps a key its config lacks unread (`FormatSupport.unknownKeysIn`): nothing is refused for it. */
  readonly keysIgnored: boolean;
  /** The fork of the tool that reads the file (`FormatSupport.fork`), if the file shows one. */
  readonly fork: string | undefined;
  /**
   * Reports a finding. Its severity is capped by the weakest value the rule has read so far (in the
   * current scope): an unknown one drops it, an assumed one makes it at most a warning and the
   * message says what was assumed.
   */
  report(r: Report, ...restsOn: readonly Report[]): void;
  /**
   * A finding to report later, once others are seen (a section's keys reported together): what it
   * rests on so far goes with it, and is added to what is read where it is finally reported, or to a
   * finding that stands for it (`report(combined, ...held)`).
   */
  hold(r: Report): Report;
  /** Runs each item's check on its own: what is read for one item does not weigh on another's findings. */
  each<T>(items: readonly T[], check: (item: T) => void): void;
  /** Runs one check on its own (see `each`). */
  separately<T>(check: () => T): T;
  /**
   * True once the rule has reported as many findings as are shown for one document: a rule looping
   * over thousands of candidates may then count the rest with `report` and an empty message instead
   * of composing each one (only the number of the rest is said).
   */
  readonly saturated: boolean;
}

/** Identity function that gives a rule object its type (and keeps rule files short). */
export function defineRule<M = unknown>(rule: Rule<M>): Rule<M> {
  return rule;
}
