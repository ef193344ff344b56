import { defineCommand } from '../../cli/command.js';
import { renderTemplate, type TemplateBody } from './view.js';

export default defineCommand<{ templateId: string }>({
  name: 'get',
  aliases: ['show'],
  description: 'Show a template: its documents and the roles a participants file fills',
  arguments: [{ name: 'templateId', description: 'template id' }],
  examples: ['esign templates get 5d0e…'],
  async handler(args, ctx) {
    const client = await ctx.client();
    const { body } = await client.call<TemplateBody>('getTemplate', { params: { templateId: args.templateId } });
    ctx.output.result(body, () => renderTemplate(body, ctx.output.style));
  },
});
