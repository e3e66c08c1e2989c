import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Actor } from '../context.js';
import { ForbiddenError, ValidationError } from '../errors.js';
import { entityNamed, type AnyEntity } from '../transfer/service.js';
import { uploadsRoot } from './uploads.js';
import {
  DATA_ENTITIES,
  DATA_ENTITY_LABELS,
  mayMove,
  type DataEntity,
  type TransferEntityInfo,
} from '../../shared/schemas/data-jobs.js';
import type { Permission } from '../../shared/roles.js';

/** Who may move which entity on the data screens, and where the screens' files live under the data dir. */

/** Who is asking: the actor and their permissions in their lab. */
export interface Requester {
  actor: Actor;
  permissions: readonly Permission[];
}

export function dataDirs(dataDir: string) {
  return {
    uploads: uploadsRoot(dataDir),
    exports: join(dataDir, 'exports'),
    reports: join(dataDir, 'import-reports'),
  };
}

export function ensureDir(path: string): string {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  return path;
}

// ---------------------------------------------------------------- permissions

export function entityOf(name: string): AnyEntity {
  const e = entityNamed(name);
  if (!e) throw ValidationError.field('entity', `Entity must be one of ${DATA_ENTITIES.join(', ')}`);
  return e;
}

export function requireMove(r: Requester, entity: string, type: 'import' | 'export'): void {
  if (!mayMove(r.permissions, entity as DataEntity, type)) {
    const label = DATA_ENTITY_LABELS[entity as DataEntity] ?? entity;
    throw new ForbiddenError(
      type === 'import'
        ? `You do not have permission to import ${label.toLowerCase()}`
        : `You do not have permission to export ${label.toLowerCase()}`,
    );
  }
}

/** The entity named, when the user may move it that way (an unknown name or a missing permission is refused). */
export function movableEntity(r: Requester, name: string, type: 'import' | 'export'): AnyEntity {
  const entity = entityOf(name);
  requireMove(r, entity.name, type);
  return entity;
}

/** The entities whose jobs the user sees: those they may import or export. */
export function visibleEntities(r: Requester, within?: readonly string[]): string[] {
  return DATA_ENTITIES.filter(
    (e) =>
      (!within || within.includes(e)) && (mayMove(r.permissions, e, 'import') || mayMove(r.permissions, e, 'export')),
  );
}

export function entityInfos(r: Requester): TransferEntityInfo[] {
  return DATA_ENTITIES.map((name) => {
    const e = entityOf(name);
    return {
      name,
      label: DATA_ENTITY_LABELS[name],
      key: e.key,
      columns: e.columns.map((c) => ({
        name: c.name,
        read_only: c.readOnly === true,
        required: e.requiredColumns.includes(c.name),
      })),
      can_import: mayMove(r.permissions, name, 'import'),
      can_export: mayMove(r.permissions, name, 'export'),
      can_update: e.updateSchema !== undefined,
      date_field: e.dateField ?? null,
      filters: Object.keys(e.filters),
    };
  });
}
