import { cell } from '../../output/record.js';
import { defineListCommand } from '../list-command.js';

type Row = Record<string, unknown>;

export default defineListCommand<Record<string, never>, Row>({
  name: 'calls',
  description: 'List the API calls made with this key, newest first',
  operationId: 'listApiCalls',
  examples: ['esign account calls --limit 50', 'esign account calls --all --jsonl | jq .path'],
  noun: 'calls',
  columns: [
    { header: 'AT', value: (row) => cell(row.at ?? row.createdAt) },
    { header: 'METHOD', value: (row) => cell(row.method) },
    { header: 'OPERATION', value: (row) => cell(row.operationId) },
    { header: 'PATH', value: (row) => cell(row.path) },
    { header: 'STATUS', value: (row) => cell(row.status) },
  ],
});
