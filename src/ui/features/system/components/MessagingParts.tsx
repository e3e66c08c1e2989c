import { Fragment, useState, type ReactNode } from 'react';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { Save, Send } from 'lucide-react';
import { Button, Card, CardBody, CardHeader, DateText, ErrorPanel, FormField, Input, LoadingState } from '@/components';
import { ApiError } from '@/lib/api';
import { useFieldForm, type FieldErrors, serverErrors } from '@/lib/forms';
import { notify } from '@/lib/notify';
import { messagingKeys, type SendOutcome } from '../messaging';

/**
 * The pieces the Email (SMTP) and SMS gateway sections share: the card that loads the settings,
 * the editor's state (useSettingsEditor), the secret field, the Save row, Send Test and its outcome.
 */

export type Errors = FieldErrors;

interface SavedSettings {
  configured: boolean;
  updatedAt: string | null;
}

export function Section({
  icon,
  title,
  description,
  children,
}: {
  icon: ReactNode;
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader icon={icon} title={title} description={description} />
      <CardBody className="grid gap-4 sm:grid-cols-2">{children}</CardBody>
    </Card>
  );
}

/** 400 details by field, or a toast for anything else. */
export function onSaveError(title: string, setErrors: (e: Errors) => void) {
  return (err: unknown) => {
    const { fields, form } = serverErrors(err);
    const named = Object.keys(fields).length;
    setErrors(fields);
    notify.error(title, named ? `${named} field(s) need attention` : form);
  };
}

export function Outcome({ outcome }: { outcome: SendOutcome | null }) {
  if (!outcome) return null;
  return (
    <p
      role="status"
      data-testid="test-outcome"
      className={`break-words text-sm sm:col-span-2 ${outcome.ok ? 'text-green-800' : 'text-red-700'}`}
    >
      <strong>{outcome.ok ? 'Sent' : 'Not sent'}</strong> ({(outcome.ms / 1000).toFixed(1)} s): {outcome.message}
    </p>
  );
}

/** A write-only secret: "set" or empty, a Clear action; typing replaces it. */
export function SecretField({
  label,
  saved,
  value,
  clear,
  error,
  onChange,
  onClear,
}: {
  label: string;
  saved: boolean;
  value: string;
  clear: boolean;
  error?: string | undefined;
  onChange: (v: string) => void;
  onClear: (clear: boolean) => void;
}) {
  const hint = clear
    ? 'Will be removed when you save.'
    : saved
      ? 'Set. Leave empty to keep it; type a new one to replace it.'
      : 'None saved.';
  return (
    <FormField label={label} error={error} hint={hint}>
      {(control) => (
        <div className="flex gap-2">
          <Input
            {...control}
            type="password"
            autoComplete="new-password"
            value={value}
            disabled={clear}
            placeholder={saved && !clear ? '•••••••• (set)' : ''}
            onChange={(e) => onChange(e.target.value)}
          />
          {saved && (
            <Button variant="outline" onClick={() => onClear(!clear)}>
              {clear ? 'Keep' : 'Clear'}
            </Button>
          )}
        </div>
      )}
    </FormField>
  );
}

export function TestRow({
  label,
  placeholder,
  inputMode,
  disabledReason,
  busy,
  onSend,
  button,
}: {
  label: string;
  placeholder: string;
  inputMode: 'email' | 'tel';
  disabledReason: string | null;
  busy: boolean;
  onSend: (to: string) => void;
  button: string;
}) {
  const [to, setTo] = useState('');
  return (
    <FormField label={label} hint={disabledReason ?? undefined} className="sm:col-span-2">
      {(control) => (
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input
            {...control}
            value={to}
            inputMode={inputMode}
            type={inputMode === 'email' ? 'email' : 'tel'}
            placeholder={placeholder}
            onChange={(e) => setTo(e.target.value)}
          />
          <Button variant="outline" onClick={() => onSend(to)} disabled={busy || !to.trim() || disabledReason !== null}>
            <Send aria-hidden="true" />
            {busy ? 'Sending…' : button}
          </Button>
        </div>
      )}
    </FormField>
  );
}

type SettingsQuery<T> = {
  data?: T | undefined;
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
};

/** Loads one of the two settings and hands it to its editor. */
function Loaded<T extends { updatedAt: string | null }>({
  query,
  what,
  children,
}: {
  query: SettingsQuery<T>;
  what: string;
  children: (saved: T) => ReactNode;
}) {
  if (query.isPending) return <LoadingState />;
  if (query.isError || !query.data) return <ErrorPanel title={`Cannot load the ${what}`} query={query} />;
  return <>{children(query.data)}</>;
}

/** A settings card: loads the settings and hands them to its editor, fresh after each save. */
export function SettingsCard<T extends { updatedAt: string | null }>({
  query,
  what,
  children,
  ...section
}: {
  icon: ReactNode;
  title: string;
  description: string;
  query: SettingsQuery<T>;
  what: string;
  children: (saved: T) => ReactNode;
}) {
  return (
    <Section {...section}>
      <Loaded query={query} what={what}>
        {(saved) => <Fragment key={saved.updatedAt ?? 'new'}>{children(saved)}</Fragment>}
      </Loaded>
    </Section>
  );
}

/**
 * One settings editor's state: its fields (a field's message goes as it is edited), its write-only
 * secret (`secretKey`, its API name: typed to replace, or cleared), whether anything changed, and
 * Save, which puts the server's 400s under the fields and toasts. `text(key)` binds an input or a
 * select to a field.
 */
export function useSettingsEditor<F extends Record<string, string>, S>({
  initial,
  secretKey,
  save,
  queryKey,
  savedTitle,
  failTitle,
}: {
  initial: F;
  secretKey: string;
  save: (draft: F, secret: Record<string, string | null>) => Promise<S>;
  queryKey: QueryKey;
  savedTitle: string;
  failTitle: string;
}) {
  const qc = useQueryClient();
  const form = useFieldForm(() => initial, { clearOnEdit: true });
  const [secret, setSecret] = useState('');
  const [clear, setClear] = useState(false);
  const dirty = JSON.stringify(form.values) !== JSON.stringify(initial) || secret !== '' || clear;
  const saving = useMutation({
    mutationFn: () => save(form.values, clear ? { [secretKey]: null } : secret ? { [secretKey]: secret } : {}),
    onSuccess: (s) => {
      qc.setQueryData(queryKey, s);
      notify.success(savedTitle);
    },
    onError: onSaveError(failTitle, form.setErrors),
  });
  const secretField = {
    value: secret,
    clear,
    error: form.errors[secretKey],
    onChange: (v: string) => {
      setSecret(v);
      form.setErrors((e) => ({ ...e, [secretKey]: undefined }));
    },
    onClear: (c: boolean) => {
      setClear(c);
      setSecret('');
    },
  };
  const text = (key: keyof F & string) => ({
    value: form.values[key],
    onChange: (e: { target: { value: string } }) => form.set(key, e.target.value as F[typeof key]),
  });
  return { ...form, dirty, saving, secretField, text };
}

/** Save, disabled until something changed, and when the saved settings were last saved. */
export function SaveRow({
  label,
  dirty,
  saving,
  saved,
}: {
  label: string;
  dirty: boolean;
  saving: { mutate: () => void; isPending: boolean };
  saved: SavedSettings;
}) {
  return (
    <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
      <Button onClick={() => saving.mutate()} disabled={!dirty || saving.isPending}>
        <Save aria-hidden="true" />
        {saving.isPending ? 'Saving…' : label}
      </Button>
      {saved.configured && saved.updatedAt && (
        <span className="text-xs text-slate-600">
          Saved <DateText value={saved.updatedAt} withTime />
        </span>
      )}
    </div>
  );
}

/**
 * Send Test with the saved settings (not the unsaved changes) and what came of it; a 400 (a bad
 * address) and any failure are toasted under `failTitle`.
 */
export function SendTest({
  send,
  failTitle,
  what,
  saved,
  dirty,
  ...row
}: {
  send: (to: string) => Promise<SendOutcome>;
  failTitle: string;
  /** "settings" or "gateway", in "Save the settings first." */
  what: string;
  saved: SavedSettings;
  dirty: boolean;
  label: string;
  placeholder: string;
  inputMode: 'email' | 'tel';
  button: string;
}) {
  const qc = useQueryClient();
  const [outcome, setOutcome] = useState<SendOutcome | null>(null);
  const test = useMutation({
    mutationFn: send,
    onMutate: () => setOutcome(null),
    onSuccess: (o) => {
      setOutcome(o);
      void qc.invalidateQueries({ queryKey: messagingKeys.deliveries });
    },
    onError: (err) =>
      err instanceof ApiError && err.status === 400
        ? notify.error(failTitle, err.details[0]?.message ?? err)
        : notify.error(failTitle, err),
  });
  return (
    <>
      <TestRow
        {...row}
        disabledReason={
          !saved.configured
            ? `Save the ${what} first.`
            : dirty
              ? `Save your changes first: the test uses the saved ${what}.`
              : null
        }
        busy={test.isPending}
        onSend={(to) => test.mutate(to)}
      />
      <Outcome outcome={outcome} />
    </>
  );
}
