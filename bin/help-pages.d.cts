/** See help-pages.cjs. */
export declare function helpPage(args: readonly string[], file?: string): string | undefined;
