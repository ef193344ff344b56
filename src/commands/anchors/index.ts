import { defineGroup } from '../../cli/command.js';
import find from './find.js';

export default defineGroup({
  name: 'anchors',
  aliases: ['anchor'],
  description: 'Find anchor texts in a document: in an envelope, in a template, or offline in a local PDF',
  commands: [find],
});
