import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { components } from '../../api/schema';
import { Failure } from './Failure';
import { json } from './graph';
import { JsonEditor } from './SchemaForm';
import type { Flow, FlowVersion } from './queries';

export type ExecutionResult = components['schemas']['ExecutionResultResponse'];

/**
 * Runs a version (any status) on an input given here: nothing is stored or sent. The result's trace is drawn on
 * the graph by the page and listed below it.
 */
export function PreviewForm({ flow, version, onResult }: { flow: Flow; version: FlowVersion; onResult: (result: ExecutionResult | null, error: unknown) => void }) {
  const [encoding, setEncoding] = useState('hex');
  const [data, setData] = useState('');
  const [observedAt, setObservedAt] = useState(() => new Date().toISOString());
  const [connectionData, setConnectionData] = useState<unknown>({ fPort: 2 });
  const [parameters, setParameters] = useState<unknown>({});
  const preview = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/flows/{flowId}/preview', {
          params: { path: { flowId: flow.flowId } },
          body: {
            flowVersionId: version.flowVersionId,
            input: {
              mode: 'preview',
              rawPayload: { encoding, data },
              observedAt,
              rawReceivedAt: observedAt,
              tenantId: flow.tenantId,
              deviceTypeId: flow.deviceTypeId,
              deviceId: '00000000-0000-4000-8000-000000000000',
              correlationId: `preview-${Date.now()}`,
              connectionData: connectionData ?? {},
              parameters: parameters ?? {},
            },
          },
        }),
      ),
    onSuccess: (result) => onResult(result, null),
    onError: (error) => onResult(null, error),
  });
  return (
    <form
      className="card"
      aria-label="Preview"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        preview.mutate();
      }}
    >
      <h2>Preview</h2>
      <p className="small">Runs version {version.versionNumber} on this input: nothing is stored or sent. Parameters here go over the declared defaults.</p>
      <div className="grid3">
        <label>
          Preview encoding
          <select value={encoding} onChange={(event) => setEncoding(event.target.value)}>
            <option value="hex">hex</option>
            <option value="base64">base64</option>
            <option value="utf8">utf8</option>
            <option value="json">json</option>
          </select>
        </label>
        <label>
          Preview payload
          <input required value={data} onChange={(event) => setData(event.target.value)} spellCheck={false} />
        </label>
        <label>
          Preview observed at
          <input required value={observedAt} onChange={(event) => setObservedAt(event.target.value)} />
        </label>
        <JsonEditor label="Preview connection data (JSON)" value={connectionData} onChange={setConnectionData} single />
        <JsonEditor label="Preview parameters (JSON)" value={parameters} onChange={setParameters} single />
      </div>
      {preview.error ? <Failure error={preview.error} what="flow" /> : null}
      <button type="submit" className="primary" disabled={preview.isPending}>
        Run the preview
      </button>
    </form>
  );
}

/** What an execution (preview, fixture or stored) produced: status, error, values, e-mail requests. */
export function ExecutionOutcome({ result }: { result: Pick<ExecutionResult, 'status' | 'durationMs' | 'current' | 'timeseries' | 'actions' | 'error'> }) {
  return (
    <div className="outcome">
      <p>
        Status <span className={`badge ${result.status}`}>{result.status}</span> in {result.durationMs} ms
      </p>
      {result.error ? (
        <p className="error">
          {result.error.nodeId ? (
            <>
              Node <code>{result.error.nodeId}</code>:{' '}
            </>
          ) : null}
          <code>{result.error.code}</code> {result.error.message}
        </p>
      ) : null}
      <div className="grid2">
        <div>
          <h3>Current values</h3>
          <pre>{json(result.current)}</pre>
        </div>
        <div>
          <h3>Time series</h3>
          <pre>{json(result.timeseries)}</pre>
        </div>
      </div>
      {result.actions.length > 0 ? (
        <>
          <h3>E-mail requests</h3>
          <pre>{json(result.actions)}</pre>
        </>
      ) : null}
    </div>
  );
}
