import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { formatTime } from '../status';
import { useFlows } from './lookups';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Chooses a flow execution of the tenant: a flow, then one of its executions of the last 24 hours (newest first), or
 * an execution id pasted as is. Answers the chosen id, or '' for none.
 */
export function ExecutionPicker({ tenantNumber, value, onChange }: { tenantNumber: number; value: string; onChange: (executionId: string) => void }) {
  const id = useId();
  const flows = useFlows(tenantNumber);
  const [flowId, setFlowId] = useState('');
  const [pasted, setPasted] = useState('');
  const executions = useQuery({
    queryKey: ['executions', flowId, 'picker'],
    enabled: flowId !== '',
    queryFn: () => unwrap(api.GET('/v1/flows/{flowId}/executions', { params: { path: { flowId }, query: { limit: 25 } } })),
  });
  const choose = (executionId: string) => {
    setPasted(executionId);
    onChange(executionId);
  };
  return (
    <fieldset className="email-picker">
      <legend>Execution</legend>
      <div className="grid3">
        <label>
          Flow
          <select
            value={flowId}
            onChange={(event) => {
              setFlowId(event.target.value);
              choose('');
            }}
          >
            <option value="">Choose…</option>
            {flows.data?.items.map((flow) => (
              <option key={flow.flowId} value={flow.flowId}>
                {flow.name} ({flow.deviceTypeName})
              </option>
            ))}
          </select>
        </label>
        <label>
          Execution of the last 24 hours
          <select value={value} onChange={(event) => choose(event.target.value)} disabled={flowId === '' || executions.isPending}>
            <option value="">{flowId === '' ? 'Choose a flow first' : executions.isPending ? 'Loading…' : 'None (every variable empty)'}</option>
            {executions.data?.items.map((execution) => (
              <option key={execution.flowExecutionId} value={execution.flowExecutionId}>
                {formatTime(execution.observedAt)} · {execution.status} · v{execution.versionNumber}
              </option>
            ))}
          </select>
        </label>
        <label htmlFor={`${id}-pasted`}>
          Or an execution id
          <input
            id={`${id}-pasted`}
            value={pasted}
            placeholder="00000000-0000-…"
            onChange={(event) => {
              setPasted(event.target.value);
              const trimmed = event.target.value.trim();
              if (trimmed === '' || UUID.test(trimmed)) onChange(trimmed);
            }}
          />
        </label>
      </div>
      {flowId !== '' && executions.data?.items.length === 0 ? <p className="small">This flow has no execution in the last 24 hours.</p> : null}
    </fieldset>
  );
}
