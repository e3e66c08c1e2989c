import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { calibrationsApi, equipmentApi, maintenanceApi } from '@shared/api/equipment';
import type {
  equipmentCreateSchema,
  equipmentUpdateSchema,
  readingCreateSchema,
  calibrationCreateSchema,
  calibrationCompleteSchema,
  maintenanceCompleteSchema,
  EquipmentKind,
  MaintenanceReportKind,
  ServiceKind,
} from '@shared/schemas/equipment';
import { call } from '@/lib/api';
import { notify } from '@/lib/notify';

/** Query keys of the equipment screens; every change refreshes all of them (a calibration changes an instrument's status). */
export const equipmentKeys = {
  all: ['equipment'] as const,
  list: (q: object) => ['equipment', 'list', q] as const,
  summary: (kind: EquipmentKind) => ['equipment', 'summary', kind] as const,
  one: (id: number) => ['equipment', 'one', id] as const,
  history: (id: number) => ['equipment', 'history', id] as const,
  readings: (id: number) => ['equipment', 'readings', id] as const,
  services: (kind: ServiceKind, q: object) => ['equipment', kind, 'list', q] as const,
  serviceSummary: (kind: ServiceKind) => ['equipment', kind, 'summary'] as const,
  report: (kind: MaintenanceReportKind, from: string, to: string) => ['equipment', 'report', kind, from, to] as const,
};

export interface EquipmentQuery {
  kind: EquipmentKind;
  search: string;
  status?: string;
  location?: string;
  type?: string;
  page: number;
  limit: number;
}

export function useEquipmentPage(q: EquipmentQuery) {
  return useQuery({
    queryKey: equipmentKeys.list(q),
    queryFn: ({ signal }) =>
      call(
        equipmentApi.list,
        {
          query: {
            kind: q.kind,
            search: q.search || undefined,
            status: q.status as never,
            location: q.location,
            type: q.type,
            page: q.page,
            limit: q.limit,
          },
        },
        signal,
      ),
    placeholderData: keepPreviousData,
  });
}

export function useEquipmentSummary(kind: EquipmentKind) {
  return useQuery({
    queryKey: equipmentKeys.summary(kind),
    queryFn: ({ signal }) => call(equipmentApi.summary, { query: { kind } }, signal).then((r) => r.summary),
  });
}

/** Every current equipment (for the schedule dialogs' picker): the first 200. */
export function useEquipmentOptions() {
  return useQuery({
    queryKey: equipmentKeys.list({ options: true }),
    queryFn: ({ signal }) => call(equipmentApi.list, { query: { limit: 200 } }, signal).then((r) => r.equipment),
  });
}

export function useEquipmentHistory(id: number | null) {
  return useQuery({
    queryKey: equipmentKeys.history(id ?? 0),
    queryFn: ({ signal }) => call(equipmentApi.history, { params: { id: id! } }, signal).then((r) => r.history),
    enabled: id !== null,
  });
}

export function useEquipmentReadings(id: number | null) {
  return useQuery({
    queryKey: equipmentKeys.readings(id ?? 0),
    queryFn: ({ signal }) => call(equipmentApi.readings, { params: { id: id! } }, signal).then((r) => r.readings),
    enabled: id !== null,
  });
}

export interface ServiceQuery {
  search: string;
  status?: string;
  type?: string;
  page: number;
  limit: number;
}

/** A calibration or maintenance page's list query (an empty search is left out). */
const serviceListQuery = (q: ServiceQuery) => ({
  search: q.search || undefined,
  status: q.status as never,
  type: q.type,
  page: q.page,
  limit: q.limit,
});

export function useCalibrationPage(q: ServiceQuery, enabled = true) {
  return useQuery({
    enabled,
    queryKey: equipmentKeys.services('calibration', q),
    queryFn: ({ signal }) => call(calibrationsApi.list, { query: serviceListQuery(q) }, signal),
    placeholderData: keepPreviousData,
  });
}

export function useMaintenancePage(q: ServiceQuery, enabled = true) {
  return useQuery({
    enabled,
    queryKey: equipmentKeys.services('maintenance', q),
    queryFn: ({ signal }) => call(maintenanceApi.list, { query: serviceListQuery(q) }, signal),
    placeholderData: keepPreviousData,
  });
}

export function useServiceSummary(kind: ServiceKind) {
  return useQuery({
    queryKey: equipmentKeys.serviceSummary(kind),
    queryFn: ({ signal }) =>
      call(kind === 'calibration' ? calibrationsApi.summary : maintenanceApi.summary, {}, signal).then(
        (r) => r.summary,
      ),
  });
}

export function useMaintenanceReport(kind: MaintenanceReportKind, from: string, to: string) {
  return useQuery({
    queryKey: equipmentKeys.report(kind, from, to),
    queryFn: ({ signal }) =>
      call(
        maintenanceApi.report,
        { params: { report: kind }, query: { from: from || undefined, to: to || undefined } },
        signal,
      ).then((r) => r.report),
  });
}

function useInvalidate() {
  const qc = useQueryClient();
  return () =>
    Promise.all([qc.invalidateQueries({ queryKey: equipmentKeys.all }), qc.invalidateQueries({ queryKey: ['audit'] })]);
}

type Create = z.input<typeof equipmentCreateSchema>;
type Update = z.input<typeof equipmentUpdateSchema>;

export function useSaveEquipmentMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: Create | Update }) =>
      (id === null
        ? call(equipmentApi.create, { body: body as Create })
        : call(equipmentApi.update, { params: { id }, body: body as Update })
      ).then((r) => ({ equipment: r.equipment, created: id === null })),
    onSuccess: ({ equipment, created }) => {
      notify.success(
        created ? 'Equipment registered' : 'Equipment updated',
        `${equipment.name} (${equipment.serial_number})`,
      );
      return invalidate();
    },
    onError: (err) => notify.error('Failed to save equipment', err),
  });
}

export function useEquipmentStatusMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({
      id,
      status,
      reason,
    }: {
      id: number;
      status: 'operational' | 'maintenance' | 'error' | 'offline';
      reason: string;
    }) => call(equipmentApi.setStatus, { params: { id }, body: { status, reason } }).then((r) => r.equipment),
    onSuccess: (e) => {
      notify.success('Status changed', `${e.name} is now ${e.set_status}`);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to change the status', err),
  });
}

export function useDeleteEquipmentMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: number) => call(equipmentApi.remove, { params: { id } }),
    onSuccess: (r) => {
      notify.success(
        r.archived ? 'Equipment archived' : 'Equipment deleted',
        r.archived
          ? `${r.equipment.name} has records, so it was archived: it leaves the lists and its records stay.`
          : r.equipment.name,
      );
      return invalidate();
    },
    onError: (err) => notify.error('Failed to delete equipment', err),
  });
}

export function useAddReadingMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: z.input<typeof readingCreateSchema> }) =>
      call(equipmentApi.addReading, { params: { id }, body }),
    onSuccess: (r) => {
      if (r.reading.out_of_range)
        notify.error('Reading out of range', `${r.equipment.name}: the lab has been notified.`);
      else notify.success('Reading recorded', r.equipment.name);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to record the reading', err),
  });
}

export function useScheduleMutation(kind: ServiceKind) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (body: z.input<typeof calibrationCreateSchema>) =>
      kind === 'calibration'
        ? (await call(calibrationsApi.create, { body })).calibration
        : (await call(maintenanceApi.create, { body: body as never })).maintenance,
    onSuccess: (s) => {
      notify.success(
        kind === 'calibration' ? 'Calibration scheduled' : 'Maintenance scheduled',
        `${s.equipment_name}, due ${s.due_date}`,
      );
      return invalidate();
    },
    onError: (err) =>
      notify.error(kind === 'calibration' ? 'Failed to schedule calibration' : 'Failed to schedule maintenance', err),
  });
}

export function useServiceStatusMutation(kind: ServiceKind) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async ({ id, status }: { id: number; status: 'scheduled' | 'in_progress' | 'cancelled' }) =>
      kind === 'calibration'
        ? (await call(calibrationsApi.update, { params: { id }, body: { status } })).calibration
        : (await call(maintenanceApi.update, { params: { id }, body: { status } })).maintenance,
    onSuccess: () => invalidate(),
    onError: (err) => notify.error('Failed to change the record', err),
  });
}

export function useCompleteMutation(kind: ServiceKind) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async ({
      id,
      body,
    }: {
      id: number;
      body: z.input<typeof calibrationCompleteSchema> & z.input<typeof maintenanceCompleteSchema>;
    }) => {
      if (kind === 'calibration') {
        const { cost: _c, ...rest } = body;
        const r = await call(calibrationsApi.complete, { params: { id }, body: rest });
        return { done: r.calibration, next: r.next };
      }
      const { accuracy: _a, ...rest } = body;
      const r = await call(maintenanceApi.complete, { params: { id }, body: rest });
      return { done: r.maintenance, next: r.next };
    },
    onSuccess: ({ done, next }) => {
      notify.success('Work recorded', next ? `${done.equipment_name}: next due ${next.due_date}` : done.equipment_name);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to record the work', err),
  });
}

export function useUploadCertificateMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, file_name, content_base64 }: { id: number; file_name: string; content_base64: string }) =>
      call(calibrationsApi.uploadCertificate, { params: { id }, body: { file_name, content_base64 } }).then(
        (r) => r.calibration,
      ),
    onSuccess: (c) => {
      notify.success('Certificate uploaded', `${c.equipment_name}: ${c.certificate?.file_name ?? ''}`);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to upload the certificate', err),
  });
}

/** The file as base64 (without the data: prefix). */
export function fileToBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}
