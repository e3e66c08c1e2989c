import { z } from 'zod';
import { idParam, pagedShape } from '../schemas/common.js';
import {
  collectionLocationSchema,
  locationSchema,
  locationUpdateSchema,
  sampleCollectSchema,
  sampleCreateSchema,
  sampleListQuery,
  sampleRecollectSchema,
  sampleSchema,
  sampleStatusSchema,
  sampleSummarySchema,
  sampleUpdateSchema,
} from '../schemas/samples.js';
import { defineRoute, fileResponse } from './contract.js';

const barcodeParam = z.object({ barcode: z.string().trim().max(40) });
const oneSample = z.object({ sample: sampleSchema });
const oneLocation = z.object({ location: collectionLocationSchema });

export const samplesApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/samples',
    access: 'view_samples',
    query: sampleListQuery,
    response: z.object({ samples: z.array(sampleSchema), ...pagedShape }),
  }),
  summary: defineRoute({
    method: 'GET',
    path: '/api/samples/summary',
    access: 'view_samples',
    response: z.object({ summary: sampleSummarySchema }),
  }),
  byBarcode: defineRoute({
    method: 'GET',
    path: '/api/samples/by-barcode/:barcode',
    access: 'view_samples',
    params: barcodeParam,
    response: oneSample,
  }),
  checkBarcode: defineRoute({
    method: 'GET',
    path: '/api/samples/check-barcode/:barcode',
    access: 'view_samples',
    params: barcodeParam,
    response: z.object({ isUnique: z.boolean(), valid: z.boolean() }),
  }),
  generateBarcodes: defineRoute({
    method: 'POST',
    path: '/api/samples/generate-barcodes',
    access: 'manage_samples',
    response: z.object({ generated: z.number().int(), samples: z.array(z.string()) }),
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/samples/:id',
    access: 'view_samples',
    params: idParam,
    response: oneSample,
  }),
  label: defineRoute({
    method: 'GET',
    path: '/api/samples/:id/label.pdf',
    access: 'view_samples',
    params: idParam,
    response: fileResponse('application/pdf'),
  }),
  /** Collects pending tubes (a bill's order) in one action: each gets collected, with time, collector and custody entry. */
  collect: defineRoute({
    method: 'POST',
    path: '/api/samples/collect',
    access: 'manage_samples',
    body: sampleCollectSchema,
    response: z.object({ samples: z.array(sampleSchema) }),
  }),
  /** A rejected sample drawn again: a new pending sample with its own barcode, the same tests, no new charge. */
  recollect: defineRoute({
    method: 'POST',
    path: '/api/samples/:id/recollect',
    access: 'manage_samples',
    params: idParam,
    body: sampleRecollectSchema,
    response: oneSample,
    status: 201,
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/samples',
    access: 'manage_samples',
    body: sampleCreateSchema,
    response: oneSample,
    status: 201,
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/samples/:id',
    access: 'manage_samples',
    params: idParam,
    body: sampleUpdateSchema,
    response: oneSample,
  }),
  changeStatus: defineRoute({
    method: 'PUT',
    path: '/api/samples/:id/status',
    access: 'manage_samples',
    params: idParam,
    body: sampleStatusSchema,
    response: oneSample,
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/samples/:id',
    access: 'manage_samples',
    params: idParam,
    response: oneSample,
  }),
  /** Barcode and QR images, generated on the server (bwip-js), for the Sample Barcode dialog. */
  barcodeImage: defineRoute({
    method: 'GET',
    path: '/api/barcodes/:barcode.png',
    access: 'view_samples',
    params: barcodeParam,
    query: z.object({ type: z.enum(['code128', 'qrcode']).default('code128') }),
    response: fileResponse('image/png'),
  }),
};

export const locationsApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/collection-locations',
    access: 'view_samples',
    query: z.object({ include_inactive: z.enum(['true', 'false']).optional() }),
    response: z.object({ locations: z.array(collectionLocationSchema) }),
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/collection-locations',
    access: 'manage_lab',
    body: locationSchema,
    response: oneLocation,
    status: 201,
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/collection-locations/:id',
    access: 'manage_lab',
    params: idParam,
    body: locationUpdateSchema,
    response: oneLocation,
  }),
};
