import { cell } from '../../output/record.js';
import { defineListCommand } from '../list-command.js';

interface ContactListBody {
  id: string;
  name?: string;
  contactCount?: number;
  createdAt?: string;
}

export default defineListCommand<Record<string, never>, ContactListBody>({
  name: 'lists',
  description: 'List the contact lists',
  operationId: 'listContactLists',
  examples: ['esign contacts lists'],
  noun: 'contact lists',
  columns: [
    { header: 'ID', value: (list) => list.id },
    { header: 'NAME', value: (list) => cell(list.name), freeText: true },
    { header: 'CONTACTS', value: (list) => cell(list.contactCount) },
  ],
});
