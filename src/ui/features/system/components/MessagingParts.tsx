import { useState, type ReactNode } from 'react';
import { Send } from 'lucide-react';
import { Button, Card, CardBody, CardHeader, ErrorPanel, FormField, Input, LoadingState } from '@/components';
import { ApiError } from '@/lib/api';
import { notify } from '@/lib/notify';
import type { SendOutcome } from '../messaging';

/** The pieces the Email (SMTP) and SMS gateway sections share: card, secret field, Send Test row, outcome. */

export type Errors = Record<string, string | undefined>;

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
    if (err instanceof ApiError && err.status === 400 && err.details.length) {
      const next: Errors = {};
      for (const d of err.details) next[d.path] ??= d.message;
      setErrors(next);
      notify.error(title, `${err.details.length} field(s) need attention`);
    } else notify.error(title, err);
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

/** Loads one of the two settings and hands it to its editor, fresh after each save. */
export function Loaded<T extends { updatedAt: string | null }>({
  query,
  what,
  children,
}: {
  query: { data?: T | undefined; isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  what: string;
  children: (saved: T) => ReactNode;
}) {
  if (query.isPending) return <LoadingState />;
  if (query.isError || !query.data)
    return <ErrorPanel title={`Cannot load the ${what}`} error={query.error} onRetry={() => void query.refetch()} />;
  return <>{children(query.data)}</>;
}
