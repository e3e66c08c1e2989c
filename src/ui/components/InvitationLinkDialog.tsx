import { Button } from './Button';
import { Dialog } from './Dialog';
import { InvitationLink } from './InvitationLink';

/**
 * A one-time invitation link just issued (a new lab's admin, a new user, a link sent again), shown
 * once to copy: the link and Done. Closed while `invitation` is null.
 */
export function InvitationLinkDialog({
  invitation,
  title,
  description,
  labAddress = null,
  onClose,
}: {
  invitation: { path: string; email: string; expires_at: string } | null;
  title: string;
  description: string;
  /** Where the lab's staff sign in, when it is another address than this one. */
  labAddress?: string | null;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={invitation !== null}
      onOpenChange={(o) => !o && onClose()}
      size="lg"
      title={title}
      description={description}
      footer={<Button onClick={onClose}>Done</Button>}
    >
      {invitation && (
        <InvitationLink
          path={invitation.path}
          email={invitation.email}
          expiresAt={invitation.expires_at}
          labAddress={labAddress}
        />
      )}
    </Dialog>
  );
}
