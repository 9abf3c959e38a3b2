// DeepSpeed before its pydantic models (and, for some sections, after: `bf16` until 0.17.0) reads a
// section key by key: `get_scalar_param(section_dict, <KEY>, <KEY>_DEFAULT)`, with the names
// declared in the constants files as `<SECTION> = "section"`, `<SECTION>_<X> = "key"` and
// `<SECTION>_<X>_DEFAULT = <literal or another constant>`. This module reads those triples from the
// config files of one release: the default of `section.key` is the `_DEFAULT` constant of a key
// constant whose name starts with the name of a constant that spells a schema section, where the
// `_DEFAULT` constant is used by the release's config code (not only declared). A section literal
// that names two schema sections, or a key the schema does not have there, is skipped.

/** Schema sections (objects with properties) by their last path segment; a segment two sections share is dropped. */
function sectionsByName(keys) {
  const out = new Map();
  for (const [dotted, props] of keys) {
    if (!props.some((p) => p.properties)) continue;
    const name = dotted.split('.').at(-1);
    out.set(name, out.has(name) ? null : dotted);
  }
  return out;
}

/**
 * `section.key` → `{ value }` for one release. `blobs`: what scanBlob read of each config file of the
 * release (`constants`, `uses`); `keys`: the schema's properties by dotted path.
 */
export function keyByKeyDefaults(blobs, keys) {
  const sections = sectionsByName(keys);
  const uses = new Set(blobs.flatMap((b) => [...b.uses]));
  const out = new Map();
  for (const b of blobs) {
    const resolve = (name, seen = new Set()) => {
      const c = b.constants.get(name) ?? blobs.find((o) => o.constants.has(name))?.constants.get(name);
      if (!c || seen.has(name)) return undefined;
      seen.add(name);
      return c.ref ? resolve(c.ref, seen) : c;
    };
    const sectionConstants = [...b.constants].filter(([, c]) => typeof c.value === 'string' && sections.get(c.value)).map(([n, c]) => [n, sections.get(c.value)]);
    for (const [name, c] of b.constants) {
      if (typeof c.value !== 'string' || !b.constants.has(`${name}_DEFAULT`) || !uses.has(`${name}_DEFAULT`)) continue;
      const owner = sectionConstants.filter(([s]) => name.startsWith(`${s}_`)).sort((x, y) => y[0].length - x[0].length)[0];
      if (!owner) continue;
      const dotted = `${owner[1]}.${c.value}`;
      const d = resolve(`${name}_DEFAULT`);
      if (keys.has(dotted) && d && !out.has(dotted)) out.set(dotted, { value: d.value });
    }
  }
  return out;
}
