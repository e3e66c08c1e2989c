import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PostgresConnection, SetupInput } from '@shared/schemas/setup';
import { call } from '@/lib/api';
import { setupApi } from '@shared/api/setup';
import { shellKeys } from '@/lib/session';

/** POST /api/setup: creates the lab and its superadmin; refused (409) once a lab exists. */
export function useSetupMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: SetupInput) => call(setupApi.setup, { body: input }),
    // The app sends every address to the wizard while needs_setup is true: re-read it.
    onSuccess: () => qc.invalidateQueries({ queryKey: shellKeys.setupStatus }),
  });
}

/** POST /api/setup/database-check: the wizard's Test Connection for PostgreSQL. */
export function useDatabaseCheck() {
  return useMutation({
    mutationFn: (c: PostgresConnection) => call(setupApi.checkDatabase, { body: c }).then((r) => r.check),
  });
}
