// Types of scripts/check-imports.mjs, for its test (packages/server/test/platform/import-graph.test.ts).
export const SERVER_LAYERS: string[][];
export const RUNNER_LAYERS: string[][];
export const RUNNER_SIBLINGS: string[];
export const WEB_LAYERS: string[][];
export const COMPOSITION_ROOT: string;
export const LAYERED_PACKAGES: Record<
  'server' | 'runner' | 'web',
  { layers: string[][]; compositionRoot: string | null; allowedCycles: string[][]; siblings: string[] }
>;
export function importsOf(text: string): { spec: string; typeOnly: boolean }[];
export const PACKAGE_IMPORTS: Record<string, string[]>;
export function checkPackages(packagesDir?: string, allowed?: Record<string, string[]>): string[];
export interface ImportCheck {
  files: number;
  edges: number;
  cycles: string[][];
  problems: string[];
}
export function checkImports(
  srcDir?: string,
  layers?: string[][],
  compositionRoot?: string | null,
  allowedCycles?: string[][],
  siblings?: string[],
): ImportCheck;
export function checkAll(packagesDir?: string): (ImportCheck & { name: string })[];
