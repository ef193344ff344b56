import { cell, renderRecord } from '../../output/record.js';
import type { Column } from '../../output/table.js';

export interface FolderBody {
  id: string;
  name?: string;
  parentId?: string | null;
  path?: string;
  createdAt?: string;
}

export const folderColumns: readonly Column<FolderBody>[] = [
  { header: 'ID', value: (folder) => folder.id },
  { header: 'PATH', value: (folder) => cell(folder.path ?? folder.name), freeText: true },
  { header: 'PARENT', value: (folder) => cell(folder.parentId) },
];

export const renderFolder = (folder: FolderBody): string => renderRecord({ ...folder }, { parentId: 'Parent' });
