// RFC 6901 JSON Pointers: building them from path segments and splitting them back.

export function escapeSegment(segment: string | number): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function toPointer(segments: ReadonlyArray<string | number>): string {
  return segments.map((s) => `/${escapeSegment(s)}`).join('');
}

export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Orders pointers as their values appear in a document: array indexes numerically. */
export function comparePointers(a: string, b: string): number {
  const pa = parsePointer(a);
  const pb = parsePointer(b);
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i]!;
    const y = pb[i]!;
    if (x === y) continue;
    const nx = /^\d+$/.test(x) ? Number(x) : NaN;
    const ny = /^\d+$/.test(y) ? Number(y) : NaN;
    if (!Number.isNaN(nx) && !Number.isNaN(ny)) return nx - ny;
    return x < y ? -1 : 1;
  }
  return pa.length - pb.length;
}
