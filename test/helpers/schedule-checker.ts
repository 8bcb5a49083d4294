// The independent schedule checker, for the tests: it lives in bench/ (the benchmarks check
// every schedule they time, and bench code does not import tests).
export {
  checkSchedule,
  excluded,
  lockGroups,
  pairKey,
  readRequest,
  tooClose,
  type CheckOptions,
  type RequestFacts,
  type Violation,
  type ViolationCode,
} from '../../bench/schedule-checker.js';
