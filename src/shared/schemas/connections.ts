import { z } from 'zod';
import { optionalText, requiredText, strictNumber } from './common.js';
import { equipmentIdField } from './equipment.js';
import {
  foreignLocations,
  INSTRUMENT_PRESETS,
  profileKeySchema,
  profileSettingsOutSchema,
  profileSettingsSchema,
  type InstrumentPreset,
  type ProfileSettings,
} from './instrument-profiles.js';

/**
 * Analyzer interfaces, inbound: connections to the lab's machines (Machine Integration, /machines).
 * Their message log and the Unmatched queue: interface-messages.ts, re-exported here.
 * See docs/decisions.md, "Interfaces and instruments".
 */
export const CONNECTION_PROTOCOLS = ['astm', 'hl7', 'folder'] as const;
export type ConnectionProtocol = (typeof CONNECTION_PROTOCOLS)[number];
export const CONNECTION_PROTOCOL_LABELS: Record<ConnectionProtocol, string> = {
  astm: 'ASTM E1381/E1394',
  hl7: 'HL7 v2 (MLLP)',
  folder: 'Files (ASTM or HL7)',
};
export const CONNECTION_TRANSPORTS = ['tcp-server', 'tcp-client', 'serial', 'folder'] as const;
export type ConnectionTransport = (typeof CONNECTION_TRANSPORTS)[number];
export const CONNECTION_TRANSPORT_LABELS: Record<ConnectionTransport, string> = {
  'tcp-server': 'TCP server (the machine connects to lims)',
  'tcp-client': 'TCP client (lims connects to the machine)',
  serial: 'Serial port',
  folder: 'Watched folder',
};
/** Serial line settings an analyser may use; a connection without them runs 9600 8N1. */
export const SERIAL_BAUD_RATES = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200] as const;
export const SERIAL_DATA_BITS = [7, 8] as const;
export const SERIAL_PARITIES = ['none', 'even', 'odd'] as const;
export const SERIAL_STOP_BITS = [1, 2] as const;
export const SERIAL_DEFAULTS = { baud_rate: 9600, data_bits: 8, parity: 'none', stop_bits: 1 } as const;

export const LISTEN_STATUSES = ['stopped', 'listening', 'connected', 'error'] as const;
export type ListenStatus = (typeof LISTEN_STATUSES)[number];

const positiveId = (label: string) =>
  strictNumber(
    z
      .number({ error: `${label} must be a number` })
      .int(`${label} must be a whole number`)
      .positive(),
  );

export const codeMapEntrySchema = z.object({
  /** The machine's test code as it sends it (ASTM R-3, HL7 OBX-3 first component), e.g. `685/`, `WBC`. */
  code: requiredText('Machine code', 40),
  /** The catalogue test; none when the code is ignored. */
  test_id: z.preprocess((v) => (v === '' ? null : v), positiveId('test_id').nullable().optional()),
  /**
   * A code the lab does not want (a flag, a research parameter): its values are kept in the message
   * log with the message but neither entered nor queued as unmatched.
   */
  ignore: z.boolean({ error: 'ignore must be true or false' }).optional(),
  /** The unit the machine sends; a result in another unit is held in the Unmatched queue. */
  unit: optionalText(30, 'Unit'),
  /** Multiplies the machine's value into the test's unit (e.g. 0.0555 for glucose mg/dL to mmol/L). */
  factor: z.preprocess(
    (v) => (v === '' ? null : v),
    strictNumber(
      z
        .number({ error: 'Factor must be a number' })
        .positive('Factor must be more than 0')
        .max(1_000_000, 'Factor must be at most 1,000,000'),
    )
      .nullable()
      .optional(),
  ),
});
export type CodeMapEntry = z.infer<typeof codeMapEntrySchema>;

const codeMap = z
  .array(codeMapEntrySchema, { error: 'code_map must be a list' })
  .max(500, 'A code map holds at most 500 codes')
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((e, i) => {
      if (e.ignore && e.test_id != null)
        ctx.addIssue({ code: 'custom', path: [i, 'test_id'], message: 'An ignored code has no test' });
      if (!e.ignore && e.test_id == null)
        ctx.addIssue({ code: 'custom', path: [i, 'test_id'], message: 'Choose the test, or ignore the code' });
      const key = e.code.toUpperCase();
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [i, 'code'], message: `Code ${e.code} is mapped twice` });
      seen.add(key);
    });
  });

const port = z.preprocess(
  (v) => (v === '' ? null : v),
  strictNumber(
    z
      .number({ error: 'Port must be a number' })
      .int('Port must be a whole number')
      .min(1, 'Port must be 1 to 65535')
      .max(65535, 'Port must be 1 to 65535'),
  )
    .nullable()
    .optional(),
);

/** A number from a fixed list (a select in the form sends it as text). */
const oneOf = (values: readonly number[], label: string) =>
  z.preprocess(
    (v) => (v === '' ? null : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
    z
      .number({ error: `${label} must be one of ${values.join(', ')}` })
      .refine((n) => values.includes(n), `${label} must be one of ${values.join(', ')}`)
      .nullable()
      .optional(),
  );

/**
 * The most one transmission (an ASTM message from ENQ to EOT, an HL7 MLLP block) may hold, in KiB.
 * Generous for a real CBC with its histograms; past it the link refuses the message.
 */
export const MAX_MESSAGE_KIB_DEFAULT = 4096;
/** The lowest port a lab's listener may take: the ones below belong to the system's services. */
export const LOWEST_LISTENER_PORT = 1024;
export const MAX_MESSAGE_KIB_RANGE = { min: 64, max: 65536 } as const;

const maxMessageKib = z.preprocess(
  (v) => (v === '' ? null : v),
  strictNumber(
    z
      .number({ error: 'Message size limit must be a number' })
      .int('Message size limit must be a whole number of KiB')
      .min(
        MAX_MESSAGE_KIB_RANGE.min,
        `Message size limit must be ${MAX_MESSAGE_KIB_RANGE.min} to ${MAX_MESSAGE_KIB_RANGE.max} KiB`,
      )
      .max(
        MAX_MESSAGE_KIB_RANGE.max,
        `Message size limit must be ${MAX_MESSAGE_KIB_RANGE.min} to ${MAX_MESSAGE_KIB_RANGE.max} KiB`,
      ),
  )
    .nullable()
    .optional(),
);

const connectionFields = {
  name: requiredText('Name', 100),
  equipment_id: equipmentIdField,
  protocol: z.enum(CONNECTION_PROTOCOLS, { error: `Protocol must be one of ${CONNECTION_PROTOCOLS.join(', ')}` }),
  transport: z.enum(CONNECTION_TRANSPORTS, { error: `Transport must be one of ${CONNECTION_TRANSPORTS.join(', ')}` }),
  host: optionalText(255, 'Host').refine(
    (v) => v == null || /^[A-Za-z0-9.:-]+$/.test(v),
    'Host must be a host name or an IP address',
  ),
  port,
  /** The watched folder, or the serial device (/dev/ttyUSB0, COM3). */
  path: optionalText(500, 'Folder'),
  baud_rate: oneOf(SERIAL_BAUD_RATES, 'Baud rate'),
  data_bits: oneOf(SERIAL_DATA_BITS, 'Data bits'),
  parity: z
    .enum(SERIAL_PARITIES, { error: `Parity must be one of ${SERIAL_PARITIES.join(', ')}` })
    .nullable()
    .optional(),
  stop_bits: oneOf(SERIAL_STOP_BITS, 'Stop bits'),
  /** ASTM: accept frames over E1381's 247 bytes and a missing CR LF (many machines need it). */
  lenient: z.boolean({ error: 'lenient must be true or false' }).optional(),
  enabled: z.boolean({ error: 'enabled must be true or false' }).optional(),
  /** TCP or serial (ASTM or HL7 ORM^O01): download the tests ordered on each sample to the machine when it is collected. */
  send_orders: z.boolean({ error: 'send_orders must be true or false' }).optional(),
  code_map: codeMap.optional(),
  /** KiB; empty: the default (MAX_MESSAGE_KIB_DEFAULT). */
  max_message_kib: maxMessageKib,
  /** The instrument profile (dialect): a preset's key; see docs/instruments.md. */
  profile: profileKeySchema.optional(),
  /** The lab's own adjustments of the preset; null: the preset as shipped. */
  profile_settings: profileSettingsSchema.nullable().optional(),
};

type Fields = {
  profile?: string;
  profile_settings?: ProfileSettings | null;
  protocol?: ConnectionProtocol;
  transport?: ConnectionTransport;
  host?: string | null;
  port?: number | null;
  path?: string | null;
  send_orders?: boolean;
};

/** The transport's own fields: a TCP client needs host and port, a server a port, a folder its path. */
export function transportIssues(c: Fields): { path: string; message: string }[] {
  const out: { path: string; message: string }[] = [];
  if (c.transport === 'serial' && !c.path)
    out.push({ path: 'path', message: 'Serial port is required (e.g. /dev/ttyUSB0 or COM3)' });
  if ((c.transport === 'tcp-server' || c.transport === 'tcp-client') && !c.port) {
    out.push({ path: 'port', message: 'Port is required for a TCP connection' });
  }
  if (c.transport === 'tcp-client' && !c.host) out.push({ path: 'host', message: 'Host is required for a TCP client' });
  if (c.transport === 'folder' && !c.path)
    out.push({ path: 'path', message: 'Folder is required for a watched folder' });
  if (c.send_orders && (c.protocol === 'folder' || c.transport === 'folder')) {
    out.push({ path: 'send_orders', message: 'Order download needs a TCP or serial connection to the machine' });
  }
  if ((c.protocol === 'folder') !== (c.transport === 'folder')) {
    out.push({ path: 'transport', message: 'The folder protocol goes with the folder transport, and only with it' });
  }
  out.push(...profileIssues(c));
  return out;
}

/** A preset or a setting for the other protocol's records cannot read this connection's messages. */
export function profileIssues(c: Fields): { path: string; message: string }[] {
  const out: { path: string; message: string }[] = [];
  if (c.protocol !== 'astm' && c.protocol !== 'hl7') return out;
  const preset = c.profile ? (INSTRUMENT_PRESETS as Record<string, InstrumentPreset>)[c.profile] : undefined;
  if (preset?.protocol && preset.protocol !== c.protocol)
    out.push({
      path: 'profile',
      message: `The profile ${preset.label} reads ${preset.protocol.toUpperCase()}; this connection is ${c.protocol.toUpperCase()}`,
    });
  // Each foreign location is named at its own path, so a form puts the message under its input.
  const s = c.profile_settings ?? {};
  const located: [string, string | undefined][] = [
    ...(s.specimen ?? []).map((l, i): [string, string] => [`profile_settings.specimen.${i}`, l]),
    ...(['code', 'value', 'unit', 'flag'] as const).map((k): [string, string | undefined] => [
      `profile_settings.${k}`,
      s[k],
    ]),
    ...(s.ignore ?? []).map((r, i): [string, string] => [`profile_settings.ignore.${i}.at`, r.at]),
  ];
  const hint = c.protocol === 'astm' ? 'records are one letter: O-3, R-4' : 'segments are three letters: OBR-3, OBX-5';
  for (const [path, loc] of located)
    if (loc && foreignLocations(c.protocol, { code: loc }).length)
      out.push({ path, message: `${loc} is not a location of ${c.protocol.toUpperCase()} (${hint})` });
  return out;
}

export const connectionCreateSchema = z.object(connectionFields).superRefine((c, ctx) => {
  for (const i of transportIssues(c)) ctx.addIssue({ code: 'custom', path: [i.path], message: i.message });
});
export type ConnectionCreate = z.infer<typeof connectionCreateSchema>;

/** PUT takes any of the fields; the merged connection is checked again by the server. */
export const connectionUpdateSchema = z.object(connectionFields).partial();
export type ConnectionUpdate = z.infer<typeof connectionUpdateSchema>;

export const connectionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  equipment_id: z.number().int().nullable(),
  equipment_name: z.string().nullable(),
  protocol: z.enum(CONNECTION_PROTOCOLS),
  transport: z.enum(CONNECTION_TRANSPORTS),
  host: z.string().nullable(),
  port: z.number().int().nullable(),
  path: z.string().nullable(),
  /** Serial connections only (null otherwise). */
  baud_rate: z.number().int().nullable(),
  data_bits: z.number().int().nullable(),
  parity: z.enum(SERIAL_PARITIES).nullable(),
  stop_bits: z.number().int().nullable(),
  lenient: z.boolean(),
  enabled: z.boolean(),
  send_orders: z.boolean(),
  /** The limit in force, in KiB (the lab's, else the default). */
  max_message_kib: z.number().int(),
  profile: profileKeySchema,
  profile_settings: profileSettingsOutSchema.nullable(),
  code_map: z.array(
    z.object({
      code: z.string(),
      test_id: z.number().int().nullable(),
      test_name: z.string().nullable(),
      ignore: z.boolean(),
      unit: z.string().nullable(),
      factor: z.number().nullable(),
    }),
  ),
  /** The account the machine's results are entered as (cannot sign in). */
  service_user_id: z.number().int(),
  listen_status: z.enum(LISTEN_STATUSES),
  last_error: z.string().nullable(),
  status_at: z.string().nullable(),
  last_message_at: z.string().nullable(),
  messages: z.number().int(),
  open_unmatched: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Connection = z.infer<typeof connectionSchema>;

export * from './interface-messages.js';
