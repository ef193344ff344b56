import { cell } from '../../output/record.js';
import { defineListCommand } from '../list-command.js';

interface VoidedRow {
  id: string;
  title?: string;
  cancellationReason?: string | null;
  voidedAt?: string;
}

export default defineListCommand<Record<string, never>, VoidedRow>({
  name: 'voided',
  description: 'List voided envelopes with why, most recently voided first',
  operationId: 'listVoidedEnvelopes',
  examples: ['esign reports voided', 'esign reports voided --all --jsonl | jq .cancellationReason'],
  noun: 'voided envelopes',
  columns: [
    { header: 'VOIDED', value: (row) => cell(row.voidedAt) },
    { header: 'ID', value: (row) => row.id },
    { header: 'TITLE', value: (row) => cell(row.title), freeText: true },
    { header: 'REASON', value: (row) => cell(row.cancellationReason), freeText: true },
  ],
});
