import { UsageError } from '../../core/errors.js';

/** A folder path joins names with "/", so a name cannot hold one. */
export function checkFolderName(raw: string, where: string): string {
  const name = raw.trim();
  if (!name) throw new UsageError(`${where} must not be empty.`);
  if (name.includes('/')) throw new UsageError(`${where} ${JSON.stringify(raw)} contains "/".`, 'A folder name cannot contain "/": folder paths use it between names.');
  return name;
}
