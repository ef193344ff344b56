import { defineCommand } from '../../cli/command.js';
import { renderTemplateList, type TemplateBody } from './view.js';

export default defineCommand<Record<string, never>>({
  name: 'list',
  aliases: ['ls'],
  description: 'List the templates of the account',
  examples: ['esign templates list', 'esign templates list --json'],
  async handler(_args, ctx) {
    const client = await ctx.client();
    const templates: TemplateBody[] = [];
    for await (const template of client.paginate<TemplateBody>('listTemplates', { query: { limit: 100 } })) templates.push(template);
    ctx.output.result({ data: templates }, () => renderTemplateList(templates, ctx.output.style));
  },
});
