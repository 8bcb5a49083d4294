// A flag shared between threads: a SharedArrayBuffer whose Int32Array's index 0 becomes RAISED.
// Solving is synchronous, so a message could not reach a worker until it was done; a flag is read
// where the work checks its time. The pool's (pool/messages.ts): a job's `cancel`, raised when the
// job is aborted, and a worker's `jobSent`, raised before its first job is posted; a slice's
// `extend` (budget.ts BudgetSlice), raised once another lane of its request is idle.
const RAISED = 1;

/** A new flag, not raised. */
export function newFlag(): SharedArrayBuffer {
  return new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
}

/** The raising side of a shared flag. */
export function raiseFlag(flag: SharedArrayBuffer): void {
  Atomics.store(new Int32Array(flag), 0, RAISED);
}

/** The reading side of a shared flag: true once it is raised. */
export function flagCheck(flag: SharedArrayBuffer): () => boolean {
  const view = new Int32Array(flag);
  return () => Atomics.load(view, 0) === RAISED;
}
