import { forwardRef, useState } from 'react';
import { Check, Copy, Download } from 'lucide-react';
import type { TwoFactorSetup } from '@shared/schemas/two-factor';
import { Button } from './Button';
import { Input, type InputProps } from './Input';
import { cn } from '@/lib/cn';
import { notify } from '@/lib/notify';

/**
 * The parts of two-factor sign-in shared by the sign-in page (set-up when the lab requires it) and
 * the account screen: the QR code drawn by the server, the secret for typing by hand, the one-time
 * code input and the recovery codes with Copy and Download.
 */

/**
 * Copies text to the clipboard. On plain HTTP (a clinic LAN) the clipboard API is missing, so it
 * falls back to the older copy command on a hidden text area.
 */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    } finally {
      area.remove();
    }
  }
}

function CopyButton({ text, label, what }: { text: string; label: string; what: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      variant="outline"
      size="sm"
      onClick={() =>
        void copyText(text).then((ok) => {
          if (ok) {
            setCopied(true);
            notify.success(`${what} copied`);
          } else notify.error('Could not copy', 'Select the text and press Ctrl+C.');
        })
      }
    >
      {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
      {label}
    </Button>
  );
}

/** The 6-digit code field: the phone's keypad, and the browser may offer a code it knows. */
export const OneTimeCodeInput = forwardRef<HTMLInputElement, InputProps>(function OneTimeCodeInput(
  { className, ...props },
  ref,
) {
  return (
    <Input
      ref={ref}
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9 ]*"
      maxLength={7}
      placeholder="123456"
      className={cn('max-w-40 font-mono text-lg tracking-[0.3em]', className)}
      {...props}
    />
  );
});

/** Scan the QR code, or type the secret: the first steps of any set-up. */
/** The secret in groups of four, for typing into an app by hand. */
function groupSecret(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(' ') ?? secret;
}

export function AuthenticatorSetup({ setup }: { setup: TwoFactorSetup }) {
  const grouped = groupSecret(setup.secret);
  return (
    <div className="grid gap-4 sm:grid-cols-[auto_minmax(0,1fr)] sm:items-start">
      {/* The server draws the QR code; shown as an image, so its markup cannot run anything. */}
      <img
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qr_svg)}`}
        alt={`QR code to add ${setup.account} at ${setup.issuer} to an authenticator app`}
        width={184}
        height={184}
        className="mx-auto size-46 rounded-md border border-slate-200 bg-white sm:mx-0"
      />
      <div className="grid content-start gap-2 text-sm text-slate-700">
        <ol className="list-decimal space-y-1 pl-5">
          <li>Open an authenticator app on your phone (Google Authenticator, Microsoft Authenticator, FreeOTP, …).</li>
          <li>Scan the QR code, or add an account by hand with the key below (time-based).</li>
          <li>Enter the 6-digit code the app shows.</li>
        </ol>
        <div>
          <p className="text-[13px] font-medium text-slate-800">Key for manual entry</p>
          <div className="mt-1 flex flex-wrap items-center gap-2">
            <code
              aria-label={`Key: ${grouped}`}
              className="rounded bg-slate-100 px-2 py-1 font-mono text-[13px] tracking-wide break-words text-slate-900"
            >
              {grouped}
            </code>
            <CopyButton text={setup.secret} label="Copy key" what="Key" />
          </div>
          <p className="mt-1 text-xs text-slate-600">
            Account: {setup.account} · Issuer: {setup.issuer}
          </p>
          {/* On the phone itself there is no QR code to scan: the otpauth link opens the app. */}
          <a href={setup.otpauth_uri} className="mt-1 inline-block text-[13px] text-primary-700 underline">
            Open in an authenticator app on this device
          </a>
        </div>
      </div>
    </div>
  );
}

/** The recovery codes, shown once: a list to copy, download or print and keep away from the phone. */
export function RecoveryCodes({ codes, account, issuer }: { codes: string[]; account: string; issuer: string }) {
  const text = [
    `lims recovery codes for ${account} (${issuer})`,
    'Each code signs in once, instead of a code from your authenticator app.',
    '',
    ...codes,
    '',
  ].join('\n');
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `lims-recovery-codes-${account.replace(/[^a-z0-9.@-]+/gi, '_')}.txt`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <section aria-labelledby="recovery-codes-title" className="rounded-md border border-amber-300 bg-amber-50 p-3">
      <h2 id="recovery-codes-title" className="text-sm font-semibold text-amber-950">
        Recovery codes
      </h2>
      <p className="mt-0.5 text-[13px] text-amber-950">
        If you lose your phone, each of these codes signs you in once. Keep them somewhere safe, away from the phone.
        They are shown only now.
      </p>
      <ul
        aria-label="Recovery codes"
        className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 font-mono text-sm text-slate-900"
      >
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <div className="mt-3 flex flex-wrap gap-2">
        <CopyButton text={codes.join('\n')} label="Copy" what="Recovery codes" />
        <Button variant="outline" size="sm" onClick={download}>
          <Download aria-hidden="true" />
          Download .txt
        </Button>
      </div>
    </section>
  );
}
