import type { components } from '../../api/schema';

export type GateIssue = components['schemas']['BlockGateIssue'];
export type GateReportData = components['schemas']['BlockGateReport'];

export const issueWhere = (issue: { line?: number; column?: number }) =>
  issue.line === undefined ? null : issue.column === undefined ? `line ${issue.line}` : `${issue.line}:${issue.column}`;

/** Gate issues as a list; an issue with a line moves the editor there. */
export function IssueList({ issues, onGoTo }: { issues: GateIssue[]; onGoTo?: (line: number, column?: number) => void }) {
  if (issues.length === 0) return <p className="small">No issues.</p>;
  return (
    <ul className="issues" aria-label="Gate issues">
      {issues.map((issue, index) => {
        const where = issueWhere(issue);
        return (
          <li key={index} className={`issue ${issue.severity}`}>
            <span className={`badge ${issue.severity === 'error' ? 'failed' : 'warning'}`}>{issue.severity}</span> <code>{issue.code}</code>{' '}
            {where && issue.line !== undefined ? (
              onGoTo ? (
                <button type="button" className="link" onClick={() => onGoTo(issue.line as number, issue.column)} aria-label={`Go to ${where}`}>
                  {where}
                </button>
              ) : (
                <code>{where}</code>
              )
            ) : null}{' '}
            <span className="issue-message">{issue.message}</span>
          </li>
        );
      })}
    </ul>
  );
}

/** A value as indented JSON, in a scrolling block. */
export function JsonBlock({ value, label, testId }: { value: unknown; label: string; testId?: string }) {
  return (
    <pre className="json" aria-label={label} data-testid={testId} tabIndex={0}>
      {value === undefined ? 'undefined' : JSON.stringify(value, null, 2)}
    </pre>
  );
}

/** The compile and sandbox gates of a version: outcome, duration, issues, and the sample run's result and logs. */
export function GateReport({ report, title, onGoTo }: { report: GateReportData; title: string; onGoTo?: (line: number, column?: number) => void }) {
  const sample = report.sample as { result?: unknown; logs?: unknown[]; logsTruncated?: boolean } | null | undefined;
  return (
    <div className="card gate-report" aria-label={title} role="region">
      <h3>{title}</h3>
      <dl className="facts">
        <dt>Compile</dt>
        <dd>
          <span className={`badge ${report.compile}`}>{report.compile}</span>
        </dd>
        <dt>Sandbox</dt>
        <dd>
          <span className={`badge ${report.sandbox}`}>{report.sandbox.replace('_', ' ')}</span>
        </dd>
        <dt>Duration</dt>
        <dd>{report.durationMs} ms</dd>
      </dl>
      <IssueList issues={report.issues} onGoTo={onGoTo} />
      {sample ? <SampleRun result={sample.result} logs={sample.logs ?? []} logsTruncated={sample.logsTruncated === true} /> : null}
    </div>
  );
}

/** What a run returned (`undefined`: it failed, there is no output) and what it logged. */
export function SampleRun({
  result,
  logs,
  logsTruncated,
  testId = 'sample-output',
  what = 'the sample run',
}: {
  result: unknown;
  logs: unknown[];
  logsTruncated: boolean;
  testId?: string;
  what?: string;
}) {
  return (
    <>
      {result !== undefined ? (
        <>
          <h4>Output</h4>
          {result === null ? <p className="small">The script returned nothing: the message would be filtered.</p> : null}
          <JsonBlock value={result} label={`Output of ${what}`} testId={testId} />
        </>
      ) : null}
      <h4>Logs</h4>
      {logs.length === 0 ? (
        <p className="small">No logs.</p>
      ) : (
        <pre className="logs" aria-label={`Logs of ${what}`} tabIndex={0}>
          {logs.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n')}
          {logsTruncated ? '\n… (more logs were cut)' : ''}
        </pre>
      )}
    </>
  );
}
