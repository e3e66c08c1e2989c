import { useState } from 'react';
import { Search } from 'lucide-react';
import { Button, FormField, Input } from '@/components';
import { cn } from '@/lib/cn';

/**
 * A barcode typed by hand (or by a hand scanner, which types and presses Enter) and looked up with
 * Lookup or Enter. `lookup` is useBarcodeLookup's: it says whether a request went out.
 * `clearOnLookup`: the field empties for the next label once a lookup is under way; otherwise the
 * text stays (a dialog that closes on a find). `inline`: the button beside the field.
 */
export function BarcodeEntry({
  lookup,
  pending,
  placeholder,
  hint,
  inline = false,
  clearOnLookup = false,
  autoFocus = false,
}: {
  lookup: (raw: string) => boolean;
  pending: boolean;
  placeholder: string;
  hint?: string;
  inline?: boolean;
  clearOnLookup?: boolean;
  autoFocus?: boolean;
}) {
  const [code, setCode] = useState('');
  return (
    <form
      className={inline ? 'flex items-end gap-2' : 'grid gap-3'}
      onSubmit={(e) => {
        e.preventDefault();
        if (lookup(code) && clearOnLookup) setCode('');
      }}
    >
      <FormField label="Barcode" hint={hint} className={cn(inline && 'flex-1')}>
        <Input
          autoFocus={autoFocus}
          autoComplete="off"
          spellCheck={false}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          placeholder={placeholder}
          className="font-mono tracking-wide"
        />
      </FormField>
      <Button type="submit" loading={pending} loadingText="Looking up...">
        <Search />
        Lookup
      </Button>
    </form>
  );
}
