import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { canTenantWide, useMe } from '../auth/me';
import { WriteError, ifMatch } from '../components/Conflict';
import { Empty, ErrorBox, QueryState } from '../components/status';
import { useTenantNumber } from '../tenant';

type DeviceType = components['schemas']['DeviceTypeResponse'];
type Field = components['schemas']['DeviceFieldResponse'];
type SchemaRef = Field['schemaRef'];
type MeasurementType = Field['measurementType'];

/** A device type with its fields; every change sends the version it was read at (If-Match). */
export function DeviceTypePage() {
  const tenantNumber = useTenantNumber();
  const { deviceTypeId = '' } = useParams();
  const me = useMe(tenantNumber);
  const canWrite = canTenantWide(me.data, tenantNumber, 'device-types:write');
  const type = useQuery({
    queryKey: ['device-type', deviceTypeId],
    queryFn: () => unwrap(api.GET('/v1/device-types/{deviceTypeId}', { params: { path: { deviceTypeId } } })),
  });
  const fields = useQuery({
    queryKey: ['device-fields', deviceTypeId],
    queryFn: () => unwrap(api.GET('/v1/device-types/{deviceTypeId}/fields', { params: { path: { deviceTypeId } } })),
  });
  return (
    <QueryState query={type} what="the device type">
      {(data) => (
        <section aria-labelledby="type-title">
          <p className="small">
            <Link to={`/t/${tenantNumber}/device-types`}>Device types</Link> / {data.name}
          </p>
          <h1 id="type-title">{data.name}</h1>
          <dl className="facts">
            <dt>Key</dt>
            <dd>
              <code>{data.key}</code>
            </dd>
            <dt>Status</dt>
            <dd>
              <span className={`badge ${data.status}`}>{data.status}</span>
            </dd>
            <dt>Description</dt>
            <dd>{data.description || '—'}</dd>
          </dl>
          <p>
            <Link to={`/t/${tenantNumber}/device-types/${deviceTypeId}/flow`}>Flow studio</Link>
          </p>
          {canWrite ? <EditDeviceType type={data} onReload={() => void type.refetch()} /> : null}
          <h2>Fields</h2>
          <QueryState query={fields} what="fields">
            {(list) =>
              list.length === 0 ? (
                <Empty>No fields yet.</Empty>
              ) : (
                <div className="table-wrap">
                  <table>
                    <caption className="visually-hidden">Fields</caption>
                    <thead>
                      <tr>
                        <th scope="col">Key</th>
                        <th scope="col">Name</th>
                        <th scope="col">Type</th>
                        <th scope="col">Unit</th>
                        <th scope="col">Stored as</th>
                        <th scope="col">Status</th>
                        {canWrite ? (
                          <th scope="col">
                            <span className="visually-hidden">Actions</span>
                          </th>
                        ) : null}
                      </tr>
                    </thead>
                    <tbody>
                      {list.map((field) => (
                        <FieldRow key={field.key} field={field} canWrite={canWrite} onReload={() => void fields.refetch()} />
                      ))}
                    </tbody>
                  </table>
                </div>
              )
            }
          </QueryState>
          {canWrite ? <AddField deviceTypeId={deviceTypeId} /> : null}
        </section>
      )}
    </QueryState>
  );
}

function EditDeviceType({ type, onReload }: { type: DeviceType; onReload: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(type.name);
  const [description, setDescription] = useState(type.description);
  // The version the form was filled from: a reload brings the current one (and its values).
  useEffect(() => {
    setName(type.name);
    setDescription(type.description);
  }, [type.lockVersion, type.name, type.description]);
  const done = () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: ['device-type', type.deviceTypeId] }), queryClient.invalidateQueries({ queryKey: ['device-types'] })]);
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH('/v1/device-types/{deviceTypeId}', {
          params: { path: { deviceTypeId: type.deviceTypeId }, header: { 'If-Match': ifMatch(type.lockVersion) } },
          body: { name, description },
        }),
      ),
    onSuccess: done,
  });
  const toggle = useMutation({
    mutationFn: () => {
      const params = { params: { path: { deviceTypeId: type.deviceTypeId }, header: { 'If-Match': ifMatch(type.lockVersion) } } };
      return type.status === 'active'
        ? unwrap(api.POST('/v1/device-types/{deviceTypeId}/disable', params))
        : unwrap(api.POST('/v1/device-types/{deviceTypeId}/reactivate', params));
    },
    onSuccess: done,
  });
  const reload = () => {
    save.reset();
    toggle.reset();
    onReload();
  };
  return (
    <form
      className="card"
      aria-label="Edit the device type"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <div className="grid2">
        <label>
          Name
          <input required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />
        </label>
        <label>
          Description
          <input maxLength={500} value={description} onChange={(event) => setDescription(event.target.value)} />
        </label>
      </div>
      {save.error ? <WriteError error={save.error} what="device type" onReload={reload} /> : null}
      {toggle.error ? <WriteError error={toggle.error} what="device type" onReload={reload} /> : null}
      {save.isSuccess ? <p className="notice">Saved.</p> : null}
      <div className="row">
        <button type="submit" className="primary" disabled={save.isPending}>
          Save
        </button>
        <button type="button" onClick={() => toggle.mutate()} disabled={toggle.isPending}>
          {type.status === 'active' ? 'Disable the type' : 'Reactivate the type'}
        </button>
      </div>
    </form>
  );
}

function FieldRow({ field, canWrite, onReload }: { field: Field; canWrite: boolean; onReload: () => void }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(field.name);
  const [unit, setUnit] = useState(field.unit ?? '');
  const params = { params: { path: { deviceTypeId: field.deviceTypeId, key: field.key }, header: { 'If-Match': ifMatch(field.lockVersion) } } };
  const done = () => queryClient.invalidateQueries({ queryKey: ['device-fields', field.deviceTypeId] });
  const save = useMutation({
    mutationFn: () => unwrap(api.PATCH('/v1/device-types/{deviceTypeId}/fields/{key}', { ...params, body: { name, unit: unit || null } })),
    onSuccess: async () => {
      setEditing(false);
      await done();
    },
  });
  const deprecate = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/device-types/{deviceTypeId}/fields/{key}/deprecate', params)),
    onSuccess: done,
  });
  const error = save.error ?? deprecate.error;
  return (
    <>
      <tr>
        <td>
          <code>{field.key}</code>
        </td>
        <td>
          {editing ? (
            <input aria-label={`Name of ${field.key}`} value={name} onChange={(event) => setName(event.target.value)} />
          ) : (
            field.name
          )}
        </td>
        <td>{field.schemaRef.replace('platform://schemas/', '').replace('/v1', '')}</td>
        <td>
          {editing ? <input aria-label={`Unit of ${field.key}`} value={unit} onChange={(event) => setUnit(event.target.value)} /> : (field.unit ?? '—')}
        </td>
        <td>{field.storageTargets.join(', ')}</td>
        <td>
          <span className={`badge ${field.status}`}>{field.status}</span>
        </td>
        {canWrite ? (
          <td>
            {field.status === 'active' ? (
              <div className="row">
                {editing ? (
                  <button type="button" className="primary" onClick={() => save.mutate()} disabled={save.isPending}>
                    Save {field.key}
                  </button>
                ) : (
                  <button type="button" onClick={() => setEditing(true)}>
                    Edit {field.key}
                  </button>
                )}
                <button
                  type="button"
                  className="danger"
                  onClick={() => window.confirm(`Deprecate ${field.key}? Its key stays taken and it can't be used again.`) && deprecate.mutate()}
                  disabled={deprecate.isPending}
                >
                  Deprecate
                </button>
              </div>
            ) : null}
          </td>
        ) : null}
      </tr>
      {error ? (
        <tr>
          <td colSpan={7}>
            <WriteError
              error={error}
              what="field"
              onReload={() => {
                save.reset();
                deprecate.reset();
                setEditing(false);
                onReload();
              }}
            />
          </td>
        </tr>
      ) : null}
    </>
  );
}

function AddField({ deviceTypeId }: { deviceTypeId: string }) {
  const queryClient = useQueryClient();
  const [key, setKey] = useState('');
  const [name, setName] = useState('');
  const [unit, setUnit] = useState('');
  const [schemaRef, setSchemaRef] = useState<SchemaRef>('platform://schemas/number/v1');
  const [measurementType, setMeasurementType] = useState<MeasurementType>('gauge');
  const [timeseries, setTimeseries] = useState(true);
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/device-types/{deviceTypeId}/fields', {
          params: { path: { deviceTypeId } },
          body: { key, name, unit: unit || null, schemaRef, measurementType, storageTargets: timeseries ? ['current', 'timeseries'] : ['current'] },
        }),
      ),
    onSuccess: async () => {
      setKey('');
      setName('');
      setUnit('');
      await queryClient.invalidateQueries({ queryKey: ['device-fields', deviceTypeId] });
    },
  });
  return (
    <details className="card">
      <summary>Add a field</summary>
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <div className="grid3">
          <label>
            Field key
            <input required pattern="[a-z][a-z0-9._\-]{0,119}" value={key} onChange={(event) => setKey(event.target.value)} />
          </label>
          <label>
            Field name
            <input required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />
          </label>
          <label>
            Unit
            <input maxLength={40} value={unit} onChange={(event) => setUnit(event.target.value)} />
          </label>
          <label>
            Value type
            <select value={schemaRef} onChange={(event) => setSchemaRef(event.target.value as SchemaRef)}>
              <option value="platform://schemas/number/v1">number</option>
              <option value="platform://schemas/string/v1">string</option>
              <option value="platform://schemas/boolean/v1">boolean</option>
              <option value="platform://schemas/json/v1">JSON</option>
            </select>
          </label>
          <label>
            Measurement type
            <select value={measurementType} onChange={(event) => setMeasurementType(event.target.value as MeasurementType)}>
              <option value="gauge">gauge</option>
              <option value="counter">counter</option>
              <option value="status">status</option>
              <option value="event">event</option>
            </select>
          </label>
          <label className="inline">
            <input type="checkbox" checked={timeseries} onChange={(event) => setTimeseries(event.target.checked)} /> Keep a time series
          </label>
        </div>
        {create.error ? <ErrorBox error={create.error} /> : null}
        <button type="submit" className="primary" disabled={create.isPending}>
          Add field
        </button>
      </form>
    </details>
  );
}
