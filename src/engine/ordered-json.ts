// JSON text in which Maps become objects with their keys in insertion order. Plain objects
// reorder integer-like keys ("2" before "10" before "a"), but the contract orders shifts and
// volunteers as the request did, whatever their ids look like. Subtrees without a Map are
// written by JSON.stringify itself (the same text, several times faster), so rendering a large
// result does not hold the event loop.

/** True when a Map occurs anywhere in the value (a walk that allocates nothing: a result's roster has an entry per assignment). */
function hasMap(v: unknown): boolean {
  if (v === null || typeof v !== 'object') return false;
  if (v instanceof Map) return true;
  if (Array.isArray(v)) {
    for (const x of v) if (hasMap(x)) return true;
    return false;
  }
  const record = v as Record<string, unknown>;
  for (const key in record) if (Object.hasOwn(record, key) && hasMap(record[key])) return true;
  return false;
}

/** JSON.stringify as it behaves: undefined, whatever its declared type says, for undefined, functions and symbols. */
const stringify: (value: unknown) => string | undefined = (value) => JSON.stringify(value);

/** JSON text of a value, 'null' where JSON.stringify gives none. */
function stringifyOrNull(v: unknown): string {
  return stringify(v) ?? 'null';
}

export function toOrderedJson(value: unknown, indent = 0): string {
  const pad = (depth: number): string => (indent ? `\n${' '.repeat(indent * depth)}` : '');
  const colon = indent ? ': ' : ':';
  const write = (v: unknown, depth: number): string => {
    // Without indentation, JSON.stringify gives exactly this text for a Map-free subtree.
    if (indent === 0 && !(v instanceof Map) && !hasMap(v)) return stringifyOrNull(v === undefined ? null : v);
    if (v instanceof Map) {
      if (v.size === 0) return '{}';
      const parts = [...v].map(([k, x]) => `${pad(depth + 1)}${JSON.stringify(String(k))}${colon}${write(x, depth + 1)}`);
      return `{${parts.join(',')}${pad(depth)}}`;
    }
    if (Array.isArray(v)) {
      if (v.length === 0) return '[]';
      return `[${v.map((x) => `${pad(depth + 1)}${write(x === undefined ? null : x, depth + 1)}`).join(',')}${pad(depth)}]`;
    }
    if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v).filter(([, x]) => x !== undefined);
      if (entries.length === 0) return '{}';
      return `{${entries.map(([k, x]) => `${pad(depth + 1)}${JSON.stringify(k)}${colon}${write(x, depth + 1)}`).join(',')}${pad(depth)}}`;
    }
    return stringifyOrNull(v);
  };
  return write(value, 0);
}
