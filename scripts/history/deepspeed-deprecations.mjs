// DeepSpeed's pydantic configs (DeepSpeedConfigModel, deepspeed/runtime/config_utils.py) convert a
// deprecated field into the field its `new_param` names, and, where `set_new_param` is not false,
// stop with an assertion when the file writes both (an "auto" value is dropped before, so it does
// not count). This module reads, at every release, the fields of the config classes declared
// deprecated with a `new_param` (as Field keywords, or in `json_schema_extra`), and whether that
// release's config_utils.py holds the assertion; the first release where a schema key's pair is
// refused gives its `x-deprecated.refusedWithReplacementSince`. A deprecated field with a
// `new_param` whose class reads no schema section, or whose key has no `x-deprecated` naming that
// replacement, is printed, so that the schema's list of refused pairs is seen to be complete.
import { catBlobs, compareVersions, show } from './git.mjs';
import { closing, statements, tokenize } from './python.mjs';
import { printLists, setKeyBefore } from './write.mjs';

const textCache = new Map();
const ASSERTION = 'Cannot provide deprecated parameter';

/** The value after `name=` or `"name":` in a field's tokens: the token, or undefined. */
function keyword(toks, name) {
  for (let j = 0; j + 2 < toks.length; j++) {
    const named = (toks[j].t === 'name' && toks[j + 1].v === '=') || (toks[j].t === 'str' && toks[j + 1].v === ':');
    if (named && toks[j].v === name) return toks[j + 2];
  }
  return undefined;
}

/** `{ cls, field, key, newParam, setsNew }` for each deprecated field with a new_param of one file. */
function deprecatedFields(src) {
  const out = [];
  let cls;
  let body = -1;
  for (const st of statements(tokenize(src))) {
    const t = st.toks;
    if (st.indent === 0) {
      cls = t[0]?.v === 'class' && t[1]?.t === 'name' ? t[1].v : undefined;
      body = -1;
      continue;
    }
    if (!cls) continue;
    if (body < 0) body = st.indent;
    if (st.indent !== body || t[0]?.t !== 'name' || t[1]?.v !== ':') continue;
    const call = t.findIndex((x, j) => x.v === 'Field' && t[j + 1]?.v === '(');
    if (call < 0) continue;
    const args = t.slice(call + 2, closing(t, call + 1));
    const newParam = keyword(args, 'new_param');
    if (keyword(args, 'deprecated')?.v !== 'True' || newParam?.t !== 'str') continue;
    const alias = keyword(args, 'alias');
    out.push({ cls, field: t[0].v, key: alias?.t === 'str' ? alias.v : t[0].v, newParam: newParam.v, setsNew: keyword(args, 'set_new_param')?.v !== 'False' });
  }
  return out;
}

/**
 * The changes to `x-deprecated.refusedWithReplacementSince`. `releases`: `{ rev, version, files }`
 * (config files by path → blob id); `sectionModels`: schema section → `{ cls }`; `keys`: the
 * schema's properties by dotted path.
 */
export function deepspeedRefusedPairs(dir, releases, sectionModels, keys) {
  const ids = [...new Set(releases.flatMap((r) => [...r.files].filter(([p]) => !p.startsWith('deepspeed/inference/')).map(([, id]) => id)))];
  for (const [id, text] of catBlobs(dir, ids.filter((id) => !textCache.has(id)))) textCache.set(id, deprecatedFields(text));
  const sectionsOf = (cls) => Object.entries(sectionModels).filter(([, m]) => m.cls === cls).map(([s]) => s);
  const first = new Map();
  const unmatched = new Set();
  for (const r of releases) {
    const asserts = show(dir, r.rev, 'deepspeed/runtime/config_utils.py')?.includes(ASSERTION) ?? false;
    for (const [path, id] of r.files) {
      if (path.startsWith('deepspeed/inference/')) continue;
      for (const f of textCache.get(id) ?? []) {
        if (!f.setsNew || !asserts) continue;
        const sections = sectionsOf(f.cls);
        if (!sections.length) unmatched.add(`${f.cls}.${f.field} → ${f.newParam} (no schema section reads ${f.cls})`);
        for (const section of sections) {
          const dotted = `${section}.${f.key}`;
          const props = keys.get(dotted) ?? [];
          const dep = props.map((p) => p['x-deprecated']).find(Boolean);
          // The replacement as the schema names it: the field, or the other spelling of it.
          const spellings = new Set([f.newParam, ...(keys.get(`${section}.${f.newParam}`) ?? []).map((p) => p['x-alias-of']).filter(Boolean)]);
          if (!dep?.replacement || !spellings.has(dep.replacement)) {
            unmatched.add(`${dotted} → ${f.newParam} (the schema's x-deprecated ${dep ? `names ${dep.replacement ?? 'no replacement'}` : 'is missing'})`);
            continue;
          }
          if (!first.has(dotted) || compareVersions(r.version, first.get(dotted).version) < 0) first.set(dotted, { version: r.version, props, dep });
        }
      }
    }
  }
  const changes = [];
  const found = [];
  for (const [dotted, { version, props, dep }] of first) {
    found.push(`${dotted} with ${dep.replacement}: refused from ${version}`);
    if (dep.refusedWithReplacementSince === version) continue;
    const set = () => props.forEach((p) => p['x-deprecated'] && setKeyBefore(p['x-deprecated'], 'refusedWithReplacementSince', version, ['message']));
    changes.push({ key: dotted, field: 'x-deprecated.refusedWithReplacementSince', from: dep.refusedWithReplacementSince, to: version, why: `${ASSERTION} (config_utils.py) from ${version}`, set });
  }
  // A key the schema says is refused with its replacement that no release refuses.
  for (const [dotted, props] of keys) {
    const dep = props.map((p) => p['x-deprecated']).find(Boolean);
    if (dep?.refusedWithReplacementSince && !first.has(dotted)) unmatched.add(`${dotted}: the schema says refused from ${dep.refusedWithReplacementSince}, no release refuses it`);
  }
  printLists([
    ['deprecated fields refused beside their replacement', found],
    ['deprecated fields with a new_param the schema does not pair', [...unmatched]],
  ]);
  return changes;
}
