import { useRef, useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { Button } from './Button';
import { DateText } from './Money';

export interface InvitationLinkProps {
  /** The link's path from the server (`/invitation#<token>`). */
  path: string;
  email: string;
  expiresAt: string;
  /** Where the lab's staff sign in afterwards, when it differs from this address. */
  labAddress?: string | null;
}

/**
 * A one-time invitation link, shown once to whoever made it, to copy and send to its owner (by
 * email, chat or in person): lims sends nothing itself. The link is on this server's address, which
 * the person making it is using, so it opens; the token is after '#', which browsers never send
 * to a server, so no log keeps it.
 */
export function InvitationLink({ path, email, expiresAt, labAddress }: InvitationLinkProps) {
  const url = `${window.location.origin}${path}`;
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);

  const copy = async () => {
    try {
      // The clipboard API needs a secure context (https or localhost); a LAN address over http has none.
      if (navigator.clipboard && window.isSecureContext) {
        await navigator.clipboard.writeText(url);
        setCopied('yes');
        return;
      }
      input.current?.select();
      setCopied(document.execCommand('copy') ? 'yes' : 'no');
    } catch {
      input.current?.select();
      setCopied('no');
    }
  };

  return (
    <div className="grid gap-2">
      <label className="grid gap-1 text-[13px] font-medium text-slate-800">
        Invitation link for {email}
        <div className="flex gap-2">
          <input
            ref={input}
            readOnly
            value={url}
            onFocus={(e) => e.currentTarget.select()}
            className="h-9 min-w-0 flex-1 rounded-md border border-slate-300 bg-slate-50 px-2 font-mono text-[12px] text-slate-900"
          />
          <Button type="button" variant="outline" onClick={() => void copy()}>
            {copied === 'yes' ? <Check /> : <Copy />}
            {copied === 'yes' ? 'Copied' : 'Copy Link'}
          </Button>
        </div>
      </label>
      {copied === 'no' && (
        <p role="status" className="text-[13px] text-amber-800">
          This browser did not allow copying: the link is selected, press Ctrl+C (⌘C on a Mac).
        </p>
      )}
      <p className="text-[13px] text-slate-600">
        Shown only now: copy it and send it to {email}. It works once, until <DateText value={expiresAt} withTime />;
        opening it lets them set their password and signs them in.
        {labAddress ? <> Afterwards their lab signs in at {labAddress}.</> : null}
      </p>
    </div>
  );
}
