import type { z } from 'zod';

/**
 * The top-level field names of an object schema, for `fieldNamed` / `topField` when a dialog's
 * fields are exactly the API body's: the list then cannot drift from the schema it mirrors.
 */
export function schemaFields<S extends z.ZodObject>(schema: S): readonly (keyof z.input<S> & string)[] {
  return Object.keys(schema.shape) as (keyof z.input<S> & string)[];
}
