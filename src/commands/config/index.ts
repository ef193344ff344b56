import { defineGroup } from '../../cli/command.js';
import trust from './trust.js';
import trusted from './trusted.js';
import untrust from './untrust.js';

export default defineGroup({
  name: 'config',
  description: 'Trust project config files (.esignrc*, esign.config.js, package.json#esign) before esign uses their base URLs or code',
  commands: [trust, untrust, trusted],
});
