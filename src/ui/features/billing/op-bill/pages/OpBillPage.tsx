import { useState } from 'react';
import { ReceiptText, Stethoscope, UserRound } from 'lucide-react';
import type { Bill } from '@shared/schemas/bills';
import type { Patient } from '@shared/schemas/patients';
import { Card, CardBody, CardHeader, PageHeader } from '@/components';
import { useScreen } from '@/lib/screens';
import { ApiError } from '@/lib/api';
import { notify } from '@/lib/notify';
import { useCreateBillMutation, type Doctor } from '@/lib/bills';
import { CataloguePickers } from '../../shared/CataloguePickers';
import { DoctorPicker } from '../../shared/DoctorPicker';
import { lineErrorPath, toItems } from '../../shared/lines';
import { amountPaid, amountPaidError } from '../../shared/PaymentFields';
import { openPrintWindow, showBillInWindow } from '../../shared/print';
import { useBillDraft } from '../../shared/useBillDraft';
import { BillLinesTable } from '../components/BillLinesTable';
import { OpBillSummary, type OpPaymentMethod } from '../components/OpBillSummary';
import { PatientPicker } from '../components/PatientPicker';
import { SavedBillPanel } from '../components/SavedBillPanel';

/** Messages from the server for the fields outside the lines. */
interface FieldErrors {
  patient?: string;
  doctor?: string;
  discount?: string;
  tax?: string;
  amount?: string;
}

const FIELD_OF_PATH: Record<string, keyof FieldErrors> = {
  patient_id: 'patient',
  doctor_id: 'doctor',
  discount_percentage: 'discount',
  tax_percentage: 'tax',
  amount_paid: 'amount',
  amount: 'amount',
};

/** OP Bill (spec 2.8): pick a patient and a doctor, add catalogue items, save and print the bill. */
export default function OpBillPage() {
  const screen = useScreen();
  const [patient, setPatient] = useState<Patient | null>(null);
  const [doctor, setDoctor] = useState<Doctor | null>(null);
  const [method, setMethod] = useState<OpPaymentMethod>('cash');
  const [amount, setAmount] = useState('');
  const [busy, setBusy] = useState<'save' | 'print' | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saved, setSaved] = useState<Bill | null>(null);
  const draft = useBillDraft({ consultationFee: doctor?.consultation_fee ?? 0 });
  const create = useCreateBillMutation();
  const amountError = amountPaidError(amount, draft.amounts.finalPaise);

  const clearError = (k: keyof FieldErrors) => setErrors((e) => ({ ...e, [k]: undefined }));

  const placeServerErrors = (err: unknown) => {
    if (!(err instanceof ApiError) || err.status !== 400) return;
    const fields: FieldErrors = {};
    const lines: Record<number, string> = {};
    for (const d of err.details) {
      const line = lineErrorPath(d.path);
      if (line) lines[line.index] = d.message;
      const f = FIELD_OF_PATH[d.path];
      if (f) fields[f] = d.message;
    }
    setErrors(fields);
    draft.setLineServerErrors(lines);
  };

  const clearForm = () => {
    setPatient(null);
    setDoctor(null);
    draft.reset();
    setMethod('cash');
    setAmount('');
    setErrors({});
  };

  const submit = (mode: 'save' | 'print') => {
    if (!patient || !doctor) {
      notify.error(
        mode === 'print'
          ? 'Please select both patient and doctor before printing'
          : 'Please select both patient and doctor',
      );
      return;
    }
    if (draft.lines.length === 0) {
      notify.error('Please add at least one test, profile, or package');
      return;
    }
    if (draft.hasErrors || amountError) {
      notify.error(
        'Please correct the highlighted values',
        'Percentages are 0 to 100, quantities 1 to 1000, and the amount received cannot exceed the final total.',
      );
      return;
    }
    // Opened inside the click, before the save, so popup blockers let it through.
    const printWindow = mode === 'print' ? openPrintWindow() : null;
    if (mode === 'print' && !printWindow) return;
    setBusy(mode);
    create
      .mutateAsync({
        patient_id: patient.id,
        doctor_id: doctor.id,
        items: toItems(draft.lines),
        discount_percentage: draft.discountPercent,
        tax_percentage: draft.taxPercent,
        payment_method: method,
        amount_paid: amountPaid(amount),
      })
      .then(
        (bill) => {
          setSaved(bill);
          clearForm();
          if (printWindow) showBillInWindow(printWindow, bill);
        },
        (err: unknown) => {
          printWindow?.close();
          placeServerErrors(err);
        },
      )
      .finally(() => setBusy(null));
  };

  return (
    <div>
      <PageHeader title={screen.title} subtitle={screen.subtitle} />
      {saved && <SavedBillPanel bill={saved} onDismiss={() => setSaved(null)} />}
      <div className="grid gap-5">
        <div className="grid gap-5 lg:grid-cols-2 lg:items-start">
          <Card>
            <CardHeader title="Patient Information" icon={<UserRound />} />
            <CardBody>
              <PatientPicker
                value={patient}
                onChange={(p) => {
                  setPatient(p);
                  clearError('patient');
                }}
                error={errors.patient}
              />
            </CardBody>
          </Card>
          <Card>
            <CardHeader title="Doctor Information" icon={<Stethoscope />} />
            <CardBody>
              <DoctorPicker
                value={doctor}
                required
                onChange={(d) => {
                  setDoctor(d);
                  clearError('doctor');
                }}
                error={errors.doctor}
              />
            </CardBody>
          </Card>
        </div>
        <Card>
          <CardHeader
            title="Bill Items"
            icon={<ReceiptText />}
            description={
              draft.lines.length
                ? `${draft.lines.length} item${draft.lines.length === 1 ? '' : 's'}`
                : 'Add individual tests, test profiles or test packages'
            }
          />
          <CardBody className="grid gap-4">
            <CataloguePickers key={draft.generation} onAdd={draft.addItem} />
            {draft.lines.length === 0 ? (
              <p className="rounded-md border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-600">
                No items added yet. Search a picker above to add a test, profile or package.
              </p>
            ) : (
              <BillLinesTable
                lines={draft.lines}
                amounts={draft.amounts.lines}
                onChange={draft.changeLine}
                onBlur={draft.blurLine}
                onRemove={draft.removeLine}
                serverErrors={draft.lineServerErrors}
              />
            )}
          </CardBody>
        </Card>
        <OpBillSummary
          amounts={draft.amounts}
          hasDoctor={doctor !== null}
          discount={draft.discount}
          tax={draft.tax}
          onDiscount={(v) => {
            draft.setDiscount(v);
            clearError('discount');
          }}
          onTax={(v) => {
            draft.setTax(v);
            clearError('tax');
          }}
          onPercentBlur={draft.blurPercent}
          discountError={draft.discountError ?? errors.discount}
          taxError={draft.taxError ?? errors.tax}
          method={method}
          onMethod={setMethod}
          amount={amount}
          onAmount={(v) => {
            setAmount(v);
            clearError('amount');
          }}
          amountError={amountError ?? errors.amount}
          ready={patient !== null && doctor !== null}
          busy={busy}
          onSave={() => submit('save')}
          onPrint={() => submit('print')}
        />
      </div>
    </div>
  );
}
