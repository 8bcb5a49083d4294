import type { Lock } from '../input/problem.js';

/** The JSON Pointer of a locked assignment in the request. */
export const lockPointer = (lock: Pick<Lock, 'requestIndex'>): string => `/current_assignments/${lock.requestIndex}`;
