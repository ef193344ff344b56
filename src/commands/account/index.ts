import { defineGroup } from '../../cli/command.js';
import calls from './calls.js';
import capabilities from './capabilities.js';
import catalog from './catalog.js';
import get from './get.js';

export default defineGroup({
  name: 'account',
  description: 'Show the account: limits and usage, capabilities in effect, the capability catalog, API calls made',
  commands: [get, capabilities, catalog, calls],
});
