/**
 * Finds and reads `.shardwise.yaml` files at or above a config file (node side: file system).
 * The nearest file wins key by key; a file with `root: true` stops the walk.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { mergeSettings, parseProjectConfig, type EngineSettings, type ProjectConfig } from '../engine';

export const PROJECT_CONFIG_NAMES = ['.shardwise.yaml', '.shardwise.yml'];

export interface LoadedConfig {
  settings: EngineSettings;
  /** Files that were read, nearest first. */
  files: string[];
  /** Problems, prefixed with the file they are in. */
  problems: string[];
}

export class ProjectConfigs {
  private readonly cache = new Map<string, { path: string; config: ProjectConfig } | null>();

  /** Forget everything (a `.shardwise.yaml` was created, changed or deleted). */
  clear(): void {
    this.cache.clear();
  }

  private inDir(dir: string): { path: string; config: ProjectConfig } | null {
    const cached = this.cache.get(dir);
    if (cached !== undefined) return cached;
    let found: { path: string; config: ProjectConfig } | null = null;
    for (const name of PROJECT_CONFIG_NAMES) {
      const path = join(dir, name);
      try {
        if (!statSync(path).isFile()) continue;
        found = { path, config: parseProjectConfig(readFileSync(path, 'utf8')) };
        break;
      } catch {
        // Absent or unreadable: keep looking.
      }
    }
    this.cache.set(dir, found);
    return found;
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
    let settings: EngineSettings = {};
    for (const { config } of [...chain].reverse()) settings = mergeSettings(settings, config.settings);
    return {
      settings,
      files: chain.map((c) => c.path),
      problems: chain.flatMap((c) => c.config.problems.map((p) => `${c.path}: ${p}`)),
    };
  }
}
