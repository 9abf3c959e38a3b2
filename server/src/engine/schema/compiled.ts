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

/**
 * A validator loaded on first use: the generated code of a large schema (Megatron's, DeepSpeed's)
 * costs start-up time and memory that a session without such files should not pay.
 */
export function lazyValidator(load: () => CompiledValidator): CompiledValidator {
  let loaded: CompiledValidator | undefined;
  const validate = ((data: unknown) => {
    loaded ??= load();
    const ok = loaded(data);
    validate.errors = loaded.errors;
    return ok;
  }) as CompiledValidator;
  return validate;
}

/** A schema object parsed on first access (a transparent stand-in for the JSON). */
export function lazySchema<T extends object>(load: () => T): T {
  let loaded: T | undefined;
  const target = (): T => (loaded ??= load());
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(target(), key),
    has: (_, key) => Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_, key) => {
      const d = Reflect.getOwnPropertyDescriptor(target(), key);
      return d ? { ...d, configurable: true } : undefined;
    },
  });
}
