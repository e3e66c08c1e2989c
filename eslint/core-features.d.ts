import type { ESLint } from 'eslint';

declare const plugin: ESLint.Plugin;
export default plugin;
export declare function featureOf(abs: string): string | null;
export declare function featureGraph(): Map<string, Map<string, string>>;
export declare function pathBack(
  graph: Map<string, Map<string, string>>,
  start: string,
  goal: string,
  skip: Set<string>,
): string[] | null;
