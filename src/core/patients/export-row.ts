import { ageOn } from '../../shared/age.js';

/**
 * The patients export's row completed in place, shared by the export's walk on the main thread and
 * its worker threads (src/core/transfer/export-worker.ts), which load only this and the CSV writer:
 * the age counted from the birth date read into its column (as toPatient counts it), dob_estimated as
 * true or false. `age` and `estimated` are the columns' positions in PATIENT_CSV_COLUMNS.
 */
export function finishPatientRow(row: unknown[], today: string, age: number, estimated: number): void {
  row[age] = ageOn(row[age] as string, today);
  row[estimated] = row[estimated] === 1 || row[estimated] === true;
}
