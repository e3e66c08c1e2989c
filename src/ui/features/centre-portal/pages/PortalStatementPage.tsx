import { centrePortalApi } from '@shared/api/centre-portal';
import { Card, PageHeader } from '@/components';
import { CentreStatementView, useStatementPeriod } from '@/components/CentreStatementView';
import { contractUrl } from '@/lib/api';
import { useScreen } from '@/lib/screens';
import { usePortalStatement } from '../api';
import { HoldNotice } from '../components/HoldNotice';

/** The centre's own statement, the same one the lab sends it each month. */
export default function PortalStatementPage() {
  const screen = useScreen();
  const period = useStatementPeriod();
  const { from, to } = period;
  return (
    <>
      <PageHeader title={screen.title} subtitle={screen.subtitle} />
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
