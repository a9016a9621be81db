import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { components } from '../../api/schema';
import { ifMatch } from '../Conflict';
import { Empty, QueryState } from '../status';
import { Failure } from './Failure';
import { json } from './graph';
import { JsonEditor } from './SchemaForm';
import type { Flow, FlowVersion } from './queries';

type Fixture = components['schemas']['FixtureResponse'];
type FixtureRun = components['schemas']['FixtureRunResponse'];
type Assertion = { path: string; expected: unknown };

const fixturesKey = (flowId: string) => ['flow-fixtures', flowId];

export interface RawChoice {
  rawIngestionMessageId: string;
  receivedAt: string;
}

/** The flow's fixtures: list, create (from an input or a stored raw message), edit and delete with If-Match. */
export function Fixtures({ flow, canWrite, fromRaw }: { flow: Flow; canWrite: boolean; fromRaw?: RawChoice }) {
  const fixtures = useQuery({
    queryKey: fixturesKey(flow.flowId),
    queryFn: () => unwrap(api.GET('/v1/flows/{flowId}/fixtures', { params: { path: { flowId: flow.flowId }, query: { limit: 100 } } })),
  });
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <section aria-labelledby="fixtures-title">
      <h2 id="fixtures-title">Fixtures</h2>
      <QueryState query={fixtures} what="fixtures">
        {(page) =>
          page.items.length === 0 ? (
            <Empty>No fixtures yet: a fixture is an uplink with the results it must give, run against any version before you release or activate it.</Empty>
          ) : (
            <ul className="fixture-list">
              {page.items.map((fixture) => (
                <li key={fixture.fixtureId} className="card">
                  {editing === fixture.fixtureId ? (
                    <FixtureForm flow={flow} fixture={fixture} onDone={() => setEditing(null)} />
                  ) : (
                    <FixtureSummary fixture={fixture} canWrite={canWrite} onEdit={() => setEditing(fixture.fixtureId)} />
                  )}
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      {canWrite ? (
        <details className="card" open={fromRaw !== undefined}>
          <summary>Add a fixture</summary>
          <FixtureForm flow={flow} fromRaw={fromRaw} onDone={() => undefined} />
        </details>
      ) : null}
    </section>
  );
}

function FixtureSummary({ fixture, canWrite, onEdit }: { fixture: Fixture; canWrite: boolean; onEdit: () => void }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE('/v1/flows/{flowId}/fixtures/{fixtureId}', {
          params: { path: { flowId: fixture.flowId, fixtureId: fixture.fixtureId }, header: { 'If-Match': ifMatch(fixture.lockVersion) } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: fixturesKey(fixture.flowId) }),
  });
  const payload = fixture.input.rawPayload as { encoding?: string; data?: string } | undefined;
  return (
    <>
      <h3>{fixture.name ?? 'Unnamed fixture'}</h3>
      <dl className="facts">
        <dt>Payload</dt>
        <dd>
          {payload?.encoding} <code>{payload?.data}</code>
        </dd>
        <dt>Raw message</dt>
        <dd>{fixture.raw ? <code>{fixture.raw.rawIngestionMessageId}</code> : '—'}{fixture.rawRetentionExtended ? ' (kept past retention)' : ''}</dd>
        <dt>Assertions</dt>
        <dd>
          {fixture.assertions.length === 0 ? (
            'none (passes unless the execution fails)'
          ) : (
            <ul>
              {fixture.assertions.map((assertion, index) => (
                <li key={index}>
                  <code>{assertion.path}</code> = <code>{JSON.stringify(assertion.expected)}</code>
                </li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
      {canWrite ? (
        <div className="row">
          <button type="button" onClick={onEdit}>
            Edit {fixture.name ?? 'fixture'}
          </button>
          <button type="button" className="danger" disabled={remove.isPending} onClick={() => window.confirm(`Delete the fixture ${fixture.name ?? ''}?`) && remove.mutate()}>
            Delete {fixture.name ?? 'fixture'}
          </button>
        </div>
      ) : null}
      {remove.error ? <Failure error={remove.error} what="fixture" onReload={() => void queryClient.invalidateQueries({ queryKey: fixturesKey(fixture.flowId) })} /> : null}
    </>
  );
}

const nowIso = () => new Date().toISOString().replace(/\.\d{3}Z$/, '.000Z');

function FixtureForm({ flow, fixture, fromRaw, onDone }: { flow: Flow; fixture?: Fixture; fromRaw?: RawChoice; onDone: () => void }) {
  const queryClient = useQueryClient();
  const input = (fixture?.input ?? {}) as Record<string, unknown>;
  const payload = (input.rawPayload ?? { encoding: 'hex', data: '' }) as { encoding: string; data: string };
  const [name, setName] = useState(fixture?.name ?? '');
  const [source, setSource] = useState<'input' | 'raw'>(fromRaw && !fixture ? 'raw' : 'input');
  const [encoding, setEncoding] = useState(payload.encoding);
  const [data, setData] = useState(payload.data);
  const [observedAt, setObservedAt] = useState(typeof input.observedAt === 'string' ? input.observedAt : nowIso());
  const [deviceId, setDeviceId] = useState(typeof input.deviceId === 'string' ? input.deviceId : crypto.randomUUID());
  const [connectionData, setConnectionData] = useState<unknown>(input.connectionData ?? { fPort: 2 });
  const [parameters, setParameters] = useState<unknown>(input.parameters ?? {});
  const [rawId, setRawId] = useState(fixture?.raw?.rawIngestionMessageId ?? fromRaw?.rawIngestionMessageId ?? '');
  const [receivedAt, setReceivedAt] = useState(fixture?.raw?.receivedAt ?? fromRaw?.receivedAt ?? '');
  const [confirmed, setConfirmed] = useState(false);
  const [assertions, setAssertions] = useState<Assertion[]>(fixture?.assertions.map((assertion) => ({ path: assertion.path, expected: assertion.expected })) ?? []);
  const keepsRaw = source === 'raw' || (fixture?.raw !== null && fixture?.raw !== undefined);

  const body = () => {
    const raw = keepsRaw ? { raw: { rawIngestionMessageId: rawId, receivedAt }, confirmRawRetentionExtension: confirmed } : {};
    const common = { ...(name ? { name } : {}), assertions: assertions as unknown as Record<string, never>[], ...raw };
    if (source === 'raw' && !fixture) return common;
    return {
      ...common,
      input: {
        mode: 'fixture',
        rawPayload: { encoding, data },
        observedAt,
        rawReceivedAt: typeof input.rawReceivedAt === 'string' ? input.rawReceivedAt : observedAt,
        tenantId: flow.tenantId,
        deviceTypeId: flow.deviceTypeId,
        deviceId,
        correlationId: typeof input.correlationId === 'string' ? input.correlationId : `fixture-${crypto.randomUUID().slice(0, 8)}`,
        connectionData: connectionData ?? {},
        parameters: parameters ?? {},
      },
    };
  };
  const save = useMutation({
    mutationFn: () =>
      fixture
        ? unwrap(
            api.PUT('/v1/flows/{flowId}/fixtures/{fixtureId}', {
              params: { path: { flowId: flow.flowId, fixtureId: fixture.fixtureId }, header: { 'If-Match': ifMatch(fixture.lockVersion) } },
              body: body(),
            }),
          )
        : unwrap(api.POST('/v1/flows/{flowId}/fixtures', { params: { path: { flowId: flow.flowId } }, body: body() })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: fixturesKey(flow.flowId) });
      if (!fixture) {
        setName('');
        setAssertions([]);
      }
      onDone();
    },
  });
  return (
    <form
      aria-label={fixture ? `Edit the fixture ${fixture.name ?? ''}` : 'New fixture'}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <label>
        Fixture name
        <input maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />
      </label>
      {!fixture ? (
        <fieldset>
          <legend>The uplink</legend>
          <label className="inline">
            <input type="radio" name="fixture-source" checked={source === 'input'} onChange={() => setSource('input')} /> An input I give
          </label>
          <label className="inline">
            <input type="radio" name="fixture-source" checked={source === 'raw'} onChange={() => setSource('raw')} /> A stored raw message
          </label>
        </fieldset>
      ) : null}
      {source === 'input' || fixture ? (
        <div className="grid3">
          <label>
            Payload encoding
            <select value={encoding} onChange={(event) => setEncoding(event.target.value)}>
              <option value="hex">hex</option>
              <option value="base64">base64</option>
              <option value="utf8">utf8</option>
              <option value="json">json</option>
            </select>
          </label>
          <label>
            Payload
            <input required value={data} onChange={(event) => setData(event.target.value)} spellCheck={false} />
          </label>
          <label>
            Observed at
            <input required value={observedAt} onChange={(event) => setObservedAt(event.target.value)} />
          </label>
          <label>
            Device id
            <input required value={deviceId} onChange={(event) => setDeviceId(event.target.value)} spellCheck={false} />
          </label>
          <JsonEditor label="Connection data (JSON)" value={connectionData} onChange={setConnectionData} single />
          <JsonEditor label="Parameters (JSON)" value={parameters} onChange={setParameters} single />
        </div>
      ) : null}
      {keepsRaw ? (
        <>
          <div className="grid2">
            <label>
              Raw message id
              <input required value={rawId} onChange={(event) => setRawId(event.target.value)} spellCheck={false} readOnly={fixture !== undefined} />
            </label>
            <label>
              Received at
              <input required value={receivedAt} onChange={(event) => setReceivedAt(event.target.value)} readOnly={fixture !== undefined} />
            </label>
          </div>
          <label className="inline">
            <input type="checkbox" required checked={confirmed} onChange={(event) => setConfirmed(event.target.checked)} /> Keep this raw message as long as the fixture exists, past the raw
            retention
          </label>
        </>
      ) : null}
      <fieldset>
        <legend>Assertions</legend>
        {assertions.map((assertion, index) => (
          <div key={index} className="grid3">
            <label>
              Assertion {index + 1} path
              <input
                required
                maxLength={500}
                value={assertion.path}
                onChange={(event) => setAssertions(assertions.map((old, at) => (at === index ? { ...old, path: event.target.value } : old)))}
              />
            </label>
            <JsonEditor
              label={`Assertion ${index + 1} expected (JSON)`}
              value={assertion.expected}
              onChange={(expected) => setAssertions(assertions.map((old, at) => (at === index ? { ...old, expected: expected ?? null } : old)))}
              single
            />
            <button type="button" onClick={() => setAssertions(assertions.filter((_, at) => at !== index))}>
              Remove assertion {index + 1}
            </button>
          </div>
        ))}
        <button type="button" onClick={() => setAssertions([...assertions, { path: 'status', expected: 'succeeded' }])} disabled={assertions.length >= 50}>
          Add an assertion
        </button>
      </fieldset>
      {save.error ? <Failure error={save.error} what="fixture" onReload={() => void queryClient.invalidateQueries({ queryKey: fixturesKey(flow.flowId) }).then(onDone)} /> : null}
      <div className="row">
        <button type="submit" className="primary" disabled={save.isPending}>
          {fixture ? 'Save the fixture' : 'Create the fixture'}
        </button>
        {fixture ? (
          <button type="button" onClick={onDone}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

/** Runs the flow's fixtures against a version: pass or fail per fixture and per assertion (expected vs actual). */
export function FixtureRunPanel({ flowId, versions, initialVersionId }: { flowId: string; versions: FlowVersion[]; initialVersionId?: string }) {
  const [versionId, setVersionId] = useState(initialVersionId ?? versions[0]?.flowVersionId ?? '');
  const run = useMutation({
    mutationFn: (): Promise<FixtureRun> => unwrap(api.POST('/v1/flows/{flowId}/fixture-runs', { params: { path: { flowId } }, body: { flowVersionId: versionId } })),
  });
  return (
    <section className="card" aria-labelledby="fixture-run-title">
      <h2 id="fixture-run-title">Run the fixtures</h2>
      <div className="filters">
        {initialVersionId === undefined ? (
          <label>
            Version to run
            <select value={versionId} onChange={(event) => setVersionId(event.target.value)}>
              {versions.map((version) => (
                <option key={version.flowVersionId} value={version.flowVersionId}>
                  Version {version.versionNumber} ({version.status})
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <button type="button" className="primary" disabled={!versionId || run.isPending} onClick={() => run.mutate()}>
          Run fixtures
        </button>
      </div>
      {run.error ? <Failure error={run.error} what="flow" /> : null}
      {run.data ? <FixtureRunResult result={run.data} /> : null}
    </section>
  );
}

function FixtureRunResult({ result }: { result: FixtureRun }) {
  return (
    <div aria-label="Fixture run result" role="region">
      <p className={result.failed === 0 ? 'notice' : 'error'}>
        {result.passed} of {result.total} fixtures passed{result.failed > 0 ? `, ${result.failed} failed` : ''}.
      </p>
      {result.results.map((fixture) => (
        <div key={fixture.fixtureId} className="fixture-result">
          <h3>
            {fixture.name ?? fixture.fixtureId} <span className={`badge ${fixture.passed ? 'active' : 'failed'}`}>{fixture.passed ? 'passed' : 'failed'}</span>{' '}
            <span className="small">execution {fixture.status}</span>
          </h3>
          {fixture.error ? (
            <p className="error">
              {fixture.error.nodeId ? <code>{fixture.error.nodeId}</code> : null} <code>{fixture.error.code}</code>: {fixture.error.message}
            </p>
          ) : null}
          {fixture.assertions.length > 0 ? (
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">Assertions of {fixture.name ?? fixture.fixtureId}</caption>
                <thead>
                  <tr>
                    <th scope="col">Path</th>
                    <th scope="col">Expected</th>
                    <th scope="col">Actual</th>
                    <th scope="col">Result</th>
                  </tr>
                </thead>
                <tbody>
                  {fixture.assertions.map((assertion, index) => (
                    <tr key={index}>
                      <td>
                        <code>{assertion.path}</code>
                      </td>
                      <td>
                        <code>{json(assertion.expected)}</code>
                      </td>
                      <td>
                        <code>{json(assertion.actual)}</code>
                      </td>
                      <td>{assertion.passed ? 'pass' : 'fail'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
        </div>
      ))}
    </div>
  );
}
