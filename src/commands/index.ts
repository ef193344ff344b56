import type { LazyEntry } from '../cli/command.js';

/**
 * Every command, in the order `esign --help` lists them. Only names and descriptions live here; a command's module is
 * loaded when it runs, so `esign --help` and `--version` compile none of them (the oclif manifest idea). index.test.ts
 * keeps these lines equal to the modules' own.
 */
export const entries: readonly LazyEntry[] = [
  { name: 'me', description: 'Validate the API key and show the account, integration and responsible user it acts for', load: async () => (await import('./me.js')).default },
  { name: 'profiles', aliases: ['profile'], description: 'Manage profiles: named pairs of test and live keys with their base URLs', load: async () => (await import('./profiles/index.js')).default },
  { name: 'config', description: 'Trust project config files (.esignrc*, esign.config.js, package.json#esign) before esign uses their base URLs or code', load: async () => (await import('./config/index.js')).default },
  { name: 'emulator', description: 'Run a local, stateful emulator of the whole v4 API (no key or network needed)', load: async () => (await import('./emulator/index.js')).default },
  { name: 'envelopes', aliases: ['env'], description: 'Create, configure, send, follow and void envelopes', load: async () => (await import('./envelopes/index.js')).default },
  { name: 'send', description: 'Send an envelope to its participants (waits while its documents are still processing)', load: async () => (await import('./send.js')).default },
  { name: 'participants', aliases: ['part'], description: "Set, list and correct an envelope's participants; approve, refuse, remind", load: async () => (await import('./participants/index.js')).default },
  { name: 'templates', aliases: ['template'], description: 'List templates and create envelopes from them', load: async () => (await import('./templates/index.js')).default },
  { name: 'documents', aliases: ['doc'], description: 'Upload documents to an envelope, list them, confirm .docx conversions, validate sealed PDFs', load: async () => (await import('./documents/index.js')).default },
  { name: 'fields', aliases: ['field'], description: 'Place fields on a document (by position or anchor text), list them, check and preview them offline', load: async () => (await import('./fields/index.js')).default },
  { name: 'batch', description: 'Many envelopes from YAML specs: validate offline, plan, run (resumable, exactly once), report', load: async () => (await import('./batch/index.js')).default },
  { name: 'anchors', aliases: ['anchor'], description: 'Find anchor texts in a document: in an envelope, in a template, or offline in a local PDF', load: async () => (await import('./anchors/index.js')).default },
  { name: 'webhooks', aliases: ['webhook'], description: 'Manage webhook endpoints and deliveries; listen locally with signature checks (like `stripe listen`)', load: async () => (await import('./webhooks/index.js')).default },
  { name: 'contacts', aliases: ['contact'], description: "Manage contacts, see a contact's envelopes, read contact lists", load: async () => (await import('./contacts/index.js')).default },
  { name: 'folders', aliases: ['folder'], description: 'List, create, rename, move and delete folders; see their contents and access', load: async () => (await import('./folders/index.js')).default },
  { name: 'team', description: 'List the team: groups and members', load: async () => (await import('./team/index.js')).default },
  { name: 'invites', aliases: ['invite'], description: 'List the pending invitations to the team', load: async () => (await import('./invites/index.js')).default },
  { name: 'account', description: 'Show the account: limits and usage, capabilities in effect, the capability catalog, API calls made', load: async () => (await import('./account/index.js')).default },
  { name: 'reports', aliases: ['report'], description: 'Audit reports: voided envelopes, one envelope in full, usage by group', load: async () => (await import('./reports/index.js')).default },
  { name: 'doctor', description: "Check the set-up, one line per check with a fix for each failure; exit 0 when all pass, else the first failure's code (2, 3 or 7)", load: async () => (await import('./doctor.js')).default },
  { name: 'completion', description: 'Print the shell completion script for bash, zsh or fish (commands, options, values, files, profiles)', load: async () => (await import('./completion.js')).default },
  { name: '__complete', hidden: true, description: 'Values for the shell completion scripts: profiles (the profile names in the local config)', load: async () => (await import('./complete.js')).default },
  { name: 'api', description: 'Call any operation of the API by operationId or METHOD /path (like `gh api`); --list shows them all', load: async () => (await import('./api.js')).default },
];
