// Bounds on what a response echoes back. A hostile or broken request can carry hundreds of
// thousands of unknown properties, bad cells or unknown ids; listing each would make the
// response larger than the request and its building slower than the request's parsing. So at
// most ERRORS_PER_CODE errors and WARNINGS_PER_CODE warnings of each code are listed, then one entry of
// code `entries_truncated` says how many more of that code were found. Names echoed into
// messages are clipped to a readable length.

/** Errors listed per code (per column for CSV cells): enough to fix a whole spreadsheet column. */
export const ERRORS_PER_CODE = 1000;
/** Warnings listed per code. */
export const WARNINGS_PER_CODE = 100;
/** The code of the entry that stands for the entries left out. */
export const TRUNCATED_CODE = 'entries_truncated';
/** Characters of a name or value quoted in a message before it is clipped. */
export const MAX_ECHO_LENGTH = 60;

/** The text, or its first `max` characters and '...' when it is longer. */
export function clip(text: string, max: number = MAX_ECHO_LENGTH): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/** 'name', or 'first 60 characters...' (N characters) for a long one. */
export function quoteName(name: string): string {
  if (name.length <= MAX_ECHO_LENGTH) return `'${name}'`;
  return `'${name.slice(0, MAX_ECHO_LENGTH)}...' (${name.length.toLocaleString('en-US')} characters)`;
}

export function truncatedMessage(kind: 'errors' | 'warnings', code: string, more: number): string {
  const cap = kind === 'errors' ? ERRORS_PER_CODE : WARNINGS_PER_CODE;
  return `${more.toLocaleString('en-US')} more ${kind} of code ${quoteName(code)} are not listed (at most ${cap} per code are); fix the ones listed and check again.`;
}

/** A list that keeps the first `perCode` entries of each code and counts the rest. */
export class CappedEntries<T> {
  private readonly entries: T[] = [];
  private readonly counts = new Map<string, number>();
  total = 0;

  constructor(private readonly perCode: number) {}

  /** Adds an entry; `make` runs only when the entry will be listed. */
  add(code: string, make: () => T): void {
    const count = (this.counts.get(code) ?? 0) + 1;
    this.counts.set(code, count);
    this.total++;
    if (count <= this.perCode) this.entries.push(make());
  }

  /** Counts `n` entries of a code that will not be listed (the cap is reached). */
  addUnlisted(code: string, n: number): void {
    this.counts.set(code, (this.counts.get(code) ?? 0) + n);
    this.total += n;
  }

  /** True when another entry of this code would not be listed. */
  full(code: string): boolean {
    return (this.counts.get(code) ?? 0) >= this.perCode;
  }

  list(): T[] {
    return this.entries;
  }

  /** One entry per code that had entries left out, made by `make(code, howManyMore)`. */
  overflow<U>(make: (code: string, more: number) => U): U[] {
    const out: U[] = [];
    for (const [code, count] of this.counts) if (count > this.perCode) out.push(make(code, count - this.perCode));
    return out;
  }
}

/** A CappedEntries whose entries carry their own key (a CSV cell's file and column, a warning's code). */
export class CappedList<T> extends CappedEntries<T> {
  constructor(
    perKey: number,
    private readonly keyOf: (entry: T) => string,
  ) {
    super(perKey);
  }

  push(entry: T): void {
    this.add(this.keyOf(entry), () => entry);
  }

  get length(): number {
    return this.total;
  }
}
