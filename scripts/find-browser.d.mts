/** Types of find-browser.mjs (the lookup shared by scripts/test-tools.mjs and the tests). */
export declare const BROWSER_NAMES: readonly string[];
export declare const POPPLER_PROGRAMS: readonly string[];
export declare const NO_BROWSER: string;
export declare const NO_POPPLER: string;
export declare const NO_BROWSER_NOR_POPPLER: string;
export declare function findProgram(name: string, path?: string): string | null;
export declare function findBrowser(env?: NodeJS.ProcessEnv): string | null;
export declare function requireBrowser(): string;
export declare function requirePoppler(name: 'pdftoppm' | 'pdftotext'): string;
