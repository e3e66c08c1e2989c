import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParam } from '../../shared/schemas/common.js';
import { passwordResetSchema, userCreateSchema, userListQuery, userUpdateSchema } from '../../shared/schemas/users.js';
import { DOCTOR_ROLES } from '../../shared/roles.js';
import { createUser, deactivateUser, getUser, listUsers, resetPassword, updateUser } from '../../core/users/service.js';
import { actorOf } from '../plugins/auth.js';

export async function userRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = app.database.db;

  r.get('/api/users', { schema: { querystring: userListQuery }, config: { access: 'view_users' } }, async (req) => ({
    users: await listUsers(db, actorOf(req).organizationId, req.query),
  }));

  /** Doctors and lab technicians: the OP Bill doctor picker (spec 2.8). */
  r.get('/api/doctors', { config: { access: 'view_users' } }, async (req) => ({
    doctors: await listUsers(db, actorOf(req).organizationId, { roles: DOCTOR_ROLES }),
  }));

  r.get('/api/users/:id', { schema: { params: idParam }, config: { access: 'view_users' } }, async (req) => ({
    user: await getUser(db, actorOf(req).organizationId, req.params.id),
  }));

  r.post(
    '/api/users',
    { schema: { body: userCreateSchema }, config: { access: 'manage_users' } },
    async (req, reply) => {
      reply.status(201);
      return { user: await createUser(db, actorOf(req), req.body) };
    },
  );

  r.put(
    '/api/users/:id',
    { schema: { params: idParam, body: userUpdateSchema }, config: { access: 'manage_users' } },
    async (req) => ({ user: await updateUser(db, actorOf(req), req.params.id, req.body) }),
  );

  r.delete('/api/users/:id', { schema: { params: idParam }, config: { access: 'manage_users' } }, async (req) => ({
    user: await deactivateUser(db, actorOf(req), req.params.id),
  }));

  r.post(
    '/api/users/:id/reset-password',
    { schema: { params: idParam, body: passwordResetSchema }, config: { access: 'manage_users' } },
    async (req) => ({ user: await resetPassword(db, actorOf(req), req.params.id, req.body.password) }),
  );
}
