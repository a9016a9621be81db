import { useState, type FormEvent, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../api/client';
import { ApiError } from '../api/errors';
import { canTenantWide, useMe } from '../auth/me';
import { CopyButton, ErrorBox } from '../components/status';
import { useTenantNumber } from '../tenant';

interface Field {
  key: string;
  name: string;
  unit: string;
}

interface Progress {
  deviceTypeId?: string;
  fields?: Field[];
  flowReady?: boolean;
  deviceId?: string;
  devEui?: string;
  token?: string;
}

function randomDevEui(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('').toUpperCase();
}

/** The flow the guide activates: the uplink's JSON payload, each top-level number copied to the field of its key. */
function jsonFlowGraph(deviceTypeId: string, fields: Field[]) {
  const outputs = fields.map((field) => ({ fieldKey: field.key, schemaRef: 'platform://schemas/number/v1' }));
  return {
    schemaVersion: 'flow-graph.v2',
    deviceTypeId,
    nodes: [
      {
        kind: 'block',
        nodeId: 'fields',
        name: 'Fields',
        block: { type: 'builtin', key: 'map-field', version: 1 },
        configuration: { mappings: fields.map((field) => ({ source: `payload.${field.key}`, fieldKey: field.key })) },
        position: { x: 0, y: 0 },
      },
      { kind: 'current-output', nodeId: 'current', name: 'Current values', block: null, configuration: { fields: outputs }, position: { x: 200, y: 0 } },
      { kind: 'timeseries-output', nodeId: 'history', name: 'Time series', block: null, configuration: { fields: outputs }, position: { x: 200, y: 100 } },
    ],
    edges: [
      { fromNodeId: 'fields', toNodeId: 'current' },
      { fromNodeId: 'fields', toNodeId: 'history' },
    ],
  };
}

/**
 * From an empty tenant to a first processed uplink: a device type with fields (and a flow that copies a JSON
 * payload's numbers into them), a device, an ingestion credential, then the exact curl that sends an uplink.
 */
export function GuidePage() {
  const tenantNumber = useTenantNumber();
  const me = useMe(tenantNumber);
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<Progress>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const run = async (step: () => Promise<Partial<Progress>>) => {
    setBusy(true);
    setError(null);
    try {
      const next = await step();
      setProgress((current) => ({ ...current, ...next }));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  const tenantAdmin = canTenantWide(me.data, tenantNumber, 'device-types:write') && canTenantWide(me.data, tenantNumber, 'ingestion:manage');
  if (me.data && !tenantAdmin) {
    return (
      <section>
        <h1>Send a first uplink</h1>
        <p>This guide creates a device type, a flow and an ingestion credential, which needs a tenant administrator.</p>
      </section>
    );
  }

  const origin = window.location.origin;
  const sample = Object.fromEntries((progress.fields ?? []).map((field, index) => [field.key, 21.5 + index]));
  const body = JSON.stringify({ devEui: progress.devEui, payload: { encoding: 'json', data: JSON.stringify(sample) } });
  const curl = `curl -X POST '${origin}/v1/ingestion/http' \\\n  -H 'Authorization: Bearer ${progress.token ?? ''}' \\\n  -H 'Content-Type: application/json' \\\n  -d '${body}'`;

  return (
    <section aria-labelledby="guide-title">
      <h1 id="guide-title">Send a first uplink</h1>
      <p>Four steps from an empty tenant to values on a device page. Everything created here can be changed later.</p>
      {error ? <ErrorBox error={error} /> : null}

      <Step number={1} title="A device type and its fields" done={progress.flowReady === true}>
        {progress.flowReady ? (
          <p>
            Created with the fields {progress.fields?.map((field) => field.key).join(', ')}, and a flow that copies them from the uplink's JSON payload.
          </p>
        ) : (
        <DeviceTypeStep
          busy={busy}
          onSubmit={(key, name, fields) =>
            run(async () => {
              const type = await unwrap(api.POST('/v1/tenants/{tenantNumber}/device-types', { params: { path: { tenantNumber } }, body: { key, name } }));
              for (const field of fields) {
                await unwrap(
                  api.POST('/v1/device-types/{deviceTypeId}/fields', {
                    params: { path: { deviceTypeId: type.deviceTypeId } },
                    body: {
                      key: field.key,
                      name: field.name,
                      unit: field.unit || null,
                      schemaRef: 'platform://schemas/number/v1',
                      storageTargets: ['current', 'timeseries'],
                      measurementType: 'gauge',
                    },
                  }),
                );
              }
              await activateJsonFlow(type.deviceTypeId, key, fields);
              await queryClient.invalidateQueries({ queryKey: ['device-types', tenantNumber] });
              return { deviceTypeId: type.deviceTypeId, fields, flowReady: true };
            })
          }
        />
        )}
      </Step>

      {progress.flowReady ? (
        <Step number={2} title="A device" done={progress.deviceId !== undefined}>
          {progress.deviceId ? (
            <p>
              Created with devEui <code>{progress.devEui}</code>.
            </p>
          ) : (
          <DeviceStep
            busy={busy}
            onSubmit={(name, devEui) =>
              run(async () => {
                const device = await unwrap(
                  api.POST('/v1/tenants/{tenantNumber}/devices', { params: { path: { tenantNumber } }, body: { name, devEui, deviceTypeId: progress.deviceTypeId! } }),
                );
                await queryClient.invalidateQueries({ queryKey: ['devices', tenantNumber] });
                return { deviceId: device.deviceId, devEui: device.devEui };
              })
            }
          />
          )}
        </Step>
      ) : null}

      {progress.deviceId ? (
        <Step number={3} title="An ingestion credential" done={progress.token !== undefined}>
          {progress.token ? (
            <p>Created: its token is in the command below, shown this once.</p>
          ) : (
          <CredentialStep
            busy={busy}
            onSubmit={(name) =>
              run(async () => {
                const created = await unwrap(api.POST('/v1/tenants/{tenantNumber}/ingestion-credentials', { params: { path: { tenantNumber } }, body: { name } }));
                await queryClient.invalidateQueries({ queryKey: ['ingestion-credentials', tenantNumber] });
                return { token: created.token };
              })
            }
          />
          )}
        </Step>
      ) : null}

      {progress.token ? (
        <Step number={4} title="Send the uplink" done={false}>
          <p>
            The token below is shown <strong>only now</strong>: copy it somewhere safe. Run this in a terminal:
          </p>
          <pre data-testid="guide-curl" tabIndex={0}>
            {curl}
          </pre>
          <CopyButton text={curl} label="Copy the command" />
          <p>
            Then open <Link to={`/t/${tenantNumber}/devices/${progress.deviceId}`}>the device page</Link>: the values appear there the moment the
            uplink is processed.
          </p>
          <h3>From a network server</h3>
          <p>
            These deliver the sensor's bytes, so the device type's flow needs a codec block for them (see the flows documentation); the
            settings are:
          </p>
          <dl className="facts">
            <dt>ChirpStack v4</dt>
            <dd>
              Application → Integrations → HTTP: payload encoding <strong>JSON</strong>, event endpoint URL <code>{origin}/v1/ingestion/chirpstack</code>,
              header <code>Authorization</code> = <code>Bearer {progress.token}</code>
            </dd>
            <dt>The Things Stack v3</dt>
            <dd>
              Application → Integrations → Webhooks → Custom webhook: format <strong>JSON</strong>, base URL <code>{origin}/v1/ingestion/tts</code>,
              additional header <code>Authorization</code> = <code>Bearer {progress.token}</code>, <em>Uplink message</em> enabled with an empty path
            </dd>
          </dl>
        </Step>
      ) : null}
    </section>
  );
}

async function activateJsonFlow(deviceTypeId: string, key: string, fields: Field[]): Promise<void> {
  const flow = await unwrap(api.POST('/v1/device-types/{deviceTypeId}/flow', { params: { path: { deviceTypeId } }, body: { key, name: `${key} (JSON payload)` } }));
  const version = await unwrap(
    api.POST('/v1/flows/{flowId}/versions', {
      params: { path: { flowId: flow.flowId } },
      // The graph's type is the contract's; this one is built to it and checked by the API's validation on release.
      body: { graph: jsonFlowGraph(deviceTypeId, fields) } as never,
    }),
  );
  await unwrap(api.POST('/v1/flows/{flowId}/versions/{flowVersionId}/release', { params: { path: { flowId: flow.flowId, flowVersionId: version.flowVersionId } } }));
  const current = await api.GET('/v1/flows/{flowId}', { params: { path: { flowId: flow.flowId } } });
  const etag = current.response.headers.get('ETag');
  if (!current.response.ok || etag === null) throw new ApiError(current.response.status, 'UNKNOWN', 'The flow could not be read back.', null);
  await unwrap(
    api.POST('/v1/flows/{flowId}/activate', {
      params: { path: { flowId: flow.flowId }, header: { 'If-Match': etag } },
      body: { flowVersionId: version.flowVersionId },
    }),
  );
}

function Step({ number, title, done, children }: { number: number; title: string; done: boolean; children: ReactNode }) {
  return (
    <section className={`card step${done ? ' done' : ''}`} aria-labelledby={`step-${number}`}>
      <h2 id={`step-${number}`}>
        {number}. {title} {done ? <span className="badge active">done</span> : null}
      </h2>
      {children}
    </section>
  );
}

function DeviceTypeStep({ busy, onSubmit }: { busy: boolean; onSubmit: (key: string, name: string, fields: Field[]) => void }) {
  const [key, setKey] = useState('first-sensor');
  const [name, setName] = useState('First sensor');
  const [fields, setFields] = useState<Field[]>([
    { key: 'temperature', name: 'Temperature', unit: '°C' },
    { key: 'humidity', name: 'Humidity', unit: '%' },
  ]);
  const update = (index: number, change: Partial<Field>) => setFields(fields.map((field, at) => (at === index ? { ...field, ...change } : field)));
  return (
    <form
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        onSubmit(key, name, fields);
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
      <p className="small">Numeric fields, stored as current values and as a time series. The uplink's JSON payload carries them by key.</p>
      {fields.map((field, index) => (
        <fieldset key={index} className="grid3">
          <legend>Field {index + 1}</legend>
          <label>
            Key
            <input required pattern="[a-z][a-z0-9._\-]{0,119}" value={field.key} onChange={(event) => update(index, { key: event.target.value })} />
          </label>
          <label>
            Name
            <input required value={field.name} onChange={(event) => update(index, { name: event.target.value })} />
          </label>
          <label>
            Unit
            <input value={field.unit} maxLength={40} onChange={(event) => update(index, { unit: event.target.value })} />
          </label>
        </fieldset>
      ))}
      <div className="row">
        <button type="button" onClick={() => setFields([...fields, { key: '', name: '', unit: '' }])}>
          Add a field
        </button>
        {fields.length > 1 ? (
          <button type="button" onClick={() => setFields(fields.slice(0, -1))}>
            Remove the last field
          </button>
        ) : null}
        <button type="submit" className="primary" disabled={busy}>
          Create the device type
        </button>
      </div>
    </form>
  );
}

function DeviceStep({ busy, onSubmit }: { busy: boolean; onSubmit: (name: string, devEui: string) => void }) {
  const [name, setName] = useState('My first device');
  const [devEui, setDevEui] = useState(randomDevEui);
  return (
    <form
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        onSubmit(name, devEui.toUpperCase());
      }}
    >
      <div className="grid2">
        <label>
          Name
          <input required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />
        </label>
        <label>
          devEui (16 hex digits, from the device's label)
          <input required pattern="[0-9A-Fa-f]{16}" value={devEui} onChange={(event) => setDevEui(event.target.value)} />
        </label>
      </div>
      <button type="submit" className="primary" disabled={busy}>
        Create the device
      </button>
    </form>
  );
}

function CredentialStep({ busy, onSubmit }: { busy: boolean; onSubmit: (name: string) => void }) {
  const [name, setName] = useState('First uplink');
  return (
    <form
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        onSubmit(name);
      }}
    >
      <label>
        Name
        <input required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />
      </label>
      <button type="submit" className="primary" disabled={busy}>
        Create the credential
      </button>
    </form>
  );
}

