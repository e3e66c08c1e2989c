import { browserOf } from '@/lib/userAgent';

/** A session's browser in a few words ("Chrome 131 on Windows"), the full user agent on hover. */
export function BrowserName({ ua }: { ua: string | null }) {
  return (
    <span title={ua ?? undefined} className="whitespace-nowrap">
      {browserOf(ua)}
    </span>
  );
}
