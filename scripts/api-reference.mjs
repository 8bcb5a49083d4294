// Writes docs/api-reference.md, the API reference in the repository, from what the service
// itself serves: the OpenAPI document (endpoints, parameters, responses), the JSON Schemas
// (every field with its type and meaning) and the catalog of problem types. A test keeps the
// committed file equal to what this script writes. Run after `npm run build`:
//   node scripts/api-reference.mjs            (writes the file)
//   node scripts/api-reference.mjs --check    (exit 1 when the file is out of date)
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { openApiDocument } = await import(join(root, 'dist/src/http/openapi.js'));
const { loadConfig } = await import(join(root, 'dist/src/config/config.js'));
const { loadSchemas } = await import(join(root, 'dist/src/input/schema-registry.js'));
const { problemTypes } = await import(join(root, 'dist/src/service/problems.js'));

export const REFERENCE_PATH = join(root, 'docs/api-reference.md');

/** Markdown table cell: no pipes or line breaks. */
const cell = (text) =>
  String(text ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ');
const anchor = (file) => `schema-${file.replace(/\.json$/, '')}`;
const schemaLink = (ref) => {
  const [file, pointer] = ref.replace(/^schemas\//, '').split('#');
  if (!file) return `\`${pointer.split('/').pop()}\` (below)`;
  return `[${file}](#${anchor(file)})${pointer ? ` \`${pointer.split('/').pop()}\`` : ''}`;
};

/** The type of a schema as a reader says it: string, integer >= 0, array of window, one of... */
function typeOf(schema) {
  if (!schema) return '';
  if (schema.$ref) return schemaLink(schema.$ref);
  if (schema.enum) return `one of ${schema.enum.map((v) => `\`${v}\``).join(', ')}`;
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' or ');
  if (schema.oneOf) return schema.oneOf.map(typeOf).join(' or ');
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? 'any');
  if (type === 'array') return `array of ${typeOf(schema.items) || 'any'}`;
  const bounds = [];
  if (schema.minimum !== undefined) bounds.push(`>= ${schema.minimum}`);
  if (schema.maximum !== undefined) bounds.push(`<= ${schema.maximum}`);
  if (schema.minLength) bounds.push(`non-empty`);
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') return `object of ${typeOf(schema.additionalProperties)}`;
  return [type, ...bounds].join(' ');
}

/** Rows for each property of an object schema, nested objects and array items flattened with dotted names. */
function fieldRows(schema, prefix = '') {
  const rows = [];
  const required = new Set(schema.required ?? []);
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const path = `${prefix}${name}`;
    rows.push(`| \`${path}\` | ${cell(typeOf(prop))} | ${required.has(name) ? 'yes' : ''} | ${cell(prop.description)} |`);
    if (prop.type === 'object' && prop.properties) rows.push(...fieldRows(prop, `${path}.`));
    if (prop.type === 'array' && prop.items?.type === 'object' && prop.items.properties) rows.push(...fieldRows(prop.items, `${path}[].`));
  }
  return rows;
}

function schemaSection(file, schema) {
  const out = [`### <a id="${anchor(file)}"></a>${schema.title ?? file} (\`schemas/${file}\`)`, '', cell(schema.description), ''];
  const rows = fieldRows(schema);
  if (rows.length > 0) out.push('| field | type | required | meaning |', '| --- | --- | --- | --- |', ...rows, '');
  for (const [name, def] of Object.entries(schema.$defs ?? {})) {
    out.push(`**\`${name}\`**: ${cell(def.description)}${def.type !== 'object' ? ` (${cell(typeOf(def))})` : ''}`, '');
    const defRows = fieldRows(def);
    if (defRows.length > 0) out.push('| field | type | required | meaning |', '| --- | --- | --- | --- |', ...defRows, '');
  }
  return out;
}

function endpointSection(path, method, op, components) {
  const out = [`### ${method.toUpperCase()} ${path}`, '', `${cell(op.summary)}`, ''];
  if (op.description) out.push(op.description.trim(), '');
  if (op.security && op.security.length === 0) out.push('No key needed.', '');
  const params = (op.parameters ?? []).map((p) => (p.$ref ? components.parameters[p.$ref.split('/').pop()] : p));
  if (params.length > 0) {
    out.push('| parameter | in | type | meaning |', '| --- | --- | --- | --- |');
    for (const p of params) out.push(`| \`${p.name}\` | ${p.in} | ${cell(typeOf(p.schema))} | ${cell(p.description)} |`);
    out.push('');
  }
  const body = op.requestBody?.content;
  if (body) {
    out.push('Request body:', '');
    for (const [type, media] of Object.entries(body)) {
      const inline = media.schema?.properties ? fieldRows(media.schema) : [];
      out.push(`- \`${type}\`: ${media.schema && inline.length === 0 ? cell(typeOf(media.schema)) : 'the parts below'}`);
      if (inline.length > 0) out.push('', '| part | type | required | meaning |', '| --- | --- | --- | --- |', ...inline);
    }
    out.push('');
  }
  out.push('| status | meaning | body |', '| --- | --- | --- |');
  for (const [status, response] of Object.entries(op.responses ?? {})) {
    const content = Object.entries(response.content ?? {})
      .map(([type, media]) => `\`${type}\`${media.schema ? ` ${typeOf(media.schema)}` : ''}`)
      .join('; ');
    out.push(`| ${status} | ${cell(response.description)} | ${cell(content)} |`);
  }
  out.push('');
  return out;
}

export function reference() {
  const registry = loadSchemas();
  const doc = openApiDocument(loadConfig({}), registry);
  const lines = [
    '# API reference',
    '',
    '<!-- Generated by scripts/api-reference.mjs from the OpenAPI document, the JSON Schemas and the problem catalog; do not edit by hand. -->',
    '',
    `Version ${doc.info.version}. ${cell(doc.info.description ?? '')}`,
    '',
    'This is the reference of the interface the service implements, in the repository: every endpoint with its parameters and responses, every field of every request and result with its type and meaning, and every problem type. The same content is served by a running instance at `/openapi.json`, `/docs`, `/schemas/<file>` and `/problems`.',
    '',
    '## Authentication',
    '',
  ];
  for (const [name, scheme] of Object.entries(doc.components.securitySchemes ?? {}))
    lines.push(`- \`${name}\`: HTTP ${scheme.scheme} (${scheme.bearerFormat ?? ''}). ${cell(scheme.description)}`);
  lines.push('', '## Endpoints', '');
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (typeof op === 'object' && op.responses) lines.push(...endpointSection(path, method, op, doc.components));
    }
  }
  lines.push(
    '## Problem types',
    '',
    'Every error is RFC 9457 problem details (`application/problem+json`) with one of these types; `GET /problems/<slug>` explains each.',
    '',
  );
  lines.push('| type | status | title | when, and what to do |', '| --- | --- | --- | --- |');
  for (const p of Object.values(problemTypes)) lines.push(`| \`/problems/${p.slug}\` | ${p.status} | ${cell(p.title)} | ${cell(p.explanation)} |`);
  lines.push('', '## Schemas', '');
  for (const [name, schema] of [...registry.schemas.entries()].sort(([a], [b]) => a.localeCompare(b))) lines.push(...schemaSection(`${name}.json`, schema));
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = reference();
  if (process.argv.includes('--check')) {
    const current = readFileSync(REFERENCE_PATH, 'utf8');
    if (current !== text) {
      console.error('docs/api-reference.md is out of date: run npm run docs');
      process.exit(1);
    }
  } else {
    writeFileSync(REFERENCE_PATH, text);
    console.log(`wrote ${REFERENCE_PATH}`);
  }
}
