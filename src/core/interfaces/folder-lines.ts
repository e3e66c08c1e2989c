import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { sweepableFolder } from './drop-folder.js';
import { LabClosedError } from '../tenants/service.js';
import { MAX_MESSAGE_KIB_DEFAULT } from '../../shared/schemas/connections.js';
import type { Db } from '../db/connection.js';
import { nowIso } from '../context.js';
import { decodeTranscript } from './astm/transcript.js';
import { MllpDecoder } from './hl7/mllp.js';
import { logIncomplete, receiveAstmText, receiveMessage } from './receive.js';
import { noteStatus, type InterfaceLog } from './session.js';
import { currentRow, setListenStatus, type ConnectionRow } from './repository.js';
import { keyOf, type Running } from './running-line.js';

/**
 * A watched folder: at once, then at each run of the `watched-folders` job, each file in it is
 * read, stored and applied like a message (ASTM frames or records, or HL7; told apart by their
 * first bytes), then moved to processed/ (or failed/ when it could not be read). A file still being written (changed in the last 2 s) waits.
 */
export function startFolder(db: Db, conn: ConnectionRow, log: InterfaceLog, dropRoot: string | null): Running {
  let stopped = false;
  let busy = false;
  const sweep = async () => {
    if (busy || stopped) return;
    busy = true;
    const named = conn.path!;
    try {
      // Checked before every sweep, after links: a folder that leads outside the lab's is never read.
      const dir = sweepableFolder(dropRoot, conn.organization_id, named);
      for (const name of readdirSync(dir)) {
        const file = join(dir, name);
        // lstat: a link is not followed, so no file outside the folder is read or moved.
        const st = lstatSync(file);
        if (!st.isFile() || Date.now() - st.mtimeMs < 2_000) continue;
        const limit = (conn.max_message_kib ?? MAX_MESSAGE_KIB_DEFAULT) * 1024;
        const ok =
          st.size > limit
            ? await logIncomplete(
                db,
                conn,
                'folder',
                Buffer.alloc(0),
                `A file over ${limit / 1024} KiB was refused`,
              ).then(() => false)
            : await importFile(db, await currentRow(db, conn), readFileSync(file)).then(
                (r) => r.ok,
                (err: unknown) => (err instanceof LabClosedError ? null : false),
              );
        // The lab was closed during the sweep: the file stays where it is, for after reactivation.
        if (ok === null) break;
        const to = join(dir, ok ? 'processed' : 'failed');
        mkdirSync(to, { recursive: true });
        renameSync(file, join(to, name));
      }
      await setListenStatus(db, conn.id, 'listening', null, nowIso());
    } catch (err) {
      noteStatus(db, log, conn.id, 'error', `The folder ${named} cannot be read (${(err as Error).message})`);
      log.warn({ connection: conn.id }, 'a watched folder cannot be read');
    } finally {
      busy = false;
    }
  };
  const run = () =>
    sweep().catch((err: unknown) => log.error({ err, connection: conn.id }, 'a watched folder sweep failed'));
  void run();
  return {
    key: keyOf(conn),
    sweep: run,
    stop: async () => {
      stopped = true;
    },
  };
}

/**
 * A captured transcript or a machine's file: ASTM (frames checked, or bare records) or HL7 (one
 * or more messages, MLLP-wrapped or not). Each message is stored and applied once.
 */
export async function importFile(
  db: Db,
  conn: ConnectionRow,
  bytes: Buffer,
): Promise<
  { ok: true; messages: number; entered: number; unmatched: number; ignored: number } | { ok: false; error: string }
> {
  const text = bytes.toString('latin1');
  const isHl7 =
    conn.protocol === 'hl7' ||
    (conn.protocol === 'folder' && text.replace(String.fromCharCode(0x0b), '').trimStart().startsWith('MSH'));
  let entered = 0;
  let unmatched = 0;
  let ignored = 0;
  if (isHl7) {
    const parts: Buffer[] = [];
    if (bytes.includes(0x0b)) new MllpDecoder((b) => parts.push(Buffer.from(b))).receive(bytes);
    else for (const m of bytes.toString('utf8').split(/(?=^MSH)/m)) if (m.trim()) parts.push(Buffer.from(m, 'utf8'));
    for (const p of parts) {
      const r = await receiveMessage(db, conn, 'hl7', p);
      entered += r.entered;
      unmatched += r.unmatched;
      ignored += r.ignored;
    }
    return { ok: true, messages: parts.length, entered, unmatched, ignored };
  }
  const decoded = decodeTranscript(bytes, conn.lenient === 1);
  if (!decoded.ok) return decoded;
  const received = await receiveAstmText(db, conn, decoded.text);
  for (const r of received) {
    entered += r.entered;
    unmatched += r.unmatched;
    ignored += r.ignored;
  }
  return { ok: true, messages: received.length, entered, unmatched, ignored };
}
