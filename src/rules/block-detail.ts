// What keeps a volunteer out of a shift (a Roster's Block), in the words of the rule module that
// owns the rule: the structured detail and the sentence. Explanations of empty slots, the
// reasons a previous assignment was dropped and the recommendations' reasons all say it so.
import type { Detail } from '../types/schema-types.js';
import { availabilityDetail } from './availability.js';
import { dailyDetail } from './daily.js';
import { otherGroupDetail } from './groups.js';
import { hoursDetail } from './hours.js';
import type { Block, RuleShift, RuleVolunteer } from './model.js';
import { spacingDetail } from './spacing.js';

/** `zone`: the IANA zone the sentence writes times in (Problem.zone). */
export function blockDetail(v: RuleVolunteer, s: RuleShift, block: Block, zone: string): { detail: Detail; sentence: string } {
  switch (block.rule) {
    case 'same_shift':
      return otherGroupDetail(v, block.other);
    case 'availability':
      return availabilityDetail(v, block, zone);
    case 'spacing':
      return spacingDetail(v, block.other, s, zone);
    case 'daily':
      return dailyDetail(v, block.count, s);
    case 'hours':
      return hoursDetail(v, block.load, s);
  }
}
