import type { FastifyInstance } from 'fastify';
import { calibrationsApi, equipmentApi, maintenanceApi } from '../../shared/api/equipment.js';
import {
  createEquipment,
  deleteEquipment,
  equipmentHistory,
  equipmentSummary,
  getEquipment,
  listEquipment,
  setEquipmentStatus,
  updateEquipment,
} from '../../core/equipment/service.js';
import { addReading, equipmentReadings } from '../../core/equipment/readings.js';
import {
  completeService,
  createService,
  deleteService,
  getService,
  listServices,
  serviceSummary,
  updateService,
} from '../../core/equipment/work.js';
import { readCertificate, uploadCertificate } from '../../core/equipment/certificates.js';
import { maintenanceReport, maintenanceReportCsv, maintenanceReportPdf } from '../../core/equipment/reports.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';
import { sendCsv, sendPdf } from '../files.js';

export default async function equipmentRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const org = (req: Parameters<typeof actorOf>[0]) => actorOf(req).organizationId;

  route(app, equipmentApi.list, async (req) => listEquipment(db, org(req), req.query));
  route(app, equipmentApi.summary, async (req) => ({ summary: await equipmentSummary(db, org(req), req.query.kind) }));
  route(app, equipmentApi.get, async (req) => ({ equipment: await getEquipment(db, org(req), req.params.id) }));
  route(app, equipmentApi.create, async (req) => ({ equipment: await createEquipment(db, actorOf(req), req.body) }));
  route(app, equipmentApi.update, async (req) => ({
    equipment: await updateEquipment(db, actorOf(req), req.params.id, req.body),
  }));
  route(app, equipmentApi.remove, async (req) => deleteEquipment(db, actorOf(req), req.params.id));
  route(app, equipmentApi.setStatus, async (req) => ({
    equipment: await setEquipmentStatus(db, actorOf(req), req.params.id, req.body),
  }));
  route(app, equipmentApi.history, async (req) => ({ history: await equipmentHistory(db, org(req), req.params.id) }));
  route(app, equipmentApi.readings, async (req) => ({
    readings: await equipmentReadings(db, org(req), req.params.id),
  }));
  route(app, equipmentApi.addReading, async (req) => addReading(db, actorOf(req), req.params.id, req.body));

  route(app, calibrationsApi.list, async (req) => {
    const { rows, ...page } = await listServices(db, org(req), 'calibration', req.query);
    return { calibrations: rows, ...page };
  });
  route(app, calibrationsApi.summary, async (req) => ({ summary: await serviceSummary(db, org(req), 'calibration') }));
  route(app, calibrationsApi.get, async (req) => ({
    calibration: await getService(db, org(req), 'calibration', req.params.id),
  }));
  route(app, calibrationsApi.create, async (req) => ({
    calibration: await createService(db, actorOf(req), 'calibration', req.body),
  }));
  route(app, calibrationsApi.update, async (req) => ({
    calibration: await updateService(db, actorOf(req), 'calibration', req.params.id, req.body),
  }));
  route(app, calibrationsApi.complete, async (req) => {
    const { done, next } = await completeService(db, actorOf(req), 'calibration', req.params.id, req.body);
    return { calibration: done, next };
  });
  route(app, calibrationsApi.remove, async (req) => ({
    calibration: await deleteService(db, actorOf(req), 'calibration', req.params.id),
  }));
  route(app, calibrationsApi.uploadCertificate, async (req) => ({
    calibration: await uploadCertificate(db, actorOf(req), req.params.id, req.body),
  }));
  route(app, calibrationsApi.certificate, async (req, reply) => {
    const file = await readCertificate(db, org(req), req.params.id);
    return reply
      .type(file.contentType)
      .header(
        'content-disposition',
        `${req.query.download === '1' ? 'attachment' : 'inline'}; filename="${encodeURIComponent(file.fileName)}"`,
      )
      .header('cache-control', 'private, no-store')
      .send(file.data);
  });

  route(app, maintenanceApi.list, async (req) => {
    const { rows, ...page } = await listServices(db, org(req), 'maintenance', req.query);
    return { maintenance: rows, ...page };
  });
  route(app, maintenanceApi.summary, async (req) => ({ summary: await serviceSummary(db, org(req), 'maintenance') }));
  route(app, maintenanceApi.report, async (req) => ({
    report: await maintenanceReport(db, org(req), req.params.report, req.query),
  }));
  route(app, maintenanceApi.reportCsv, async (req, reply) => {
    const { csv, name } = await maintenanceReportCsv(db, actorOf(req), req.params.report, req.query);
    return sendCsv(reply, name, csv);
  });
  route(app, maintenanceApi.reportPdf, async (req, reply) => {
    const { pdf, name } = await maintenanceReportPdf(db, org(req), req.params.report, req.query);
    return sendPdf(reply, name, pdf, req.query.download === '1');
  });
  route(app, maintenanceApi.get, async (req) => ({
    maintenance: await getService(db, org(req), 'maintenance', req.params.id),
  }));
  route(app, maintenanceApi.create, async (req) => ({
    maintenance: await createService(db, actorOf(req), 'maintenance', req.body),
  }));
  route(app, maintenanceApi.update, async (req) => ({
    maintenance: await updateService(db, actorOf(req), 'maintenance', req.params.id, req.body),
  }));
  route(app, maintenanceApi.complete, async (req) => {
    const { done, next } = await completeService(db, actorOf(req), 'maintenance', req.params.id, req.body);
    return { maintenance: done, next };
  });
  route(app, maintenanceApi.remove, async (req) => ({
    maintenance: await deleteService(db, actorOf(req), 'maintenance', req.params.id),
  }));
}
