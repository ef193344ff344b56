import { defineGroup } from '../../cli/command.js';
import create from './create.js';
import remove from './delete.js';
import deliveries from './deliveries.js';
import delivery from './delivery.js';
import get from './get.js';
import list from './list.js';
import listen from './listen.js';
import resend from './resend.js';
import rotateSecret from './rotate-secret.js';
import update from './update.js';

export default defineGroup({
  name: 'webhooks',
  aliases: ['webhook'],
  description: 'Manage webhook endpoints and deliveries; listen locally with signature checks (like `stripe listen`)',
  commands: [create, list, get, update, remove, deliveries, delivery, resend, rotateSecret, listen],
});
