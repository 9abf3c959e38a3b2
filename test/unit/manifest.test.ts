/**
 * The extension manifest against the code that reads it: every `shardwise.*` setting it declares is
 * one the server reads, the lists it offers are the engine's, and Restricted Mode keeps a cloned
 * workspace from raising the file limit.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { FORMAT_IDS, HARDWARE, settingsFromClient } from '../../server/src/engine';
import { MODEL_PRESETS } from '../../server/src/engine/plan/models';
import { SEVERITIES } from '../../server/src/engine/types';
import { SHARDWISE_VERSION } from '../../server/src/release';

interface Property {
  type: string | string[];
  examples?: unknown[];
  enum?: unknown[];
  additionalProperties?: { enum?: unknown[] };
}

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));
const properties: Record<string, Property> = manifest.contributes.configuration.properties;

/** Settings the language client itself reads, never sent to the engine. */
const CLIENT_ONLY = new Set(['shardwise.trace.server']);

/** A value of the setting's type that is not its default. */
function sample(name: string, p: Property): unknown {
  if (p.examples?.length) return p.examples[0];
  const type = Array.isArray(p.type) ? p.type.find((t) => t !== 'null') : p.type;
  if (name.includes('targetVersions')) return '1.10.0';
  if (name.endsWith('.rules')) return { 'unknown-key': 'warning' };
  if (name.endsWith('.associations')) return { '**/*.launch.yaml': 'accelerate' };
  if (type === 'integer') return 4;
  throw new Error(`no sample for ${name} (${JSON.stringify(p.type)})`);
}

/** `{ a: { b: value } }` for the setting `shardwise.a.b`, as the client sends its section. */
function section(name: string, value: unknown): Record<string, unknown> {
  const keys = name.replace(/^shardwise\./, '').split('.');
  const out: Record<string, unknown> = {};
  let at = out;
  keys.forEach((k, i) => {
    if (i === keys.length - 1) at[k] = value;
    else at = (at[k] = {}) as Record<string, unknown>;
  });
  return out;
}

test('every shardwise.* setting the manifest declares changes what the engine is told', () => {
  const none = settingsFromClient({});
  const names = Object.keys(properties).filter((n) => !CLIENT_ONLY.has(n));
  assert.ok(names.length >= 10, `declared settings: ${names.join(', ')}`);
  for (const name of names) {
    const told = settingsFromClient(section(name, sample(name, properties[name])));
    assert.notDeepEqual(told, none, `${name} is declared but the server does not read it`);
  }
});

test('Restricted Mode: the extension runs, and a workspace cannot raise the file size limit', () => {
  const trust = manifest.capabilities?.untrustedWorkspaces;
  assert.equal(trust?.supported, 'limited');
  assert.deepEqual(trust.restrictedConfigurations, ['shardwise.maxFileSizeKB']);
  for (const name of trust.restrictedConfigurations) assert.ok(properties[name], `${name} is a declared setting`);
  assert.match(trust.description, /maxFileSizeKB/);
  assert.equal(typeof manifest.capabilities.virtualWorkspaces?.supported, 'string');
});

test('the lists the manifest offers are the engine’s: formats, hardware profiles, model presets, rule levels, the version', () => {
  assert.deepEqual(properties['shardwise.files.associations'].additionalProperties?.enum, [...FORMAT_IDS], 'the formats an association may name');
  assert.deepEqual(properties['shardwise.hardware'].examples, HARDWARE.map((h) => h.id), 'the hardware profiles');
  assert.deepEqual(properties['shardwise.model'].examples, MODEL_PRESETS.map((p) => p.id), 'the model presets');
  assert.deepEqual(properties['shardwise.rules'].additionalProperties?.enum, ['off', ...[...SEVERITIES].reverse()], 'the levels a rule may be set to (off, then mildest to strongest)');
  assert.equal(SHARDWISE_VERSION, manifest.version, 'the version the CLI and the language server report');
});
