import { useState, type FormEvent } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { can, useMe } from '../../auth/me';
import { typeChoices, unitChoices, useDeviceTypes, useUnits } from '../../pages/lookups';
import { Empty, ErrorBox, QueryState } from '../status';
import { FieldErrors } from './FieldErrors';
import { templateChoices, useEmailTemplates, useTenantMembers, type RecipientBinding } from './lookups';
import { Pager } from '../Pager';
import { FilterSelect } from '../FilterSelect';

type Status = 'active' | 'disabled';
const STATUS_CHOICES = [
  { value: 'active', label: 'Active' },
  { value: 'disabled', label: 'Disabled' },
];

/**
 * Who gets a template's e-mail: the tenant's recipient bindings (of one template when `emailTemplateId` is given),
 * filtered, with creation, narrowing (device type, unit) and disable/reactivate.
 */
export function RecipientBindings({ tenantNumber, emailTemplateId, canWrite }: { tenantNumber: number; emailTemplateId?: string; canWrite: boolean }) {
  const types = useDeviceTypes(tenantNumber);
  const units = useUnits(tenantNumber);
  const templates = useEmailTemplates(tenantNumber);
  const me = useMe(tenantNumber);
  // Members are named from the memberships list, which needs its own permission; without it a user shows as its id.
  const members = useTenantMembers(tenantNumber, can(me.data, tenantNumber, 'memberships:read'));
  const [status, setStatus] = useState<Status | ''>('');
  const [templateFilter, setTemplateFilter] = useState('');
  const [deviceTypeId, setDeviceTypeId] = useState('');
  const [organizationUnitId, setUnitId] = useState('');
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const filters = {
    status: status || undefined,
    emailTemplateId: emailTemplateId ?? (templateFilter || undefined),
    deviceTypeId: deviceTypeId || undefined,
    organizationUnitId: organizationUnitId || undefined,
  };
  const bindings = useQuery({
    queryKey: ['recipient-bindings', tenantNumber, filters, cursor ?? null],
    queryFn: () =>
      unwrap(api.GET('/v1/tenants/{tenantNumber}/recipient-bindings', { params: { path: { tenantNumber }, query: { ...filters, cursor, limit: 25 } } })),
    placeholderData: keepPreviousData,
  });
  const names = {
    type: (id: string | null) => (id === null ? 'Any' : (types.data?.items.find((type) => type.deviceTypeId === id)?.name ?? '…')),
    unit: (id: string | null) => (id === null ? 'Any' : (units.data?.items.find((unit) => unit.organizationUnitId === id)?.name ?? '…')),
    template: (id: string) => templates.data?.items.find((template) => template.emailTemplateId === id)?.name ?? '…',
    user: (id: string | null) => members.data?.find((member) => member.userId === id)?.label ?? id ?? '',
  };
  const reset = () => setCursors([]);
  return (
    <section aria-labelledby="bindings-title">
      <h2 id="bindings-title">Recipient bindings</h2>
      <div className="filters" role="group" aria-label="Binding filters">
        <FilterSelect
          label="Binding status"
          value={status}
          onChange={(value) => {
            setStatus(value as Status | '');
            reset();
          }}
          choices={STATUS_CHOICES}
        />
        {emailTemplateId === undefined ? (
          <FilterSelect
            label="Template"
            value={templateFilter}
            onChange={(value) => {
              setTemplateFilter(value);
              reset();
            }}
            choices={templateChoices(templates.data?.items)}
          />
        ) : null}
        <FilterSelect
          label="For device type"
          value={deviceTypeId}
          onChange={(value) => {
            setDeviceTypeId(value);
            reset();
          }}
          choices={typeChoices(types.data?.items)}
        />
        <FilterSelect
          label="For unit"
          value={organizationUnitId}
          onChange={(value) => {
            setUnitId(value);
            reset();
          }}
          choices={unitChoices(units.data?.items)}
        />
      </div>
      <QueryState query={bindings} what="recipient bindings">
        {(page) =>
          page.items.length === 0 ? (
            <Empty>No recipient binding{status || deviceTypeId || organizationUnitId || templateFilter ? ' matches these filters' : ' yet: nobody gets this e-mail'}.</Empty>
          ) : (
            <>
              <p className="small">{page.totalCount} bindings</p>
              <div className="table-wrap">
                <table>
                  <caption className="visually-hidden">Recipient bindings</caption>
                  <thead>
                    <tr>
                      <th scope="col">Recipient</th>
                      {emailTemplateId === undefined ? <th scope="col">Template</th> : null}
                      <th scope="col">Device type</th>
                      <th scope="col">Unit</th>
                      <th scope="col">Status</th>
                      {canWrite ? (
                        <th scope="col">
                          <span className="visually-hidden">Actions</span>
                        </th>
                      ) : null}
                    </tr>
                  </thead>
                  <tbody>
                    {page.items.map((binding) => (
                      <BindingRow
                        key={binding.recipientBindingId}
                        tenantNumber={tenantNumber}
                        binding={binding}
                        showTemplate={emailTemplateId === undefined}
                        canWrite={canWrite}
                        names={names}
                      />
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
      {canWrite ? <CreateBinding tenantNumber={tenantNumber} emailTemplateId={emailTemplateId} /> : null}
    </section>
  );
}

interface Names {
  type: (id: string | null) => string;
  unit: (id: string | null) => string;
  template: (id: string) => string;
  user: (id: string | null) => string;
}

function BindingRow({
  tenantNumber,
  binding,
  showTemplate,
  canWrite,
  names,
}: {
  tenantNumber: number;
  binding: RecipientBinding;
  showTemplate: boolean;
  canWrite: boolean;
  names: Names;
}) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const done = () => queryClient.invalidateQueries({ queryKey: ['recipient-bindings', tenantNumber] });
  const path = { params: { path: { bindingId: binding.recipientBindingId } } };
  const toggle = useMutation({
    mutationFn: () =>
      binding.status === 'active'
        ? unwrap(api.POST('/v1/recipient-bindings/{bindingId}/disable', path))
        : unwrap(api.POST('/v1/recipient-bindings/{bindingId}/reactivate', path)),
    onSuccess: done,
  });
  const recipient = binding.recipientType === 'user' ? names.user(binding.userId) : (binding.email ?? '');
  const columns = 4 + (showTemplate ? 1 : 0) + (canWrite ? 1 : 0);
  return (
    <>
      <tr>
        <td>
          <span className="badge">{binding.recipientType}</span> {recipient}
        </td>
        {showTemplate ? (
          <td>
            <Link to={`/t/${tenantNumber}/email-templates/${binding.emailTemplateId}`}>{names.template(binding.emailTemplateId)}</Link>
          </td>
        ) : null}
        <td>{names.type(binding.deviceTypeId)}</td>
        <td>
          {names.unit(binding.organizationUnitId)}
          {binding.organizationUnitId !== null ? <span className="small">{binding.includeDescendants ? ' and below' : ' only'}</span> : null}
        </td>
        <td>
          <span className={`badge ${binding.status}`}>{binding.status}</span>
        </td>
        {canWrite ? (
          <td>
            <div className="row tight">
              {binding.status === 'active' ? (
                <button type="button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
                  Narrow {recipient}
                </button>
              ) : null}
              <button type="button" onClick={() => toggle.mutate()} disabled={toggle.isPending}>
                {binding.status === 'active' ? 'Disable' : 'Reactivate'} {recipient}
              </button>
            </div>
          </td>
        ) : null}
      </tr>
      {toggle.error ? (
        <tr>
          <td colSpan={columns}>
            <ErrorBox error={toggle.error} />
          </td>
        </tr>
      ) : null}
      {editing ? (
        <tr>
          <td colSpan={columns}>
            <EditBinding tenantNumber={tenantNumber} binding={binding} recipient={recipient} onDone={() => setEditing(false)} />
          </td>
        </tr>
      ) : null}
    </>
  );
}

function ScopeFields({
  tenantNumber,
  deviceTypeId,
  organizationUnitId,
  includeDescendants,
  onChange,
}: {
  tenantNumber: number;
  deviceTypeId: string;
  organizationUnitId: string;
  includeDescendants: boolean;
  onChange: (scope: { deviceTypeId?: string; organizationUnitId?: string; includeDescendants?: boolean }) => void;
}) {
  const types = useDeviceTypes(tenantNumber);
  const units = useUnits(tenantNumber);
  return (
    <>
      <FilterSelect
        label="Only devices of type"
        value={deviceTypeId}
        onChange={(value) => onChange({ deviceTypeId: value })}
        choices={typeChoices(types.data?.items)}
        anyLabel="Any device type"
      />
      <FilterSelect
        label="Only devices in unit"
        value={organizationUnitId}
        onChange={(value) => onChange({ organizationUnitId: value })}
        choices={unitChoices(units.data?.items.filter((unit) => unit.scopeRelation === 'accessible'))}
        anyLabel="Any unit"
      />
      <label className="inline">
        <input
          type="checkbox"
          checked={includeDescendants}
          disabled={organizationUnitId === ''}
          onChange={(event) => onChange({ includeDescendants: event.target.checked })}
        />{' '}
        Include the units below it
      </label>
    </>
  );
}

function EditBinding({ tenantNumber, binding, recipient, onDone }: { tenantNumber: number; binding: RecipientBinding; recipient: string; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [scope, setScope] = useState({
    deviceTypeId: binding.deviceTypeId ?? '',
    organizationUnitId: binding.organizationUnitId ?? '',
    includeDescendants: binding.includeDescendants,
  });
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH('/v1/recipient-bindings/{bindingId}', {
          params: { path: { bindingId: binding.recipientBindingId } },
          // null clears a narrowing: the binding then matches any device type or unit.
          body: {
            deviceTypeId: scope.deviceTypeId || null,
            organizationUnitId: scope.organizationUnitId || null,
            includeDescendants: scope.includeDescendants,
          },
        }),
      ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['recipient-bindings', tenantNumber] });
      onDone();
    },
  });
  return (
    <form
      aria-label={`Narrow the binding of ${recipient}`}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <div className="grid3">
        <ScopeFields tenantNumber={tenantNumber} {...scope} onChange={(change) => setScope({ ...scope, ...change })} />
      </div>
      {save.error ? <FieldErrors error={save.error} /> : null}
      <div className="row">
        <button type="submit" className="primary" disabled={save.isPending}>
          Save binding
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function CreateBinding({ tenantNumber, emailTemplateId }: { tenantNumber: number; emailTemplateId?: string }) {
  const queryClient = useQueryClient();
  const templates = useEmailTemplates(tenantNumber);
  const me = useMe(tenantNumber);
  const canListMembers = can(me.data, tenantNumber, 'memberships:read');
  const members = useTenantMembers(tenantNumber, canListMembers);
  const [templateId, setTemplateId] = useState(emailTemplateId ?? '');
  const [recipientType, setRecipientType] = useState<'user' | 'email'>('email');
  const [userId, setUserId] = useState('');
  const [email, setEmail] = useState('');
  const [scope, setScope] = useState({ deviceTypeId: '', organizationUnitId: '', includeDescendants: true });
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/tenants/{tenantNumber}/recipient-bindings', {
          params: { path: { tenantNumber } },
          body: {
            emailTemplateId: templateId,
            recipientType,
            ...(recipientType === 'user' ? { userId } : { email }),
            ...(scope.deviceTypeId ? { deviceTypeId: scope.deviceTypeId } : {}),
            ...(scope.organizationUnitId ? { organizationUnitId: scope.organizationUnitId, includeDescendants: scope.includeDescendants } : {}),
          },
        }),
      ),
    onSuccess: async () => {
      setEmail('');
      setUserId('');
      await queryClient.invalidateQueries({ queryKey: ['recipient-bindings', tenantNumber] });
    },
  });
  return (
    <details className="card">
      <summary>Add a recipient</summary>
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <div className="grid3">
          {emailTemplateId === undefined ? (
            <label>
              E-mail template
              <select required value={templateId} onChange={(event) => setTemplateId(event.target.value)}>
                <option value="">Choose…</option>
                {templates.data?.items.map((template) => (
                  <option key={template.emailTemplateId} value={template.emailTemplateId}>
                    {template.name}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <fieldset>
            <legend>Recipient</legend>
            <label className="inline">
              <input type="radio" name="recipient-type" checked={recipientType === 'email'} onChange={() => setRecipientType('email')} /> An address
            </label>
            {canListMembers ? (
              <label className="inline">
                <input type="radio" name="recipient-type" checked={recipientType === 'user'} onChange={() => setRecipientType('user')} /> A member of the tenant
              </label>
            ) : null}
          </fieldset>
          {recipientType === 'email' ? (
            <label>
              Recipient address
              <input type="email" required maxLength={254} value={email} onChange={(event) => setEmail(event.target.value)} />
            </label>
          ) : (
            <label>
              Member
              <select required value={userId} onChange={(event) => setUserId(event.target.value)}>
                <option value="">Choose…</option>
                {members.data?.map((member) => (
                  <option key={member.userId} value={member.userId}>
                    {member.label}
                  </option>
                ))}
              </select>
            </label>
          )}
          <ScopeFields tenantNumber={tenantNumber} {...scope} onChange={(change) => setScope({ ...scope, ...change })} />
        </div>
        <p className="small">A member gets the e-mail only for devices they may see; otherwise the delivery log records it as suppressed.</p>
        {create.error ? <FieldErrors error={create.error} /> : null}
        <button type="submit" className="primary" disabled={create.isPending}>
          Add recipient
        </button>
      </form>
    </details>
  );
}
