import {
  AlertTriangle,
  CalendarClock,
  FileText,
  IndianRupee,
  Receipt,
  TestTubes,
  UserPlus,
  Wallet,
} from 'lucide-react';
import { ErrorPanel, LinkButton, Money, PageHeader, SummaryCards } from '@/components';
import { useScreen } from '@/lib/screens';
import { usePortalCentre } from '../api';
import { HoldNotice } from '../components/HoldNotice';

/** The centre's home: its account with the lab, the hold and its reason, and the way to its work. */
export default function PortalAccountPage() {
  const screen = useScreen();
  const centre = usePortalCentre();
  const c = centre.data;
  return (
    <>
      <PageHeader
        title={c ? c.name : screen.title}
        subtitle={screen.subtitle}
        actions={
          <>
            <LinkButton to="/centre-portal/patients" variant="outline">
              <UserPlus />
              Register patient
            </LinkButton>
            <LinkButton to="/centre-portal/order">
              <TestTubes />
              Order tests
            </LinkButton>
          </>
        }
      />
      {centre.isError && (
        <ErrorPanel
          title="Error Loading Your Account"
          error={centre.error}
          onRetry={() => void centre.refetch()}
          retrying={centre.isFetching}
        />
      )}
      <HoldNotice />
      <SummaryCards
        label="Your account"
        loading={centre.isPending}
        cards={[
          { label: 'Balance due', value: c ? <Money rupees={c.balance} /> : '—', icon: <IndianRupee /> },
          {
            label: 'Credit limit',
            value: c ? c.credit_limit === null ? 'No limit' : <Money rupees={c.credit_limit} /> : '—',
            icon: <Wallet />,
          },
          { label: 'Credit days', value: c ? `${c.credit_days} days` : '—', icon: <CalendarClock /> },
          {
            label: 'Bills past due',
            value: c ? c.hold.overdue_bills : '—',
            icon: <AlertTriangle />,
            hint: c?.hold.on_hold ? 'On hold' : 'In good standing',
          },
        ]}
      />
      <div className="flex flex-wrap gap-2">
        <LinkButton to="/centre-portal/bills" variant="outline">
          <FileText />
          Bills and reports
        </LinkButton>
        <LinkButton to="/centre-portal/statement" variant="outline">
          <Receipt />
          Statement
        </LinkButton>
      </div>
    </>
  );
}
