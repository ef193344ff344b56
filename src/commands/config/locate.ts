import { UsageError } from '../../core/errors.js';
import { findProjectConfigFile, readProjectConfigFile, type ProjectConfigFile } from '../../config/project.js';

/** The file a config command names, or else the project config found in the working directory (never evaluated). */
export async function locateProjectConfig(file: string | undefined): Promise<ProjectConfigFile> {
  if (file) return readProjectConfigFile(file);
  const found = await findProjectConfigFile();
  if (found) return found;
  throw new UsageError(
    `No esign project config in ${process.cwd()}.`,
    'esign looks for package.json#esign, .esignrc, .esignrc.{json,yaml,yml,js,ts,cjs,mjs}, .config/esignrc* and esign.config.{js,ts,cjs,mjs}; or name the file.',
    'CONFIG_NOT_FOUND',
  );
}
