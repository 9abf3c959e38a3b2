/** Reading a subcommand's options: `--flag value` or `--flag=value`, with the checks every option shares. */

/** The option being read. */
export interface OptionArg {
  /** `--flag` of `--flag=value`, or the argument itself. */
  flag: string;
  /** Its value: after `=`, else the next argument (which is then consumed). */
  value(): string;
  /** Its value as a positive integer, at most `max` when given. */
  positive(max?: number): number;
  /** Its value, one of `choices` (`takes a or b` / `takes a, b, c` otherwise). */
  choice<T extends string>(choices: readonly T[]): T;
}

/**
 * Walks a command line: `take` reads each argument it knows (with its value) and returns true; the
 * arguments it does not take are returned in order, for the next reader.
 */
export function readOptions(args: readonly string[], usage: (message: string) => Error, take: (o: OptionArg) => boolean): string[] {
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const eq = a.indexOf('=');
    const inline = a.startsWith('--') && eq > 0;
    const flag = inline ? a.slice(0, eq) : a;
    const value = (): string => {
      if (inline) return a.slice(eq + 1);
      const v = args[++i];
      if (v === undefined) throw usage(`${flag} needs a value`);
      return v;
    };
    const o: OptionArg = {
      flag,
      value,
      positive(max) {
        const v = value();
        if (!/^\d+$/.test(v) || Number(v) < 1 || (max !== undefined && Number(v) > max)) throw usage(`${flag} needs a positive integer${max !== undefined ? ` up to ${max}` : ''}, not ${JSON.stringify(v)}`);
        return Number(v);
      },
      choice(choices) {
        const v = value();
        if (!(choices as readonly string[]).includes(v)) throw usage(`${flag} takes ${choices.length === 2 ? choices.join(' or ') : choices.join(', ')}, not ${JSON.stringify(v)}`);
        return v as (typeof choices)[number];
      },
    };
    if (!take(o)) rest.push(a);
  }
  return rest;
}
