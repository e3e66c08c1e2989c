import { useQuery } from '@tanstack/react-query';
import { call } from '@/lib/api';
import { messagingApi } from '@shared/api/messaging';
import type { SmsUpdateInput, SmtpUpdateInput } from '@shared/schemas/messaging';

/** Lab email and SMS on /settings: the mail server, the SMS gateway, Send Test and the outbox's figures. */
export type {
  Deliveries,
  Delivery,
  SendOutcome,
  SmsSettings,
  SmsUpdateInput,
  SmtpSettings,
  SmtpUpdateInput,
} from '@shared/schemas/messaging';

export const messagingKeys = {
  email: ['settings', 'email'] as const,
  sms: ['settings', 'sms'] as const,
  deliveries: ['settings', 'deliveries'] as const,
};

export function useEmailSettings() {
  return useQuery({ queryKey: messagingKeys.email, queryFn: async () => (await call(messagingApi.email, {})).email });
}

export function useSmsSettings() {
  return useQuery({ queryKey: messagingKeys.sms, queryFn: async () => (await call(messagingApi.sms, {})).sms });
}

/** Refreshed every 30 s while the page is open: the sender works in the background. */
export function useDeliveries() {
  return useQuery({
    queryKey: messagingKeys.deliveries,
    queryFn: () => call(messagingApi.deliveries, {}),
    refetchInterval: 30_000,
  });
}

export const saveEmailSettings = (body: SmtpUpdateInput) =>
  call(messagingApi.updateEmail, { body }).then((r) => r.email);
export const saveSmsSettings = (body: SmsUpdateInput) => call(messagingApi.updateSms, { body }).then((r) => r.sms);
export const sendTestEmail = (to: string) => call(messagingApi.testEmail, { body: { to } }).then((r) => r.test);
export const sendTestSms = (to: string) => call(messagingApi.testSms, { body: { to } }).then((r) => r.test);

/** What each kind of message is about, as the Notification section lists them. */
export const DELIVERY_KINDS: Record<string, string> = {
  critical_result: 'Critical result',
  sample_rejected: 'Sample rejected',
  result_amended: 'Result amended',
  bill_overdue: 'Bill overdue',
  backup_failed: 'Backup failed',
  import_finished: 'Import finished',
  import_failed: 'Import failed',
  stock_alert: 'Stock alert',
  equipment_reading: 'Equipment reading out of range',
  calibration_overdue: 'Calibration overdue',
  maintenance_overdue: 'Maintenance overdue',
  report_ready: 'Report ready',
};
