// What a rule needs to write its MIP rows: the candidate pairs of a subproblem (a volunteer and a
// slot they could newly fill), the locked assignments as fixed columns, and a place to add rows.
// The engine's formulation (src/engine/formulate.ts) implements it; rules never see the model.
import type { Placement, RuleShift, RuleVolunteer } from './model.js';

/** A slot kind of a subproblem: one group of one shift. */
export interface RowSlot extends RuleShift {
  group: string;
}

export interface RowContext {
  volunteers: ReadonlyArray<RuleVolunteer & { locks: readonly Placement[] }>;
  slots: readonly RowSlot[];
  /** Per candidate pair: its volunteer and slot (local indexes); pair indexes are column indexes. */
  pairVolunteer: ArrayLike<number>;
  pairSlot: ArrayLike<number>;
  byVolunteer: readonly (readonly number[])[];
  bySlot: readonly (readonly number[])[];
  lockedHours: ArrayLike<number>;
  /** Hours left under the cap after the locks. */
  remaining: ArrayLike<number>;
  /** Per volunteer: the fixed columns of their locks, with the lock's hours and placement. */
  lockCols: ReadonlyArray<ReadonlyArray<{ col: number; hours: number; lock: Placement }>>;
  vName(v: number): string;
  sName(slot: number): string;
  /** Adds a row: one coefficient per column, or one number for all of them. */
  addRow(name: string, lower: number, upper: number, cols: readonly number[], coefs: readonly number[] | number): number;
}
