import { defineGroup } from '../../cli/command.js';
import convertV2 from './convert-v2.js';
import plan from './plan.js';
import run from './run.js';
import schema from './schema.js';
import validate from './validate.js';

export default defineGroup({
  name: 'batch',
  description: 'Many envelopes from YAML specs: validate offline, plan, run (resumable, exactly once), report',
  commands: [validate, plan, run, schema, convertV2],
});
