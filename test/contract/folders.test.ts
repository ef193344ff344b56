import { describe, expect, it } from 'vitest';
import { call, expectStatus } from '../support/api-call.js';
import { createSentEnvelope } from '../support/envelope-flow.js';
import { useEmulator } from '../support/emulator.js';

const emulator = useEmulator();

async function createFolder(name: string, parentId?: string) {
  return expectStatus(await call(emulator, 'POST', '/v4/api/folders/', { body: { name, ...(parentId ? { parentId } : {}) } }), 201).body;
}

describe('folders', () => {
  it('lists the seeded folders', async () => {
    const folders = expectStatus(await call(emulator, 'GET', '/v4/api/folders/'), 200).body;
    expect(folders.data.map((folder: { name: string }) => folder.name)).toEqual(expect.arrayContaining(['Sales', 'HR']));
  });

  it('creates a folder (201) at the root and inside another, with its path', async () => {
    const parent = await createFolder('Projects');
    expect(parent).toMatchObject({ name: 'Projects', parentId: null, path: 'Projects' });
    const child = await createFolder('2026', parent.id);
    expect(child).toMatchObject({ name: '2026', parentId: parent.id, path: 'Projects/2026' });
    const listed = expectStatus(await call(emulator, 'GET', '/v4/api/folders/?limit=100'), 200).body;
    expect(listed.data).toContainEqual(child);
  });

  it('refuses a folder without a name (400), under an unknown parent (404) or named like a sibling (409 FOLDER_NAME_TAKEN)', async () => {
    expect((await call(emulator, 'POST', '/v4/api/folders/', { body: {} })).status).toBe(400);
    const orphan = await call(emulator, 'POST', '/v4/api/folders/', { body: { name: 'Orphan', parentId: 'no-such-folder' } });
    expect(orphan.status).toBe(404);
    expect(orphan.body.error.code).toBe('RESOURCE_NOT_FOUND');
    await createFolder('Twice');
    const twice = await call(emulator, 'POST', '/v4/api/folders/', { body: { name: 'twice' } });
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('FOLDER_NAME_TAKEN');
  });

  it('lists the content of a folder: its subfolders, then its envelopes, paginated', async () => {
    const folder = await createFolder('Content');
    const sub = await createFolder('Sub', folder.id);
    const envelope = await createSentEnvelope(emulator, { title: 'In the folder', folderId: folder.id });
    const all = expectStatus(await call(emulator, 'GET', `/v4/api/folders/${folder.id}/content`), 200).body;
    expect(all.data).toEqual([
      expect.objectContaining({ type: 'FOLDER', id: sub.id, name: 'Sub' }),
      expect.objectContaining({ type: 'ENVELOPE', id: envelope.id, title: 'In the folder', status: 'SENT' }),
    ]);
    const firstPage = expectStatus(await call(emulator, 'GET', `/v4/api/folders/${folder.id}/content?limit=1`), 200).body;
    expect(firstPage.data).toHaveLength(1);
    expect(firstPage.nextCursor).toEqual(expect.any(String));
  });

  it('answers the access of a folder as {folderId, access: [{memberId|groupId, permission}]}', async () => {
    const folder = await createFolder('Access');
    const access = expectStatus(await call(emulator, 'GET', `/v4/api/folders/${folder.id}/access`), 200).body;
    expect(access.folderId).toBe(folder.id);
    expect(access.access).toContainEqual(expect.objectContaining({ memberId: expect.any(String), permission: 'MANAGE' }));
    expect(access.access).toContainEqual(expect.objectContaining({ groupId: expect.any(String), name: 'Legal', permission: 'EDIT' }));
  });

  it('renames a folder with PATCH {name}; the path of its subfolders follows', async () => {
    const folder = await createFolder('Old name');
    const child = await createFolder('Child', folder.id);
    const renamed = expectStatus(await call(emulator, 'PATCH', `/v4/api/folders/${folder.id}`, { body: { name: 'New name' } }), 200).body;
    expect(renamed).toMatchObject({ id: folder.id, name: 'New name', path: 'New name' });
    const content = expectStatus(await call(emulator, 'GET', `/v4/api/folders/${folder.id}/content`), 200).body;
    expect(content.data[0]).toMatchObject({ id: child.id, path: 'New name/Child' });
    expect((await call(emulator, 'PATCH', `/v4/api/folders/${folder.id}`, { body: { name: '' } })).status).toBe(400);
  });

  it('deletes an empty folder (204); a folder with an envelope or a subfolder is 409 FOLDER_NOT_EMPTY', async () => {
    const empty = await createFolder('Empty');
    expect((await call(emulator, 'DELETE', `/v4/api/folders/${empty.id}`)).status).toBe(204);
    expect((await call(emulator, 'GET', `/v4/api/folders/${empty.id}/content`)).status).toBe(404);

    const withEnvelope = await createFolder('With envelope');
    await createSentEnvelope(emulator, { folderId: withEnvelope.id });
    const refused = await call(emulator, 'DELETE', `/v4/api/folders/${withEnvelope.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'FOLDER_NOT_EMPTY', details: { envelopeCount: 1, folderCount: 0 } });

    const withChild = await createFolder('With child');
    await createFolder('Kid', withChild.id);
    expect((await call(emulator, 'DELETE', `/v4/api/folders/${withChild.id}`)).body.error.code).toBe('FOLDER_NOT_EMPTY');
  });

  it('moves a folder with POST {parentId}; null moves it to the root', async () => {
    const a = await createFolder('Move A');
    const b = await createFolder('Move B');
    const moved = expectStatus(await call(emulator, 'POST', `/v4/api/folders/${b.id}/move`, { body: { parentId: a.id } }), 200).body;
    expect(moved).toMatchObject({ parentId: a.id, path: 'Move A/Move B' });
    const back = expectStatus(await call(emulator, 'POST', `/v4/api/folders/${b.id}/move`, { body: { parentId: null } }), 200).body;
    expect(back).toMatchObject({ parentId: null, path: 'Move B' });
    expect((await call(emulator, 'POST', `/v4/api/folders/${b.id}/move`, { body: {} })).status).toBe(400);
  });

  it('refuses to move a folder into itself or its own subfolder (409 FOLDER_MOVE_CYCLE)', async () => {
    const top = await createFolder('Cycle top');
    const middle = await createFolder('Cycle middle', top.id);
    const bottom = await createFolder('Cycle bottom', middle.id);
    for (const target of [top, bottom]) {
      const answer = await call(emulator, 'POST', `/v4/api/folders/${top.id}/move`, { body: { parentId: target.id } });
      expect(answer.status).toBe(409);
      expect(answer.body.error.code).toBe('FOLDER_MOVE_CYCLE');
    }
  });
});
