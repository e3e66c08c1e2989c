import { useState } from 'react';
import { ArrowDownToLine, BookOpen, FileJson, Receipt, RotateCcw, Scale, Settings, Undo2, Wallet } from 'lucide-react';
import { GSTR1_CSV_SECTIONS } from '@shared/schemas/accounts';
import { localDate } from '@shared/time';
import {
  Button,
  Card,
  CardHeader,
  isPastMonth,
  MonthPicker,
  previousMonth,
  ScreenHeader,
  SummaryCards,
} from '@/components';
import { formatCount, formatMoney, useLabFormat } from '@/lib/format';
import { useUrlState } from '@/lib/useUrlState';
import { accountsFileUrls, useAccountsSettings, useAccountsSummary } from '../api';
import { AccountsSettingsDialog } from '../components/AccountsSettingsDialog';
import { LedgerNames } from '../components/LedgerNames';

const rupees = (n: number | undefined) => (n === undefined ? '—' : formatMoney(Math.round(n * 100)));

/** Accounts: one month's figures and its files for the accountant, and the settings they are written with. */
export default function AccountsPage() {
  const f = useLabFormat();
  const today = localDate(f.timeZone);
  const [state, set] = useUrlState({ month: previousMonth(today) });
  const valid = isPastMonth(state.month, today);
  const summary = useAccountsSummary(state.month, valid);
  const settings = useAccountsSettings();
  const [editing, setEditing] = useState(false);
  const s = summary.data;
  const urls = accountsFileUrls(state.month);
  const cards = [
    {
      label: 'Sales',
      value: rupees(s?.sales),
      hint: s ? `${formatCount(s.bills)} bills` : undefined,
      icon: <Receipt />,
    },
    { label: 'Receipts', value: rupees(s?.receipts), hint: 'cheques when cleared', icon: <Wallet /> },
    { label: 'Refunds', value: rupees(s?.refunds), icon: <Undo2 /> },
    { label: 'Credit notes', value: rupees(s?.credit_notes), hint: 'earlier bills cancelled', icon: <RotateCcw /> },
    {
      label: 'Taxable value',
      value: rupees(s?.taxable),
      hint: s ? `GST ${rupees(s.tax)}` : undefined,
      icon: <Scale />,
    },
    { label: 'Exempt value', value: rupees(s?.exempt), hint: 'bills of supply and exempt lines', icon: <Scale /> },
    { label: 'Tally vouchers', value: s ? formatCount(s.vouchers) : '—', hint: 'in the day book', icon: <BookOpen /> },
    {
      label: 'B2B invoices',
      value: s ? formatCount(s.b2b_invoices) : '—',
      hint: 'to registered payers',
      icon: <FileJson />,
    },
  ];
  return (
    <>
      <ScreenHeader
        actions={
          <Button variant="outline" onClick={() => setEditing(true)} disabled={!settings.data}>
            <Settings />
            Accounts settings
          </Button>
        }
      />
      <MonthPicker
        month={state.month}
        today={today}
        onChange={(month) => set({ month })}
        commandLabel="For cron"
        command={['lims export tally|gstr1|einvoice', `--month ${state.month}`]}
      />
      {valid && (
        <>
          <SummaryCards label="The month’s figures" loading={summary.isPending} error={summary.error} cards={cards} />
          <div className="grid gap-5 lg:grid-cols-2">
            <Card className="min-w-0">
              <CardHeader
                icon={<ArrowDownToLine />}
                title={`Files for ${state.month}`}
                description={s ? `${s.from} to ${s.to}, the lab’s calendar days` : 'The lab’s calendar days'}
              />
              <ul className="divide-y divide-slate-100 text-[13px]">
                <FileRow href={urls.tally} name="Tally day book (XML)" hint="Tally: Gateway > Import > Vouchers" />
                <FileRow href={urls.gstr1} name="GSTR-1 (JSON)" hint="The GST offline tool: Open > Import JSON" />
                <li className="grid gap-2 p-4">
                  <span className="font-medium text-slate-900">GSTR-1 sheets (CSV)</span>
                  <span className="text-slate-600">One file per section, as the offline tool imports them</span>
                  <span className="flex flex-wrap gap-2">
                    {GSTR1_CSV_SECTIONS.map((sec) => (
                      <a key={sec} href={urls.sheet(sec)} download className="inline-flex">
                        <Button size="sm" variant="outline" tabIndex={-1} aria-label={`GSTR-1 ${sec} sheet`}>
                          {sec}
                        </Button>
                      </a>
                    ))}
                  </span>
                </li>
                {s?.einvoicing ? (
                  <FileRow href={urls.einvoice} name="E-invoices (IRN JSON)" hint="Taxed B2B invoices, for the IRP" />
                ) : (
                  <li className="grid gap-1 p-4">
                    <span className="font-medium text-slate-900">E-invoices (IRN JSON)</span>
                    <span className="text-slate-600">
                      Not needed: the lab’s annual turnover in the accounts settings is not above the e-invoicing
                      threshold ({rupees(settings.data?.einvoice_threshold)}).
                    </span>
                  </li>
                )}
              </ul>
            </Card>
            <LedgerNames settings={settings.data} loading={settings.isPending} onEdit={() => setEditing(true)} />
          </div>
        </>
      )}
      {settings.data && <AccountsSettingsDialog open={editing} onOpenChange={setEditing} settings={settings.data} />}
    </>
  );
}

function FileRow({ href, name, hint }: { href: string; name: string; hint: string }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 p-4">
      <span className="grid gap-1">
        <span className="font-medium text-slate-900">{name}</span>
        <span className="text-slate-600">{hint}</span>
      </span>
      <a href={href} download className="inline-flex">
        <Button size="sm" tabIndex={-1} aria-label={`Download ${name}`}>
          <ArrowDownToLine />
          Download
        </Button>
      </a>
    </li>
  );
}
