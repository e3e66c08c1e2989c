import { useState, type ReactNode } from 'react';
import type { TestResult } from '@shared/schemas/results';
import { usePagedList, type ListFilter } from '@/lib/usePagedList';
import { RESULT_PAGE_SIZES, useResultSummary, useVerifyResultMutation } from '../api';
import { usePrintReport } from './PrintReport';
import { ReviewResultDialog } from './ReviewResultDialog';
import { printAction, reviewAction, verifyAction, visitReportAction } from './ResultsQueue';

/**
 * What Result Entry and Result Validation hold besides their own table: the list's state in the
 * URL (50 a page), the results summary, one-click verification, the report printer (a held report
 * asks to be released) and the one result opened for review. `dialogs` draws the last two;
 * `actions` are the row actions both offer, bound to them.
 */
export function useResultQueue(filters: ListFilter[], canVerify: boolean) {
  const list = usePagedList({ filters, pageSizes: RESULT_PAGE_SIZES, defaultLimit: 50 });
  const summary = useResultSummary();
  const verify = useVerifyResultMutation();
  const report = usePrintReport(canVerify);
  const [reviewing, setReviewing] = useState<TestResult | null>(null);
  const dialogs = (
    <>
      {report.dialog}
      {reviewing && (
        <ReviewResultDialog result={reviewing} canVerify={canVerify} onOpenChange={(o) => !o && setReviewing(null)} />
      )}
    </>
  );
  const actions = {
    verify: (word: string, hidden: (r: TestResult) => boolean, icon: ReactNode) =>
      verifyAction(word, verify, hidden, icon),
    review: (hidden: (r: TestResult) => boolean) => reviewAction(setReviewing, hidden),
    print: (hidden?: (r: TestResult) => boolean) => printAction(report, hidden),
    visitReport: visitReportAction,
  };
  return { list, summary, review: setReviewing, actions, dialogs };
}
