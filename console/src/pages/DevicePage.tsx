import { lazy, Suspense, useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { can, useMe } from '../auth/me';
import { Empty, ErrorBox, Loading, QueryState, ago, formatTime } from '../components/status';
import { useTenantNumber } from '../tenant';
import { useDeviceTypes, useUnits } from './lookups';
import { LiveUplinks } from '../components/replays/LiveUplinks';

const Chart = lazy(() => import('../components/Chart'));

type Measurement = components['schemas']['MeasurementPoint'] | components['schemas']['MeasurementBucket'];

const RANGES = [
  { label: 'Last hour', seconds: 3600, bucket: undefined },
  { label: 'Last 24 hours', seconds: 86400, bucket: '15m' },
  { label: 'Last 7 days', seconds: 7 * 86400, bucket: '1h' },
] as const;

/** Current values refresh while the page is open, so an uplink shows up without a reload. */
const LIVE_INTERVAL_MS = 3000;

export function DevicePage() {
  const tenantNumber = useTenantNumber();
  const { deviceId = '' } = useParams();
  const me = useMe(tenantNumber);
  const device = useQuery({
    queryKey: ['device', deviceId],
    queryFn: () => unwrap(api.GET('/v1/devices/{deviceId}', { params: { path: { deviceId } } })),
    refetchInterval: LIVE_INTERVAL_MS,
  });
  const types = useDeviceTypes(tenantNumber);
  const type = types.data?.items.find((entry) => entry.deviceTypeId === device.data?.deviceTypeId);

  return (
    <QueryState query={device} what="the device">
      {(data) => (
        <section aria-labelledby="device-title">
          <p className="small">
            <Link to={`/t/${tenantNumber}/devices`}>Devices</Link> / {data.name}
          </p>
          <h1 id="device-title">{data.name}</h1>
          <dl className="facts">
            <dt>devEui</dt>
            <dd>
              <code>{data.devEui}</code>
            </dd>
            <dt>Type</dt>
            <dd>{type?.name ?? '…'}</dd>
            <dt>Status</dt>
            <dd>
              <span className={`badge ${data.status}`}>{data.status}</span>
            </dd>
            <dt>Last seen</dt>
            <dd data-testid="last-seen">
              {data.lastSeenAt ? (
                <>
                  {ago(data.lastSeenAt)} <span className="small">({formatTime(data.lastSeenAt)})</span>
                </>
              ) : (
                'never'
              )}
            </dd>
          </dl>
          {can(me.data, tenantNumber, 'devices:write') ? <DeviceActions device={data} /> : null}
          <CurrentValues deviceId={deviceId} />
          <LiveUplinks deviceId={deviceId} />
          <Measurements deviceId={deviceId} />
          <Assignments device={data} tenantNumber={tenantNumber} canAssign={can(me.data, tenantNumber, 'devices:assign')} />
        </section>
      )}
    </QueryState>
  );
}

function DeviceActions({ device }: { device: components['schemas']['DeviceResponse'] }) {
  const queryClient = useQueryClient();
  const action = useMutation({
    mutationFn: (which: 'disable' | 'reactivate' | 'retire') => {
      const path = { params: { path: { deviceId: device.deviceId } } };
      if (which === 'disable') return unwrap(api.POST('/v1/devices/{deviceId}/disable', path));
      if (which === 'reactivate') return unwrap(api.POST('/v1/devices/{deviceId}/reactivate', path));
      return unwrap(api.POST('/v1/devices/{deviceId}/retire', path));
    },
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: ['device', device.deviceId] }), queryClient.invalidateQueries({ queryKey: ['devices'] })]),
  });
  if (device.status === 'retired') return null;
  return (
    <div className="row">
      {device.status === 'active' ? (
        <button type="button" onClick={() => action.mutate('disable')} disabled={action.isPending}>
          Disable
        </button>
      ) : (
        <button type="button" onClick={() => action.mutate('reactivate')} disabled={action.isPending}>
          Reactivate
        </button>
      )}
      <button
        type="button"
        className="danger"
        disabled={action.isPending}
        onClick={() => window.confirm(`Retire ${device.name}? A retired device cannot come back.`) && action.mutate('retire')}
      >
        Retire
      </button>
      {action.error ? <ErrorBox error={action.error} /> : null}
    </div>
  );
}

function CurrentValues({ deviceId }: { deviceId: string }) {
  const values = useQuery({
    queryKey: ['current-values', deviceId],
    queryFn: () => unwrap(api.GET('/v1/devices/{deviceId}/current-values', { params: { path: { deviceId } } })),
    refetchInterval: LIVE_INTERVAL_MS,
  });
  return (
    <>
      <h2>Current values</h2>
      <QueryState query={values} what="current values">
        {(data) =>
          data.fields.length === 0 ? (
            <Empty>The device type has no fields yet.</Empty>
          ) : (
            <div className="table-wrap">
              <table data-testid="current-values">
                <caption className="visually-hidden">Current values</caption>
                <thead>
                  <tr>
                    <th scope="col">Field</th>
                    <th scope="col">Value</th>
                    <th scope="col">Observed</th>
                  </tr>
                </thead>
                <tbody>
                  {data.fields.map((entry) => (
                    <tr key={entry.definition.key}>
                      <td>
                        {entry.definition.name} <code className="small">{entry.definition.key}</code>
                      </td>
                      <td data-field={entry.definition.key}>
                        {entry.currentValue === null ? <span className="muted">no value yet</span> : formatValue(entry.currentValue)}
                        {entry.currentValue !== null && entry.definition.unit ? ` ${entry.definition.unit}` : ''}
                      </td>
                      <td>{entry.observedAt ? `${ago(entry.observedAt)} (${formatTime(entry.observedAt)})` : '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryState>
    </>
  );
}

function formatValue(value: unknown): string {
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function Measurements({ deviceId }: { deviceId: string }) {
  const [rangeIndex, setRangeIndex] = useState(0);
  const [raw, setRaw] = useState(true);
  const range = RANGES[rangeIndex]!;
  const fields = useQuery({
    queryKey: ['current-values', deviceId],
    queryFn: () => unwrap(api.GET('/v1/devices/{deviceId}/current-values', { params: { path: { deviceId } } })),
  });
  const numericKeys = (fields.data?.fields ?? [])
    .filter((entry) => entry.definition.schemaRef === 'platform://schemas/number/v1' && entry.definition.storageTargets.includes('timeseries'))
    .map((entry) => entry.definition.key);
  const bucket = raw ? undefined : (range.bucket ?? '1m');
  const measurements = useQuery({
    queryKey: ['measurements', deviceId, rangeIndex, bucket ?? 'raw', numericKeys.join(',')],
    enabled: numericKeys.length > 0,
    refetchInterval: LIVE_INTERVAL_MS,
    queryFn: async () => {
      // Whole minutes, so a poll that brings nothing new leaves the chart as it is (same range, same data).
      const minute = Math.floor(Date.now() / 60_000) * 60_000;
      const to = new Date(minute + 120_000).toISOString();
      const from = new Date(minute - range.seconds * 1000).toISOString();
      const page = await unwrap(
        api.GET('/v1/devices/{deviceId}/measurements', {
          params: { path: { deviceId }, query: { from, to, fieldKeys: numericKeys.join(','), limit: 1000, ...(bucket ? { bucket, aggregation: 'avg' as const } : {}) } },
        }),
      );
      return { page, range: [Date.parse(from) / 1000, Date.parse(to) / 1000] as [number, number] };
    },
  });
  const keyList = numericKeys.join(",");
  const chart = useMemo(() => toChart(measurements.data?.page.items ?? [], keyList.split(",")), [measurements.data, keyList]);

  return (
    <>
      <h2>Measurements</h2>
      <div className="filters">
        <label>
          Range
          <select value={rangeIndex} onChange={(event) => setRangeIndex(Number(event.target.value))}>
            {RANGES.map((entry, index) => (
              <option key={entry.label} value={index}>
                {entry.label}
              </option>
            ))}
          </select>
        </label>
        <label className="inline">
          <input type="checkbox" checked={raw} onChange={(event) => setRaw(event.target.checked)} /> Raw points (else averaged buckets)
        </label>
      </div>
      {fields.isPending ? (
        <Loading what="fields" />
      ) : numericKeys.length === 0 ? (
        <Empty>No numeric field is stored as a time series.</Empty>
      ) : measurements.isPending ? (
        <Loading what="measurements" />
      ) : measurements.error ? (
        <ErrorBox error={measurements.error} onRetry={() => void measurements.refetch()} />
      ) : chart.x.length === 0 ? (
        <Empty>No measurements in this range.</Empty>
      ) : (
        <Suspense fallback={<Loading what="the chart" />}>
          <p className="small" data-testid="chart-points">
            {chart.x.length} {bucket ? `buckets of ${bucket}` : 'points'}
          </p>
          <Chart x={chart.x} series={chart.series} range={measurements.data.range} title={`Measurements of ${numericKeys.join(', ')}`} />
        </Suspense>
      )}
    </>
  );
}

/** Aligns points or buckets of several fields on one time axis (seconds), one series per field. */
function toChart(items: Measurement[], keys: string[]) {
  const times = new Map<number, Map<string, number>>();
  for (const item of items) {
    const at = new Date('bucketStart' in item ? item.bucketStart : item.observedAt).getTime() / 1000;
    if (typeof item.value !== 'number') continue;
    if (!times.has(at)) times.set(at, new Map());
    times.get(at)!.set(item.fieldKey, item.value);
  }
  const x = [...times.keys()].sort((a, b) => a - b);
  return { x, series: keys.map((key) => ({ label: key, values: x.map((at) => times.get(at)!.get(key) ?? null) })) };
}

function Assignments({ device, tenantNumber, canAssign }: { device: components['schemas']['DeviceResponse']; tenantNumber: number; canAssign: boolean }) {
  const queryClient = useQueryClient();
  const units = useUnits(tenantNumber);
  const [unitId, setUnitId] = useState('');
  const history = useQuery({
    queryKey: ['assignments', device.deviceId],
    queryFn: () => unwrap(api.GET('/v1/devices/{deviceId}/assignments', { params: { path: { deviceId: device.deviceId }, query: { limit: 100 } } })),
  });
  const done = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['assignments', device.deviceId] }),
      queryClient.invalidateQueries({ queryKey: ['device', device.deviceId] }),
    ]);
  const assign = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/devices/{deviceId}/assignments', { params: { path: { deviceId: device.deviceId } }, body: { organizationUnitId: unitId } })),
    onSuccess: done,
  });
  const end = useMutation({
    mutationFn: (deviceAssignmentId: string) =>
      unwrap(api.POST('/v1/devices/{deviceId}/assignments/{deviceAssignmentId}/end', { params: { path: { deviceId: device.deviceId, deviceAssignmentId } }, body: {} })),
    onSuccess: done,
  });
  const unitName = (id: string) => units.data?.items.find((unit) => unit.organizationUnitId === id)?.name ?? id.slice(0, 8);
  return (
    <>
      <h2>Assignment history</h2>
      <QueryState query={history} what="assignments">
        {(page) =>
          page.items.length === 0 ? (
            <Empty>Never assigned to a unit.</Empty>
          ) : (
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">Assignment history</caption>
                <thead>
                  <tr>
                    <th scope="col">Unit</th>
                    <th scope="col">From</th>
                    <th scope="col">To</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {page.items.map((period) => (
                    <tr key={period.deviceAssignmentId}>
                      <td>{unitName(period.organizationUnitId)}</td>
                      <td>{formatTime(period.validFrom)}</td>
                      <td>{period.validTo ? formatTime(period.validTo) : 'now'}</td>
                      <td>
                        {canAssign && period.validTo === null ? (
                          <button type="button" onClick={() => end.mutate(period.deviceAssignmentId)} disabled={end.isPending}>
                            End
                          </button>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryState>
      {canAssign && device.status !== 'retired' ? (
        <form
          className="filters"
          onSubmit={(event) => {
            event.preventDefault();
            assign.mutate();
          }}
        >
          <label>
            {device.currentAssignment ? 'Move to unit' : 'Assign to unit'}
            <select required value={unitId} onChange={(event) => setUnitId(event.target.value)}>
              <option value="">Choose…</option>
              {units.data?.items
                .filter((unit) => unit.scopeRelation === 'accessible' && unit.effectiveStatus === 'active')
                .map((unit) => (
                  <option key={unit.organizationUnitId} value={unit.organizationUnitId}>
                    {unit.name}
                  </option>
                ))}
            </select>
          </label>
          <button type="submit" disabled={assign.isPending}>
            {device.currentAssignment ? 'Move' : 'Assign'}
          </button>
        </form>
      ) : null}
      {assign.error ? <ErrorBox error={assign.error} /> : null}
      {end.error ? <ErrorBox error={end.error} /> : null}
    </>
  );
}
