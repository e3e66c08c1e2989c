import type { FastifyInstance } from 'fastify';
import { homeCollectionApi as api, homeVisitsApi } from '../../shared/api/home-collection.js';
import { getVisit, myVisits } from '../../core/home-collection/tubes.js';
import { inTransit, receiveTube } from '../../core/home-collection/receive.js';
import { syncVisits } from '../../core/home-collection/sync.js';
import {
  createArea,
  getCalendar,
  listAreas,
  slotsOfDay,
  updateArea,
  updateCalendar,
} from '../../core/home-collection/calendar.js';
import {
  cancelBooking,
  createBooking,
  getBooking,
  listBookings,
  markNoShow,
  rescheduleBooking,
  unlockBooking,
} from '../../core/home-collection/service.js';
import { assignBooking, dayBoard, listPhlebotomists } from '../../core/home-collection/dispatch.js';
import { ForbiddenError } from '../../core/errors.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';

export default async function homeCollectionRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const org = (req: Parameters<typeof actorOf>[0]) => actorOf(req).organizationId;

  route(app, api.calendar, async (req) => ({ calendar: await getCalendar(db, org(req)) }));
  route(app, api.updateCalendar, async (req) => ({ calendar: await updateCalendar(db, actorOf(req), req.body) }));
  route(app, api.areas, async (req) => ({ areas: await listAreas(db, org(req)) }));
  route(app, api.createArea, async (req) => ({ area: await createArea(db, actorOf(req), req.body) }));
  route(app, api.updateArea, async (req) => ({ area: await updateArea(db, actorOf(req), req.params.id, req.body) }));
  route(app, api.slots, async (req) => ({ slots: await slotsOfDay(db, org(req), req.query.date) }));
  route(app, api.list, async (req) => listBookings(db, org(req), req.query));
  route(app, api.get, async (req) => ({ booking: await getBooking(db, org(req), req.params.id) }));
  route(app, api.create, async (req) => {
    // A new patient is registered by the booking itself: the desk needs the right to register
    // patients too, as OP Bill's Add New Patient does.
    if (req.body.patient && !req.staff!.permissions.includes('manage_patients'))
      throw new ForbiddenError(`Your role (${req.staff!.user.role}) does not have the manage_patients permission`);
    return { booking: await createBooking(db, actorOf(req), req.body) };
  });
  route(app, api.reschedule, async (req) => ({
    booking: await rescheduleBooking(db, actorOf(req), req.params.id, req.body),
  }));
  route(app, api.cancel, async (req) => ({
    booking: await cancelBooking(db, actorOf(req), req.params.id, req.body.reason),
  }));
  route(app, api.noShow, async (req) => ({
    booking: await markNoShow(db, actorOf(req), req.params.id, req.body.reason ?? null),
  }));
  route(app, api.unlock, async (req) => ({
    booking: await unlockBooking(db, actorOf(req), req.params.id, req.body.new_code),
  }));
  route(app, api.phlebotomists, async (req) => ({ phlebotomists: await listPhlebotomists(db, org(req)) }));
  route(app, api.assign, async (req) => ({
    booking: await assignBooking(db, actorOf(req), req.params.id, req.body.phlebotomist_id),
  }));
  route(app, api.board, async (req) => ({ board: await dayBoard(db, org(req), req.query.date) }));
  route(app, api.visit, async (req) => ({ visit: await getVisit(db, org(req), req.params.id) }));
  route(app, api.inTransit, async (req) => inTransit(db, org(req)));
  route(app, api.receive, async (req) => ({ tube: await receiveTube(db, actorOf(req), req.body) }));
  route(app, homeVisitsApi.day, async (req) => myVisits(db, actorOf(req), req.query.date));
  route(app, homeVisitsApi.sync, async (req) => ({ results: await syncVisits(db, actorOf(req), req.body) }));
}
