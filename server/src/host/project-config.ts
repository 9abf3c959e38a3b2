/**
 * Finds and reads `.shardwise.yaml` files at or above a config file (node side: file system).
 * The nearest file wins key by key; a file with `root: true` stops the walk.
 */
import { dirname, join, resolve } from 'node:path';
import { mergeSettings, parseProjectConfig, parserFlags, type EngineSettings, type MegatronCheckout, type ProjectConfig } from '../engine';
import { readBounded } from './read';

export const PROJECT_CONFIG_NAMES = ['.shardwise.yaml', '.shardwise.yml'];
/** Where a Megatron checkout keeps its argument parser, newest layout first. */
export const MEGATRON_PARSERS = ['megatron/training/arguments.py', 'megatron/arguments.py'];
const MAX_PARSER_BYTES = 2 * 1024 * 1024;
/** A `.shardwise.yaml` is a few lines; a larger one is not read. */
const MAX_PROJECT_CONFIG_BYTES = 1024 * 1024;

export interface LoadedConfig {
  settings: EngineSettings;
  /** Files that were read, nearest first. */
  files: string[];
  /** Problems, prefixed with the file they are in. */
  problems: string[];
}

export class ProjectConfigs {
  private readonly cache = new Map<string, { path: string; config: ProjectConfig } | null>();
  private readonly parsers = new Map<string, { path: string; checkout: MegatronCheckout } | null>();

  /** Forget everything (a `.shardwise.yaml` was created, changed or deleted). */
  clear(): void {
    this.cache.clear();
    this.parsers.clear();
  }

  /** The Megatron argument parser of a checkout rooted at `dir`, if it has one. */
  private parserIn(dir: string): { path: string; checkout: MegatronCheckout } | null {
    const cached = this.parsers.get(dir);
    if (cached !== undefined) return cached;
    let found: { path: string; checkout: MegatronCheckout } | null = null;
    for (const rel of MEGATRON_PARSERS) {
      const path = join(dir, rel);
      // Only a regular file within the bound (host/read.ts); absent, unreadable or anything else: keep looking.
      const read = readBounded(path, MAX_PARSER_BYTES);
      if (!read.ok) continue;
      try {
        const flags = parserFlags(read.text);
        if (flags.length === 0) continue;
        found = { path, checkout: { parser: rel, flags } };
        break;
      } catch {
        // Not a parser the engine can read: keep looking.
      }
    }
    this.parsers.set(dir, found);
    return found;
  }

  private inDir(dir: string): { path: string; config: ProjectConfig } | null {
    const cached = this.cache.get(dir);
    if (cached !== undefined) return cached;
    let found: { path: string; config: ProjectConfig } | null = null;
    for (const name of PROJECT_CONFIG_NAMES) {
      const path = join(dir, name);
      const read = readBounded(path, MAX_PROJECT_CONFIG_BYTES);
      if (!read.ok) {
        // Something is there that cannot be used (a directory, a FIFO, a link loop, a huge file): said once, and the walk goes on.
        if (read.kind !== 'missing') {
          found = { path, config: { settings: {}, root: false, problems: [`not read: it ${read.reason}`] } };
          break;
        }
        continue;
      }
      try {
        found = { path, config: parseProjectConfig(read.text) };
        break;
      } catch {
        // parseProjectConfig does not throw; if it did, the file is skipped.
      }
    }
    this.cache.set(dir, found);
    return found;
  }

  /** What the file's location says without any `.shardwise.yaml`: the Megatron parser of its checkout. */
  located(file: string): EngineSettings {
    let dir = dirname(resolve(file));
    for (let i = 0; i < 64; i++) {
      const parser = this.parserIn(dir);
      if (parser) return { megatronCheckout: parser.checkout };
      const parent = dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
    return {};
  }

  /** The merged settings that apply to a file. */
  forFile(file: string): LoadedConfig {
    const chain: { path: string; config: ProjectConfig }[] = [];
    let dir = dirname(resolve(file));
    for (let i = 0; i < 64; i++) {
      const found = this.inDir(dir);
      if (found) {
        chain.push(found);
        if (found.config.root) break;
      }
      const parent = dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
    // The checkout's parser is a fact about where the file is; `.shardwise.yaml` settings go over it.
    let settings: EngineSettings = this.located(file);
    for (const { config } of [...chain].reverse()) settings = mergeSettings(settings, config.settings);
    return {
      settings,
      files: chain.map((c) => c.path),
      problems: chain.flatMap((c) => c.config.problems.map((p) => `${c.path}: ${p}`)),
    };
  }
}
