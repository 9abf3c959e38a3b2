/** `shardwise layout FILE --svg OUT.svg | --html OUT.html [--colour tp|pp|dp|cp|ep]`: the layout as a picture. */
import { COLOUR_BY, type ColourBy } from '../engine';
import { readOptions } from './options';

export interface PictureArgs {
  svg?: string;
  html?: string;
  colourBy: ColourBy;
  rest: string[];
}

/** Takes the picture options out of `layout`'s arguments. */
export function parsePictureArgs(args: string[], usage: (message: string) => Error): PictureArgs {
  const out: PictureArgs = { colourBy: 'tp', rest: [] };
  out.rest = readOptions(args, usage, (r) => {
    if (r.flag === '--svg') out.svg = r.value();
    else if (r.flag === '--html') out.html = r.value();
    else if (r.flag === '--colour' || r.flag === '--color') {
      const v = r.value();
      if (!(COLOUR_BY as readonly string[]).includes(v)) throw usage(`${r.flag} colours by ${COLOUR_BY.join(', ')}, not ${JSON.stringify(v)}`);
      out.colourBy = v as ColourBy;
    } else return false;
    return true;
  });
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
