/**
 * Code the single executable carries as an asset rather than in its main script (scripts/build-binary.mjs): the
 * program itself, and TypeScript for a trusted `esign.config.ts`. Its main is then a few lines that V8 compiles at
 * once, so `esign --version` costs what Node's own start does, and code is compiled only when it is run.
 */
import { dirname } from 'node:path';
import { getAsset } from 'node:sea';
import { constants, Script } from 'node:vm';

/** The parameters the build wraps each CommonJS asset's text in, as Node wraps a module. */
type CommonJsWrapper = (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, filename: string, dirname: string) => void;

export interface CompiledAsset {
  /** True when V8 refused the code cache it was given (another V8 version or other V8 flags) and compiled the text. */
  cacheRejected: boolean | undefined;
  /** Runs the module body once and answers what it exported. */
  run(): unknown;
}

/**
 * Compiles the CommonJS asset `name` (text wrapped by the build in a function of Node's module parameters), with V8's
 * code cache for it when there is one. The module gets `require`, the executable's own, which loads Node's built-in
 * modules only, as in the executable's main; `import()` goes to Node's loader, as in any module.
 */
export function compileCommonJsAsset(name: string, require: NodeJS.Require, cachedData?: ArrayBuffer): CompiledAsset {
  const filename = process.execPath;
  const script = new Script(getAsset(name, 'utf8'), {
    filename,
    ...(cachedData ? { cachedData: new Uint8Array(cachedData) } : {}),
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  return {
    cacheRejected: script.cachedDataRejected,
    run() {
      const module = { exports: {} };
      (script.runInThisContext() as CommonJsWrapper)(module.exports, require, module, filename, dirname(filename));
      return module.exports;
    },
  };
}
