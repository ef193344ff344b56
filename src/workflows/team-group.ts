import type { ApiClient } from '../api/client.js';
import { UsageError } from '../core/errors.js';
import { isUuid } from '../shared/uuid.js';

interface Group {
  id: string;
  name?: string;
}

/**
 * A `--group` given by id (a UUID in any case) or by name: the exact name first, then the name in another case. The
 * contract's group filters take an id, so a name is looked up in `listGroups`; several groups of that name are refused.
 */
export async function resolveGroup(client: ApiClient, text: string): Promise<string> {
  const given = text.trim();
  const lower = given.toLowerCase();
  const exact: Group[] = [];
  const otherCase: Group[] = [];
  for await (const group of client.paginate<Group>('listGroups', { query: { limit: 100 } })) {
    if (group.id === given || (isUuid(given) && group.id.toLowerCase() === lower)) return group.id;
    if (group.name === given) exact.push(group);
    else if (group.name?.toLowerCase() === lower) otherCase.push(group);
  }
  const found = exact.length ? exact : otherCase;
  if (found.length === 1) return found[0]!.id;
  if (found.length === 0) throw new UsageError(`No group ${JSON.stringify(text)}.`, '`esign team groups` lists the groups with their ids.', 'GROUP_NOT_FOUND');
  throw new UsageError(
    `Several groups are called ${JSON.stringify(text)}: ${found.map((group) => `${group.name} (${group.id})`).join(', ')}.`,
    'Give the id of the one you mean.',
    'GROUP_AMBIGUOUS',
  );
}
