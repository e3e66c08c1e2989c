import { Pencil } from 'lucide-react';
import { LEDGER_KEYS, LEDGER_LABELS, type AccountsSettings } from '@shared/schemas/accounts';
import { Button, Card, CardHeader, LoadingState } from '@/components';

/** The ledger names the Tally file posts to, as the lab set them (they must match its Tally company). */
export function LedgerNames({
  settings,
  loading,
  onEdit,
}: {
  settings: AccountsSettings | undefined;
  loading: boolean;
  onEdit: () => void;
}) {
  return (
    <Card className="min-w-0">
      <CardHeader
        title="Tally ledgers"
        description={
          settings?.tally_company
            ? `Company ${settings.tally_company}; sales posted one voucher per ${settings.sales_voucher_mode}`
            : `Sales posted one voucher per ${settings?.sales_voucher_mode ?? 'bill'}`
        }
        actions={
          <Button size="sm" variant="outline" onClick={onEdit} disabled={!settings}>
            <Pencil />
            Edit
          </Button>
        }
      />
      {loading || !settings ? (
        <LoadingState text="Loading the ledgers..." />
      ) : (
        <dl className="grid gap-x-6 p-4 text-[13px] sm:grid-cols-2">
          {LEDGER_KEYS.map((k) => (
            <div key={k} className="flex items-baseline justify-between gap-3 border-b border-slate-100 py-1">
              <dt className="text-slate-600">{LEDGER_LABELS[k]}</dt>
              <dd className="text-right font-medium text-slate-900" data-testid={`ledger-${k}`}>
                {settings.ledgers[k]}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </Card>
  );
}
