import { defineGroup } from '../../cli/command.js';
import confirmConversion from './confirm-conversion.js';
import downloadUrl from './download-url.js';
import list from './list.js';
import upload from './upload.js';
import validate from './validate.js';

export default defineGroup({
  name: 'documents',
  aliases: ['doc'],
  description: 'Upload documents to an envelope, list them, confirm .docx conversions, validate sealed PDFs',
  commands: [upload, list, confirmConversion, downloadUrl, validate],
});
