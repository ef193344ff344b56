import { defineGroup } from '../../cli/command.js';
import envelope from './envelope.js';
import usage from './usage.js';
import voided from './voided.js';

export default defineGroup({
  name: 'reports',
  aliases: ['report'],
  description: 'Audit reports: voided envelopes, one envelope in full, usage by group',
  commands: [voided, envelope, usage],
});
