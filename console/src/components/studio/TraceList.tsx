import { formatMs } from './FlowGraph';
import { json, type NodeTrace } from './graph';

/** An execution's trace as a list: per node its status, port, duration, output, logs and error, in execution order. */
export function TraceList({ trace, names }: { trace: NodeTrace[]; names: Map<string, string> }) {
  return (
    <ol className="trace-list" aria-label="Trace, node by node">
      {trace.map((entry) => (
        <li key={entry.nodeId} className={`trace-entry trace-${entry.status}`}>
          <p className="trace-head">
            <strong>{names.get(entry.nodeId) ?? entry.nodeId}</strong> <code>{entry.nodeId}</code> <span className={`badge ${entry.status}`}>{entry.status}</span>
            {entry.port ? <span> port {entry.port}</span> : null} <span className="small">{formatMs(entry.durationMs)} (at +{formatMs(entry.startedAtOffsetMs)})</span>
          </p>
          {entry.error ? (
            <p className="error">
              <code>{entry.error.code}</code>: {entry.error.message}
            </p>
          ) : null}
          {entry.logs.length > 0 ? (
            <details>
              <summary>Logs ({entry.logs.length})</summary>
              <pre>{entry.logs.join('\n')}</pre>
            </details>
          ) : null}
          {entry.output !== null && entry.output !== undefined ? (
            <details>
              <summary>Output{entry.outputTruncated ? ' (first 4 KiB)' : ''}</summary>
              <pre>{typeof entry.output === 'string' && entry.outputTruncated ? entry.output : json(entry.output)}</pre>
            </details>
          ) : (
            <p className="small">No output kept.</p>
          )}
        </li>
      ))}
    </ol>
  );
}
