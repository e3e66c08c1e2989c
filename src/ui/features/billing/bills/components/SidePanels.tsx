import { Download, Filter, Plus, Printer } from 'lucide-react';
import type { Bill } from '@shared/schemas/bills';
import { Badge, Button, Card, CardBody, CardHeader, LinkButton, Money, buttonClass } from '@/components';
import { useLabFormat } from '@/lib/format';
import { notify } from '@/lib/notify';
import { billsExportUrl, useBills, type BillFilters } from '../api';
import { patientName } from '@/lib/billText';
import { printBillsList } from './printBillsList';

/** Spec 9: Recent Bills shows 3. */
const RECENT = 3;

/** Recent Bills: the first 3 of the filtered list (newest first), whatever page the table is on. */
export function RecentBills({ filters, onOpen }: { filters: BillFilters; onOpen: (b: Bill) => void }) {
  const recent = useBills({ ...filters, page: 1, limit: RECENT });
  const bills = recent.data?.bills;
  return (
    <Card>
      <CardHeader title="Recent Bills" as="h2" />
      <CardBody className="p-0">
        {recent.isError ? (
          <p className="p-4 text-sm text-red-700">Recent bills could not be loaded.</p>
        ) : !bills ? (
          <div className="skeleton m-4 h-16" aria-label="Loading recent bills" />
        ) : bills.length === 0 ? (
          <p className="p-4 text-sm text-slate-600">No bills found</p>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="Recent bills">
            {bills.slice(0, RECENT).map((b) => (
              <li key={b.id}>
                <button
                  type="button"
                  onClick={() => onOpen(b)}
                  className="flex w-full items-start justify-between gap-3 px-4 py-2.5 text-left hover:bg-slate-50 focus-visible:bg-slate-50"
                  aria-label={`View bill ${b.bill_number}`}
                >
                  <span className="min-w-0">
                    <span className="block truncate font-mono text-[13px] text-slate-900">{b.bill_number}</span>
                    <span className="block truncate text-xs text-slate-600">{patientName(b)}</span>
                  </span>
                  <span className="shrink-0 text-right text-sm">
                    <Money rupees={b.final_amount} className="block" />
                    <Badge status={b.status} className="mt-0.5" />
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}

export interface QuickActionsProps {
  filters: BillFilters;
  /** Moves the keyboard focus to the filter bar's search box. */
  onFilter: () => void;
  /** create_bills: offer Create New Bill. */
  canCreate: boolean;
  /** export_data: the CSV of every bill matching the filters. */
  canExport: boolean;
}

/**
 * Quick Actions (spec 2.16): Create New Bill opens Register Patient with Bill; Export Bills downloads
 * the CSV of the current filters; Print Bills prints the filtered list with totals; Filter Bills
 * takes the user to the filter bar.
 */
export function QuickActions({ filters, onFilter, canCreate, canExport }: QuickActionsProps) {
  const fmt = useLabFormat();
  const item = 'w-full justify-start';
  return (
    <Card>
      <CardHeader title="Quick Actions" as="h2" />
      <CardBody className="grid gap-2">
        {canCreate && (
          <LinkButton to="/patient-registration-billing" variant="outline" className={item}>
            <Plus />
            Create New Bill
          </LinkButton>
        )}
        {canExport && (
          <a
            href={billsExportUrl(filters)}
            download
            className={buttonClass('outline', 'md', item)}
            onClick={() => notify.info('Export Started', 'The bills CSV is downloading')}
          >
            <Download />
            Export Bills
          </a>
        )}
        <Button variant="outline" className={item} onClick={() => void printBillsList(filters, fmt)}>
          <Printer />
          Print Bills
        </Button>
        <Button variant="outline" className={item} onClick={onFilter}>
          <Filter />
          Filter Bills
        </Button>
      </CardBody>
    </Card>
  );
}
