// The coordinator's page (app/main.ts) says in words what a job is doing: every phase a job's
// progress can report (schemas/job.json, progress.phase) needs its words there, and every phase
// the engine can report a better schedule from (levels.ts PhaseName) must be in that list. Read
// with the TypeScript parser, so a phase added to the engine without words fails here.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { packageRoot } from '../src/package-root.js';

const source = (path: string): ts.SourceFile => ts.createSourceFile(path, readFileSync(join(packageRoot, path), 'utf8'), ts.ScriptTarget.ES2022, true);

/** The keys of the object literal assigned to the top-level const `name`. */
function objectKeys(file: ts.SourceFile, name: string): string[] {
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const d of statement.declarationList.declarations)
      if (ts.isIdentifier(d.name) && d.name.text === name && d.initializer && ts.isObjectLiteralExpression(d.initializer))
        return d.initializer.properties.flatMap((p) => (p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? [p.name.text] : []));
  }
  throw new Error(`${name} not found`);
}

/** The string literals of the exported union type `name`. */
function unionMembers(file: ts.SourceFile, name: string): string[] {
  for (const statement of file.statements)
    if (ts.isTypeAliasDeclaration(statement) && statement.name.text === name && ts.isUnionTypeNode(statement.type))
      return statement.type.types.flatMap((t) => (ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal) ? [t.literal.text] : []));
  throw new Error(`${name} not found`);
}

describe('the coordinator page names every phase a job reports', () => {
  const job = JSON.parse(readFileSync(join(packageRoot, 'schemas/job.json'), 'utf8')) as {
    properties: { progress: { properties: { phase: { description: string } } } };
  };
  const description = job.properties.progress.properties.phase.description;
  const listed = /the engine's phase that found the latest better schedule \(([^)]*)\)/.exec(description)![1]!.split(', ');
  const words = objectKeys(source('app/main.ts'), 'PHASES');

  it('has words for queued, preparing, solving and every engine phase the job schema lists', () => {
    expect(listed.length).to.be.above(20);
    expect(['queued', 'preparing', 'solving', ...listed].filter((phase) => !words.includes(phase))).to.deep.equal([]);
  });

  it('the job schema lists every engine phase but the bound-only fairness_bound', () => {
    const engine = unionMembers(source('src/engine/levels.ts'), 'PhaseName');
    expect(engine).to.include('fairness_kicks');
    expect(engine.filter((phase) => phase !== 'fairness_bound' && !listed.includes(phase))).to.deep.equal([]);
  });
});
