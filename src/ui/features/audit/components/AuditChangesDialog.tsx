import type { ReactNode } from 'react';
import type { AuditLog } from '@shared/schemas/audit';
import { Badge, Dialog, DateText } from '@/components';
import { humanize } from '@/lib/format';
import { actionTone, auditEntityName, showValue } from '@/lib/audit';
import { actorName } from '@/lib/actor';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[7rem_1fr] gap-2">
      <dt className="text-slate-600">{label}</dt>
      <dd className="min-w-0 break-words text-slate-900">{children}</dd>
    </div>
  );
}

/** A stored value; "no value" (absent or null) is a grey dash so it does not read as a change colour. */
function Value({ present, value }: { present: boolean; value: unknown }) {
  if (!present || value === null || value === undefined) return <span className="text-slate-400">—</span>;
  return <>{showValue(value)}</>;
}

/** One audit row: who, when, from where, and each field's old and new value side by side. */
export function AuditChangesDialog({ log, onClose }: { log: AuditLog | null; onClose: () => void }) {
  const oldV = log?.old_values ?? {};
  const newV = log?.new_values ?? {};
  const fields = [...new Set([...Object.keys(oldV), ...Object.keys(newV)])];
  return (
    <Dialog
      open={log !== null}
      onOpenChange={(o) => !o && onClose()}
      size="lg"
      title={log ? `Audit Entry #${log.id}` : 'Audit Entry'}
    >
      {log && (
        <div className="grid gap-4 text-[13px]">
          <dl className="grid gap-1.5 sm:grid-cols-2">
            <Row label="Time">
              <DateText value={log.created_at} withTime />
            </Row>
            <Row label="User">{actorName(log)}</Row>
            <Row label="Action">
              <Badge tone={actionTone(log.action)}>{humanize(log.action)}</Badge>
            </Row>
            <Row label="Record">
              {auditEntityName(log.entity)}
              {log.entity_id ? ` #${log.entity_id}` : ''}
            </Row>
            <Row label="Status">
              <Badge status={log.status} />
            </Row>
            <Row label="IP address">{log.ip_address ?? '—'}</Row>
            <div className="sm:col-span-2">
              <Row label="Browser">{log.user_agent ?? '—'}</Row>
            </div>
          </dl>
          {fields.length === 0 ? (
            <p className="rounded-md bg-slate-50 px-3 py-2 text-slate-700">
              No field values were recorded for this entry.
            </p>
          ) : (
            <div className="overflow-x-auto rounded-md border border-slate-200">
              <table className="w-full border-collapse">
                <caption className="sr-only">Changed fields</caption>
                <thead>
                  <tr className="border-b border-slate-200 bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
                    {['Field', 'Old value', 'New value'].map((h) => (
                      <th key={h} scope="col" className="px-3 py-2">
                        {h}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {fields.map((f) => {
                    const hadOld = f in oldV;
                    const hasNew = f in newV;
                    return (
                      <tr key={f} className="border-b border-slate-100 align-top last:border-0">
                        <th scope="row" className="px-3 py-2 text-left font-medium whitespace-nowrap text-slate-800">
                          {humanize(f)}
                        </th>
                        <td className="px-3 py-2 break-all text-red-800">
                          <Value present={hadOld} value={oldV[f]} />
                        </td>
                        <td className="px-3 py-2 break-all text-green-800">
                          <Value present={hasNew} value={newV[f]} />
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )}
        </div>
      )}
    </Dialog>
  );
}
