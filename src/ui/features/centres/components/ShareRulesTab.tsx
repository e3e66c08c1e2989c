import { Trash2 } from 'lucide-react';
import type { Centre, ShareRule } from '@shared/schemas/centres';
import { Button, DataTable, FormField, Input, Select, queryState, type Column } from '@/components';
import { useFieldForm } from '@/lib/forms';
import { useCatalogueList } from '@/lib/catalogue';
import { useCurrentUser } from '@/lib/session';
import { can } from '@/lib/roles';
import { useAddShareRuleMutation, useRemoveShareRuleMutation, useShareRules } from '../api';

/** The centre's share for one test or one category, over its own rate for the rest. */
export function ShareRulesTab({ centre }: { centre: Centre }) {
  const me = useCurrentUser();
  const canManage = can(me, 'manage_bills');
  const rules = useShareRules(centre.id);
  const remove = useRemoveShareRuleMutation();
  const basis = centre.share_basis === 'lab_share' ? 'Lab’s share' : 'Centre’s commission';
  const columns: Column<ShareRule>[] = [
    { key: 'what', header: 'Test or category', cell: (r) => r.test_name ?? `Category: ${r.category}` },
    { key: 'share', header: basis, align: 'right', cell: (r) => `${r.share_percent}%` },
  ];
  return (
    <div className="grid gap-3 pt-3">
      <p className="text-sm text-slate-700">
        {basis} is <strong>{centre.share_percent}%</strong> of each billed line unless a rule below names its test or
        category. The share is the centre’s margin on its own patients; lims keeps no commission to referring doctors.
      </p>
      <DataTable
        columns={columns}
        rows={rules.data}
        getRowId={(r) => r.id}
        caption={`Share rules of ${centre.name}`}
        {...queryState(rules)}
        errorTitle="Error Loading Share Rules"
        empty={{ title: 'No rules', hint: `Every test takes the centre’s ${centre.share_percent}%.` }}
        rowActions={
          canManage
            ? [
                {
                  label: (r) => `Remove the rule for ${r.test_name ?? r.category}`,
                  icon: <Trash2 />,
                  destructive: true,
                  onClick: (r) => remove.mutate({ id: centre.id, ruleId: r.id }),
                },
              ]
            : undefined
        }
      />
      {canManage && <AddRule centre={centre} />}
    </div>
  );
}

function AddRule({ centre }: { centre: Centre }) {
  const add = useAddShareRuleMutation();
  const tests = useCatalogueList('test');
  const { values, set, errors, showErrors, setValues } = useFieldForm(
    () => ({ test_id: '', category: '', share_percent: '' }),
    { resetFor: centre.id },
  );
  return (
    <form
      className="grid gap-3 rounded-md border border-slate-200 p-3 sm:grid-cols-4 sm:items-end"
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate(
          {
            id: centre.id,
            body: {
              test_id: values.test_id ? Number(values.test_id) : null,
              category: values.category || null,
              share_percent: values.share_percent as unknown as number,
            },
          },
          { onSuccess: () => setValues(() => ({ test_id: '', category: '', share_percent: '' })), onError: showErrors },
        );
      }}
    >
      <FormField label="Test" error={errors.test_id ?? errors.form}>
        <Select
          value={values.test_id}
          onChange={(e) => set('test_id', e.target.value)}
          placeholder="— or a category —"
          options={(tests.data ?? []).map((t) => ({ value: String(t.id), label: `${t.name} (${t.code})` }))}
        />
      </FormField>
      <FormField label="Category" error={errors.category}>
        <Input value={values.category} onChange={(e) => set('category', e.target.value)} placeholder="e.g. Hormones" />
      </FormField>
      <FormField label="Share %" error={errors.share_percent}>
        <Input
          inputMode="decimal"
          value={values.share_percent}
          onChange={(e) => set('share_percent', e.target.value)}
        />
      </FormField>
      <Button type="submit" disabled={add.isPending}>
        {add.isPending ? 'Adding...' : 'Add Rule'}
      </Button>
    </form>
  );
}
