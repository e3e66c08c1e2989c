import type { Centre } from '@shared/schemas/centres';
import { centresApi } from '@shared/api/centres';
import { CentreStatementView, useStatementPeriod } from '@/components/CentreStatementView';
import { contractUrl } from '@/lib/api';
import { useCentreStatement } from '../api';

/** A centre's statement for a period, as the lab sees it. */
export function CentreStatementTab({ centre }: { centre: Centre }) {
  const period = useStatementPeriod();
  const { from, to } = period;
  return (
    <CentreStatementView
      period={period}
      query={useCentreStatement(centre.id, from, to)}
      pdfHref={contractUrl(centresApi.statementPdf, { params: { id: centre.id }, query: { from, to } })}
      caption={`Statement of ${centre.name}`}
    />
  );
}
