import type { RouteContext, RouteTable } from '../context.js';
import { fail } from '../errors.js';
import { expireDueEnvelopes } from '../lifecycle.js';
import { cursorPosition, hasPositionCursor, pageLimit, paginate, positionCursor } from '../pagination.js';
import { newId, nowIso, type State } from '../store.js';
import type { FolderRecord } from '../records.js';
import { lazySchema, parseBody, type RequestBodies, type Zod } from '../validate.js';
import { envelopeView } from '../views.js';

const folderName = (z: Zod) =>
  z
    .string()
    .trim()
    .min(1)
    .max(255)
    .refine((name) => !name.includes('/'), 'a folder name cannot contain "/"');

/** `parentId` absent or null: the root. */
const createSchema = lazySchema((z) => z.strictObject({ name: folderName(z), parentId: z.string().min(1).nullish() }));
const renameSchema = lazySchema((z) => z.strictObject({ name: folderName(z) }));
/** Required, so that a mistyped property cannot silently move a folder to the root. */
const moveSchema = lazySchema((z) => z.strictObject({ parentId: z.string().min(1).nullable() }));

/** `Sales/2026/Q1`: the names from the root down. */
function folderPath(state: State, folder: FolderRecord): string {
  const names = [folder.name];
  for (let parent = folder.parentId ? state.folders[folder.parentId] : undefined; parent; parent = parent.parentId ? state.folders[parent.parentId] : undefined) {
    names.unshift(parent.name);
  }
  return names.join('/');
}

function folderView(state: State, folder: FolderRecord) {
  return { id: folder.id, name: folder.name, parentId: folder.parentId, path: folderPath(state, folder), createdAt: folder.createdAt };
}

function findFolder({ store, params }: RouteContext): FolderRecord {
  const folder = store.state.folders[params.folderId!];
  if (!folder) throw fail.notFound('Folder', params.folderId!);
  return folder;
}

function children(state: State, folderId: string): FolderRecord[] {
  return Object.values(state.folders).filter((folder) => folder.parentId === folderId);
}


function existingParent(state: State, parentId: string | null | undefined): string | null {
  if (!parentId) return null;
  if (!state.folders[parentId]) throw fail.notFound('Folder', parentId);
  return parentId;
}

/** Sibling folders have distinct names (case-insensitive), so a path names one folder. */
function assertNameFree(state: State, parentId: string | null, name: string, exceptId?: string): void {
  const taken = Object.values(state.folders).find(
    (folder) => folder.id !== exceptId && folder.parentId === parentId && folder.name.toLowerCase() === name.toLowerCase(),
  );
  if (taken) throw fail.conflict('FOLDER_NAME_TAKEN', `A folder named ${JSON.stringify(name)} already exists there.`, { folderId: taken.id });
}

export const routes: RouteTable = {
  listFolders: ({ store, query }) => {
    const { state } = store;
    const page = paginate(Object.values(state.folders), query);
    return { status: 200, body: { data: page.data.map((folder) => folderView(state, folder)), nextCursor: page.nextCursor } };
  },

  createFolder: async ({ store, body }) => {
    const { state } = store;
    const input = parseBody(await createSchema(), body);
    const name = input.name;
    const parentId = existingParent(state, input.parentId);
    assertNameFree(state, parentId, name);
    const folder: FolderRecord = { id: newId(), name, parentId, createdAt: nowIso() };
    state.folders[folder.id] = folder;
    store.changed();
    return { status: 201, body: folderView(state, folder) };
  },

  /** Subfolders first, then the envelopes directly in the folder, each item tagged with its `type`. */
  listFolderContent: (ctx) => {
    const folder = findFolder(ctx);
    const { state } = ctx.store;
    const limit = pageLimit(ctx.query);
    // Subfolders are few: an offset cursor walks them; then a position cursor walks the folder's envelope index.
    const after = hasPositionCursor(ctx.query) ? cursorPosition(ctx.query) : undefined;
    const folders = after === undefined ? paginate(children(state, folder.id), ctx.query) : { data: [], nextCursor: null };
    const items: Record<string, unknown>[] = folders.data.map((child) => ({ type: 'FOLDER' as const, ...folderView(state, child) }));
    if (folders.nextCursor) return { status: 200, body: { data: items, nextCursor: folders.nextCursor } };
    expireDueEnvelopes(ctx);
    const page = state.envelopes.page({ folderId: folder.id }, after, limit - items.length);
    for (const envelope of page.items) items.push({ type: 'ENVELOPE' as const, ...envelopeView(state, envelope) });
    const last = page.items.at(-1);
    // A page filled by folders alone continues at the first envelope.
    const nextCursor = page.more && last ? positionCursor(state.envelopes.positionOf(last)) : page.more ? positionCursor({ primary: Number.MAX_SAFE_INTEGER, seq: Number.MAX_SAFE_INTEGER }) : null;
    return { status: 200, body: { data: items, nextCursor } };
  },

  /**
   * Folder access is not stored: every folder shows the account owners with MANAGE and every team group with EDIT.
   * An API key sees all folders whatever this says (contract, Authentication 3).
   */
  getFolderAccess: (ctx) => {
    const folder = findFolder(ctx);
    const { state } = ctx.store;
    const owners = Object.values(state.members)
      .filter((member) => member.role === 'OWNER')
      .map((member) => ({ memberId: member.id, name: member.name, permission: 'MANAGE' }));
    const groups = Object.values(state.groups).map((group) => ({ groupId: group.id, name: group.name, permission: 'EDIT' }));
    return { status: 200, body: { folderId: folder.id, access: [...owners, ...groups] } };
  },

  renameFolder: async (ctx) => {
    const folder = findFolder(ctx);
    const { name } = parseBody(await renameSchema(), ctx.body);
    assertNameFree(ctx.store.state, folder.parentId, name, folder.id);
    folder.name = name;
    ctx.store.changed();
    return { status: 200, body: folderView(ctx.store.state, folder) };
  },

  deleteFolder: (ctx) => {
    const folder = findFolder(ctx);
    const { state } = ctx.store;
    const folderCount = children(state, folder.id).length;
    const envelopeCount = state.envelopes.countIn(folder.id);
    if (folderCount || envelopeCount) {
      throw fail.conflict('FOLDER_NOT_EMPTY', `Folder ${folder.name} still holds ${envelopeCount} envelope(s) and ${folderCount} folder(s).`, {
        folderId: folder.id,
        envelopeCount,
        folderCount,
      });
    }
    delete state.folders[folder.id];
    ctx.store.changed();
    return { status: 204 };
  },

  moveFolder: async (ctx) => {
    const folder = findFolder(ctx);
    const { state } = ctx.store;
    const parentId = existingParent(state, parseBody(await moveSchema(), ctx.body).parentId);
    for (let ancestor: string | null = parentId; ancestor; ancestor = state.folders[ancestor]?.parentId ?? null) {
      if (ancestor === folder.id) {
        throw fail.conflict('FOLDER_MOVE_CYCLE', 'A folder cannot be moved into itself or one of its subfolders.', { folderId: folder.id, parentId });
      }
    }
    assertNameFree(state, parentId, folder.name, folder.id);
    folder.parentId = parentId;
    ctx.store.changed();
    return { status: 200, body: folderView(state, folder) };
  },
};

export const requestBodies: RequestBodies = {
  createFolder: { schema: createSchema },
  renameFolder: { schema: renameSchema },
  moveFolder: { schema: moveSchema },
};
