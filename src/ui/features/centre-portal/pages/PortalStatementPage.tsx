import { centrePortalApi } from '@shared/api/centre-portal';
import { Card, ScreenHeader } from '@/components';
import { CentreStatementView, useStatementPeriod } from '@/components/CentreStatementView';
import { contractUrl } from '@/lib/api';
import { usePortalStatement } from '../api';
import { HoldNotice } from '../components/HoldNotice';

/** The centre's own statement, the same one the lab sends it each month. */
export default function PortalStatementPage() {
  const period = useStatementPeriod();
  const { from, to } = period;
  return (
    <>
      <ScreenHeader />
      <HoldNotice />
      <Card className="p-3 sm:p-4">
        <CentreStatementView
          period={period}
          query={usePortalStatement(from, to)}
          pdfHref={contractUrl(centrePortalApi.statementPdf, { query: { from, to } })}
          caption="Your statement"
        />
      </Card>
    </>
  );
}
