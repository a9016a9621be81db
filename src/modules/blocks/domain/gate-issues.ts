import { DomainError } from '../../../shared/errors/domain-error';
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

/** 422 FLOW_FAILURE naming the gate that failed and its issues (1-based line and column where known). */
export function gateFailure(gate: 'compile' | 'sandbox', issues: GateIssue[]): DomainError {
  const first = issues[0];
  const where = first?.line !== undefined ? ` at line ${first.line}${first.column !== undefined ? `, column ${first.column}` : ''}` : '';
  return new DomainError('FLOW_FAILURE', `The ${gate} gate failed${first ? `: ${first.code}${where}` : ''}.`, { gate, issues });
}
