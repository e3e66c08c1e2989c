import { z } from 'zod';
import { idParam } from '../schemas/common.js';
import {
  calibrationCompleteSchema,
  calibrationCreateSchema,
  calibrationPageSchema,
  calibrationSchema,
  calibrationUpdateSchema,
  certificateUploadSchema,
  CERTIFICATE_MAX_BYTES,
  equipmentCreateSchema,
  equipmentListQuery,
  equipmentPageSchema,
  equipmentSchema,
  equipmentStatusChangeSchema,
  equipmentSummaryQuery,
  equipmentSummarySchema,
  equipmentUpdateSchema,
  maintenanceCompleteSchema,
  maintenanceCreateSchema,
  maintenancePageSchema,
  maintenanceReportParams,
  maintenanceReportQuery,
  maintenanceReportSchema,
  maintenanceSchema,
  maintenanceUpdateSchema,
  readingCreateSchema,
  readingSchema,
  serviceListQuery,
  serviceSummarySchema,
  statusHistoryEntrySchema,
} from '../schemas/equipment.js';
import { defineRoute, fileResponse } from './contract.js';

const oneEquipment = z.object({ equipment: equipmentSchema });
const oneCalibration = z.object({ calibration: calibrationSchema });
const oneMaintenance = z.object({ maintenance: maintenanceSchema });

/**
 * The equipment register: machines and instruments. Reading needs view_equipment;
 * registering, editing and deleting need manage_lab; the day's work on equipment (status, readings)
 * needs manage_equipment.
 */
export const equipmentApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/equipment',
    access: 'view_equipment',
    query: equipmentListQuery,
    response: equipmentPageSchema,
  }),
  summary: defineRoute({
    method: 'GET',
    path: '/api/equipment/summary',
    access: 'view_equipment',
    query: equipmentSummaryQuery,
    response: z.object({ summary: equipmentSummarySchema }),
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/equipment/:id',
    access: 'view_equipment',
    params: idParam,
    response: oneEquipment,
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/equipment',
    access: 'manage_lab',
    body: equipmentCreateSchema,
    response: oneEquipment,
    status: 201,
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/equipment/:id',
    access: 'manage_lab',
    params: idParam,
    body: equipmentUpdateSchema,
    response: oneEquipment,
  }),
  /** Erased when no record names it; archived (gone from lists, GET 404) when results, QC, work or readings do. */
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/equipment/:id',
    access: 'manage_lab',
    params: idParam,
    response: z.object({ equipment: equipmentSchema, archived: z.boolean() }),
  }),
  /** Staff at the bench mark an analyser down or back up; kept in the status history. */
  setStatus: defineRoute({
    method: 'PUT',
    path: '/api/equipment/:id/status',
    access: 'manage_equipment',
    params: idParam,
    body: equipmentStatusChangeSchema,
    response: oneEquipment,
  }),
  history: defineRoute({
    method: 'GET',
    path: '/api/equipment/:id/history',
    access: 'view_equipment',
    params: idParam,
    response: z.object({ history: z.array(statusHistoryEntrySchema) }),
  }),
  readings: defineRoute({
    method: 'GET',
    path: '/api/equipment/:id/readings',
    access: 'view_equipment',
    params: idParam,
    response: z.object({ readings: z.array(readingSchema) }),
  }),
  /** A temperature and/or humidity reading; outside the instrument's limits it notifies the lab. */
  addReading: defineRoute({
    method: 'POST',
    path: '/api/equipment/:id/readings',
    access: 'manage_equipment',
    params: idParam,
    body: readingCreateSchema,
    response: z.object({ reading: readingSchema, equipment: equipmentSchema }),
    status: 201,
  }),
};

/** Calibration Management: schedule, record the work (with its certificate), next due from the interval. */
export const calibrationsApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/calibrations',
    access: 'view_equipment',
    query: serviceListQuery,
    response: calibrationPageSchema,
  }),
  summary: defineRoute({
    method: 'GET',
    path: '/api/calibrations/summary',
    access: 'view_equipment',
    response: z.object({ summary: serviceSummarySchema }),
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/calibrations/:id',
    access: 'view_equipment',
    params: idParam,
    response: oneCalibration,
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/calibrations',
    access: 'manage_equipment',
    body: calibrationCreateSchema,
    response: oneCalibration,
    status: 201,
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/calibrations/:id',
    access: 'manage_equipment',
    params: idParam,
    body: calibrationUpdateSchema,
    response: oneCalibration,
  }),
  /** Records the work done; with an interval, the next calibration is scheduled at performed day + interval. */
  complete: defineRoute({
    method: 'POST',
    path: '/api/calibrations/:id/complete',
    access: 'manage_equipment',
    params: idParam,
    body: calibrationCompleteSchema,
    response: z.object({ calibration: calibrationSchema, next: calibrationSchema.nullable() }),
  }),
  /** A scheduled or cancelled record only; completed work stays on record (409). */
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/calibrations/:id',
    access: 'manage_equipment',
    params: idParam,
    response: oneCalibration,
  }),
  /** The certificate as base64 JSON (PDF, PNG, JPEG or WebP, checked by content, at most 5 MiB). */
  uploadCertificate: defineRoute({
    method: 'POST',
    path: '/api/calibrations/:id/certificate',
    access: 'manage_equipment',
    params: idParam,
    body: certificateUploadSchema,
    response: oneCalibration,
    bodyLimit: Math.ceil((CERTIFICATE_MAX_BYTES * 4) / 3) + 64 * 1024,
  }),
  certificate: defineRoute({
    method: 'GET',
    path: '/api/calibrations/:id/certificate',
    access: 'view_equipment',
    params: idParam,
    query: z.object({ download: z.enum(['0', '1'], { error: 'download must be 0 or 1' }).optional() }),
    response: fileResponse('application/pdf'),
  }),
};

/** Maintenance Management: schedule, record the work with its cost, next due, reports. */
export const maintenanceApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/maintenance',
    access: 'view_equipment',
    query: serviceListQuery,
    response: maintenancePageSchema,
  }),
  summary: defineRoute({
    method: 'GET',
    path: '/api/maintenance/summary',
    access: 'view_equipment',
    response: z.object({ summary: serviceSummarySchema }),
  }),
  report: defineRoute({
    method: 'GET',
    path: '/api/maintenance/reports/:report',
    access: 'view_equipment',
    params: maintenanceReportParams,
    query: maintenanceReportQuery,
    response: z.object({ report: maintenanceReportSchema }),
  }),
  reportCsv: defineRoute({
    method: 'GET',
    path: '/api/maintenance/reports/:report/csv',
    access: ['view_equipment', 'export_data'],
    params: maintenanceReportParams,
    query: maintenanceReportQuery,
    response: fileResponse('text/csv'),
  }),
  reportPdf: defineRoute({
    method: 'GET',
    path: '/api/maintenance/reports/:report/pdf',
    access: 'view_equipment',
    params: maintenanceReportParams,
    query: maintenanceReportQuery,
    response: fileResponse('application/pdf'),
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/maintenance/:id',
    access: 'view_equipment',
    params: idParam,
    response: oneMaintenance,
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/maintenance',
    access: 'manage_equipment',
    body: maintenanceCreateSchema,
    response: oneMaintenance,
    status: 201,
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/maintenance/:id',
    access: 'manage_equipment',
    params: idParam,
    body: maintenanceUpdateSchema,
    response: oneMaintenance,
  }),
  complete: defineRoute({
    method: 'POST',
    path: '/api/maintenance/:id/complete',
    access: 'manage_equipment',
    params: idParam,
    body: maintenanceCompleteSchema,
    response: z.object({ maintenance: maintenanceSchema, next: maintenanceSchema.nullable() }),
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/maintenance/:id',
    access: 'manage_equipment',
    params: idParam,
    response: oneMaintenance,
  }),
};
