import { useState, type FormEvent } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { api, unwrap } from '../api/client';
import { can, canTenantWide, useMe } from '../auth/me';
import { Empty, ErrorBox, QueryState, ago } from '../components/status';
import { useTenantNumber } from '../tenant';
import { typeChoices, useDeviceTypes, useUnits } from './lookups';
import { Pager } from '../components/Pager';
import { FilterSelect } from '../components/FilterSelect';

type Status = 'active' | 'disabled' | 'retired';
const STATUS_CHOICES = [
  { value: 'active', label: 'Active' },
  { value: 'disabled', label: 'Disabled' },
  { value: 'retired', label: 'Retired' },
];

export function DevicesPage() {
  const tenantNumber = useTenantNumber();
  const me = useMe(tenantNumber);
  const types = useDeviceTypes(tenantNumber);
  const [status, setStatus] = useState<Status | ''>('');
  const [deviceTypeId, setDeviceTypeId] = useState('');
  const [q, setQ] = useState('');
  const [search, setSearch] = useState('');
  // Cursor paging: the cursors of the pages before this one, so "Previous" goes back without offsets.
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const filters = { status: status || undefined, deviceTypeId: deviceTypeId || undefined, q: search || undefined };
  const devices = useQuery({
    queryKey: ['devices', tenantNumber, filters, cursor ?? null],
    queryFn: () => unwrap(api.GET('/v1/tenants/{tenantNumber}/devices', { params: { path: { tenantNumber }, query: { ...filters, cursor, limit: 25 } } })),
    placeholderData: keepPreviousData,
  });
  const typeName = (id: string) => types.data?.items.find((type) => type.deviceTypeId === id)?.name ?? '…';
  const resetPaging = () => setCursors([]);
  const filtered = Boolean(status || deviceTypeId || search);

  return (
    <section aria-labelledby="devices-title">
      <h1 id="devices-title">Devices</h1>
      <form
        className="filters"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          setSearch(q.trim());
          resetPaging();
        }}
      >
        <label>
          Search
          <input type="search" value={q} onChange={(event) => setQ(event.target.value)} placeholder="Name or devEui" maxLength={100} />
        </label>
        <FilterSelect
          label="Status"
          value={status}
          onChange={(value) => {
            setStatus(value as Status | '');
            resetPaging();
          }}
          choices={STATUS_CHOICES}
        />
        <FilterSelect
          label="Device type"
          value={deviceTypeId}
          onChange={(value) => {
            setDeviceTypeId(value);
            resetPaging();
          }}
          choices={typeChoices(types.data?.items)}
        />
        <button type="submit">Search</button>
      </form>
      <QueryState query={devices} what="devices">
        {(page) =>
          page.items.length === 0 ? (
            filtered ? (
              <Empty>No device matches these filters.</Empty>
            ) : (
              <Empty>
                No devices yet.{' '}
                {canTenantWide(me.data, tenantNumber, 'device-types:write') && canTenantWide(me.data, tenantNumber, 'ingestion:manage') ? (
                  <Link to={`/t/${tenantNumber}/guide`}>Send a first uplink step by step</Link>
                ) : null}
              </Empty>
            )
          ) : (
            <>
              <p className="small">{page.totalCount} devices</p>
              <div className="table-wrap">
                <table>
                  <caption className="visually-hidden">Devices</caption>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">devEui</th>
                      <th scope="col">Type</th>
                      <th scope="col">Status</th>
                      <th scope="col">Last seen</th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.items.map((device) => (
                      <tr key={device.deviceId}>
                        <td>
                          <Link to={`/t/${tenantNumber}/devices/${device.deviceId}`}>{device.name}</Link>
                        </td>
                        <td>
                          <code>{device.devEui}</code>
                        </td>
                        <td>{typeName(device.deviceTypeId)}</td>
                        <td>
                          <span className={`badge ${device.status}`}>{device.status}</span>
                        </td>
                        <td>{ago(device.lastSeenAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <div className="row">
                <Pager cursors={cursors} onChange={setCursors} nextCursor={page.nextCursor} />
              </div>
            </>
          )
        }
      </QueryState>
      {can(me.data, tenantNumber, 'devices:write') ? <CreateDevice tenantNumber={tenantNumber} /> : null}
    </section>
  );
}

function CreateDevice({ tenantNumber }: { tenantNumber: number }) {
  const types = useDeviceTypes(tenantNumber);
  const units = useUnits(tenantNumber);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [devEui, setDevEui] = useState('');
  const [deviceTypeId, setDeviceTypeId] = useState('');
  const [organizationUnitId, setUnit] = useState('');
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/tenants/{tenantNumber}/devices', {
          params: { path: { tenantNumber } },
          body: { name, devEui: devEui.toUpperCase(), deviceTypeId, ...(organizationUnitId ? { organizationUnitId } : {}) },
        }),
      ),
    onSuccess: async (device) => {
      await queryClient.invalidateQueries({ queryKey: ['devices', tenantNumber] });
      navigate(`/t/${tenantNumber}/devices/${device.deviceId}`);
    },
  });
  const activeTypes = types.data?.items.filter((type) => type.status === 'active') ?? [];
  return (
    <details className="card">
      <summary>Create a device</summary>
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <label>
          Name
          <input required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />
        </label>
        <label>
          devEui (16 hex digits)
          <input required pattern="[0-9A-Fa-f]{16}" value={devEui} onChange={(event) => setDevEui(event.target.value)} />
        </label>
        <label>
          Device type
          <select required value={deviceTypeId} onChange={(event) => setDeviceTypeId(event.target.value)}>
            <option value="">Choose…</option>
            {activeTypes.map((type) => (
              <option key={type.deviceTypeId} value={type.deviceTypeId}>
                {type.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Organization unit
          <select value={organizationUnitId} onChange={(event) => setUnit(event.target.value)}>
            <option value="">Unassigned</option>
            {units.data?.items
              .filter((unit) => unit.scopeRelation === 'accessible')
              .map((unit) => (
                <option key={unit.organizationUnitId} value={unit.organizationUnitId}>
                  {unit.name}
                </option>
              ))}
          </select>
        </label>
        {create.error ? <ErrorBox error={create.error} /> : null}
        <button type="submit" className="primary" disabled={create.isPending}>
          Create device
        </button>
      </form>
    </details>
  );
}
