// Every regular expression the service runs on client input, checked for super-linear
// backtracking (ReDoS) by recheck: the literals in src/ (found with the TypeScript parser) and
// the `pattern`s of the schema files. A quadratic expression such as /^Bearer[ ]+(\S*)\s*$/i,
// once used on the Authorization header, fails here.
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkSync } from 'recheck';
import ts from 'typescript';
import { packageRoot } from '../../src/package-root.js';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

function literals(file: string): Array<{ where: string; source: string; flags: string }> {
  const text = readFileSync(file, 'utf8');
  const tree = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found: Array<{ where: string; source: string; flags: string }> = [];
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const literal = node.getText(tree);
      const end = literal.lastIndexOf('/');
      const line = tree.getLineAndCharacterOfPosition(node.getStart(tree)).line + 1;
      found.push({ where: `${file.slice(packageRoot.length + 1)}:${line}`, source: literal.slice(1, end), flags: literal.slice(end + 1) });
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

function schemaPatterns(): Array<{ where: string; source: string; flags: string }> {
  const found: Array<{ where: string; source: string; flags: string }> = [];
  const dir = join(packageRoot, 'schemas');
  const walk = (value: unknown, where: string): void => {
    if (Array.isArray(value))
      value.forEach((v, i) => {
        walk(v, `${where}/${i}`);
      });
    else if (typeof value === 'object' && value !== null) {
      for (const [k, v] of Object.entries(value)) {
        if (k === 'pattern' && typeof v === 'string') found.push({ where, source: v, flags: 'u' });
        else walk(v, `${where}/${k}`);
      }
    }
  };
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) walk(JSON.parse(readFileSync(join(dir, file), 'utf8')), `schemas/${file}#`);
  return found;
}

describe('regular expressions on client input', function () {
  this.timeout(120_000);
  const all = [...sourceFiles(join(packageRoot, 'src')).flatMap(literals), ...schemaPatterns()];

  it('finds the expressions to check (the scan itself works)', () => {
    expect(all.length).to.be.above(20);
    expect(all.some((r) => r.where.startsWith('schemas/volunteer.json'))).to.equal(true);
  });

  it('the checker flags the Authorization expression that was quadratic', () => {
    expect(checkSync('^Bearer[ ]+(\\S*)\\s*$', 'i').status).to.equal('vulnerable');
  });

  it('none backtracks super-linearly', () => {
    const unsafe = all
      .map((r) => ({ ...r, result: checkSync(r.source, r.flags) }))
      .filter((r) => r.result.status !== 'safe')
      .map((r) => `${r.where} /${r.source}/${r.flags}: ${r.result.status}${r.result.status === 'vulnerable' ? ` (${r.result.complexity.summary})` : ''}`);
    expect(unsafe).to.deep.equal([]);
  });
});
