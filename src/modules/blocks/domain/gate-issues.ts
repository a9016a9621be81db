import type { GateIssue } from '../../sandbox';

/** At most this many issues travel in a FLOW_FAILURE body and a gate report. */
const MAX_ISSUES = 100;

export function issuesOf(issues: readonly GateIssue[]): GateIssue[] {
  return issues.slice(0, MAX_ISSUES).map(({ severity, code, path, message, line, column }) => ({
    severity,
    code,
    path,
    message,
    ...(line !== undefined ? { line } : {}),
    ...(column !== undefined ? { column } : {}),
  }));
}
