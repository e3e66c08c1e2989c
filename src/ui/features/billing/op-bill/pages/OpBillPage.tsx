import { stateOfGstin } from '@shared/gst';
import { useBillingSettings } from '../../bills/api';
import { useState } from 'react';
import { ReceiptText, Stethoscope, UserRound } from 'lucide-react';
import { OP_BILL_PAYMENT_METHODS } from '@shared/billing';
import type { Bill } from '@shared/schemas/bills';
import type { Patient } from '@shared/schemas/patients';
import type { Payer } from '@shared/schemas/payers';
import { Card, CardBody, CardHeader, Checkbox, ScreenHeader } from '@/components';
import { useCurrentUser } from '@/lib/session';
import { can } from '@/lib/roles';
import { notify } from '@/lib/notify';
import { useCreateBillMutation, type Doctor } from '@/lib/bills';
import type { DiscountApproval } from '@shared/schemas/bills';
import { useDiscountApproval } from '../../shared/DiscountApproval';
import { BillEntry } from '../../shared/BillEntry';
import { DoctorPicker } from '../../shared/DoctorPicker';
import { openPrintWindow, showBillInWindow } from '../../shared/print';
import { useBillEntry } from '../../shared/useBillEntry';
import { PatientPicker } from '../components/PatientPicker';
import { PayerPicker } from '../components/PayerPicker';
import { SaveActions, type SaveMode } from '../components/SaveActions';
import { SavedBillPanel } from '../components/SavedBillPanel';

/** Messages from the server for who the bill is for (the bill's own fields: useBillEntry). */
interface FieldErrors {
  patient?: string;
  doctor?: string;
  payer?: string;
}

const FIELD_OF_PATH: Record<string, keyof FieldErrors> = {
  patient_id: 'patient',
  doctor_id: 'doctor',
  payer_id: 'payer',
};

/** OP Bill (spec 2.8): pick a patient and a doctor, add catalogue items, save and print the bill. */
export default function OpBillPage() {
  const [patient, setPatient] = useState<Patient | null>(null);
  const [doctor, setDoctor] = useState<Doctor | null>(null);
  // "Self": the patient came without a referring doctor (a lab-only visit, no fee).
  const [self, setSelf] = useState(false);
  const [payer, setPayer] = useState<Payer | null>(null);
  const me = useCurrentUser();
  // A doctor on an OP bill is a consultation (fee added) unless marked as only referring the patient.
  const [consultation, setConsultation] = useState(true);
  const [busy, setBusy] = useState<SaveMode | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saved, setSaved] = useState<Bill | null>(null);
  // The server taxes a payer's bill for the payer's state: IGST (the rate once) across states.
  const gst = useBillingSettings().data;
  const labState = gst?.gst_state_code ?? stateOfGstin(gst?.gstin);
  const payerState = payer ? (payer.state_code ?? stateOfGstin(payer.gstin)) : null;
  const entry = useBillEntry({
    consultationFee: consultation && !self ? (doctor?.consultation_fee ?? 0) : 0,
    interState: !!labState && !!payerState && payerState !== labState,
    methods: OP_BILL_PAYMENT_METHODS,
  });
  const { draft } = entry;
  const create = useCreateBillMutation();
  const approval = useDiscountApproval();

  const clearError = (k: keyof FieldErrors) => setErrors((e) => ({ ...e, [k]: undefined }));

  const placeServerErrors = (err: unknown) => {
    const rest = entry.placeServerErrors(err);
    if (!rest) return;
    const fields: FieldErrors = {};
    for (const d of rest) {
      const f = FIELD_OF_PATH[d.path];
      if (f) fields[f] = d.message;
    }
    setErrors(fields);
  };

  const clearForm = () => {
    setPatient(null);
    setDoctor(null);
    setSelf(false);
    setPayer(null);
    setConsultation(true);
    entry.reset();
    setErrors({});
  };

  const submit = (mode: SaveMode) => {
    if (!patient || (!doctor && !self)) {
      notify.error(
        mode === 'print'
          ? 'Please select both patient and doctor before printing'
          : 'Please select both patient and doctor',
        'Choose "Self" when the patient has no referring doctor.',
      );
      return;
    }
    if (draft.lines.length === 0) {
      notify.error('Please add at least one test, profile, or package');
      return;
    }
    entry.touchReference();
    if (entry.invalid) {
      notify.error(
        'Please correct the highlighted values',
        'Percentages are 0 to 100, quantities 1 to 1000, the amount received cannot exceed the final total, and UPI or bank transfers need their reference.',
      );
      return;
    }
    if (entry.unconfirmedDuplicates) {
      notify.error(
        'Charged twice on this bill',
        `${entry.overlaps.map((o) => o.message).join('; ')}. Remove the duplicate, or tick "Charge them anyway".`,
      );
      return;
    }
    // Opened inside the click, before the save, so popup blockers let it through.
    const printWindow = mode === 'print' ? openPrintWindow() : null;
    if (mode === 'print' && !printWindow) return;
    setBusy(mode);
    const send = (discount_approval?: DiscountApproval) =>
      create
        .mutateAsync({
          patient_id: patient.id,
          doctor_id: self ? null : doctor!.id,
          visit_type: consultation && !self ? 'doctor_visit' : 'lab_only',
          ...entry.request(),
          payer_id: payer?.id ?? null,
          discount_approval,
        })
        .then((bill) => {
          setSaved(bill);
          clearForm();
          if (printWindow) showBillInWindow(printWindow, bill);
        });
    send()
      .catch((err: unknown) => {
        // Above the biller's discount limit: an approver signs it off (the bill is then sent again).
        if (approval.intercept(err, send)) return;
        printWindow?.close();
        placeServerErrors(err);
      })
      .finally(() => setBusy(null));
  };

  return (
    <div>
      <ScreenHeader />
      {approval.dialog}
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
              {can(me, 'view_bills') && (
                <div className="mt-3">
                  <PayerPicker
                    value={payer}
                    error={errors.payer}
                    onChange={(p, price) => {
                      setPayer(p);
                      clearError('payer');
                      entry.draft.reprice(price);
                    }}
                  />
                </div>
              )}
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
                self={{
                  chosen: self,
                  onChoose: (v) => {
                    setSelf(v);
                    if (v) setDoctor(null);
                    clearError('doctor');
                  },
                }}
                error={errors.doctor}
              />
              {!self && (
                <Checkbox
                  className="mt-3"
                  label="Consultation: add the doctor's fee (untick when the doctor only referred the patient)"
                  checked={consultation}
                  onChange={(e) => setConsultation(e.target.checked)}
                />
              )}
            </CardBody>
          </Card>
        </div>
        <BillEntry
          entry={entry}
          items={{
            title: 'Bill Items',
            icon: <ReceiptText />,
            description: draft.lines.length
              ? `${draft.lines.length} item${draft.lines.length === 1 ? '' : 's'}`
              : 'Add individual tests, test profiles or test packages',
            empty: 'No items added yet. Search a picker above to add a test, profile or package.',
          }}
          lineEdits="all"
          showConsultation={doctor !== null && !self}
          actions={<SaveActions ready={patient !== null && (doctor !== null || self)} busy={busy} onSubmit={submit} />}
        />
      </div>
    </div>
  );
}
