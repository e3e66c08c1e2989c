import { randomUUID } from 'node:crypto';
import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { NO_PASSWORD } from '../auth/service.js';
import { connectionFolder } from './drop-folder.js';
import { lineIssues, type OperatorLimits } from './operator-limits.js';
import { profileSettingsOf } from './profile.js';
import { insertUser } from '../users/service.js';
import { pageEnvelope } from '../../shared/schemas/common.js';
import {
  MAX_MESSAGE_KIB_DEFAULT,
  SERIAL_DEFAULTS,
  transportIssues,
  type CodeMapEntry,
  type Connection,
  type ConnectionCreate,
  type ConnectionUpdate,
  type InterfaceMessage,
  type MessageListQuery,
} from '../../shared/schemas/connections.js';
import {
  connectionCounts,
  connectionRows,
  deleteConnectionRow,
  equipmentName,
  findConnectionRow,
  findMessage,
  insertConnectionRow,
  nameTaken,
  pageMessages,
  testNames,
  updateConnectionRow,
  type ConnectionRow,
} from './repository.js';

/** The stored code map of a connection. */
export function codeMapOf(row: Pick<ConnectionRow, 'code_map'>): CodeMapEntry[] {
  try {
    const v = JSON.parse(row.code_map) as unknown;
    return Array.isArray(v) ? (v as CodeMapEntry[]) : [];
  } catch {
    return [];
  }
}

type SerialFields = Pick<ConnectionRow, 'baud_rate' | 'data_bits' | 'parity' | 'stop_bits'>;

/** A serial connection's line settings (what it was given, else what it had, else 9600 8N1); none for TCP or folders. */
function serialSettings(transport: string, input: Partial<ConnectionCreate>, before?: SerialFields): SerialFields {
  if (transport !== 'serial') return { baud_rate: null, data_bits: null, parity: null, stop_bits: null };
  return {
    baud_rate: input.baud_rate ?? before?.baud_rate ?? SERIAL_DEFAULTS.baud_rate,
    data_bits: input.data_bits ?? before?.data_bits ?? SERIAL_DEFAULTS.data_bits,
    parity: input.parity ?? before?.parity ?? SERIAL_DEFAULTS.parity,
    stop_bits: input.stop_bits ?? before?.stop_bits ?? SERIAL_DEFAULTS.stop_bits,
  };
}

/** The code map as stored: an ignored code is only its code; a mapped one its test, unit and factor. */
function storedCodeMap(map: CodeMapEntry[]): string {
  return JSON.stringify(
    map.map((e) =>
      e.ignore
        ? { code: e.code, ignore: true }
        : { code: e.code, test_id: e.test_id, unit: e.unit ?? null, factor: e.factor ?? null },
    ),
  );
}

async function toConnections(db: Db, organizationId: number, rows: ConnectionRow[]): Promise<Connection[]> {
  const testIds = [...new Set(rows.flatMap((r) => codeMapOf(r).flatMap((e) => (e.test_id ? [e.test_id] : []))))];
  const [tests, counts, machines] = await Promise.all([
    testNames(db, organizationId, testIds),
    connectionCounts(db, organizationId),
    Promise.all(
      [...new Set(rows.map((r) => r.equipment_id).filter((x): x is number => x !== null))].map((id) =>
        equipmentName(db, organizationId, id),
      ),
    ),
  ]);
  const testName = new Map(tests.map((t) => [t.id, t.name]));
  const machineName = new Map(machines.filter((m) => m !== undefined).map((m) => [m.id, m.name]));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    equipment_id: r.equipment_id,
    equipment_name: r.equipment_id ? (machineName.get(r.equipment_id) ?? null) : null,
    protocol: r.protocol as Connection['protocol'],
    transport: r.transport as Connection['transport'],
    host: r.host,
    port: r.port,
    path: r.path,
    baud_rate: r.baud_rate,
    data_bits: r.data_bits,
    parity: r.parity as Connection['parity'],
    stop_bits: r.stop_bits,
    lenient: r.lenient === 1,
    enabled: r.enabled === 1,
    send_orders: r.send_orders === 1,
    max_message_kib: r.max_message_kib ?? MAX_MESSAGE_KIB_DEFAULT,
    profile: r.profile as Connection['profile'],
    profile_settings: profileSettingsOf(r),
    code_map: codeMapOf(r).map((e) => ({
      code: e.code,
      test_id: e.ignore ? null : (e.test_id ?? null),
      test_name: e.test_id && !e.ignore ? (testName.get(e.test_id) ?? null) : null,
      ignore: e.ignore === true,
      unit: e.unit ?? null,
      factor: e.factor ?? null,
    })),
    service_user_id: r.service_user_id,
    listen_status: r.listen_status as Connection['listen_status'],
    last_error: r.last_error,
    status_at: r.status_at,
    last_message_at: r.last_message_at,
    messages: counts.messages.get(r.id) ?? 0,
    open_unmatched: counts.open.get(r.id) ?? 0,
    created_at: r.created_at,
    updated_at: r.updated_at,
  }));
}

export async function listConnections(db: Db, organizationId: number): Promise<Connection[]> {
  return toConnections(db, organizationId, await connectionRows(db, organizationId));
}

export async function getConnection(db: Db, organizationId: number, id: number): Promise<Connection> {
  const row = await findConnectionRow(db, organizationId, id);
  if (!row) throw new NotFoundError('Connection', id);
  return (await toConnections(db, organizationId, [row]))[0]!;
}

/** The code map's tests must be this lab's; the machine must be this lab's equipment. */
async function checkReferences(
  trx: Db,
  organizationId: number,
  c: { equipment_id?: number | null; code_map?: CodeMapEntry[] },
) {
  if (c.equipment_id) {
    if (!(await equipmentName(trx, organizationId, c.equipment_id)))
      throw ValidationError.field('equipment_id', `Unknown equipment ${c.equipment_id}`);
  }
  const map = c.code_map ?? [];
  const ids = [...new Set(map.flatMap((e) => (e.test_id ? [e.test_id] : [])))];
  const found = new Set((await testNames(trx, organizationId, ids)).map((t) => t.id));
  map.forEach((e, i) => {
    if (e.test_id && !found.has(e.test_id))
      throw ValidationError.field(`code_map.${i}.test_id`, `Unknown test ${e.test_id}`);
  });
}

/** A TCP server port may be used by one enabled connection of the lab at a time. */
async function checkPortFree(
  trx: Db,
  organizationId: number,
  row: Pick<ConnectionRow, 'transport' | 'port' | 'enabled'>,
  exceptId?: number,
) {
  if (row.transport !== 'tcp-server' || !row.enabled || !row.port) return;
  const clash = (await connectionRows(trx, organizationId)).find(
    (c) => c.id !== exceptId && c.enabled === 1 && c.transport === 'tcp-server' && c.port === row.port,
  );
  if (clash) throw new ConflictError(`Port ${row.port} is already used by the connection ${clash.name}`, 'PORT_TAKEN');
}

function auditView(r: ConnectionRow) {
  const { code_map, ...rest } = r;
  return { ...rest, code_map: codeMapOf({ code_map }) };
}

/**
 * A new connection, with the account its machine enters results as: a lab technician that cannot
 * sign in (no password, inactive), named after the connection.
 */
export async function createConnection(
  db: Db,
  actor: Actor,
  input: ConnectionCreate,
  where: OperatorLimits = {},
): Promise<Connection> {
  const refused = lineIssues(input, where);
  if (refused.length) throw new ValidationError('Invalid input', refused);
  const path =
    input.transport === 'folder' && input.path
      ? connectionFolder(where.dropRoot, actor.organizationId, input.path)
      : (input.path ?? null);
  const id = await db.transaction().execute(async (trx) => {
    if (await nameTaken(trx, actor.organizationId, input.name))
      throw new ConflictError(`A connection named ${input.name} already exists`, 'NAME_TAKEN');
    await checkReferences(trx, actor.organizationId, input);
    const enabled = input.enabled ? 1 : 0;
    await checkPortFree(trx, actor.organizationId, { transport: input.transport, port: input.port ?? null, enabled });
    const account = await insertUser(
      trx,
      actor,
      {
        email: `machine-${randomUUID().slice(0, 8)}@machines.invalid`,
        first_name: 'Machine',
        last_name: input.name.slice(0, 60),
        role: 'lab_technician',
        department: 'Machine interface',
        is_active: false,
      },
      NO_PASSWORD,
    );
    const now = nowIso();
    const row = await insertConnectionRow(trx, {
      organization_id: actor.organizationId,
      name: input.name,
      equipment_id: input.equipment_id ?? null,
      protocol: input.protocol,
      transport: input.transport,
      host: input.host ?? null,
      port: input.port ?? null,
      path,
      ...serialSettings(input.transport, input),
      lenient: input.lenient === false ? 0 : 1,
      enabled,
      send_orders: input.send_orders ? 1 : 0,
      send_orders_from: input.send_orders ? now : null,
      code_map: storedCodeMap(input.code_map ?? []),
      max_message_kib: input.max_message_kib ?? null,
      profile: input.profile ?? 'standard',
      profile_settings: input.profile_settings ? JSON.stringify(input.profile_settings) : null,
      service_user_id: account.id,
      listen_status: 'stopped',
      last_error: null,
      status_at: null,
      last_message_at: null,
      created_at: now,
      updated_at: now,
    });
    await writeAudit(trx, actor, {
      action: 'create',
      entity: 'connection',
      entityId: row.id,
      newValues: auditView(row),
    });
    return row.id;
  });
  return getConnection(db, actor.organizationId, id);
}

export async function updateConnection(
  db: Db,
  actor: Actor,
  id: number,
  input: ConnectionUpdate,
  where: OperatorLimits = {},
): Promise<Connection> {
  await db.transaction().execute(async (trx) => {
    const before = await findConnectionRow(trx, actor.organizationId, id);
    if (!before) throw new NotFoundError('Connection', id);
    if (input.name !== undefined && (await nameTaken(trx, actor.organizationId, input.name, id)))
      throw new ConflictError(`A connection named ${input.name} already exists`, 'NAME_TAKEN');
    const merged = {
      protocol: input.protocol ?? (before.protocol as ConnectionCreate['protocol']),
      transport: input.transport ?? (before.transport as ConnectionCreate['transport']),
      host: input.host !== undefined ? input.host : before.host,
      port: input.port !== undefined ? input.port : before.port,
      path: input.path !== undefined ? input.path : before.path,
      send_orders: input.send_orders ?? before.send_orders === 1,
      profile: input.profile ?? before.profile,
      profile_settings: input.profile_settings !== undefined ? input.profile_settings : profileSettingsOf(before),
    };
    const issues = [...transportIssues(merged), ...lineIssues(merged, where)];
    if (issues.length) throw new ValidationError('Invalid input', issues);
    // A folder is checked whenever it is given or the transport becomes one (never kept from before unchecked).
    if (merged.transport === 'folder' && merged.path && (input.path !== undefined || before.transport !== 'folder'))
      merged.path = connectionFolder(where.dropRoot, actor.organizationId, merged.path);
    await checkReferences(trx, actor.organizationId, input);
    const enabled = input.enabled === undefined ? before.enabled : input.enabled ? 1 : 0;
    await checkPortFree(
      trx,
      actor.organizationId,
      { transport: merged.transport, port: merged.port ?? null, enabled },
      id,
    );
    const now = nowIso();
    // Switched on: samples collected from now on are sent (not the lab's whole history).
    const sendOrders =
      merged.send_orders === (before.send_orders === 1)
        ? {}
        : { send_orders: merged.send_orders ? 1 : 0, send_orders_from: merged.send_orders ? now : null };
    const after = await updateConnectionRow(trx, id, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.equipment_id !== undefined ? { equipment_id: input.equipment_id } : {}),
      protocol: merged.protocol,
      transport: merged.transport,
      host: merged.host ?? null,
      port: merged.port ?? null,
      path: merged.path ?? null,
      ...serialSettings(merged.transport, input, before),
      ...(input.lenient !== undefined ? { lenient: input.lenient ? 1 : 0 } : {}),
      enabled,
      ...(input.code_map !== undefined ? { code_map: storedCodeMap(input.code_map) } : {}),
      ...(input.max_message_kib !== undefined ? { max_message_kib: input.max_message_kib } : {}),
      ...(input.profile !== undefined ? { profile: input.profile } : {}),
      ...(input.profile_settings !== undefined
        ? { profile_settings: input.profile_settings ? JSON.stringify(input.profile_settings) : null }
        : {}),
      ...sendOrders,
      updated_at: now,
    });
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'connection',
      entityId: id,
      oldValues: auditView(before),
      newValues: auditView(after),
    });
  });
  return getConnection(db, actor.organizationId, id);
}

export async function setConnectionEnabled(db: Db, actor: Actor, id: number, enabled: boolean): Promise<Connection> {
  return updateConnection(db, actor, id, { enabled });
}

/** A connection with messages is kept (its log is the record of what the machine sent): 409, disable it. */
export async function deleteConnection(db: Db, actor: Actor, id: number): Promise<Connection> {
  const shown = await getConnection(db, actor.organizationId, id);
  if (shown.messages > 0)
    throw new ConflictError(
      `${shown.name} has ${shown.messages} message(s) in its log; disable it instead of deleting it`,
      'CONNECTION_IN_USE',
    );
  await db.transaction().execute(async (trx) => {
    const row = await findConnectionRow(trx, actor.organizationId, id);
    if (!row) throw new NotFoundError('Connection', id);
    await deleteConnectionRow(trx, id);
    await writeAudit(trx, actor, { action: 'delete', entity: 'connection', entityId: id, oldValues: auditView(row) });
  });
  return shown;
}

type MessageListRow = Awaited<ReturnType<typeof pageMessages>>['rows'][number];
function toMessage(r: MessageListRow): InterfaceMessage {
  return {
    ...r,
    direction: r.direction as InterfaceMessage['direction'],
    status: r.status as InterfaceMessage['status'],
  };
}

export async function listMessages(db: Db, organizationId: number, q: MessageListQuery) {
  const { rows, total } = await pageMessages(db, organizationId, q);
  return { messages: rows.map(toMessage), ...pageEnvelope(total, q.page, q.limit) };
}

const CONTROL_NAMES: Record<number, string> = {
  2: 'STX',
  3: 'ETX',
  4: 'EOT',
  5: 'ENQ',
  6: 'ACK',
  11: 'VT',
  21: 'NAK',
  23: 'ETB',
  28: 'FS',
};

/** Raw bytes as text: control characters named (<STX>), CR kept as a line end. */
export function showRaw(raw: Uint8Array): string {
  let out = '';
  for (const b of raw) {
    if (b === 0x0d) out += '\n';
    else if (b === 0x0a) continue;
    else if (CONTROL_NAMES[b]) out += `<${CONTROL_NAMES[b]}>`;
    else if (b < 0x20) out += `<${b.toString(16).padStart(2, '0')}>`;
    else out += String.fromCharCode(b);
  }
  return out;
}

export async function getMessage(db: Db, organizationId: number, id: number) {
  const r = await findMessage(db, organizationId, id);
  if (!r) throw new NotFoundError('Message', id);
  const { raw, ...rest } = r;
  return { ...toMessage(rest), raw: showRaw(raw) };
}
