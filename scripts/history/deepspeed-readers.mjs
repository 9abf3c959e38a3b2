// DeepSpeed fields nothing reads: a key of a section DeepSpeed reads with a pydantic model is accepted
// (the model validates it) but may have no reader. For each key of the sections of SECTION_MODELS, at
// the newest release compared and at the last release tag, the lines of deepspeed/ and csrc/ that
// name it as a word (`git grep -w`): a Python line that only declares it (`name: T = …`, a comment) is
// not a read; any other Python line is, and so is a C++/CUDA line that names it in quotes (DeepCompile's
// kernels take the config dict and read a field by its name). An alias (`Field(…, alias="key")`) is judged by its field's name. A key with no read
// is printed, not written (HOLDERS: sections judged only through the name that holds their model): the same name read on another object counts as a read, so the list misses
// some (precision first), and each key printed is checked by hand before its prose says so.
import { compareVersions, gitLines } from './git.mjs';
import { printLists } from './write.mjs';

/**
 * Sections whose model is reached through one name (checked by hand): a field is read only through
 * it — `<holder>.<field>`, or `['<section>']['<field>']` on the raw dict — or by a C++/CUDA line. Their
 * field names are also other objects' attributes (`q_groups`, `num_bits` of the inference kernels).
 */
const HOLDERS = {
  // runtime/config.py: `self.weight_quantization_config = WeightQuantConfig(**param_dict['weight_quantization'])`.
  weight_quantization: 'weight_quantization_config',
};

/**
 * How `name` of a HOLDERS section is read at `rev`: `model` (through the holder, or by a C++/CUDA
 * line), `raw` (only as `['<section>']['<name>']` on the config dict as written, where the model's
 * drop of `"auto"` and its default do not apply), or false (not at all).
 */
function readsThrough(dir, rev, section, holder, name) {
  const model = new RegExp(`${holder}\\s*\\.\\s*${name}\\b`);
  const raw = new RegExp(`\\[['"]${section}['"]\\]\\s*\\[['"]${name}['"]\\]`);
  let how = false;
  for (const line of gitLines(dir, 'grep', '-n', '-w', '-F', name, rev, '--', 'deepspeed', 'csrc')) {
    const [, path, , text] = /^[^:]+:([^:]+):(\d+):(.*)$/.exec(line) ?? [];
    if (!path) continue;
    if (path.endsWith('.py') ? model.test(text) : NATIVE.test(path) && text.includes(`"${name}"`)) return 'model';
    if (path.endsWith('.py') && raw.test(text)) how = 'raw';
  }
  return how;
}

const NATIVE = /\.(c|cc|cpp|cu|cuh|h|hpp)$/;
const DECLARES = /^\s*(#|[A-Za-z_][A-Za-z0-9_]*\s*:\s*[^=\s])/;

/** Whether anything at `rev` reads the field `name` (see the header); `name` → the field an alias stands for. */
function reads(dir, rev, name, seen = new Set()) {
  if (seen.has(name)) return false;
  seen.add(name);
  for (const line of gitLines(dir, 'grep', '-n', '-w', '-F', name, rev, '--', 'deepspeed', 'csrc')) {
    const [, path, , text] = /^[^:]+:([^:]+):(\d+):(.*)$/.exec(line) ?? [];
    if (!path) continue;
    if (!path.endsWith('.py')) {
      if (NATIVE.test(path) && text.includes(`"${name}"`)) return true;
      continue;
    }
    const alias = new RegExp(`alias\\s*=\\s*['"]${name}['"]`).test(text) && /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:/.exec(text)?.[1];
    if (alias && alias !== name) {
      if (reads(dir, rev, alias, seen)) return true;
      continue;
    }
    if (!DECLARES.test(text)) return true;
  }
  return false;
}

/** Prints the keys of the model-read sections that nothing reads at the newest release or the last tag. */
export function deepspeedUnread(dir, releases, keys, sections, keySince) {
  const newest = releases.at(-1);
  const tagged = [...releases].reverse().find((r) => !r.rev.startsWith('refs/'));
  const unread = [];
  const rawOnly = [];
  for (const section of sections) {
    for (const dotted of keys.keys()) {
      if (!dotted.startsWith(`${section}.`) || dotted.slice(section.length + 1).includes('.')) continue;
      const key = dotted.slice(section.length + 1);
      // A deprecated spelling is read through the key that replaces it (the deprecated-key rule's business).
      // A removed key (`x-removed`) is read by no current release by definition.
      if (keys.get(dotted).some((p) => p['x-deprecated'] || p.deprecated || p['x-removed'])) continue;
      const since = keySince(dotted);
      const judge = (rev) => (HOLDERS[section] ? readsThrough(dir, rev, section, HOLDERS[section], key) : reads(dir, rev, key));
      const atTag = since && compareVersions(since, tagged.version) > 0 ? true : judge(tagged.rev);
      const atNewest = newest === tagged ? atTag : judge(newest.rev);
      // Read only from the dict as written: its prose and `x-auto-effect` must not promise the model's "auto" drop or default.
      if (atTag === 'raw' || atNewest === 'raw') rawOnly.push(`${dotted}: read only from the raw dict${keys.get(dotted).some((p) => p['x-auto-effect']) ? '' : ' (no x-auto-effect)'}`);
      if (!atTag || !atNewest) unread.push(`${dotted}: ${atTag ? 'read' : 'no reader'} at ${tagged.version}${newest === tagged ? '' : `, ${atNewest ? 'read' : 'no reader'} at ${newest.version} (master)`}`);
    }
  }
  printLists([
    ['keys of model-read sections no code reads by name (checked by hand before the prose says so)', unread],
    ['keys of model-read sections read only from the raw config dict (no "auto" drop, no model default there)', rawOnly],
  ]);
}
