import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { invitationsApi } from '@shared/api/invitations';
import { call } from '@/lib/api';
import { notify } from '@/lib/notify';
import { shellKeys } from '@/lib/session';

export function useInvitationPreview(token: string) {
  return useQuery({
    queryKey: ['invitation', token],
    queryFn: ({ signal }) => call(invitationsApi.preview, { query: { token } }, signal).then((r) => r.invitation),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
  });
}

/** Sets the password and signs in: the session query then holds the user, as after the sign-in form. */
export function useAcceptInvitationMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { token: string; password: string }) => call(invitationsApi.accept, { body: input }),
    onSuccess: async ({ user, signed_in }) => {
      if (!signed_in) {
        notify.success('Password set', 'This lab requires two-factor sign-in: sign in to set up your authenticator.');
        return;
      }
      notify.success('Password set', `Welcome, ${user.first_name} ${user.last_name}!`);
      qc.setQueryData(shellKeys.session, user);
      await qc.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'session' });
    },
  });
}
