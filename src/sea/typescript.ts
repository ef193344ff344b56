/**
 * TypeScript inside the single executable (scripts/build-binary.mjs aliases the package to this module). cosmiconfig
 * imports it only to load a trusted `esign.config.ts`, yet it is 4 MB, nearly half of everything else: the executable
 * carries it as an asset of its own, read and compiled only then.
 */
import { compileCommonJsAsset } from './commonjs-asset.js';

/** The asset name the build script stores TypeScript under. */
export const TYPESCRIPT_ASSET = 'typescript.js';

// cosmiconfig takes the module's default export: `(await import('typescript')).default`.
export default compileCommonJsAsset(TYPESCRIPT_ASSET, require).run();
