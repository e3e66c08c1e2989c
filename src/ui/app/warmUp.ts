import { matchPath } from 'react-router';
import type { QueryClient } from '@tanstack/react-query';
import type { ScreenDef } from '@/lib/screens';
import { sessionQuery, setupStatusQuery } from '@/lib/session';

/**
 * What the first screen needs, asked for at once as the app starts: the lab's setup status, the
 * session, and the chunk of the page at this address. Otherwise each waits for the one before it
 * (status, then the session, then the page's script), three round trips in a row on every load.
 * A failure here is not handled here: the components that need each one ask again and show it.
 */
export function warmUp(queryClient: QueryClient, screens: readonly ScreenDef[], pathname: string): void {
  void queryClient.prefetchQuery(setupStatusQuery);
  void queryClient.prefetchQuery(sessionQuery);
  const screen = screens.find((s) => matchPath(s.path, pathname));
  screen?.page.preload().catch(() => undefined);
}
