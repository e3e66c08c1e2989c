import type { Db } from '../../src/core/db/connection.js';
import type { Actor } from '../../src/core/context.js';
import { updateSmsSettings } from '../../src/core/messaging/service.js';
import { smsUpdateSchema } from '../../src/shared/schemas/messaging.js';

/**
 * The lab's SMS gateway for home-collection walk-throughs: bookings text the patient their visit
 * code, which the tests read back from the outbox (nothing is sent: the host is not allowed).
 */
export async function homeSmsGateway(db: Db, actor: Actor): Promise<void> {
  await updateSmsSettings(
    db,
    actor,
    smsUpdateSchema.parse({
      method: 'GET',
      urlTemplate: 'https://sms.example/send?to={to}&text={message}&key={key}',
      apiKey: 'k',
    }),
    { allowPrivate: false },
  );
}
