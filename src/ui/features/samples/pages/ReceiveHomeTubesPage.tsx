import { useRef, useState } from 'react';
import { PackageCheck } from 'lucide-react';
import type { TransitTube } from '@shared/schemas/home-collection';
import { tubeLabel } from '@shared/tubes';
import {
  Button,
  Card,
  CardBody,
  CardHeader,
  DataTable,
  DateText,
  FormField,
  Input,
  queryState,
  ScreenHeader,
  type Column,
} from '@/components';
import { normaliseBarcode } from '../useBarcodeLookup';
import { useHomeTubesInTransit, useReceiveHomeTubeMutation } from '../receiveHome';

/**
 * Receive Home Tubes: the tubes drawn at patients' homes that have not reached the bench yet, and
 * a scan field (a hand scanner types the barcode and Enter) that takes each one in. When the lab
 * records temperatures the field beside it is required and keeps its value from tube to tube (a
 * box of tubes arrives at one temperature).
 */
export default function ReceiveHomeTubesPage() {
  const transit = useHomeTubesInTransit();
  const recordTemperature = transit.data?.record_temperature ?? false;
  const [barcode, setBarcode] = useState('');
  const [temperature, setTemperature] = useState('');
  const [errors, setErrors] = useState<{ barcode?: string; temperature?: string }>({});
  const scanRef = useRef<HTMLInputElement>(null);
  const receive = useReceiveHomeTubeMutation((field, message) => setErrors({ [field]: message }));

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const code = normaliseBarcode(barcode);
    if (!code) return setErrors({ barcode: 'Scan or type a barcode' });
    const t = temperature.trim() === '' ? null : Number(temperature);
    if (recordTemperature && t === null) return setErrors({ temperature: 'Temperature (°C) is required' });
    if (t !== null && !Number.isFinite(t)) return setErrors({ temperature: 'Temperature must be a number of °C' });
    setErrors({});
    receive.mutate(
      { barcode: code, temperature: t },
      {
        onSettled: () => {
          setBarcode('');
          scanRef.current?.focus();
        },
      },
    );
  };

  const columns: Column<TransitTube>[] = [
    {
      key: 'barcode',
      header: 'Barcode',
      cell: (t) => <span className="font-mono text-[13px] text-slate-900">{t.barcode}</span>,
    },
    {
      key: 'patient',
      header: 'Patient',
      cell: (t) => (
        <span className="block min-w-0">
          <span className="block font-medium text-slate-900">{t.patient_name}</span>
          <span className="block text-[13px] text-slate-600">
            {t.patient_code} · {t.booking_number}
          </span>
          <span className="block text-[13px] text-slate-600 md:hidden">
            Drawn <DateText value={t.collected_at} withTime />
          </span>
        </span>
      ),
    },
    { key: 'tube', header: 'Tube', cell: (t) => tubeLabel(t.container) ?? t.sample_type, hideOnMobile: true },
    { key: 'sample', header: 'Sample', cell: (t) => t.sample_code ?? '—', hideOnMobile: true },
    { key: 'collector', header: 'Drawn by', cell: (t) => t.phlebotomist_name ?? '—', hideOnMobile: true },
    {
      key: 'drawn',
      header: 'Drawn at',
      cell: (t) => <DateText value={t.collected_at} withTime />,
      hideOnMobile: true,
    },
  ];
  const count = transit.data?.tubes.length;

  return (
    <>
      <ScreenHeader />
      <Card className="mb-4">
        <CardHeader
          title="Scan a tube"
          description={
            recordTemperature
              ? 'The lab records the temperature of every tube received: give it in °C, then scan.'
              : 'Scan the tube’s barcode; the scanner’s Enter receives it.'
          }
        />
        <CardBody>
          <form className="flex flex-wrap items-start gap-3" onSubmit={submit} noValidate>
            <FormField label="Barcode" error={errors.barcode} className="min-w-0 flex-1 basis-56">
              <Input
                ref={scanRef}
                autoFocus
                autoComplete="off"
                spellCheck={false}
                value={barcode}
                onChange={(e) => setBarcode(e.target.value)}
                placeholder="Scan or type the tube’s barcode"
                className="font-mono tracking-wide"
              />
            </FormField>
            {recordTemperature && (
              <FormField label="Temperature (°C)" required error={errors.temperature} className="w-40">
                <Input
                  inputMode="decimal"
                  value={temperature}
                  onChange={(e) => setTemperature(e.target.value)}
                  placeholder="e.g. 4"
                />
              </FormField>
            )}
            <Button type="submit" className="mt-6" loading={receive.isPending} loadingText="Receiving...">
              <PackageCheck />
              Receive
            </Button>
          </form>
        </CardBody>
      </Card>
      <Card>
        <CardHeader
          title="In transit"
          description={
            count === undefined
              ? 'Tubes drawn at home, not yet received'
              : `${count} tube${count === 1 ? '' : 's'} on the way`
          }
        />
        <CardBody className="p-0">
          <DataTable
            caption="Tubes in transit"
            columns={columns}
            rows={transit.data?.tubes}
            getRowId={(t) => t.barcode}
            {...queryState(transit)}
            errorTitle="Could not load the tubes in transit"
            empty={{
              title: 'No tubes in transit',
              hint: 'Tubes appear here once a phlebotomist’s phone sends the visit.',
            }}
          />
        </CardBody>
      </Card>
    </>
  );
}
