// @vitest-environment node
// The app loads only the Mantine sheets it names (mantine-styles.ts, and each screen's own module
// loaded with its chunk). A component whose sheet nobody names renders unstyled on the screen a
// user opens first: the Dashboard's task checkbox drew its tick 200–270 px tall, the report's
// pagination was a row of bare numbers. Each screen the app loads lazily, with every file it
// reaches, must find the sheets of every Mantine component it uses, and of those they are built
// from, among the app's and its own.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const source = dirname(fileURLToPath(import.meta.url));
const mantineRoot = dirname(createRequire(import.meta.url).resolve('@mantine/core/styles.css'));
const sheetNames = new Set(
  readdirSync(join(mantineRoot, 'styles'))
    .filter((name) => name.endsWith('.css') && !name.endsWith('.layer.css'))
    .map((name) => name.slice(0, -'.css'.length)),
);

// Where Mantine's ES build defines each component ("./components/Checkbox/Checkbox.mjs").
const esm = join(mantineRoot, 'esm');
const componentModules = new Map<string, string>();
for (const [, names, path] of readFileSync(join(esm, 'index.mjs'), 'utf8').matchAll(/import \{([^}]*)\} from "(\.\/[^"]+)"/g)) {
  for (const name of (names as string).split(',')) componentModules.set(name.trim(), join(esm, path as string));
}

/**
 * The sheets a component needs: its own CSS module's and those of the components it is built from
 * (Checkbox on InlineInput, Button on UnstyledButton and Loader), as Mantine's own modules import
 * them. Its parts kept in folders of their own (Checkbox.Card, Checkbox.Group) are left out: the
 * screens use the component itself.
 */
function sheetsOf(component: string): string[] {
  const start = componentModules.get(component);
  const sheets = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !existsSync(file)) return;
    seen.add(file);
    for (const [, imported] of readFileSync(file, 'utf8').matchAll(/from "(\.[^"]+)"/g)) {
      const path = resolve(dirname(file), imported as string);
      if (path.endsWith('.module.mjs')) sheets.add(basename(path, '.module.mjs'));
      else if (path.startsWith(join(esm, 'core'))) continue;
      else if (!(file === start && /^\.\/[^/]+\//.test(imported as string))) visit(path);
    }
  };
  if (start) visit(start);
  return [...sheets].filter((sheet) => sheetNames.has(sheet));
}

type Reached = { components: Set<string>; sheets: Set<string> };

/** Mantine components and sheets named by `file` and every local module it imports, statically or lazily. */
function reach(file: string, reached: Reached = { components: new Set(), sheets: new Set() }, seen = new Set<string>()): Reached {
  if (seen.has(file)) return reached;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const [, names] of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'@mantine\/core'/g)) {
    for (const name of (names as string).split(',').map((part) => part.trim().split(/\s+as\s+/)[0] as string)) {
      if (/^[A-Z]/.test(name)) reached.components.add(name);
    }
  }
  for (const [, sheet] of text.matchAll(/import\s*'@mantine\/core\/styles\/(\w+)\.css'/g)) reached.sheets.add(sheet as string);
  for (const [, local] of text.matchAll(/(?:from\s*|import\s*\(?\s*)'(\.{1,2}\/[^']+\.tsx?)'/g)) {
    const path = resolve(dirname(file), local as string);
    if (existsSync(path)) reach(path, reached, seen);
  }
  return reached;
}

const appSheets = reach(join(source, 'mantine-styles.ts')).sheets;
const screens = [...readFileSync(join(source, 'App.tsx'), 'utf8').matchAll(/lazy\(\(\)\s*=>\s*import\('(\.\/[^']+)'\)\)/g)].map(([, path]) => path as string);

describe('Mantine sheets', () => {
  it('finds the lazily loaded screens and the sheets', () => {
    expect(screens).toContain('./pages/home/DashboardPage.tsx');
    expect(screens.length).toBeGreaterThanOrEqual(8);
    expect(sheetsOf('Checkbox')).toEqual(expect.arrayContaining(['Checkbox', 'InlineInput']));
  });

  it.each(screens)('%s: every Mantine component it uses has its sheets loaded', (screen) => {
    const { components, sheets } = reach(join(source, screen));
    const missing = [...components].flatMap((component) => sheetsOf(component).filter((sheet) => !appSheets.has(sheet) && !sheets.has(sheet)).map((sheet) => `${component}: ${sheet}`));
    expect(missing).toEqual([]);
  });
});
