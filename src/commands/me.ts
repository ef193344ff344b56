import type { MeAnswer } from '../api/answers.js';
import { defineCommand } from '../cli/command.js';
import { renderFields } from '../output/table.js';

export default defineCommand({
  name: 'me',
  description: 'Validate the API key and show the account, integration and responsible user it acts for',
  examples: ['esign me', 'esign me --live --profile acme', 'esign me --json'],
  async handler(_args, ctx) {
    const client = await ctx.client();
    const credentials = await ctx.credentials();
    const { body } = await client.call<MeAnswer>('getMe');
    const key = { masked: credentials.maskedKey, source: credentials.keySource };
    ctx.output.result({ ...body, key, baseUrl: credentials.baseUrl.origin }, () => {
      const named = (thing?: { id?: string | null; name?: string | null } | null) => (thing ? `${thing.name ?? '?'} (${thing.id ?? '?'})` : '-');
      const user = body.responsibleUser;
      return renderFields([
        ['Environment', `${body.environment ?? '?'} · ${credentials.baseUrl.origin}`],
        ['Account', named(body.account)],
        ['Integration', named(body.integration)],
        ['Responsible user', user ? `${user.name ?? '?'} <${user.email ?? '?'}> (${user.id ?? '?'})` : '-'],
        ['Scopes', body.scopes?.join(', ') || '-'],
        ['Key', `${credentials.maskedKey} from ${credentials.keySource}`],
      ]);
    }, () => (body.account?.id ? [body.account.id] : []));
  },
});
