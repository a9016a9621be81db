import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { api, unwrap } from '../api/client';
import { canTenantWide, useMe } from '../auth/me';
import { Empty, ErrorBox, QueryState, formatTime } from '../components/status';
import { useTenantNumber } from '../tenant';
import { useDeviceTypes } from './lookups';

export function DeviceTypesPage() {
  const tenantNumber = useTenantNumber();
  const me = useMe(tenantNumber);
  const types = useDeviceTypes(tenantNumber);
  return (
    <section aria-labelledby="types-title">
      <h1 id="types-title">Device types</h1>
      <QueryState query={types} what="device types">
        {(page) =>
          page.items.length === 0 ? (
            <Empty>No device types yet.</Empty>
          ) : (
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">Device types</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Key</th>
                    <th scope="col">Status</th>
                    <th scope="col">Updated</th>
                  </tr>
                </thead>
                <tbody>
                  {page.items.map((type) => (
                    <tr key={type.deviceTypeId}>
                      <td>
                        <Link to={`/t/${tenantNumber}/device-types/${type.deviceTypeId}`}>{type.name}</Link>
                      </td>
                      <td>
                        <code>{type.key}</code>
                      </td>
                      <td>
                        <span className={`badge ${type.status}`}>{type.status}</span>
                      </td>
                      <td>{formatTime(type.updatedAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryState>
      {canTenantWide(me.data, tenantNumber, 'device-types:write') ? <CreateDeviceType tenantNumber={tenantNumber} /> : null}
    </section>
  );
}

function CreateDeviceType({ tenantNumber }: { tenantNumber: number }) {
  const [key, setKey] = useState('');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/tenants/{tenantNumber}/device-types', { params: { path: { tenantNumber } }, body: { key, name, description } })),
    onSuccess: async (type) => {
      await queryClient.invalidateQueries({ queryKey: ['device-types', tenantNumber] });
      navigate(`/t/${tenantNumber}/device-types/${type.deviceTypeId}`);
    },
  });
  return (
    <details className="card">
      <summary>Create a device type</summary>
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <div className="grid2">
          <label>
            Key
            <input required pattern="[a-z0-9][a-z0-9._\-]{0,63}" value={key} onChange={(event) => setKey(event.target.value)} />
          </label>
          <label>
            Name
            <input required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />
          </label>
        </div>
        <label>
          Description
          <input maxLength={500} value={description} onChange={(event) => setDescription(event.target.value)} />
        </label>
        {create.error ? <ErrorBox error={create.error} /> : null}
        <button type="submit" className="primary" disabled={create.isPending}>
          Create device type
        </button>
      </form>
    </details>
  );
}
