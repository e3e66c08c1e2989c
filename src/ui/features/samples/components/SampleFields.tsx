import { ROLE_LABELS } from '@shared/roles';
import { FormField, Select, type SelectOption } from '@/components';
import { errorMessage } from '@/lib/api';
import { useCurrentUser } from '@/lib/session';
import { useCollectors, useLocations } from '../api';

export interface ChoiceFieldProps {
  value: string;
  onChange: (value: string) => void;
  error?: string;
}

/**
 * Collected By: the lab's users with their role (spec 6). Without view_users only the signed-in
 * user can be named, which is also what the server records when no collector is sent.
 */
export function CollectorField({ value, onChange, error, current }: ChoiceFieldProps & { current?: SelectOption }) {
  const me = useCurrentUser();
  const canList = me.permissions.includes('view_users');
  const users = useCollectors(canList);
  const mine: SelectOption = {
    value: String(me.id),
    label: `${me.first_name} ${me.last_name} (${ROLE_LABELS[me.role]})`,
  };
  let options: SelectOption[] = canList
    ? (users.data ?? []).map((u) => ({
        value: String(u.id),
        label: `${u.first_name} ${u.last_name} (${ROLE_LABELS[u.role]})`,
      }))
    : [mine];
  // A collector who has since been deactivated is still the one on record: keep them choosable.
  if (current && !options.some((o) => o.value === current.value)) options = [current, ...options];
  const hint = users.isError
    ? `Could not load users: ${errorMessage(users.error)}`
    : canList
      ? undefined
      : 'Your role cannot list users: the sample is recorded as collected by you';
  return (
    <FormField label="Collected By" error={error} hint={hint}>
      <Select
        value={value}
        onChange={(e) => onChange(e.target.value)}
        options={options}
        placeholder={canList && users.isPending ? 'Loading users...' : 'Not recorded'}
        disabled={!canList}
      />
    </FormField>
  );
}

/** Collection location: the lab's list (15 by default, spec 9); a stored name no longer listed stays visible. */
export function LocationField({ value, onChange, error }: ChoiceFieldProps) {
  const locations = useLocations();
  const options: SelectOption[] = (locations.data ?? []).map((l) => ({ value: l.name, label: l.name }));
  if (value && !options.some((o) => o.value === value)) options.unshift({ value, label: value });
  return (
    <FormField
      label="Location"
      error={error}
      hint={locations.isError ? `Could not load locations: ${errorMessage(locations.error)}` : undefined}
    >
      <Select
        value={value}
        onChange={(e) => onChange(e.target.value)}
        options={options}
        placeholder={locations.isPending ? 'Loading locations...' : 'Select location'}
      />
    </FormField>
  );
}

/** API field errors (400 details) by path, for the dialog's fields. */
export function fieldErrors(details: { path: string; message: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of details) if (!out[d.path]) out[d.path] = d.message;
  return out;
}
