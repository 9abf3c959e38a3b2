/** A validator for the SARIF 2.1.0 schema (OASIS, as SchemaStore publishes it; draft-04), its `uri` and `date-time` formats included. */
import { readFileSync } from 'node:fs';
import Ajv, { type ErrorObject } from 'ajv-draft-04';
import addFormats from 'ajv-formats';

/** Whether a log is valid; `errors` says why not. */
export type SarifCheck = ((log: unknown) => boolean) & { errors?: ErrorObject[] | null };

export function sarifValidator(): SarifCheck {
  const schema = JSON.parse(readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8'));
  // Its patterns are written for JavaScript's non-Unicode regular expressions.
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  return ajv.compile(schema);
}
