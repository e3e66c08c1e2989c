import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { ConflictError, ValidationError } from '../errors.js';
import { writeAudit } from '../audit/audit.js';
import { centreStatementPdf } from '../pdf/centre-statement.js';
import { queueFileEmail, realEmail } from '../messaging/service.js';
import { onceRecipients } from '../messaging/repository.js';
import { getOrganization, type OrganizationRow } from '../settings/service.js';
import { organizationIds } from '../settings/repository.js';
import { addDays, localDate } from '../../shared/time.js';
import { centreStatement } from './money.js';
import { listCentreRows, type CentreRow } from './repository.js';
import { mustFindCentre } from './service.js';

/**
 * A centre's statement by email: the PDF queued in the lab's outbox with the message, sent by the
 * outbox job. The monthly job sends last month's statement to every active centre with an email
 * once (the outbox's once-only key `centre_statement:<centre>:<month>` is the memory, so a restart
 * or a second server does not send it again); "Send now" sends any period whenever asked.
 */

/** The first and last lab day of the month before the one `today` falls in. */
export function previousMonth(today: string): { month: string; from: string; to: string } {
  const to = addDays(`${today.slice(0, 8)}01`, -1);
  return { month: to.slice(0, 7), from: `${to.slice(0, 8)}01`, to };
}

async function queueStatement(
  db: Db,
  org: OrganizationRow,
  centre: CentreRow,
  period: { from: string; to: string },
  opts: { onceKey?: string; actor?: Actor },
) {
  const st = await centreStatement(db, org.id, centre.id, period.from, period.to);
  const pdf = await centreStatementPdf(org, st);
  const text = [
    `Dear ${centre.contact_person ?? centre.name},`,
    '',
    `Your statement with ${org.name} for ${period.from} to ${period.to} is attached.`,
    `Closing balance: Rs. ${st.closing_balance.toFixed(2)}.${st.centre.hold.on_hold ? ` ${st.centre.hold.reason}` : ''}`,
  ].join('\n');
  // The PDF is made before the transaction: nothing slow runs while it holds the database.
  return db.transaction().execute(async (trx) => {
    const outcome = await queueFileEmail(trx, org, {
      kind: 'centre_statement',
      to: centre.email!,
      subject: `Statement ${period.from} to ${period.to}: ${org.name}`,
      text,
      file: { name: `statement-${period.from}-${period.to}.pdf`, type: 'application/pdf', content: pdf },
      ...(opts.onceKey ? { onceKey: opts.onceKey } : {}),
    });
    if (outcome === 'queued' && opts.actor)
      await writeAudit(trx, opts.actor, {
        action: 'export',
        entity: 'centre_statement_email',
        entityId: centre.id,
        newValues: { from: period.from, to: period.to, email: centre.email },
      });
    return outcome;
  });
}

/** "Send now": the period's statement to the centre's email, audited. */
export async function sendCentreStatement(db: Db, actor: Actor, centreId: number, from: string, to: string) {
  const centre = await mustFindCentre(db, actor.organizationId, centreId);
  if (!realEmail(centre.email))
    throw ValidationError.field('email', `${centre.name} has no email address: add one on the centre first`);
  const org = await getOrganization(db, actor.organizationId);
  const outcome = await queueStatement(db, org, centre, { from, to }, { actor });
  if (outcome === 'no_mail_server')
    throw new ConflictError('The lab has no mail server: set one up under System Settings > Email', 'NO_MAIL_SERVER');
  return { recipient: centre.email!.toLowerCase(), from, to };
}

/**
 * The monthly job: last month's statement to each active centre of each lab that has an email,
 * once. A lab without a mail server is passed over and gets the month's statements once it has
 * one. Answers how many were queued.
 */
export async function queueMonthlyStatements(db: Db, now = new Date(), signal?: AbortSignal): Promise<number> {
  let queued = 0;
  for (const organizationId of await organizationIds(db)) {
    const org = await getOrganization(db, organizationId);
    const period = previousMonth(localDate(org.timezone, now));
    for (const centre of await listCentreRows(db, organizationId, { status: 'active' })) {
      if (signal?.aborted) return queued;
      if (!realEmail(centre.email)) continue;
      const onceKey = `centre_statement:${centre.id}:${period.month}`;
      // Sent already: do not build the PDF again (the key is checked again when queueing).
      if ((await onceRecipients(db, organizationId, onceKey)).size > 0) continue;
      const outcome = await queueStatement(db, org, centre, period, { onceKey });
      if (outcome === 'no_mail_server') break;
      if (outcome === 'queued') queued += 1;
    }
  }
  return queued;
}
