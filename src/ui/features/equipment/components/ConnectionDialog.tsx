import { Plus, X } from 'lucide-react';
import {
  CONNECTION_PROTOCOLS,
  CONNECTION_PROTOCOL_LABELS,
  CONNECTION_TRANSPORTS,
  CONNECTION_TRANSPORT_LABELS,
  SERIAL_BAUD_RATES,
  SERIAL_DATA_BITS,
  MAX_MESSAGE_KIB_DEFAULT,
  SERIAL_DEFAULTS,
  SERIAL_PARITIES,
  SERIAL_STOP_BITS,
  type Connection,
  type ConnectionCreate,
} from '@shared/schemas/connections';
import { Button, Checkbox, FormDialog, FormField, Input, Select } from '@/components';
import { useFieldForm } from '@/lib/forms';
import { useCatalogueList } from '@/lib/catalogue';
import { useEntryEquipment } from '@/lib/equipment';
import { useSaveConnection } from '../interfaces-api';
import { ProfileSection } from './ProfileSection';
import { draftOf, presetProfile, settingsOf, viewProtocol, type ProfileDraft } from './profileDraft';
import { bindText } from '@/lib/bindText';

/**
 * Add or edit a machine connection (Machine Integration): protocol, transport, and the code map
 * from the machine's codes to the lab's tests. A code may be ignored (a flag or research value the
 * lab does not report): its values stay in the message log and never reach the Unmatched queue.
 */
interface MapRow {
  code: string;
  test_id: string;
  unit: string;
  factor: string;
  ignore: boolean;
}

interface FormState {
  name: string;
  equipment_id: string;
  protocol: ConnectionCreate['protocol'];
  transport: ConnectionCreate['transport'];
  host: string;
  port: string;
  path: string;
  baud_rate: string;
  data_bits: string;
  parity: string;
  stop_bits: string;
  lenient: boolean;
  enabled: boolean;
  send_orders: boolean;
  max_message_kib: string;
  profile: Connection['profile'];
  profile_settings: ProfileDraft;
  code_map: MapRow[];
}

function formOf(c: Connection | null): FormState {
  return {
    name: c?.name ?? '',
    equipment_id: c?.equipment_id ? String(c.equipment_id) : '',
    protocol: c?.protocol ?? 'astm',
    transport: c?.transport ?? 'tcp-server',
    host: c?.host ?? '',
    port: c?.port ? String(c.port) : '',
    path: c?.path ?? '',
    baud_rate: String(c?.baud_rate ?? SERIAL_DEFAULTS.baud_rate),
    data_bits: String(c?.data_bits ?? SERIAL_DEFAULTS.data_bits),
    parity: c?.parity ?? SERIAL_DEFAULTS.parity,
    stop_bits: String(c?.stop_bits ?? SERIAL_DEFAULTS.stop_bits),
    lenient: c?.lenient ?? true,
    enabled: c?.enabled ?? false,
    send_orders: c?.send_orders ?? false,
    max_message_kib: String(c?.max_message_kib ?? MAX_MESSAGE_KIB_DEFAULT),
    profile: c?.profile ?? 'standard',
    profile_settings: draftOf(c?.profile_settings),
    code_map: (c?.code_map ?? []).map((e) => ({
      code: e.code,
      test_id: e.test_id === null ? '' : String(e.test_id),
      unit: e.unit ?? '',
      factor: e.factor === null ? '' : String(e.factor),
      ignore: e.ignore,
    })),
  };
}

export function ConnectionDialog({
  connection,
  open,
  onOpenChange,
}: {
  connection: Connection | null;
  open: boolean;
  onOpenChange: (o: boolean) => void;
}) {
  const save = useSaveConnection();
  const tests = useCatalogueList('test', {}, { enabled: open });
  const machines = useEntryEquipment(open);
  // A fresh form each time the dialog opens.
  const {
    values: f,
    set,
    setValues: setF,
    errors,
    setErrors,
    showErrors,
  } = useFieldForm(() => formOf(connection), { resetFor: open ? (connection ?? 'new') : null });
  const text = bindText(f, set);
  const setRow = (i: number, patch: Partial<MapRow>) =>
    setF((x) => ({ ...x, code_map: x.code_map.map((r, j) => (j === i ? { ...r, ...patch } : r)) }));
  const canSendOrders = f.protocol !== 'folder' && f.transport !== 'folder';
  const tcp = f.transport === 'tcp-server' || f.transport === 'tcp-client';
  const submit = () => {
    const body = {
      name: f.name,
      equipment_id: f.equipment_id ? Number(f.equipment_id) : null,
      protocol: f.protocol,
      transport: f.transport,
      // Only the chosen transport's own fields: a port left from TCP is not kept on a serial line.
      host: tcp ? f.host || null : null,
      port: tcp && f.port !== '' ? f.port : null,
      path: tcp ? null : f.path || null,
      ...(f.transport === 'serial'
        ? {
            baud_rate: Number(f.baud_rate),
            data_bits: Number(f.data_bits),
            parity: f.parity,
            stop_bits: Number(f.stop_bits),
          }
        : {}),
      lenient: f.lenient,
      enabled: f.enabled,
      send_orders: canSendOrders && f.send_orders,
      max_message_kib: f.max_message_kib === '' ? null : f.max_message_kib,
      profile: f.profile,
      profile_settings: settingsOf(f.profile_settings, presetProfile(viewProtocol(f.protocol, f.profile), f.profile)),
      code_map: f.code_map.map((r) =>
        r.ignore
          ? { code: r.code, ignore: true }
          : {
              code: r.code,
              test_id: r.test_id === '' ? null : Number(r.test_id),
              unit: r.unit || null,
              factor: r.factor === '' ? null : r.factor,
            },
      ),
    } as unknown as ConnectionCreate;
    save.mutate({ id: connection?.id ?? null, body }, { onSuccess: () => onOpenChange(false), onError: showErrors });
  };
  const testOptions = (tests.data ?? []).map((t) => ({ value: String(t.id), label: `${t.name} (${t.code})` }));
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      size="xl"
      title={connection ? `Edit Connection: ${connection.name}` : 'Add Connection'}
      description="Results are matched to the sample by the barcode the machine reads, and to the test by the code map. They are entered as the machine and wait for verification."
      busy={save.isPending}
      onSubmit={submit}
      submitLabel={connection ? 'Save Changes' : 'Add Connection'}
      error={errors.form}
    >
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <FormField label="Name" required error={errors.name}>
          <Input {...text('name')} placeholder="e.g. Sysmex XN-550" />
        </FormField>
        <FormField label="Machine" error={errors.equipment_id} hint="Results name it as their instrument.">
          <Select
            {...text('equipment_id')}
            placeholder="Not linked"
            options={(machines.data ?? []).map((m) => ({ value: String(m.id), label: m.name }))}
          />
        </FormField>
        <FormField label="Protocol" required error={errors.protocol}>
          <Select
            {...text('protocol')}
            options={CONNECTION_PROTOCOLS.map((p) => ({ value: p, label: CONNECTION_PROTOCOL_LABELS[p] }))}
          />
        </FormField>
        <FormField label="Transport" required error={errors.transport}>
          <Select
            {...text('transport')}
            options={CONNECTION_TRANSPORTS.map((t) => ({ value: t, label: CONNECTION_TRANSPORT_LABELS[t] }))}
          />
        </FormField>
        {f.transport === 'folder' ? (
          <FormField
            label="Folder"
            required
            error={errors.path}
            hint="A folder inside this lab's drop folder on the server (e.g. sysmex); the server's operator chooses where that is"
            className="sm:col-span-2"
          >
            <Input {...text('path')} placeholder="sysmex" />
          </FormField>
        ) : f.transport === 'serial' ? (
          <>
            <FormField
              label="Serial port"
              required
              error={errors.path}
              hint="The device on the lims computer the machine's cable is on."
            >
              <Input {...text('path')} placeholder="/dev/ttyUSB0 or COM3" />
            </FormField>
            <FormField label="Baud rate" error={errors.baud_rate}>
              <Select
                {...text('baud_rate')}
                options={SERIAL_BAUD_RATES.map((b) => ({ value: String(b), label: String(b) }))}
              />
            </FormField>
            <div className="grid grid-cols-3 gap-2 sm:col-span-2">
              <FormField label="Data bits" error={errors.data_bits}>
                <Select
                  {...text('data_bits')}
                  options={SERIAL_DATA_BITS.map((b) => ({ value: String(b), label: String(b) }))}
                />
              </FormField>
              <FormField label="Parity" error={errors.parity}>
                <Select {...text('parity')} options={SERIAL_PARITIES.map((p) => ({ value: p, label: p }))} />
              </FormField>
              <FormField label="Stop bits" error={errors.stop_bits}>
                <Select
                  {...text('stop_bits')}
                  options={SERIAL_STOP_BITS.map((b) => ({ value: String(b), label: String(b) }))}
                />
              </FormField>
            </div>
          </>
        ) : (
          <>
            <FormField
              label={f.transport === 'tcp-client' ? 'Machine host' : 'Listen on (address)'}
              required={f.transport === 'tcp-client'}
              error={errors.host}
              hint={
                f.transport === 'tcp-server'
                  ? "Empty: the server's own address. 0.0.0.0 for the whole network."
                  : undefined
              }
            >
              <Input {...text('host')} />
            </FormField>
            <FormField label="Port" required error={errors.port}>
              <Input inputMode="numeric" {...text('port')} />
            </FormField>
          </>
        )}
        <FormField
          label="Largest message (KiB)"
          error={errors.max_message_kib}
          hint={`A transmission over this is refused and the line closed (default ${MAX_MESSAGE_KIB_DEFAULT} KiB)`}
        >
          <Input inputMode="numeric" {...text('max_message_kib')} />
        </FormField>
        <div className="flex flex-col gap-2 sm:col-span-2">
          <Checkbox
            label="Lenient ASTM frames (accept frames over 247 bytes and a missing CR LF, as many machines send)"
            checked={f.lenient}
            onChange={(e) => set('lenient', e.target.checked)}
          />
          {canSendOrders && (
            <Checkbox
              label="Send orders to the machine (each collected sample's mapped tests, without waiting for its query)"
              checked={f.send_orders}
              onChange={(e) => set('send_orders', e.target.checked)}
            />
          )}
          {errors.send_orders && <p className="text-sm text-red-700">{errors.send_orders}</p>}
          <Checkbox
            label="Enabled (listen now)"
            checked={f.enabled}
            onChange={(e) => set('enabled', e.target.checked)}
          />
        </div>
        <ProfileSection
          protocol={f.protocol}
          profile={f.profile}
          onProfile={(p) => set('profile', p)}
          draft={f.profile_settings}
          onDraft={(d) => set('profile_settings', d)}
          errors={errors}
          setErrors={setErrors}
        />
        <fieldset className="sm:col-span-2">
          <legend className="text-sm font-medium text-slate-900">Code map</legend>
          <p className="mb-2 text-xs text-slate-600">
            A code the machine sends that is not listed here waits in Unmatched Results. Tick Ignore for flags and
            research values the lab does not report.
          </p>
          {errors.code_map && <p className="mb-2 text-sm text-red-700">{errors.code_map}</p>}
          <div className="grid gap-2">
            {f.code_map.map((r, i) => (
              <div
                key={i}
                className="grid grid-cols-2 items-start gap-2 rounded-md border border-slate-200 p-2 md:grid-cols-[8rem_1fr_7rem_6rem_auto]"
              >
                <FormField label="Machine code" error={errors[`code_map.${i}.code`]}>
                  <Input value={r.code} onChange={(e) => setRow(i, { code: e.target.value })} placeholder="685/" />
                </FormField>
                {r.ignore ? (
                  <p className="self-end pb-2 text-sm text-slate-600 md:col-span-3">
                    Ignored: kept in the message log, not entered and not sent to Unmatched.
                  </p>
                ) : (
                  <>
                    <FormField label="Test" error={errors[`code_map.${i}.test_id`]}>
                      <Select
                        value={r.test_id}
                        onChange={(e) => setRow(i, { test_id: e.target.value })}
                        placeholder="Select test"
                        options={testOptions}
                      />
                    </FormField>
                    <FormField label="Unit sent" error={errors[`code_map.${i}.unit`]}>
                      <Input value={r.unit} onChange={(e) => setRow(i, { unit: e.target.value })} />
                    </FormField>
                    <FormField label="Factor" error={errors[`code_map.${i}.factor`]}>
                      <Input
                        inputMode="decimal"
                        value={r.factor}
                        onChange={(e) => setRow(i, { factor: e.target.value })}
                      />
                    </FormField>
                  </>
                )}
                <div className="col-span-2 flex items-center justify-between gap-2 md:col-span-1 md:flex-col md:items-end md:self-end">
                  <Checkbox
                    label="Ignore"
                    aria-label={`Ignore code ${r.code || i + 1}`}
                    checked={r.ignore}
                    onChange={(e) => setRow(i, { ignore: e.target.checked })}
                  />
                  <Button
                    variant="ghost"
                    aria-label={`Remove code ${r.code || i + 1}`}
                    onClick={() => setF((x) => ({ ...x, code_map: x.code_map.filter((_, j) => j !== i) }))}
                  >
                    <X />
                  </Button>
                </div>
              </div>
            ))}
          </div>
          <Button
            variant="outline"
            className="mt-2"
            onClick={() =>
              setF((x) => ({
                ...x,
                code_map: [...x.code_map, { code: '', test_id: '', unit: '', factor: '', ignore: false }],
              }))
            }
          >
            <Plus />
            Add Code
          </Button>
        </fieldset>
      </div>
    </FormDialog>
  );
}
