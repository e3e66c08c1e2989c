import { z } from 'zod';
import { PERSON_TITLES, titleOf } from '../person-name.js';

/** A staff or doctor title in a form, the API, the CLI or an import: "Dr." and "dr" read as Dr; empty is none. */
export const personTitleField = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? null : (titleOf(v) ?? v.trim())) : v),
  z
    .enum(PERSON_TITLES, { error: `Title must be one of ${PERSON_TITLES.join(', ')}` })
    .nullable()
    .optional(),
);
