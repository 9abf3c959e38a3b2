/**
 * unused-suppression: a `# shardwise-disable…` comment that silences nothing, or an id in one that
 * names no rule. Reported after every other rule has run and the suppressions have been applied
 * (see suppressions.ts, called by the analysis once per file): this rule's own check does nothing.
 */
import { defineRule } from './rule';

export default defineRule({
  id: 'unused-suppression',
  severity: 'warning',
  about: 'text',
  formats: 'all',
  fixes: {
    remove: { applicability: 'safe', changes: 'removes the suppression, or the ids in it, that silence nothing', unconditional: true },
    replace: { applicability: 'safe', changes: 'writes the rule id a misspelt one evidently meant', unconditional: true },
  },
  docs: {
    summary: 'A suppression comment that silences nothing: no finding of its rules where it applies, or a rule id that does not exist.',
    why: [
      'A `# shardwise-disable-next-line`, `# shardwise-disable-line` or `# shardwise-disable` comment outlives the finding it was written for: once the key is fixed or the rule no longer fires, it silences nothing, until the next real finding of that rule on that line (or in that file) comes and is hidden. A misspelt id (`unknown-keys`) never silenced anything, and the finding it was meant for is still shown. Like ruff\'s `RUF100`, this rule reports both under one id, with different messages: an unknown id is an unused suppression whose cause is the spelling.',
      '',
      'A suppression is unused when, after every other rule ran, it silenced no finding of the rules it names (for one without ids, no finding at all) on its lines: the next line (with the lines a trailing `\\` continues it on), its own line, or the whole file. It is not reported for a rule turned off in the settings (`rules: {id: off}`; ruff\'s `RUF100` does report those, and exempts only the codes of its `lint.external` list): the rule may be on where the file is also checked (another editor\'s settings, CI), and the suppression is for there, for a rule that reached its limit of findings (some of its findings are not known), nor in a file with a parse error or one not analysed whole (its rules did not all run); an unknown id is reported in every file of a known format. A comment-like text inside a YAML string or block scalar, or inside a shell string or here-document, is no suppression and is never edited.',
      '',
      'Reports of this rule are themselves silenced by a suppression that names `unused-suppression` (`# shardwise-disable unused-suppression`, or in the list of the suppression concerned) or by a suppression of every rule that silenced something; `unused-suppression` in a list is never reported as unused. The default severity is warning, never error: the tools read the file the same with or without the comment.',
    ].join('\n'),
    bad: '# shardwise-disable-next-line yaml-boolean-trap\ndistributed_type: MULTI_GPU\nnum_processes: 2\nmixed_precision: \'no\'\n',
    good: 'distributed_type: MULTI_GPU\nnum_processes: 2\nmixed_precision: \'no\'\n',
    fix: 'Removes the comment line (or a trailing comment with the blanks before it), or only the unused ids of a list (`a, b` → `a`); replaces a misspelt id with the one rule id it is a slip for, when that rule has a finding there to silence (otherwise the fix is offered, not applied by fix-all). An unknown id with no single close rule id gets no fix.',
  },
  check() {
    // Reported by the analysis (suppressions.ts) once the findings of every rule are known.
  },
});
