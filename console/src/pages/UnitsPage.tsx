import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { can, canTenantWide, useMe } from '../auth/me';
import { Empty, ErrorBox, Loading } from '../components/status';
import { useTenantNumber } from '../tenant';

type Unit = components['schemas']['OrganizationUnitResponse'];

function useChildren(tenantNumber: number, parentId: string | null, enabled = true) {
  return useQuery({
    queryKey: ['organization-units', tenantNumber, 'children', parentId],
    enabled,
    queryFn: () =>
      unwrap(
        api.GET('/v1/tenants/{tenantNumber}/organization-units', {
          params: { path: { tenantNumber }, query: { limit: 100, ...(parentId ? { parentOrganizationUnitId: parentId } : {}) } },
        }),
      ),
  });
}

/**
 * The organization-unit tree, one level at a time (children load when a unit is opened, `hasChildren` says
 * whether there are any). Units outside the caller's scope appear only as greyed ancestors to navigate through.
 */
export function UnitsPage() {
  const tenantNumber = useTenantNumber();
  const me = useMe(tenantNumber);
  const roots = useChildren(tenantNumber, null);
  const canWrite = can(me.data, tenantNumber, 'organization-units:write');
  return (
    <section aria-labelledby="units-title">
      <h1 id="units-title">Organization units</h1>
      {roots.isPending ? (
        <Loading what="units" />
      ) : roots.error ? (
        <ErrorBox error={roots.error} onRetry={() => void roots.refetch()} />
      ) : roots.data.items.length === 0 ? (
        <Empty>No units yet.</Empty>
      ) : (
        <ul className="tree" aria-label="Organization units">
          {roots.data.items.map((unit) => (
            <UnitNode key={unit.organizationUnitId} unit={unit} tenantNumber={tenantNumber} canWrite={canWrite} />
          ))}
        </ul>
      )}
      {canTenantWide(me.data, tenantNumber, 'organization-units:write') ? <CreateUnit tenantNumber={tenantNumber} parent={null} /> : null}
    </section>
  );
}

function UnitNode({ unit, tenantNumber, canWrite }: { unit: Unit; tenantNumber: number; canWrite: boolean }) {
  const [open, setOpen] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const [adding, setAdding] = useState(false);
  const [name, setName] = useState(unit.name);
  const children = useChildren(tenantNumber, unit.organizationUnitId, open);
  const queryClient = useQueryClient();
  const done = () => queryClient.invalidateQueries({ queryKey: ['organization-units', tenantNumber] });
  const rename = useMutation({
    mutationFn: () => unwrap(api.PATCH('/v1/organization-units/{organizationUnitId}', { params: { path: { organizationUnitId: unit.organizationUnitId } }, body: { name } })),
    onSuccess: async () => {
      setRenaming(false);
      await done();
    },
  });
  const toggle = useMutation({
    mutationFn: () => {
      const params = { params: { path: { organizationUnitId: unit.organizationUnitId } } };
      return unit.status === 'active'
        ? unwrap(api.POST('/v1/organization-units/{organizationUnitId}/disable', params))
        : unwrap(api.POST('/v1/organization-units/{organizationUnitId}/reactivate', params));
    },
    onSuccess: done,
  });
  const accessible = unit.scopeRelation === 'accessible';
  return (
    <li>
      <div className={`unit${accessible ? '' : ' ancestor'}${unit.effectiveStatus === 'disabled' ? ' disabled' : ''}`}>
        {unit.hasChildren ? (
          <button type="button" className="twisty" aria-expanded={open} aria-label={`${open ? "Close" : "Open"} ${unit.name}`} onClick={() => setOpen(!open)}>
            {open ? '▾' : '▸'}
          </button>
        ) : (
          <span className="twisty" aria-hidden="true" />
        )}
        {renaming ? (
          <form
            className="inline-form"
            onSubmit={(event: FormEvent) => {
              event.preventDefault();
              rename.mutate();
            }}
          >
            <input aria-label={`New name of ${unit.name}`} required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />
            <button type="submit">Save</button>
          </form>
        ) : (
          <span className="unit-name">{unit.name}</span>
        )}
        <code className="small">{unit.key}</code>
        {!accessible ? <span className="small">(outside your access, shown to navigate)</span> : null}
        {unit.effectiveStatus === 'disabled' ? <span className="badge disabled">disabled</span> : null}
        {canWrite && accessible ? (
          <span className="row tight">
            <button type="button" onClick={() => setRenaming(!renaming)}>
              Rename
            </button>
            <button type="button" onClick={() => setAdding(!adding)}>
              Add a unit below
            </button>
            <button type="button" onClick={() => toggle.mutate()} disabled={toggle.isPending}>
              {unit.status === 'active' ? 'Disable' : 'Reactivate'}
            </button>
          </span>
        ) : null}
      </div>
      {rename.error ? <ErrorBox error={rename.error} /> : null}
      {toggle.error ? <ErrorBox error={toggle.error} /> : null}
      {adding ? <CreateUnit tenantNumber={tenantNumber} parent={unit} onCreated={() => (setAdding(false), setOpen(true))} /> : null}
      {open ? (
        children.isPending ? (
          <Loading what={`units below ${unit.name}`} />
        ) : children.error ? (
          <ErrorBox error={children.error} onRetry={() => void children.refetch()} />
        ) : (
          <ul>
            {children.data.items.map((child) => (
              <UnitNode key={child.organizationUnitId} unit={child} tenantNumber={tenantNumber} canWrite={canWrite} />
            ))}
          </ul>
        )
      ) : null}
    </li>
  );
}

function CreateUnit({ tenantNumber, parent, onCreated }: { tenantNumber: number; parent: Unit | null; onCreated?: () => void }) {
  const [key, setKey] = useState('');
  const [name, setName] = useState('');
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/tenants/{tenantNumber}/organization-units', {
          params: { path: { tenantNumber } },
          body: { key, name, ...(parent ? { parentOrganizationUnitId: parent.organizationUnitId } : {}) },
        }),
      ),
    onSuccess: async () => {
      setKey('');
      setName('');
      await queryClient.invalidateQueries({ queryKey: ['organization-units', tenantNumber] });
      onCreated?.();
    },
  });
  const form = (
    <form
      className="filters"
      aria-label={parent ? `New unit below ${parent.name}` : 'New top-level unit'}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        create.mutate();
      }}
    >
      <label>
        Unit key
        <input required pattern="[a-z0-9][a-z0-9._\-]{0,63}" value={key} onChange={(event) => setKey(event.target.value)} />
      </label>
      <label>
        Unit name
        <input required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />
      </label>
      <button type="submit" className="primary" disabled={create.isPending}>
        Create unit
      </button>
      {create.error ? <ErrorBox error={create.error} /> : null}
    </form>
  );
  if (parent) return form;
  return (
    <details className="card">
      <summary>Create a top-level unit</summary>
      {form}
    </details>
  );
}
