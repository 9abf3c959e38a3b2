/**
 * A snippet as the plain text a client without snippet support inserts: each placeholder becomes
 * its default (`${1:8}` → `8`, `${1|a,b|}` → `a`), tab stops (`$0`, `${1}`) and variables without a
 * default vanish, and escapes (`\$`, `\}`, `\\`) become the character they escape.
 */
export function snippetToPlainText(snippet: string): string {
  let i = 0;
  const s = snippet;
  /** Text up to the end of `s`, or up to an unescaped `}` when inside a placeholder. */
  const body = (nested: boolean): string => {
    let out = '';
    while (i < s.length) {
      const c = s[i];
      if (c === '\\' && i + 1 < s.length && '$}\\'.includes(s[i + 1])) {
        out += s[i + 1];
        i += 2;
      } else if (nested && c === '}') {
        return out;
      } else if (c === '$') {
        const stop = /^\$(\d+|[A-Za-z_][A-Za-z0-9_]*)/.exec(s.slice(i));
        if (stop) {
          i += stop[0].length;
          continue;
        }
        const open = /^\$\{(\d+|[A-Za-z_][A-Za-z0-9_]*)/.exec(s.slice(i));
        if (!open) {
          out += c;
          i++;
          continue;
        }
        i += open[0].length;
        if (s[i] === ':') {
          i++;
          out += body(true);
        } else if (s[i] === '|') {
          i++;
          out += choice();
        } else {
          // `${1}`, or a form not read here: skipped to its closing brace.
          body(true);
        }
        if (s[i] === '}') i++;
      } else {
        out += c;
        i++;
      }
    }
    return out;
  };
  /** The first option of `a,b|}` (escapes `\,`, `\|`, `\\`); leaves `i` at the closing `}`. */
  const choice = (): string => {
    let first = '';
    let done = false;
    while (i < s.length) {
      const c = s[i];
      if (c === '\\' && i + 1 < s.length && ',|\\$}'.includes(s[i + 1])) {
        if (!done) first += s[i + 1];
        i += 2;
      } else if (c === '|' && s[i + 1] === '}') {
        i++;
        return first;
      } else {
        if (c === ',') done = true;
        else if (!done) first += c;
        i++;
      }
    }
    return first;
  };
  return body(false);
}
