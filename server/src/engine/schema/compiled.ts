/** The shape of the validation functions generated at build time (ajv standalone code). */
export interface CompiledError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

export interface CompiledValidator {
  (data: unknown): boolean;
  errors?: CompiledError[] | null;
}
