// The layers of src/ and the direction of their imports (README, "Architecture"): each folder
// may import only the folders below it, nothing in src/ imports tests or benchmarks, and the
// lower layers know nothing of Koa or of a database driver. The imports are read with the
// TypeScript parser, so a new upward import fails here.
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { packageRoot } from '../src/package-root.js';

/** What each top-level part of src/ may import (besides itself and npm packages). */
const MAY_IMPORT: Record<string, string[]> = {
  types: [],
  'package-root.ts': [],
  config: [],
  auth: [],
  logging: ['config'],
  input: ['types', 'package-root.ts'],
  rules: ['input', 'types'],
  engine: ['input', 'rules', 'types'],
  store: [],
  service: ['config', 'engine', 'input', 'rules', 'types', 'package-root.ts'],
  jobs: ['config', 'engine', 'input', 'logging', 'service', 'store', 'types', 'package-root.ts'],
  http: ['auth', 'config', 'engine', 'input', 'jobs', 'logging', 'rules', 'service', 'store', 'types', 'package-root.ts'],
  cli: ['auth', 'config', 'engine', 'http', 'input', 'jobs', 'logging', 'rules', 'service', 'store', 'types', 'package-root.ts'],
};

/** npm packages a layer must not use: the HTTP framework and the database drivers stay in their layers. */
const FORBIDDEN_PACKAGES: Record<string, RegExp> = {
  input: /^(koa|@koa\/|koa-|pg$|better-sqlite3|kysely)/,
  rules: /^(koa|@koa\/|koa-|pg$|better-sqlite3|kysely)/,
  engine: /^(koa|@koa\/|koa-|pg$|better-sqlite3|kysely)/,
  service: /^(koa|@koa\/|koa-|pg$|better-sqlite3|kysely)/,
  store: /^(koa|@koa\/|koa-)/,
};

const SRC = join(packageRoot, 'src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every module specifier a file imports or re-exports, statically or dynamically. */
function specifiers(file: string): string[] {
  const tree = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      found.push(node.moduleSpecifier.text);
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0]))
      found.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

const partOf = (path: string): string => relative(SRC, path).split(/[\\/]/)[0]!;

function violations(): string[] {
  const out: string[] = [];
  for (const file of files(SRC)) {
    const part = partOf(file);
    const allowed = MAY_IMPORT[part];
    const where = relative(packageRoot, file);
    if (!allowed) {
      out.push(`${where}: ${part} is not a known layer (add it to MAY_IMPORT and to the README)`);
      continue;
    }
    for (const spec of specifiers(file)) {
      if (!spec.startsWith('.')) {
        if (FORBIDDEN_PACKAGES[part]?.test(spec)) out.push(`${where} imports the package ${spec}, which ${part}/ must not use`);
        continue;
      }
      const target = resolve(dirname(file), spec);
      if (!target.startsWith(SRC)) {
        out.push(`${where} imports ${spec}, outside src/`);
        continue;
      }
      const to = partOf(target.replace(/\.js$/, '.ts'));
      if (to !== part && !allowed.includes(to)) out.push(`${where} imports ${spec}: ${part}/ may not import ${to}/`);
    }
  }
  return out;
}

describe('architecture: imports point down the layers', () => {
  it('finds the imports it checks (the scan itself works)', () => {
    const routes = specifiers(join(SRC, 'http', 'routes', 'schedule.ts'));
    expect(routes).to.include('../../service/schedule-service.js');
  });

  it('every import in src/ goes to the same layer or one below it', () => {
    expect(violations()).to.deep.equal([]);
  });
});
