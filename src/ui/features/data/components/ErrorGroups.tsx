import { DataTable, type Column } from '@/components';
import type { ErrorGroupItem } from '@shared/schemas/data-jobs';
import { formatCount } from '@/lib/format';

type Unit = 'row' | 'record';

const columnsFor = (unit: Unit): Column<ErrorGroupItem & { i: number }>[] => [
  {
    key: 'column',
    header: 'Column',
    cell: (g) => g.column ?? <span className="text-slate-500">whole {unit}</span>,
  },
  {
    key: 'count',
    header: unit === 'row' ? 'Rows' : 'Records',
    cell: (g) => <span className="tabular-nums">{formatCount(g.count)}</span>,
  },
  {
    key: 'rows',
    header: 'For example',
    cell: (g) => (
      <span className="tabular-nums">
        {unit}
        {g.rows.length > 1 ? 's' : ''} {g.rows.map((r) => formatCount(r)).join(', ')}
      </span>
    ),
  },
  { key: 'message', header: 'Problem', cell: (g) => <span className="break-words">{g.message}</span> },
];

/**
 * A file's problems by kind ("gender: 2,056 rows, e.g. rows 2, 3, 5: ..."): what to fix, once per
 * kind, before the rows one by one. Shown when some problem is on more than one row.
 */
export function ErrorGroups({ groups, unit }: { groups: ErrorGroupItem[]; unit: Unit }) {
  if (!groups.some((g) => g.count > 1)) return null;
  return (
    <div className="mb-3">
      <DataTable
        caption="Problems by kind"
        columns={columnsFor(unit)}
        rows={groups.map((g, i) => ({ ...g, i }))}
        getRowId={(g) => g.i}
        empty={{ title: 'No errors' }}
      />
    </div>
  );
}
