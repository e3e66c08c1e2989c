import type { ReactNode } from 'react';
import { Eye, FileText, Printer } from 'lucide-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ResultPage, ResultSummary, TestResult } from '@shared/schemas/results';
import { resultCode } from '@shared/schemas/results';
import { Card, ListTable, SummaryCards, type Column, type RowAction } from '@/components';
import { formatCount } from '@/lib/format';
import type { PagedList } from '@/lib/usePagedList';
import { openVisitReport } from '@/lib/visitReport';

/**
 * What Result Entry and Result Validation share: the summary cards from the results summary, the
 * results table, and the row actions both offer (verify, review, print).
 */

export interface ResultCountCard {
  label: string;
  icon: ReactNode;
  count: keyof ResultSummary;
  /** Under the figure; a function of the summary once it has come. */
  hint: ReactNode | ((s: ResultSummary) => ReactNode);
}

export function ResultSummaryCards({
  summary,
  cards,
}: {
  summary: UseQueryResult<ResultSummary>;
  cards: ResultCountCard[];
}) {
  const s = summary.data;
  return (
    <SummaryCards
      loading={summary.isPending}
      cards={cards.map((c) => ({
        label: c.label,
        icon: c.icon,
        value: s ? formatCount(s[c.count]) : '—',
        hint: typeof c.hint === 'function' ? s && c.hint(s) : c.hint,
      }))}
      error={summary.isError ? summary.error : null}
    />
  );
}

export function ResultsTable({
  list,
  query,
  columns,
  caption,
  searchLabel,
  rowActions,
  emptyHint,
}: {
  list: PagedList;
  query: UseQueryResult<ResultPage>;
  columns: Column<TestResult>[];
  caption: string;
  searchLabel: string;
  rowActions: RowAction<TestResult>[];
  emptyHint: string;
}) {
  return (
    <Card className="min-w-0">
      <ListTable
        list={list}
        query={query}
        rows={(p) => p.results}
        columns={columns}
        getRowId={(r) => r.key}
        caption={caption}
        itemLabel="results"
        search={{ placeholder: 'Search by patient, patient ID, test or sample ID', label: searchLabel }}
        rowActions={rowActions}
        errorTitle="Error Loading Test Results"
        empty={{
          title: 'No test results found',
          hint: emptyHint,
          filteredHint: 'Try adjusting your search or filter criteria',
        }}
      />
    </Card>
  );
}

const named = (r: TestResult) => `${resultCode(r.id)} (${r.test_name})`;

/** "Verify R-12 (Glucose)" / "Validate ...": one click, for results that need no closer look. */
export function verifyAction(
  word: string,
  verify: { mutate: (r: TestResult) => void; isPending: boolean },
  hidden: (r: TestResult) => boolean,
  icon: ReactNode,
): RowAction<TestResult> {
  return {
    label: (r) => `${word} ${named(r)}`,
    icon,
    onClick: (r) => verify.mutate(r),
    hidden,
    disabled: () => verify.isPending,
  };
}

/** Review: the result with its reasons (abnormal, critical, delta, amended), verified from there. */
export function reviewAction(open: (r: TestResult) => void, hidden: (r: TestResult) => boolean): RowAction<TestResult> {
  return { label: (r) => `Review ${named(r)}`, icon: <Eye />, onClick: open, hidden };
}

export function printAction(
  report: { print: (sampleId: number) => void },
  hidden?: (r: TestResult) => boolean,
): RowAction<TestResult> {
  return {
    label: (r) => `Print report of ${r.sample_number}`,
    icon: <Printer />,
    onClick: (r) => report.print(r.sample_id),
    ...(hidden ? { hidden } : {}),
  };
}

/** The report of the sample's visit: every released result of the bill's samples in one PDF. */
export function visitReportAction(hidden?: (r: TestResult) => boolean): RowAction<TestResult> {
  return {
    label: (r) => `Print visit report of ${r.sample_number}`,
    icon: <FileText />,
    onClick: (r) => void openVisitReport(r.bill_id!),
    hidden: (r) => r.bill_id === null || (hidden?.(r) ?? false),
  };
}
