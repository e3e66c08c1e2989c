import { useState } from 'react';
import { parseLabDate } from '@shared/time';
import { formatDate, useLabFormat } from '@/lib/format';
import { Input } from './Input';

/**
 * A date typed and shown in the lab's format (DD/MM/YYYY in most Indian labs) whatever the
 * browser's language; the form holds YYYY-MM-DD, as the API does. Text that is not a whole date is
 * passed on as typed, so the form's schema names the field.
 */
export function LabDateInput({
  value,
  onChange,
  onBlur,
  id,
  name,
  ...aria
}: {
  value: string | null | undefined;
  onChange: (value: string) => void;
  onBlur?: () => void;
  id?: string;
  name?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
  'aria-required'?: boolean;
}) {
  const lab = useLabFormat();
  const shown = (v: string | null | undefined) => (v && parseLabDate(v, 'YYYY-MM-DD') ? formatDate(v, lab) : (v ?? ''));
  const [text, setText] = useState(() => shown(value));
  const [seen, setSeen] = useState(value);
  // A value set from outside (a reset, a record loaded) replaces what is shown.
  if (value !== seen) {
    setSeen(value);
    if (parseLabDate(text, lab.dateFormat) !== value) setText(shown(value));
  }
  return (
    <Input
      {...aria}
      id={id}
      name={name}
      inputMode="numeric"
      autoComplete="off"
      placeholder={lab.dateFormat}
      value={text}
      onBlur={onBlur}
      onChange={(e) => {
        setText(e.target.value);
        const iso = parseLabDate(e.target.value, lab.dateFormat);
        const next = iso ?? e.target.value;
        setSeen(next);
        onChange(next);
      }}
    />
  );
}
