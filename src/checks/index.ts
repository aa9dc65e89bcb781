// The checks stage: run sql/checks against the store, keep the exception lifecycle, read it back.
export { checkRunSummary, runChecks, RunChecksError } from './runner.js';
export type { CheckRunResult, RunChecksOptions, Severity, FindingStatus } from './runner.js';
export { ackFinding, ackHistory } from './ack.js';
export { markShown } from './lifecycle.js';
export { assignFinding } from './assign.js';
export type { AssignOptions, AssignResult } from './assign.js';
export type { AckAction, AckEntry, AckOptions, AckResult } from './ack.js';
export { latestFindings, countLatestFindings, ageInDays } from '../store/read/findings.js';
export type { LatestFinding, LatestFindingsOptions } from '../store/read/findings.js';
export { CHECK_COLUMNS, describeChecks, loadChecks, validateCheckColumns, DEFAULT_CHECKS_DIR } from './contract.js';
export type { CheckDescription, CheckFile } from './contract.js';
export { CheckFileError, AckError } from './errors.js';
