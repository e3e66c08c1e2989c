import { MutationCache, QueryClient } from '@tanstack/react-query';
import { ApiError, setUnauthorizedHandler } from './api';
import { shellKeys } from './session';
import { labKeys } from './lab';

export const queryClient: QueryClient = new QueryClient({
  // A change refused because the lab went into maintenance mode: show the banner at once.
  mutationCache: new MutationCache({
    onError: (err) => {
      if (err instanceof ApiError && err.status === 503) void queryClient.invalidateQueries({ queryKey: labKeys.info });
    },
  }),
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // Retrying a 4xx never helps (not found, forbidden, bad filter); retry network blips once.
      retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 1,
    },
    mutations: { retry: false },
  },
});

// A 401 from any call means the session ended: re-check it, and the shell shows the login form in place.
setUnauthorizedHandler(() => {
  void queryClient.invalidateQueries({ queryKey: shellKeys.session });
});
