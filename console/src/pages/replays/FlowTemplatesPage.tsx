import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import type { components } from '../../api/schema';
import { canTenantWide, useMe } from '../../auth/me';
import { Empty, ErrorBox, QueryState, formatTime } from '../../components/status';
import { UpgradeWalk } from '../../components/replays/UpgradeWalk';
import { studioUrl, useTenantFlows, versionUrl, type Flow, type ValidationReport } from '../../components/replays/flows';
import { useTenantNumber } from '../../tenant';

type Template = components['schemas']['FlowTemplateResponse'];
type RequiredField = components['schemas']['RequiredFieldResponse'];

/** The released flow templates, copying one into a flow, and the flows whose template has a newer version. */
export function FlowTemplatesPage() {
  const tenantNumber = useTenantNumber();
  const me = useMe(tenantNumber);
  const canWrite = canTenantWide(me.data, tenantNumber, 'flows:write');
  const canRelease = canTenantWide(me.data, tenantNumber, 'flows:release');
  const flows = useTenantFlows(tenantNumber);
  const templates = useQuery({
    queryKey: ['flow-templates', 'released'],
    queryFn: () => unwrap(api.GET('/v1/flow-templates', { params: { query: { status: 'released', limit: 100 } } })),
  });
  const outdated = (flows.data?.items ?? []).filter((flow) => flow.templateUpdate !== null);

  return (
    <section aria-labelledby="templates-title">
      <h1 id="templates-title">Flow templates</h1>
      <p className="small">Ready-made flows for common devices. A copy becomes a draft of your flow; you validate, release and activate it like any version.</p>
      {outdated.length > 0 ? (
        <section aria-labelledby="updates-title" className="card upgrade-notices">
          <h2 id="updates-title">Newer template versions available</h2>
          {outdated.map((flow) => (
            <UpgradeNotice key={flow.flowId} flow={flow} tenantNumber={tenantNumber} canWrite={canWrite} canRelease={canRelease} />
          ))}
        </section>
      ) : null}
      <h2>Catalog</h2>
      <QueryState query={templates} what="flow templates">
        {(page) =>
          page.items.length === 0 ? (
            <Empty>No released templates yet.</Empty>
          ) : (
            <ul className="template-list">
              {page.items.map((template) => (
                <TemplateCard key={template.flowTemplateId} template={template} flows={flows.data?.items ?? []} tenantNumber={tenantNumber} canWrite={canWrite} />
              ))}
            </ul>
          )
        }
      </QueryState>
    </section>
  );
}

function UpgradeNotice({ flow, tenantNumber, canWrite, canRelease }: { flow: Flow; tenantNumber: number; canWrite: boolean; canRelease: boolean }) {
  const [walking, setWalking] = useState(false);
  return (
    <div className="notice upgrade-notice" data-testid="upgrade-notice">
      <h3>{flow.name}</h3>
      <p>
        Its active v{flow.activeVersionNumber} comes from a template that now has version {flow.templateUpdate!.versionNumber}.{' '}
        <Link to={studioUrl(tenantNumber, flow)}>Open the flow in the studio</Link>
      </p>
      <button type="button" aria-expanded={walking} onClick={() => setWalking((value) => !value)}>
        {walking ? 'Hide the upgrade' : `Upgrade to template v${flow.templateUpdate!.versionNumber}`}
      </button>
      {walking ? <UpgradeWalk flow={flow} tenantNumber={tenantNumber} canWrite={canWrite} canRelease={canRelease} /> : null}
    </div>
  );
}

export function RequiredFields({ fields }: { fields: RequiredField[] | null }) {
  if (!fields || fields.length === 0) return <span className="muted">none</span>;
  return (
    <ul className="plain" aria-label="Required fields">
      {fields.map((field) => (
        <li key={field.key}>
          <code>{field.key}</code> <span className="small">{field.schemaRef.replace('platform://schemas/', '').replace('/v1', '')}</span>{' '}
          <span className="small">({field.storageTargets.join(', ')})</span>
        </li>
      ))}
    </ul>
  );
}

function TemplateCard({ template, flows, tenantNumber, canWrite }: { template: Template; flows: Flow[]; tenantNumber: number; canWrite: boolean }) {
  const [showVersions, setShowVersions] = useState(false);
  return (
    <li className="card" data-testid="template" data-key={template.key}>
      <h3>{template.name}</h3>
      <p className="small">
        <code>{template.key}</code> · newest released v{template.latestReleasedVersionNumber}
        {template.latestVersionNumber !== template.latestReleasedVersionNumber ? ` (v${template.latestVersionNumber} in the works)` : ''}
      </p>
      {template.description ? <p>{template.description}</p> : null}
      <div className="required">
        <strong>Fields the device type needs</strong>
        <RequiredFields fields={template.requiredFields} />
      </div>
      <button type="button" aria-expanded={showVersions} onClick={() => setShowVersions((value) => !value)}>
        {showVersions ? 'Hide versions' : 'Versions'}
      </button>
      {showVersions ? <TemplateVersions templateId={template.flowTemplateId} /> : null}
      {canWrite ? <CopyIntoFlow template={template} flows={flows} tenantNumber={tenantNumber} /> : null}
    </li>
  );
}

function TemplateVersions({ templateId }: { templateId: string }) {
  const versions = useQuery({
    queryKey: ['flow-template-versions', templateId],
    queryFn: () => unwrap(api.GET('/v1/flow-templates/{flowTemplateId}/versions', { params: { path: { flowTemplateId: templateId }, query: { limit: 100 } } })),
  });
  return (
    <QueryState query={versions} what="versions">
      {(page) => (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Versions, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Version</th>
                <th scope="col">Status</th>
                <th scope="col">Released</th>
                <th scope="col">Fields</th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((version) => (
                <tr key={version.flowTemplateVersionId}>
                  <td>v{version.versionNumber}</td>
                  <td>
                    <span className={`badge ${version.status === 'released' ? 'active' : version.status}`}>{version.status}</span>
                  </td>
                  <td>{formatTime(version.releasedAt)}</td>
                  <td>
                    <RequiredFields fields={version.requiredFields} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </QueryState>
  );
}

/** Copies a released version into a flow as a new draft, then validates it against that flow's device type. */
function CopyIntoFlow({ template, flows, tenantNumber }: { template: Template; flows: Flow[]; tenantNumber: number }) {
  const queryClient = useQueryClient();
  const [flowId, setFlowId] = useState('');
  const [result, setResult] = useState<{ flow: Flow; versionNumber: number; report: ValidationReport } | null>(null);
  const copy = useMutation({
    mutationFn: async () => {
      const flow = flows.find((entry) => entry.flowId === flowId)!;
      const version = await unwrap(
        api.POST('/v1/flow-templates/{flowTemplateId}/versions/{flowTemplateVersionId}/copy', {
          params: { path: { flowTemplateId: template.flowTemplateId, flowTemplateVersionId: template.latestReleasedVersionId! } },
          body: { flowId },
        }),
      );
      const report = await unwrap(
        api.POST('/v1/flows/{flowId}/versions/{flowVersionId}/validate', { params: { path: { flowId, flowVersionId: version.flowVersionId } } }),
      );
      return { flow, versionNumber: version.versionNumber, report };
    },
    onSuccess: async (outcome) => {
      setResult(outcome);
      await queryClient.invalidateQueries({ queryKey: ['flow-versions', outcome.flow.flowId] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setResult(null);
    copy.mutate();
  };
  if (flows.length === 0) return <p className="small">Create a flow for a device type first (in the studio) to copy a template into it.</p>;
  return (
    <form className="filters copy-form" onSubmit={submit} aria-label={`Copy ${template.name} into a flow`}>
      <label>
        Copy v{template.latestReleasedVersionNumber} into
        <select required value={flowId} onChange={(event) => setFlowId(event.target.value)}>
          <option value="">Choose a flow…</option>
          {flows.map((flow) => (
            <option key={flow.flowId} value={flow.flowId}>
              {flow.name} ({flow.deviceTypeName})
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="primary" disabled={copy.isPending || !flowId}>
        Copy as a draft
      </button>
      {copy.error ? <ErrorBox error={copy.error} /> : null}
      {result ? (
        <div className={result.report.valid ? 'notice' : 'error'} role="status" data-testid="copy-result">
          <p>
            Draft <Link to={versionUrl(tenantNumber, result.flow.flowId, result.versionNumber)}>v{result.versionNumber}</Link> created in {result.flow.name}.{' '}
            {result.report.valid ? 'It validates: release and activate it in the studio.' : 'It does not validate yet:'}
          </p>
          {result.report.issues.length > 0 ? (
            <ul>
              {result.report.issues.map((issue, index) => (
                <li key={index}>
                  <code>{issue.code}</code> {issue.message}
                </li>
              ))}
            </ul>
          ) : null}
          <Link to={studioUrl(tenantNumber, result.flow)}>Open the flow in the studio</Link>
        </div>
      ) : null}
    </form>
  );
}
