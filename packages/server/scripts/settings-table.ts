// Writes (or checks) the generated settings tables in docs/operations.md from packages/server/src/settings-doc.ts.
//   pnpm settings-table           rewrite the tables in place
//   pnpm settings-table --check   exit 1 when the doc differs from what would be written
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderRunnerSettings, renderServerSettings } from '../src/settings-doc.js';

export const OPERATIONS_DOC = fileURLToPath(new URL('../../../docs/operations.md', import.meta.url));

/** The doc with each `<!-- generated: NAME -->` ... `<!-- /generated -->` block replaced by its table. */
export function withGeneratedTables(doc: string): string {
  const tables: Record<string, () => string> = {
    'server-settings': renderServerSettings,
    'runner-settings': renderRunnerSettings,
  };
  for (const [name, render] of Object.entries(tables)) {
    const open = `<!-- generated: ${name} (pnpm settings-table; do not edit by hand) -->`;
    const start = doc.indexOf(open);
    const end = doc.indexOf('<!-- /generated -->', start);
    if (start === -1 || end === -1) throw new Error(`docs/operations.md has no ${open} ... <!-- /generated --> block`);
    doc = `${doc.slice(0, start + open.length)}\n${render()}\n${doc.slice(end)}`;
  }
  return doc;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const current = readFileSync(OPERATIONS_DOC, 'utf8');
  const generated = withGeneratedTables(current);
  if (process.argv.includes('--check')) {
    if (generated !== current) {
      console.error('docs/operations.md: the settings tables are out of date; run pnpm settings-table');
      process.exit(1);
    }
  } else if (generated !== current) {
    writeFileSync(OPERATIONS_DOC, generated);
    console.error('docs/operations.md: settings tables rewritten');
  }
}
