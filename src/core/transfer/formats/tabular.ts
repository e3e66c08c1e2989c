/** A CSV or XLSX file once opened: its header (the first row) and its data rows, numbered as a spreadsheet shows them. */
export interface TabularFile {
  header: string[];
  rows: AsyncGenerator<{ row: number; cells: unknown[] }>;
}
