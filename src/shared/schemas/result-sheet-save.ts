import { z } from 'zod';
import { idField } from './common.js';
import { resultCreateSchema, resultUpdateSchema, testResultSchema } from './results.js';

/**
 * One row of a result sheet being saved: a test of the sample typed for the first time, or its
 * result (result_id) changed. The fields are those of a single create or update.
 */
export const resultSheetRowSchema = resultUpdateSchema.extend({
  test_id: idField('test_id'),
  /** The result this row changes; absent for a test typed for the first time. */
  result_id: idField('result_id').optional(),
});
export type ResultSheetRow = z.infer<typeof resultSheetRowSchema>;

/** A sample's result sheet saved at once: every row stored, or none (one transaction). */
export const resultSheetSaveSchema = z.object({
  /** The machine the values came from, for the rows typed for the first time. */
  equipment_id: resultCreateSchema.shape.equipment_id,
  rows: z
    .array(resultSheetRowSchema, { error: 'rows must be a list of results' })
    .min(1, 'Type a result for at least one test')
    .max(200, 'At most 200 results at a time'),
});
export type ResultSheetSave = z.infer<typeof resultSheetSaveSchema>;

export const resultSheetSavedSchema = z.object({ results: z.array(testResultSchema) });
