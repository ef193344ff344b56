import { defineListCommand } from '../list-command.js';
import { templateColumns, type TemplateBody } from './view.js';

export default defineListCommand<Record<string, never>, TemplateBody>({
  name: 'list',
  aliases: ['ls'],
  description: 'List the templates of the account, with the roles each one needs',
  operationId: 'listTemplates',
  examples: ['esign templates list', 'esign templates list --all --json'],
  noun: 'templates',
  columns: templateColumns,
});
