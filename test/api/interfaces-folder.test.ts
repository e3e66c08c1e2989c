import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, tempDir, type TestLab } from '../helpers.js';
import { listenersFor, until } from './interface-support.js';
import { labDropFolder } from '../../src/core/interfaces/drop-folder.js';
import { frameMessage } from '../../src/core/interfaces/astm/frames.js';
import type { Connection } from '../../src/shared/schemas/connections.js';

/**
 * A watched folder is read every 5 s and every file in it moved to processed/ or failed/. Named
 * freely, it let a lab manager move the server's key files and take another lab's results. Now a
 * folder lies under the operator's drop root, in the lab's own folder, checked again after links
 * before every sweep.
 */

let lab: TestLab;
let root: string;
let listeners: Awaited<ReturnType<typeof listenersFor>> | undefined;

beforeAll(async () => {
  root = join(tempDir('lims-drop-'), 'drop');
  lab = await makeLab({ dropRoot: root });
});

afterAll(async () => {
  await listeners?.stop();
  await lab?.close();
});

const folderBody = (name: string, path: string) => ({
  name,
  protocol: 'folder',
  transport: 'folder',
  path,
  enabled: true,
});

describe('where a folder connection may point', () => {
  it("refuses a folder outside the lab's drop folder, naming the field and the folder it must be in", async () => {
    const mine = labDropFolder(root, lab.organizationId);
    const theirs = labDropFolder(root, lab.organizationId + 1);
    for (const path of ['/etc', '../../keys', theirs, `../lab-${lab.organizationId + 1}/results`, `${mine}/../x`]) {
      const res = await lab.admin.post('/api/connections', folderBody(`Bad ${path}`, path));
      expect(res.statusCode, path).toBe(400);
      expect(res.json().details).toEqual([
        { path: 'path', message: `The folder must be inside this lab's drop folder ${mine}` },
      ]);
    }
    // Changing a good connection to a bad folder is refused the same way.
    const ok = await lab.admin.post('/api/connections', { ...folderBody('Movable', 'movable'), enabled: false });
    expect(ok.statusCode).toBe(201);
    const id = ok.json<{ connection: Connection }>().connection.id;
    const moved = await lab.admin.put(`/api/connections/${id}`, { path: '/var/lib' });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().details[0].path).toBe('path');
  });

  it("takes a folder inside the lab's own, relative or absolute, and shows where it is", async () => {
    const mine = labDropFolder(root, lab.organizationId);
    const rel = await lab.admin.post('/api/connections', { ...folderBody('Rel', 'mindray/out'), enabled: false });
    expect(rel.statusCode, rel.body).toBe(201);
    expect(rel.json<{ connection: Connection }>().connection.path).toBe(join(mine, 'mindray', 'out'));
    const abs = await lab.admin.post('/api/connections', {
      ...folderBody('Abs', join(mine, 'abs')),
      enabled: false,
    });
    expect(abs.statusCode, abs.body).toBe(201);
  });

  it('refuses folder connections on a server without a drop root', async () => {
    const bare = await makeLab();
    try {
      const res = await bare.admin.post('/api/connections', folderBody('No root', 'x'));
      expect(res.statusCode).toBe(400);
      expect(res.json().details[0].path).toBe('path');
      expect(res.json().details[0].message).toContain('--drop-root');
    } finally {
      await bare.close();
    }
  });
});

describe('the sweep', () => {
  it('reads its own files, never follows a link out of the folder, and stops on a folder that became a link', async () => {
    const mine = labDropFolder(root, lab.organizationId);
    const outside = tempDir('lims-outside-');
    writeFileSync(join(outside, 'server.key'), 'secret');
    const good = await lab.admin.post('/api/connections', folderBody('Drop', 'analyzer'));
    expect(good.statusCode, good.body).toBe(201);
    const goodId = good.json<{ connection: Connection }>().connection.id;
    const linked = await lab.admin.post('/api/connections', folderBody('Linked', 'linked'));
    const linkedId = linked.json<{ connection: Connection }>().connection.id;
    // After the check at save time, someone swaps the folder for a link to the outside.
    mkdirSync(mine, { recursive: true });
    rmSync(join(mine, 'linked'), { recursive: true, force: true });
    symlinkSync(outside, join(mine, 'linked'));
    // In the good folder: a machine file, and a link to the outside key.
    const dir = join(mine, 'analyzer');
    mkdirSync(dir, { recursive: true });
    const astm = Buffer.concat(frameMessage(['H|\\^&|||DROP', 'P|1', 'O|1|NOSUCH||^^^GLU', 'L|1|N']));
    writeFileSync(join(dir, 'run1.astm'), astm);
    symlinkSync(join(outside, 'server.key'), join(dir, 'key.astm'));
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(dir, 'run1.astm'), past, past);

    listeners = await listenersFor(() => lab.database.db, lab.organizationId, { dropRoot: root });
    await until('the machine file to be swept', async () => existsSync(join(dir, 'processed', 'run1.astm')));
    // The link was neither read nor moved; the outside file is where it was.
    expect(readdirSync(dir).sort()).toEqual(['key.astm', 'processed']);
    expect(existsSync(join(outside, 'server.key'))).toBe(true);
    const linkedState = await until('the linked folder to be refused', async () => {
      const c = (await lab.admin.get(`/api/connections/${linkedId}`)).json<{ connection: Connection }>().connection;
      return c.listen_status === 'error' ? c : undefined;
    });
    expect(linkedState.last_error).toContain("leads outside this lab's drop folder");
    expect(readdirSync(outside)).toEqual(['server.key']);
    const goodState = (await lab.admin.get(`/api/connections/${goodId}`)).json<{ connection: Connection }>().connection;
    expect(goodState.listen_status).toBe('listening');
  });
});
