import { Download, Filter, Plus, Printer } from 'lucide-react';
import type { Bill } from '@shared/schemas/bills';
import { Button, Card, CardBody, CardHeader, LinkButton, buttonClass } from '@/components';
import { useLabFormat } from '@/lib/format';
import { notify } from '@/lib/notify';
import { billsExportUrl, useBills, type BillFilters } from '../api';
import { patientName } from '@/lib/billText';
import { printBillsList } from './printBillsList';
import { BillButtonList } from './BillButtonList';

/** Spec 9: Recent Bills shows 3. */
const RECENT = 3;

/** Recent Bills: the first 3 of the filtered list (newest first), whatever page the table is on. */
export function RecentBills({ filters, onOpen }: { filters: BillFilters; onOpen: (b: Bill) => void }) {
  const recent = useBills({ ...filters, page: 1, limit: RECENT });
  return (
    <Card>
      <CardHeader title="Recent Bills" as="h2" />
      <CardBody className="p-0">
        <BillButtonList
          query={recent}
          label="Recent bills"
          errorText="Recent bills could not be loaded."
          emptyText="No bills found"
          actionLabel={(b) => `View bill ${b.bill_number}`}
          detail={patientName}
          amount={(b) => b.final_amount}
          status={(b) => b.status}
          onOpen={onOpen}
        />
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
