import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { ApiError } from '../../api/errors';
import { canTenantWide, useMe } from '../../auth/me';
import { Empty, ErrorBox, formatTime, Loading, QueryState } from '../../components/status';
import { ActivateButton } from '../../components/studio/Activate';
import { Failure } from '../../components/studio/Failure';
import { FixtureRunPanel, Fixtures } from '../../components/studio/Fixtures';
import { shortChecksum } from '../../components/studio/graph';
import { useDeviceTypeFlow, useVersions, type FlowWithTag } from '../../components/studio/queries';
import { useTenantNumber } from '../../tenant';

/** The studio of a device type's flow: its versions (status, checksum, source template, the active one), fixtures and runs. */
export function FlowStudioPage() {
  const tenantNumber = useTenantNumber();
  const { deviceTypeId = '' } = useParams();
  const [search] = useSearchParams();
  const me = useMe(tenantNumber);
  const canWrite = canTenantWide(me.data, tenantNumber, 'flows:write');
  const flow = useDeviceTypeFlow(deviceTypeId);
  if (flow.isPending) return <Loading what="the flow" />;
  if (flow.error instanceof ApiError && flow.error.status === 404) {
    return (
      <section aria-labelledby="studio-title">
        <p className="small">
          <Link to={`/t/${tenantNumber}/device-types/${deviceTypeId}`}>Device type</Link> / Flow
        </p>
        <h1 id="studio-title">Flow studio</h1>
        <Empty>This device type has no flow yet: its uplinks are stored but not decoded.</Empty>
        {canWrite ? <CreateFlow deviceTypeId={deviceTypeId} /> : null}
      </section>
    );
  }
  if (flow.error) return <ErrorBox error={flow.error} onRetry={() => void flow.refetch()} />;
  const rawId = search.get('rawMessageId');
  const receivedAt = search.get('receivedAt');
  return (
    <Studio
      tenantNumber={tenantNumber}
      current={flow.data!}
      canWrite={canWrite}
      canRelease={canTenantWide(me.data, tenantNumber, 'flows:release')}
      fromRaw={rawId && receivedAt ? { rawIngestionMessageId: rawId, receivedAt } : undefined}
    />
  );
}

function Studio({
  tenantNumber,
  current,
  canWrite,
  canRelease,
  fromRaw,
}: {
  tenantNumber: number;
  current: FlowWithTag;
  canWrite: boolean;
  canRelease: boolean;
  fromRaw?: { rawIngestionMessageId: string; receivedAt: string };
}) {
  const { flow } = current;
  const versions = useVersions(flow.flowId);
  const versionUrl = (versionNumber: number) => `/t/${tenantNumber}/flows/${flow.flowId}/versions/${versionNumber}`;
  return (
    <section aria-labelledby="studio-title">
      <p className="small">
        <Link to={`/t/${tenantNumber}/device-types/${flow.deviceTypeId}`}>{flow.deviceTypeName}</Link> / Flow
      </p>
      <h1 id="studio-title">Flow studio: {flow.name}</h1>
      <dl className="facts">
        <dt>Key</dt>
        <dd>
          <code>{flow.key}</code>
        </dd>
        <dt>Active version</dt>
        <dd>{flow.activeVersionNumber === null ? 'none: uplinks are stored but not processed' : <Link to={versionUrl(flow.activeVersionNumber)}>Version {flow.activeVersionNumber}</Link>}</dd>
        <dt>Description</dt>
        <dd>{flow.description || '—'}</dd>
      </dl>
      <p className="row">
        <Link to={`/t/${tenantNumber}/executions?flowId=${flow.flowId}`}>Executions of this flow</Link>
      </p>
      <h2>Versions</h2>
      <QueryState query={versions} what="versions">
        {(list) => (
          <>
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">Versions, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Version</th>
                    <th scope="col">Status</th>
                    <th scope="col">Checksum</th>
                    <th scope="col">Source template</th>
                    <th scope="col">Created</th>
                    <th scope="col">Released</th>
                    {canRelease ? (
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    ) : null}
                  </tr>
                </thead>
                <tbody>
                  {list.map((version) => (
                    <tr key={version.flowVersionId}>
                      <td>
                        <Link to={versionUrl(version.versionNumber)}>Version {version.versionNumber}</Link>
                        {flow.activeVersionId === version.flowVersionId ? (
                          <>
                            {' '}
                            <span className="badge active">active</span>
                          </>
                        ) : null}
                      </td>
                      <td>
                        <span className={`badge ${version.status}`}>{version.status}</span>
                      </td>
                      <td>
                        <code title={version.checksum ?? undefined}>{shortChecksum(version.checksum)}</code>
                      </td>
                      <td>{version.sourceTemplate ? `template version ${version.sourceTemplate.versionNumber}` : '—'}</td>
                      <td>{formatTime(version.createdAt)}</td>
                      <td>{formatTime(version.releasedAt)}</td>
                      {canRelease ? (
                        <td>
                          <ActivateButton current={current} version={version} />
                        </td>
                      ) : null}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Fixtures flow={flow} canWrite={canWrite} fromRaw={fromRaw} />
            {canWrite ? <FixtureRunPanel flowId={flow.flowId} versions={list} /> : null}
          </>
        )}
      </QueryState>
    </section>
  );
}

function CreateFlow({ deviceTypeId }: { deviceTypeId: string }) {
  const queryClient = useQueryClient();
  const [key, setKey] = useState('');
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/device-types/{deviceTypeId}/flow', { params: { path: { deviceTypeId } }, body: { key, name } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['device-type-flow', deviceTypeId] }),
  });
  return (
    <form
      className="card"
      aria-label="Create the flow"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        create.mutate();
      }}
    >
      <div className="grid2">
        <label>
          Flow key
          <input required pattern="[a-z0-9][a-z0-9._\-]{0,63}" value={key} onChange={(event) => setKey(event.target.value)} />
        </label>
        <label>
          Flow name
          <input required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />
        </label>
      </div>
      {create.error ? <Failure error={create.error} what="flow" /> : null}
      <button type="submit" className="primary" disabled={create.isPending}>
        Create the flow
      </button>
    </form>
  );
}
