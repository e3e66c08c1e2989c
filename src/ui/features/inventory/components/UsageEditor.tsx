import { useState } from 'react';
import { Trash2 } from 'lucide-react';
import type { InventoryItem, Usage } from '@shared/schemas/inventory';
import { Button, FormField, IconButton, Input, Select } from '@/components';
import { useCatalogueList } from '@/lib/catalogue';
import { useSetUsageMutation, useUsage } from '../api';
import { fieldErrors } from '@/lib/forms';

/** "Glucose (GLU)"; a name that already ends with its code ("Fasting Blood Sugar (FBS)") is not repeated. */
function testLabel(t: { name: string; code: string }): string {
  return t.name.toLowerCase().endsWith(`(${t.code.toLowerCase()})`) ? t.name : `${t.name} (${t.code})`;
}

interface Row {
  test_id: string;
  quantity: string;
}

/**
 * Consumption per test: the tests one run of which uses this item, and how many units. Entering a
 * result of such a test consumes the item through the ledger; deleting the result returns it.
 */
export function UsageEditor({ item, canManage }: { item: InventoryItem; canManage: boolean }) {
  const usage = useUsage(item.id);

  if (usage.isPending) return <p className="text-[14px] text-slate-600">Loading the tests...</p>;
  if (usage.isError) return <p className="text-[14px] text-red-700">Could not load the tests: {usage.error.message}</p>;
  if (!canManage)
    return usage.data.length ? (
      <ul className="list-disc pl-5 text-[14px]">
        {usage.data.map((u) => (
          <li key={u.test_id}>
            {testLabel({ name: u.test_name, code: u.test_code })}: {u.quantity} {item.unit} per test
          </li>
        ))}
      </ul>
    ) : (
      <p className="text-[14px] text-slate-600">No test uses this item yet.</p>
    );

  return <UsageRows key={usage.dataUpdatedAt} item={item} initial={usage.data} />;
}

function UsageRows({ item, initial }: { item: InventoryItem; initial: Usage[] }) {
  const tests = useCatalogueList('test');
  const save = useSetUsageMutation();
  const [rows, setRows] = useState<Row[]>(() =>
    initial.map((u) => ({ test_id: String(u.test_id), quantity: String(u.quantity) })),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const options = (tests.data ?? []).map((t) => ({ value: String(t.id), label: testLabel(t) }));
  return (
    <div className="grid gap-3">
      <p className="text-[14px] text-slate-600">
        Entering a result of a test listed here consumes {item.item_name} from the earliest-expiring usable lot;
        deleting the result puts it back.
      </p>
      {rows.map((r, i) => (
        <div key={i} className="grid grid-cols-[1fr_7rem_auto] items-end gap-2">
          <FormField label={i === 0 ? 'Test' : ''} error={errors[`usage.${i}.test_id`]}>
            <Select
              aria-label={`Test ${i + 1}`}
              value={r.test_id}
              placeholder="Choose a test"
              options={options}
              onChange={(e) => setRows(rows.map((x, j) => (j === i ? { ...x, test_id: e.target.value } : x)))}
            />
          </FormField>
          <FormField label={i === 0 ? `${item.unit} per test` : ''} error={errors[`usage.${i}.quantity`]}>
            <Input
              aria-label={`Quantity per test ${i + 1}`}
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              value={r.quantity}
              onChange={(e) => setRows(rows.map((x, j) => (j === i ? { ...x, quantity: e.target.value } : x)))}
            />
          </FormField>
          <IconButton
            label={`Remove test ${i + 1}`}
            icon={<Trash2 />}
            onClick={() => setRows(rows.filter((_, j) => j !== i))}
          />
        </div>
      ))}
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => setRows([...rows, { test_id: '', quantity: '1' }])}>
          Add Test
        </Button>
        <Button
          loading={save.isPending}
          loadingText="Saving..."
          onClick={() => {
            setErrors({});
            save.mutate(
              {
                id: item.id,
                usage: rows.map((r) => ({ test_id: Number(r.test_id), quantity: Number(r.quantity) })),
              },
              {
                onError: (err) => {
                  setErrors(fieldErrors(err));
                },
              },
            );
          }}
        >
          Save Tests
        </Button>
      </div>
    </div>
  );
}
