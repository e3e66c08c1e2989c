import { useState } from 'react';
import { PlugZap } from 'lucide-react';
import {
  EQUIPMENT_SET_STATUSES,
  EQUIPMENT_STATUS_LABELS,
  type Equipment,
  type EquipmentSetStatus,
} from '@shared/schemas/equipment';
import { Button, DateText, Dialog, FormField, Input, Select } from '@/components';
import { useAddReadingMutation, useEquipmentHistory, useEquipmentReadings, useEquipmentStatusMutation } from '../api';
import { EquipmentStatusBadge } from './badges';
import { fieldErrors } from '@/lib/forms';

export interface EquipmentDetailDialogProps {
  equipment: Equipment | null;
  onOpenChange: (open: boolean) => void;
  /** May change the status and log readings (manage_equipment). */
  canWork: boolean;
}

const dash = (v: string | number | null) => (v === null || v === '' ? '—' : String(v));

function limits(min: number | null, max: number | null, unit: string): string {
  if (min === null && max === null) return 'no limits set';
  if (min !== null && max !== null) return `${min} to ${max}${unit}`;
  return min !== null ? `at least ${min}${unit}` : `at most ${max}${unit}`;
}

/** One machine or instrument: its details, status (and its history), readings, and the analyser connection. */
export function EquipmentDetailDialog(props: EquipmentDetailDialogProps) {
  return props.equipment ? <EquipmentDetail key={props.equipment.id} {...props} equipment={props.equipment} /> : null;
}

function EquipmentDetail({
  equipment: e,
  onOpenChange,
  canWork,
}: EquipmentDetailDialogProps & { equipment: Equipment }) {
  const id = e.id;
  const history = useEquipmentHistory(id);
  const readings = useEquipmentReadings(id);
  const setStatus = useEquipmentStatusMutation();
  const addReading = useAddReadingMutation();
  const [status, setStatusValue] = useState<EquipmentSetStatus>(e.set_status);
  const [reason, setReason] = useState('');
  const [temperature, setTemperature] = useState('');
  const [humidity, setHumidity] = useState('');
  const readingErrors = addReading.error ? fieldErrors(addReading.error) : {};
  const fieldError = (path: string) => readingErrors[path];

  return (
    <Dialog
      open
      onOpenChange={onOpenChange}
      size="xl"
      title={`${e.name} (${e.serial_number})`}
      description={[e.model, e.type, e.location].filter(Boolean).join(' · ') || undefined}
    >
      <div className="grid gap-5">
        <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-[13px] sm:grid-cols-4">
          <div>
            <dt className="text-slate-600">Status</dt>
            <dd>
              <EquipmentStatusBadge status={e.status} />
            </dd>
          </div>
          <div>
            <dt className="text-slate-600">Uptime (7 days)</dt>
            <dd className="tabular-nums">{e.uptime === null ? '—' : `${e.uptime}%`}</dd>
          </div>
          <div>
            <dt className="text-slate-600">Tests per hour</dt>
            <dd className="tabular-nums">{dash(e.tests_per_hour)}</dd>
          </div>
          <div>
            <dt className="text-slate-600">Tests (7 days)</dt>
            <dd className="tabular-nums">{e.tests_in_window}</dd>
          </div>
          <div>
            <dt className="text-slate-600">Last calibration</dt>
            <dd>
              <DateText value={e.calibration_date} />
            </dd>
          </div>
          <div>
            <dt className="text-slate-600">Next calibration</dt>
            <dd className={e.calibration_overdue ? 'font-medium text-red-700' : ''}>
              <DateText value={e.next_calibration} />
              {e.calibration_overdue && ' (overdue)'}
            </dd>
          </div>
          <div>
            <dt className="text-slate-600">Last maintenance</dt>
            <dd>
              <DateText value={e.last_maintenance} />
            </dd>
          </div>
          <div>
            <dt className="text-slate-600">Next maintenance</dt>
            <dd className={e.maintenance_overdue ? 'font-medium text-red-700' : ''}>
              <DateText value={e.next_maintenance} />
              {e.maintenance_overdue && ' (overdue)'}
            </dd>
          </div>
          <div>
            <dt className="text-slate-600">Installed on</dt>
            <dd>
              <DateText value={e.installed_on} />
            </dd>
          </div>
          <div>
            <dt className="text-slate-600">Warranty end</dt>
            <dd>
              <DateText value={e.warranty_end} />
            </dd>
          </div>
          <div>
            <dt className="text-slate-600">Supplier</dt>
            <dd>{dash(e.supplier)}</dd>
          </div>
          <div>
            <dt className="text-slate-600">Limits</dt>
            <dd>
              {limits(e.min_temperature, e.max_temperature, ' °C')}; {limits(e.min_humidity, e.max_humidity, '%')}
            </dd>
          </div>
        </dl>

        {e.kind === 'machine' && (
          <section
            aria-labelledby="analyser-connection"
            className="rounded-md border border-dashed border-slate-300 bg-slate-50 p-3 text-[13px]"
          >
            <h3 id="analyser-connection" className="flex items-center gap-2 font-medium text-slate-900">
              <PlugZap className="size-4" aria-hidden="true" /> Analyser connection
            </h3>
            <p className="mt-1 text-slate-700">
              Not connected. lims does not yet receive results from analysers (ASTM / HL7 interfaces come in a later
              version). Until then results are typed on the Results screen, where they can name this machine.
            </p>
          </section>
        )}

        {canWork && (
          <div className="grid gap-4 md:grid-cols-2">
            <form
              className="grid content-start gap-3 rounded-md border border-slate-200 p-3"
              onSubmit={(ev) => {
                ev.preventDefault();
                setStatus.mutate({ id: e.id, status, reason });
              }}
            >
              <h3 className="text-sm font-medium text-slate-900">Change Status</h3>
              <FormField label="New status">
                <Select
                  value={status}
                  onChange={(ev) => setStatusValue(ev.target.value as EquipmentSetStatus)}
                  options={EQUIPMENT_SET_STATUSES.map((s) => ({ value: s, label: EQUIPMENT_STATUS_LABELS[s] }))}
                />
              </FormField>
              <FormField label="Reason">
                <Input value={reason} onChange={(ev) => setReason(ev.target.value)} placeholder="e.g. Lamp failure" />
              </FormField>
              <Button
                type="submit"
                variant="outline"
                loading={setStatus.isPending}
                loadingText="Saving..."
                disabled={status === e.set_status}
              >
                Save Status
              </Button>
            </form>
            <form
              className="grid content-start gap-3 rounded-md border border-slate-200 p-3"
              onSubmit={(ev) => {
                ev.preventDefault();
                addReading.mutate(
                  {
                    id: e.id,
                    body: {
                      temperature: temperature === '' ? null : temperature,
                      humidity: humidity === '' ? null : humidity,
                    },
                  },
                  {
                    onSuccess: () => {
                      setTemperature('');
                      setHumidity('');
                    },
                  },
                );
              }}
            >
              <h3 className="text-sm font-medium text-slate-900">Log Reading</h3>
              <div className="grid grid-cols-2 gap-3">
                <FormField label="Temperature (°C)" error={fieldError('temperature')}>
                  <Input
                    type="number"
                    inputMode="decimal"
                    step="0.1"
                    value={temperature}
                    onChange={(ev) => setTemperature(ev.target.value)}
                  />
                </FormField>
                <FormField label="Humidity (%)" error={fieldError('humidity')}>
                  <Input
                    type="number"
                    inputMode="decimal"
                    step="0.1"
                    value={humidity}
                    onChange={(ev) => setHumidity(ev.target.value)}
                  />
                </FormField>
              </div>
              <Button type="submit" variant="outline" loading={addReading.isPending} loadingText="Saving...">
                Record Reading
              </Button>
            </form>
          </div>
        )}

        <div className="grid gap-4 md:grid-cols-2">
          <section aria-labelledby="status-history">
            <h3 id="status-history" className="mb-2 text-sm font-medium text-slate-900">
              Status History
            </h3>
            {history.isPending ? (
              <p className="text-[13px] text-slate-600">Loading…</p>
            ) : history.isError ? (
              <p className="text-[13px] text-red-700">Could not load the history.</p>
            ) : (
              <ul className="grid max-h-56 gap-1.5 overflow-y-auto text-[13px]">
                {history.data.map((h) => (
                  <li key={h.id} className="border-b border-slate-100 pb-1">
                    <span className="font-medium">
                      {EQUIPMENT_STATUS_LABELS[h.status as EquipmentSetStatus] ?? h.status}
                    </span>
                    {h.reason && <span className="text-slate-700"> — {h.reason}</span>}
                    <span className="block text-slate-600">
                      <DateText value={h.changed_at} withTime /> {h.changed_by_name ? `by ${h.changed_by_name}` : ''}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="readings">
            <h3 id="readings" className="mb-2 text-sm font-medium text-slate-900">
              Readings
            </h3>
            {readings.isPending ? (
              <p className="text-[13px] text-slate-600">Loading…</p>
            ) : readings.isError ? (
              <p className="text-[13px] text-red-700">Could not load the readings.</p>
            ) : readings.data.length === 0 ? (
              <p className="text-[13px] text-slate-600">No readings logged yet.</p>
            ) : (
              <ul className="grid max-h-56 gap-1.5 overflow-y-auto text-[13px]">
                {readings.data.map((r) => (
                  <li
                    key={r.id}
                    className={
                      r.out_of_range ? 'border-b border-slate-100 pb-1 text-red-700' : 'border-b border-slate-100 pb-1'
                    }
                  >
                    <span className="tabular-nums">
                      {r.temperature !== null && `${r.temperature} °C`} {r.humidity !== null && `${r.humidity}%`}
                    </span>
                    {r.out_of_range && <span className="font-medium"> out of range</span>}
                    <span className="block text-slate-600">
                      <DateText value={r.recorded_at} withTime /> {r.recorded_by_name ? `by ${r.recorded_by_name}` : ''}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      </div>
    </Dialog>
  );
}
