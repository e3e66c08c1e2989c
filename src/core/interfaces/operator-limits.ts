import { hostRefusal, refusalMessage } from '../net/outbound.js';
import { LOWEST_LISTENER_PORT } from '../../shared/schemas/connections.js';

/** What the server's operator decides for every lab: where folders may be, which addresses listeners may bind. */
export interface OperatorLimits {
  /** The root of watched folders (lims serve --drop-root); none: folders are refused. */
  dropRoot?: string | null;
  /** Addresses a TCP listener may bind (the server's --host and --listener-hosts); none: any. */
  listenerHosts?: readonly string[] | null;
  /** `--allow-private-outbound`: a line lims dials may name any address. */
  allowPrivateOutbound?: boolean;
}

/**
 * A TCP server binds only where the operator allows, and never a system port; a line lims dials
 * may name the clinic's network, never this machine's own addresses.
 */
export function lineIssues(
  c: { transport: string; host?: string | null; port?: number | null },
  where: OperatorLimits,
): { path: string; message: string }[] {
  if (c.transport === 'tcp-client' && c.host) {
    // An analyzer sits on the clinic's network: private addresses are its place, this machine's are not.
    const policy = { kind: 'lan', allowPrivate: where.allowPrivateOutbound ?? false } as const;
    const refused = hostRefusal(c.host, policy);
    return refused ? [{ path: 'host', message: refusalMessage(refused, policy) }] : [];
  }
  if (c.transport !== 'tcp-server') return [];
  const out: { path: string; message: string }[] = [];
  const allowed = where.listenerHosts;
  if (c.host && allowed && !allowed.includes(c.host))
    out.push({
      path: 'host',
      message: `A listener binds to this server's address (${allowed.join(', ')}); leave Host empty, or ask the server's operator to allow ${c.host} (lims serve --listener-hosts)`,
    });
  if (c.port != null && c.port < LOWEST_LISTENER_PORT)
    out.push({ path: 'port', message: `A listener's port must be ${LOWEST_LISTENER_PORT} to 65535` });
  return out;
}
