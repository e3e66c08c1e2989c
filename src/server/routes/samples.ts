import type { FastifyInstance } from 'fastify';
import { recollectSample } from '../../core/samples/recollect.js';
import { locationsApi, samplesApi } from '../../shared/api/samples.js';
import {
  changeSampleStatus,
  collectSamples,
  createSample,
  deleteSample,
  getSample,
  listSamples,
  sampleSummary,
  updateSample,
} from '../../core/samples/service.js';
import { checkBarcode, generateMissingBarcodes, sampleByBarcode } from '../../core/samples/barcodes.js';
import { createLocation, listLocations, updateLocation } from '../../core/samples/locations.js';
import { labelPdfForSample } from '../../core/samples/print.js';
import { barcodePng } from '../../core/pdf/barcode.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';
import { sendPdf } from '../files.js';

export async function sampleRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const org = (req: Parameters<typeof actorOf>[0]) => actorOf(req).organizationId;

  route(app, samplesApi.list, async (req) => listSamples(db, org(req), req.query));
  route(app, samplesApi.summary, async (req) => ({ summary: await sampleSummary(db, org(req)) }));
  route(app, samplesApi.byBarcode, async (req) => ({
    sample: await sampleByBarcode(db, org(req), req.params.barcode),
  }));
  route(app, samplesApi.checkBarcode, async (req) => checkBarcode(db, org(req), req.params.barcode));
  route(app, samplesApi.generateBarcodes, async (req) => generateMissingBarcodes(db, actorOf(req)));
  route(app, samplesApi.get, async (req) => ({ sample: await getSample(db, org(req), req.params.id) }));
  route(app, samplesApi.label, async (req, reply) => {
    const { pdf, sampleCode } = await labelPdfForSample(db, org(req), req.params.id);
    return sendPdf(reply, `label-${sampleCode}.pdf`, pdf);
  });
  route(app, samplesApi.collect, async (req) => ({ samples: await collectSamples(db, actorOf(req), req.body) }));
  route(app, samplesApi.recollect, async (req) => ({
    sample: await recollectSample(db, actorOf(req), req.params.id, req.body),
  }));
  route(app, samplesApi.create, async (req) => ({ sample: await createSample(db, actorOf(req), req.body) }));
  route(app, samplesApi.update, async (req) => ({
    sample: await updateSample(db, actorOf(req), req.params.id, req.body),
  }));
  route(app, samplesApi.changeStatus, async (req) => ({
    sample: await changeSampleStatus(db, actorOf(req), req.params.id, req.body),
  }));
  route(app, samplesApi.remove, async (req) => ({ sample: await deleteSample(db, actorOf(req), req.params.id) }));
  route(app, samplesApi.barcodeImage, async (req, reply) => {
    const png = await barcodePng(req.params.barcode, req.query.type);
    return reply.type('image/png').header('cache-control', 'private, max-age=86400').send(png);
  });

  route(app, locationsApi.list, async (req) => ({
    locations: await listLocations(db, org(req), req.query.include_inactive === 'true'),
  }));
  route(app, locationsApi.create, async (req) => ({ location: await createLocation(db, actorOf(req), req.body) }));
  route(app, locationsApi.update, async (req) => ({
    location: await updateLocation(db, actorOf(req), req.params.id, req.body),
  }));
}

export default sampleRoutes;
