import { useState, type FormEvent } from 'react';
import { Pencil, Trash2, Upload } from 'lucide-react';
import {
  DEPARTMENT_LABELS,
  templateUpdateSchema,
  type ReportTemplate,
  type TemplateUpdate,
} from '@shared/schemas/lab-reports';
import {
  Badge,
  Button,
  Card,
  CardBody,
  CardHeader,
  ErrorPanel,
  FormDialog,
  FormField,
  Input,
  LoadingState,
  Select,
  Textarea,
} from '@/components';
import {
  useRemoveSignatureMutation,
  useReportTemplates,
  useSaveTemplateMutation,
  useUploadSignatureMutation,
} from '../api';
import { useFieldForm } from '@/lib/forms';

/** Report Templates: one per department, changing that department's section of every report PDF. */
export function TemplatesCard({ canManage }: { canManage: boolean }) {
  const q = useReportTemplates();
  const [editing, setEditing] = useState<ReportTemplate | null>(null);
  return (
    <Card className="min-w-0">
      <CardHeader
        title="Report Templates"
        description="Grouping, header and footer text, interpretation notes and the authorised signatory of each department"
      />
      <CardBody>
        {q.isPending ? (
          <LoadingState text="Loading templates..." />
        ) : q.isError ? (
          <ErrorPanel title="Error Loading Templates" query={q} />
        ) : (
          <ul className="grid gap-2">
            {q.data.map((t) => (
              <li
                key={t.department}
                className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-slate-200 px-3 py-2 text-[13px]"
              >
                <span className="min-w-0">
                  <span className="font-medium text-slate-900">{DEPARTMENT_LABELS[t.department]}</span>
                  <span className="block text-slate-600">
                    {t.signatory_name
                      ? `${t.signatory_name}, ${t.signatory_qualification} (Reg. ${t.signatory_registration})`
                      : 'No authorised signatory'}
                    {' · '}
                    {t.group_by === 'category' ? 'Grouped by category' : 'One list'}
                  </span>
                </span>
                <span className="flex items-center gap-2">
                  {t.signature_type ? <Badge tone="green">Signature</Badge> : <Badge tone="grey">No signature</Badge>}
                  {canManage && (
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={() => setEditing(t)}
                      aria-label={`Edit the ${DEPARTMENT_LABELS[t.department]} template`}
                    >
                      <Pencil />
                      Edit
                    </Button>
                  )}
                </span>
              </li>
            ))}
          </ul>
        )}
        {!canManage && (
          <p className="mt-3 text-[12px] text-slate-600">Templates are changed by the lab manager (manage_lab).</p>
        )}
      </CardBody>
      {editing && <TemplateDialog template={editing} onClose={() => setEditing(null)} />}
    </Card>
  );
}

function TemplateDialog({ template, onClose }: { template: ReportTemplate; onClose: () => void }) {
  const save = useSaveTemplateMutation();
  const upload = useUploadSignatureMutation();
  const remove = useRemoveSignatureMutation();
  const {
    values: form,
    setValues,
    errors,
    setErrors,
    showErrors,
  } = useFieldForm<TemplateUpdate>(() => ({
    group_by: template.group_by,
    header_text: template.header_text,
    footer_text: template.footer_text,
    interpretation_notes: template.interpretation_notes,
    signatory_name: template.signatory_name,
    signatory_qualification: template.signatory_qualification,
    signatory_registration: template.signatory_registration,
  }));
  const [file, setFile] = useState<File | null>(null);
  const label = DEPARTMENT_LABELS[template.department];
  const set = (k: keyof TemplateUpdate) => (e: { target: { value: string } }) =>
    setValues((f) => ({ ...f, [k]: e.target.value }));
  // An input's text and its onChange; a field left empty in the saved settings shows as ''.
  const text = (k: keyof TemplateUpdate) => ({ value: form[k] ?? '', onChange: set(k) });

  function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = templateUpdateSchema.safeParse(form);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    save.mutate(
      { department: template.department, body: parsed.data },
      {
        onSuccess: async () => {
          if (file) {
            try {
              await upload.mutateAsync({ department: template.department, file });
            } catch (err) {
              setErrors({ signature: err instanceof Error ? err.message : String(err) });
              return;
            }
          }
          onClose();
        },
        onError: showErrors,
      },
    );
  }

  return (
    <FormDialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={`${label} report template`}
      description="Changes apply to every report printed from now on, including reprints."
      size="lg"
      busy={save.isPending || upload.isPending}
      form={{ id: 'template-form', onSubmit: submit }}
      submitLabel="Save Template"
      error={errors.form}
    >
      <FormField label="Grouping" error={errors.group_by} className="sm:col-span-2">
        <Select
          value={form.group_by}
          onChange={set('group_by')}
          options={[
            { value: 'category', label: 'Group tests by catalogue category' },
            { value: 'none', label: 'One list in the order tests were ordered' },
          ]}
        />
      </FormField>
      <FormField label="Header text" error={errors.header_text} className="sm:col-span-2">
        <Input {...text('header_text')} maxLength={300} />
      </FormField>
      <FormField label="Interpretation notes" error={errors.interpretation_notes} className="sm:col-span-2">
        <Textarea rows={3} {...text('interpretation_notes')} />
      </FormField>
      <FormField label="Footer text" error={errors.footer_text} className="sm:col-span-2">
        <Input {...text('footer_text')} maxLength={500} />
      </FormField>
      <FormField label="Authorised signatory" error={errors.signatory_name}>
        <Input {...text('signatory_name')} placeholder="Dr. Kavya Nair" />
      </FormField>
      <FormField label="Qualification" error={errors.signatory_qualification}>
        <Input {...text('signatory_qualification')} placeholder="MD (Pathology)" />
      </FormField>
      <FormField label="Registration number" error={errors.signatory_registration}>
        <Input {...text('signatory_registration')} placeholder="KMC 77881" />
      </FormField>
      <FormField label="Signature image (PNG or JPEG, up to 512 KB)" error={errors.signature ?? errors.content_base64}>
        <Input type="file" accept="image/png,image/jpeg" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
      </FormField>
      {template.signature_type && (
        <div className="flex items-center gap-2 text-[13px] sm:col-span-2">
          <Upload className="size-4" aria-hidden="true" />A signature is on file.
          <Button
            size="sm"
            variant="ghost"
            onClick={() => remove.mutate(template.department, { onSuccess: onClose })}
            loading={remove.isPending}
            loadingText="Removing..."
          >
            <Trash2 />
            Remove signature
          </Button>
        </div>
      )}
    </FormDialog>
  );
}
