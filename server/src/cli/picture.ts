/** `shardwise layout FILE --svg OUT.svg | --html OUT.html [--colour tp|pp|dp|cp|ep]`: the layout as a picture. */
import { COLOUR_BY, type ColourBy } from '../engine';

export interface PictureArgs {
  svg?: string;
  html?: string;
  colourBy: ColourBy;
  rest: string[];
}

/** Takes the picture options out of `layout`'s arguments. */
export function parsePictureArgs(args: string[], usage: (message: string) => Error): PictureArgs {
  const out: PictureArgs = { colourBy: 'tp', rest: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const eq = a.indexOf('=');
    const flag = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    const value = (): string => {
      if (a.startsWith('--') && eq > 0) return a.slice(eq + 1);
      const v = args[++i];
      if (v === undefined) throw usage(`${flag} needs a value`);
      return v;
    };
    if (flag === '--svg') out.svg = value();
    else if (flag === '--html') out.html = value();
    else if (flag === '--colour' || flag === '--color') {
      const v = value();
      if (!(COLOUR_BY as readonly string[]).includes(v)) throw usage(`${flag} colours by ${COLOUR_BY.join(', ')}, not ${JSON.stringify(v)}`);
      out.colourBy = v as ColourBy;
    } else out.rest.push(a);
  }
  return out;
}

/** A page holding the picture: no script, no remote resource, a content-security policy that allows neither. */
export function pictureHtml(svg: string, title: string): string {
  const t = title.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${t}</title>
<style>body{margin:16px;background:#fff}@media (prefers-color-scheme: dark){body{background:#1e1e1e}svg{--sw-fg:#e6e6e6}}</style>
</head>
<body>
${svg}
</body>
</html>
`;
}
