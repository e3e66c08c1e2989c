import { Send } from 'lucide-react';
import type { Centre } from '@shared/schemas/centres';
import { centresApi } from '@shared/api/centres';
import { Button } from '@/components';
import { CentreStatementView, useStatementPeriod } from '@/components/CentreStatementView';
import { contractUrl, fieldErrorMessage } from '@/lib/api';
import { notify } from '@/lib/notify';
import { can } from '@/lib/roles';
import { useCurrentUser } from '@/lib/session';
import { useCentreStatement, useSendCentreStatementMutation } from '../api';

/** A centre's statement for a period, as the lab sees it; who keeps centres may email it now. */
export function CentreStatementTab({ centre }: { centre: Centre }) {
  const period = useStatementPeriod();
  const { from, to } = period;
  const send = useSendCentreStatementMutation();
  const mayManage = can(useCurrentUser(), 'manage_bills');
  return (
    <CentreStatementView
      period={period}
      query={useCentreStatement(centre.id, from, to)}
      pdfHref={contractUrl(centresApi.statementPdf, { params: { id: centre.id }, query: { from, to } })}
      caption={`Statement of ${centre.name}`}
      actions={
        mayManage && !period.bad ? (
          <Button
            variant="outline"
            disabled={send.isPending}
            title={centre.email ? `Email it to ${centre.email}` : 'The centre has no email address'}
            onClick={() =>
              send.mutate(
                { id: centre.id, from, to },
                { onError: (err) => notify.error('Statement not sent', fieldErrorMessage(err)) },
              )
            }
          >
            <Send />
            {send.isPending ? 'Sending...' : 'Send now'}
          </Button>
        ) : null
      }
    />
  );
}
