/** See pdf-engine.cjs. */
import type { Script } from 'node:vm';

export interface PdfEngineModules {
  library: typeof import('pdfjs-dist/legacy/build/pdf.mjs');
  worker: unknown;
}

export interface CompiledPdfEngine {
  script: Script;
  cacheRejected: boolean;
  run(): PdfEngineModules;
}

export declare function pdfEngineCodeCacheName(): string;
export declare function compilePdfEngine(engineFile: string, cacheFile?: string): CompiledPdfEngine | undefined;
