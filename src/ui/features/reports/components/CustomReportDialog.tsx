import { CUSTOM_ENTITIES, CUSTOM_ENTITY_DEFS, REPORT_RANGES, type CustomEntity } from '@shared/reports';
import { customReportCreateSchema } from '@shared/schemas/reports';
import { Checkbox, FormDialog, FormField, Input, Select } from '@/components';
import { useFieldForm } from '@/lib/forms';
import { notify } from '@/lib/notify';
import { useCreateCustomReport } from '../api';

/** The columns ticked when an entity is picked. */
const DEFAULT_COLUMNS: Record<CustomEntity, string[]> = {
  patients: ['patient_code', 'name', 'gender', 'age', 'registered_at'],
  bills: ['bill_number', 'billed_at', 'patient_name', 'final_amount', 'paid', 'due'],
  samples: ['sample_code', 'patient_code', 'sample_type', 'status', 'collected_at'],
  results: ['sample_code', 'test_name', 'result_value', 'unit', 'flag', 'status'],
};

interface Draft {
  name: string;
  entity: CustomEntity;
  columns: string[];
  filters: Record<string, string>;
  range: string;
}
const fresh = (): Draft => ({ name: '', entity: 'bills', columns: DEFAULT_COLUMNS.bills, filters: {}, range: '30' });

/** Custom report: an entity, its columns, filters and a default date range; saved to the catalogue. */
export function CustomReportDialog({
  open,
  onOpenChange,
  onSaved,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  onSaved: (id: string) => void;
}) {
  const {
    values: { name, entity, columns, filters, range },
    set,
    setValues,
    errors,
    setErrors,
    showErrors,
  } = useFieldForm(fresh, { resetFor: open ? 'new' : null });
  const create = useCreateCustomReport();
  const def = CUSTOM_ENTITY_DEFS[entity];

  const pickEntity = (e: CustomEntity) =>
    setValues((v) => ({ ...v, entity: e, columns: DEFAULT_COLUMNS[e], filters: {} }));
  const toggle = (key: string, on: boolean) =>
    setValues((v) => ({
      ...v,
      columns: on
        ? Object.keys(def.columns).filter((k) => k === key || v.columns.includes(k))
        : v.columns.filter((c) => c !== key),
    }));

  const save = () => {
    const body = { name, entity, columns, filters, range_days: Number(range) };
    const parsed = customReportCreateSchema.safeParse(body);
    if (!parsed.success) {
      const e: Record<string, string | undefined> = {};
      for (const i of parsed.error.issues) e[String(i.path[0] ?? 'name')] ??= i.message;
      setErrors(e);
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: (r) => {
        onOpenChange(false);
        onSaved(r.id);
      },
      onError: (err) => {
        showErrors(err);
        notify.error('Could not save the report', err);
      },
    });
  };

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Custom Report"
      description="Pick what to list, its columns and filters. It is saved to the catalogue for everyone in the lab."
      size="lg"
      busy={create.isPending}
      onSubmit={save}
      submitLabel="Save Report"
      error={errors.form}
    >
      <div className="grid gap-4">
        <FormField label="Report name" required error={errors.name}>
          <Input value={name} onChange={(e) => set('name', e.target.value)} placeholder="e.g. Unpaid bills" />
        </FormField>
        <div className="grid gap-3 sm:grid-cols-2">
          <FormField label="Entity">
            <Select
              value={entity}
              onChange={(e) => pickEntity(e.target.value as CustomEntity)}
              options={CUSTOM_ENTITIES.map((e) => ({ value: e, label: CUSTOM_ENTITY_DEFS[e].label }))}
            />
          </FormField>
          <FormField label="Default date range" hint={`By the date ${def.dateLabel}`} error={errors.range_days}>
            <Select
              value={range}
              onChange={(e) => set('range', e.target.value)}
              options={REPORT_RANGES.map((d) => ({ value: String(d), label: `Last ${d} days` }))}
            />
          </FormField>
        </div>
        <fieldset className="grid gap-2">
          <legend className="mb-1 text-[13px] font-medium text-slate-800">Columns</legend>
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
            {Object.entries(def.columns).map(([key, c]) => (
              <Checkbox
                key={key}
                label={c.label}
                checked={columns.includes(key)}
                onChange={(e) => toggle(key, e.target.checked)}
              />
            ))}
          </div>
          {errors.columns && <p className="text-[12px] text-red-700">{errors.columns}</p>}
        </fieldset>
        <div className="grid gap-3 sm:grid-cols-2">
          {Object.entries(def.filters).map(([key, f]) => (
            <FormField key={key} label={f.label}>
              <Select
                value={filters[key] ?? ''}
                onChange={(e) =>
                  setValues((v) => {
                    const next = { ...v.filters };
                    if (e.target.value) next[key] = e.target.value;
                    else delete next[key];
                    return { ...v, filters: next };
                  })
                }
                options={[{ value: '', label: 'Any' }, ...f.options.map((o) => ({ value: o, label: o }))]}
              />
            </FormField>
          ))}
        </div>
      </div>
    </FormDialog>
  );
}
