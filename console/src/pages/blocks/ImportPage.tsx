import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { components } from '../../api/schema';
import { ErrorBox, formatTime } from '../../components/status';

type ImportResult = components['schemas']['ImportResultResponse'];
type IssueCode = components['schemas']['ImportIssueResponse']['code'];

const ISSUE_TEXT: Record<IssueCode, string> = {
  invalid_device_type_code: 'the type code does not fit the key pattern',
  invalid_dev_eui: 'the DevEUI is not 16 hex digits',
  missing_device_type: 'its device type was neither imported nor found',
  duplicate_source_dev_eui: 'the DevEUI occurs more than once in the source',
  device_exists_in_other_tenant: 'the DevEUI belongs to a device of another tenant',
  existing_device_mismatch: 'a device with this DevEUI exists here with another type or name',
  disabled_existing_device_type: 'the device type exists here but is disabled',
  asset_excluded: 'assets are not imported',
  incomplete_source_record: 'the record lacks an id, code, name or type, or its name is too long',
};

const counted = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

const SOURCE_REASONS: Record<string, string> = {
  source_unreachable: 'The legacy system could not be reached.',
  source_timeout: 'The legacy system took too long to answer.',
  source_authentication_failed: 'The legacy system refused the username or password.',
  source_invalid_response: 'The legacy system answered something that is not its API.',
  source_too_large: 'The legacy system holds more than one import takes (200 tenants, 1000 types, 20000 devices).',
};

/**
 * The legacy import (platform administrators): the credentials of the old system reach the service for this request
 * only and are never stored. A dry run shows what would be created, existing and skipped with every issue; the
 * import itself creates the valid subset in one transaction and never changes existing records.
 */
export function ImportPage() {
  const queryClient = useQueryClient();
  const tenants = useQuery({
    queryKey: ['tenants', 'import'],
    queryFn: () => unwrap(api.GET('/v1/tenants', { params: { query: { limit: 100 } } })),
  });
  const [tenantNumber, setTenantNumber] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [result, setResult] = useState<{ dryRun: boolean; tenantNumber: number; data: ImportResult } | null>(null);
  const [codeFilter, setCodeFilter] = useState('');
  const run = useMutation({
    mutationFn: async (dryRun: boolean) => {
      const target = Number(tenantNumber);
      const data = await unwrap(
        api.POST('/v1/tenants/{tenantNumber}/imports/legacy-snapshot', {
          params: { path: { tenantNumber: target }, query: { dryRun } },
          body: { baseUrl, username, password },
        }),
      );
      return { dryRun, tenantNumber: target, data };
    },
    onMutate: () => setResult(null),
    onSuccess: async (outcome) => {
      setResult(outcome);
      setCodeFilter('');
      if (!outcome.dryRun) {
        // Nothing of the credentials is kept after a real import.
        setPassword('');
        await queryClient.invalidateQueries({ queryKey: ['device-types'] });
        await queryClient.invalidateQueries({ queryKey: ['devices'] });
      }
    },
  });
  const ready = tenantNumber !== '' && baseUrl !== '' && username !== '' && password !== '';
  const sourceReason = run.error instanceof ApiError && run.error.status === 502 ? SOURCE_REASONS[String(run.error.details.reason)] : undefined;
  const issues = result?.data.issues.filter((issue) => !codeFilter || issue.code === codeFilter) ?? [];
  const codes = [...new Set(result?.data.issues.map((issue) => issue.code) ?? [])];

  return (
    <section aria-labelledby="import-title">
      <h1 id="import-title">Legacy import</h1>
      <p className="muted">
        Loads the device types and devices of every tenant the given account of the legacy system can see into one Uplink tenant. It only creates:
        existing records are never changed, moved or deleted. Start with a dry run; nothing is stored by it.
      </p>
      <form
        className="card"
        aria-label="Import source and target"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          run.mutate(true);
        }}
      >
        <div className="grid2">
          <label>
            Target tenant
            <select required value={tenantNumber} onChange={(event) => setTenantNumber(event.target.value)}>
              <option value="">Choose a tenant…</option>
              {(tenants.data?.items ?? []).map((tenant) => (
                <option key={tenant.tenantNumber} value={tenant.tenantNumber} disabled={tenant.status !== 'active'}>
                  {tenant.name} (#{tenant.tenantNumber}){tenant.status !== 'active' ? ` — ${tenant.status}` : ''}
                </option>
              ))}
            </select>
          </label>
          <label>
            Legacy API address
            <input type="url" required maxLength={300} placeholder="https://legacy.example.com/api" value={baseUrl} onChange={(event) => setBaseUrl(event.target.value)} />
          </label>
          <label>
            Legacy username
            <input required maxLength={200} autoComplete="off" value={username} onChange={(event) => setUsername(event.target.value)} />
          </label>
          <label>
            Legacy password
            <input type="password" required maxLength={500} autoComplete="new-password" value={password} onChange={(event) => setPassword(event.target.value)} />
          </label>
        </div>
        <p className="small">The credentials are used for this request only: never stored, logged or audited.</p>
        {tenants.error ? <ErrorBox error={tenants.error} /> : null}
        <div className="row">
          <button type="submit" className="primary" disabled={!ready || run.isPending}>
            Dry run
          </button>
          <button
            type="button"
            className="danger"
            disabled={!ready || run.isPending || !(result?.dryRun && result.tenantNumber === Number(tenantNumber))}
            onClick={() => window.confirm('Import for real? The valid records are created in the target tenant at once.') && run.mutate(false)}
          >
            Import
          </button>
        </div>
        <p className="small">The import is offered after a dry run into the same tenant.</p>
      </form>
      <div aria-live="polite" role="status">
        {run.isPending ? <p className="notice">{run.variables ? 'Dry run' : 'Import'} running: reading the legacy system…</p> : null}
      </div>
      {run.error ? (
        <>
          {sourceReason ? (
            <p className="error" role="alert">
              {sourceReason} Nothing was stored.
            </p>
          ) : null}
          <ErrorBox error={run.error} />
        </>
      ) : null}
      {result ? (
        <section aria-labelledby="import-result-title" className="card">
          <h2 id="import-result-title">{result.dryRun ? 'Dry run result: nothing stored' : 'Import done'}</h2>
          <p className="small">
            Completed {formatTime(result.data.completedAt)} for tenant <Link to={`/t/${result.tenantNumber}/devices`}>#{result.tenantNumber}</Link>.
            The source holds {counted(result.data.source.tenantCount, 'tenant')}, {counted(result.data.source.deviceTypeCount, 'device type')} and{' '}
            {counted(result.data.source.deviceCount, 'device')}.
          </p>
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Counts</caption>
              <thead>
                <tr>
                  <th scope="col">Records</th>
                  <th scope="col">{result.dryRun ? 'Would be created' : 'Created'}</th>
                  <th scope="col">Already here</th>
                  <th scope="col">Skipped</th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <th scope="row">Device types</th>
                  <td>{result.data.deviceTypes.created}</td>
                  <td>{result.data.deviceTypes.existing}</td>
                  <td>{result.data.deviceTypes.skipped}</td>
                </tr>
                <tr>
                  <th scope="row">Devices</th>
                  <td>{result.data.devices.created}</td>
                  <td>{result.data.devices.existing}</td>
                  <td>{result.data.devices.skipped}</td>
                </tr>
              </tbody>
            </table>
          </div>
          <h3>Issues</h3>
          {result.data.issues.length === 0 ? (
            <p className="small">None: every record can be imported.</p>
          ) : (
            <>
              <div className="filters">
                <label>
                  Show issues
                  <select value={codeFilter} onChange={(event) => setCodeFilter(event.target.value)}>
                    <option value="">all ({result.data.issues.length})</option>
                    {codes.map((code) => (
                      <option key={code} value={code}>
                        {code}
                      </option>
                    ))}
                  </select>
                </label>
              </div>
              {result.data.issues.length >= 200 ? <p className="small">Only the first 200 issues are listed.</p> : null}
              <div className="table-wrap">
                <table>
                  <caption className="visually-hidden">Issues</caption>
                  <thead>
                    <tr>
                      <th scope="col">Record</th>
                      <th scope="col">Source identifier</th>
                      <th scope="col">Issue</th>
                    </tr>
                  </thead>
                  <tbody>
                    {issues.map((issue, index) => (
                      <tr key={index}>
                        <td>{issue.entity === 'device' ? 'device' : 'device type'}</td>
                        <td>
                          <code>{issue.sourceIdentifier}</code>
                        </td>
                        <td>
                          <code>{issue.code}</code>
                          <div className="small">{ISSUE_TEXT[issue.code]}</div>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )}
        </section>
      ) : null}
    </section>
  );
}
