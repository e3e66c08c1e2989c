import { useSyncExternalStore } from 'react';

/** Phones: below 768 px (spec 2.7 / 9), where the sidebar is a drawer and tables hide columns. */
const MOBILE_QUERY = '(max-width: 767.98px)';

function subscribeMobile(cb: () => void): () => void {
  const mq = window.matchMedia(MOBILE_QUERY);
  mq.addEventListener('change', cb);
  return () => mq.removeEventListener('change', cb);
}

export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribeMobile, () => window.matchMedia(MOBILE_QUERY).matches);
}
