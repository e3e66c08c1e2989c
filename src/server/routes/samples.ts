import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam } from '../../shared/schemas/common.js';
import {
  locationSchema,
  locationUpdateSchema,
  sampleCreateSchema,
  sampleListQuery,
  sampleStatusSchema,
  sampleUpdateSchema,
} from '../../shared/schemas/samples.js';
import {
  changeSampleStatus,
  checkBarcode,
  createSample,
  deleteSample,
  generateMissingBarcodes,
  getSample,
  listSamples,
  sampleByBarcode,
  sampleSummary,
  updateSample,
} from '../../core/samples/service.js';
import { createLocation, listLocations, updateLocation } from '../../core/samples/locations.js';
import { labelPdfForSample } from '../../core/samples/print.js';
import { barcodePng } from '../../core/pdf/barcode.js';
import { actorOf } from '../plugins/auth.js';

const barcodeParam = z.object({ barcode: z.string().trim().max(40) });
const imageQuery = z.object({ type: z.enum(['code128', 'qrcode']).default('code128') });

export async function sampleRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = app.database.db;
  const view = { access: 'view_samples' } as const;
  const manage = { access: 'manage_samples' } as const;

  r.get('/api/samples', { schema: { querystring: sampleListQuery }, config: view }, async (req) =>
    listSamples(db, actorOf(req).organizationId, req.query),
  );
  r.get('/api/samples/summary', { config: view }, async (req) => ({
    summary: await sampleSummary(db, actorOf(req).organizationId),
  }));
  r.get('/api/samples/by-barcode/:barcode', { schema: { params: barcodeParam }, config: view }, async (req) => ({
    sample: await sampleByBarcode(db, actorOf(req).organizationId, req.params.barcode),
  }));
  r.get('/api/samples/check-barcode/:barcode', { schema: { params: barcodeParam }, config: view }, async (req) =>
    checkBarcode(db, actorOf(req).organizationId, req.params.barcode),
  );
  r.post('/api/samples/generate-barcodes', { config: manage }, async (req) =>
    generateMissingBarcodes(db, actorOf(req)),
  );
  r.get('/api/samples/:id', { schema: { params: idParam }, config: view }, async (req) => ({
    sample: await getSample(db, actorOf(req).organizationId, req.params.id),
  }));
  r.get('/api/samples/:id/label.pdf', { schema: { params: idParam }, config: view }, async (req, reply) => {
    const { pdf, sampleCode } = await labelPdfForSample(db, actorOf(req).organizationId, req.params.id);
    return reply
      .type('application/pdf')
      .header('content-disposition', `inline; filename="label-${sampleCode}.pdf"`)
      .send(pdf);
  });
  r.post('/api/samples', { schema: { body: sampleCreateSchema }, config: manage }, async (req, reply) => {
    reply.status(201);
    return { sample: await createSample(db, actorOf(req), req.body) };
  });
  r.put('/api/samples/:id', { schema: { params: idParam, body: sampleUpdateSchema }, config: manage }, async (req) => ({
    sample: await updateSample(db, actorOf(req), req.params.id, req.body),
  }));
  r.put(
    '/api/samples/:id/status',
    { schema: { params: idParam, body: sampleStatusSchema }, config: manage },
    async (req) => ({
      sample: await changeSampleStatus(db, actorOf(req), req.params.id, req.body),
    }),
  );
  r.delete('/api/samples/:id', { schema: { params: idParam }, config: manage }, async (req) => ({
    sample: await deleteSample(db, actorOf(req), req.params.id),
  }));

  /** Barcode and QR images, generated here (bwip-js), for the Sample Barcode dialog. */
  r.get(
    '/api/barcodes/:barcode.png',
    { schema: { params: barcodeParam, querystring: imageQuery }, config: view },
    async (req, reply) => {
      const png = await barcodePng(req.params.barcode, req.query.type);
      return reply.type('image/png').header('cache-control', 'private, max-age=86400').send(png);
    },
  );

  r.get(
    '/api/collection-locations',
    { schema: { querystring: z.object({ include_inactive: z.enum(['true', 'false']).optional() }) }, config: view },
    async (req) => ({
      locations: await listLocations(db, actorOf(req).organizationId, req.query.include_inactive === 'true'),
    }),
  );
  r.post(
    '/api/collection-locations',
    { schema: { body: locationSchema }, config: { access: 'manage_lab' } },
    async (req, reply) => {
      reply.status(201);
      return { location: await createLocation(db, actorOf(req), req.body) };
    },
  );
  r.put(
    '/api/collection-locations/:id',
    { schema: { params: idParam, body: locationUpdateSchema }, config: { access: 'manage_lab' } },
    async (req) => ({
      location: await updateLocation(db, actorOf(req), req.params.id, req.body),
    }),
  );
}
