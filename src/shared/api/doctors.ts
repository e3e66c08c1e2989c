import { z } from 'zod';
import { idParam } from '../schemas/common.js';
import {
  doctorAnalyticsQuery,
  doctorAnalyticsSchema,
  doctorCreateSchema,
  doctorListQuery,
  doctorPageSchema,
  doctorSchema,
  doctorSummarySchema,
  doctorUpdateSchema,
} from '../schemas/doctors.js';
import { userSchema } from '../schemas/users.js';
import { defineRoute } from './contract.js';

const oneDoctor = z.object({ doctor: doctorSchema });

/**
 * Doctor Management. Doctors stay user records with the role doctor, so the spec's
 * `GET /api/users?role=doctor` and a bill's `doctor_id` keep meaning what they meant. Reading needs
 * what the OP Bill doctor picker needs (view_users); changing needs manage_users, as for any account.
 */
export const doctorsApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/doctors',
    access: 'view_users',
    query: doctorListQuery,
    response: doctorPageSchema,
  }),
  /** Doctors and lab technicians who may be billed (active): the OP Bill doctor picker (spec 2.8). */
  options: defineRoute({
    method: 'GET',
    path: '/api/doctors/options',
    access: 'view_users',
    response: z.object({ doctors: z.array(userSchema) }),
  }),
  summary: defineRoute({
    method: 'GET',
    path: '/api/doctors/summary',
    access: 'view_users',
    response: z.object({ summary: doctorSummarySchema }),
  }),
  /** Referrals, patients, tests and revenue per doctor and specialization from the bills of a date range. */
  analytics: defineRoute({
    method: 'GET',
    path: '/api/doctors/analytics',
    access: ['view_users', 'view_bills'],
    query: doctorAnalyticsQuery,
    response: z.object({ analytics: doctorAnalyticsSchema }),
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/doctors/:id',
    access: 'view_users',
    params: idParam,
    response: oneDoctor,
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/doctors',
    access: 'manage_users',
    body: doctorCreateSchema,
    response: oneDoctor,
    status: 201,
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/doctors/:id',
    access: 'manage_users',
    params: idParam,
    body: doctorUpdateSchema,
    response: oneDoctor,
  }),
  /** Erases a doctor nothing refers to; 409 once a bill or any other record names them (deactivate instead). */
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/doctors/:id',
    access: 'manage_users',
    params: idParam,
    response: oneDoctor,
  }),
};
