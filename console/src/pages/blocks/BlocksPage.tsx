import { useState, type FormEvent } from 'react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { api, unwrap } from '../../api/client';
import { canTenantWide, isPlatformAdmin, useMe } from '../../auth/me';
import { Empty, ErrorBox, Loading, formatTime } from '../../components/status';
import { useTenantInUrl } from '../../tenant';

/** Where a block's page lives: under its tenant, or at the top level for global blocks. */
export const blockPath = (tenantNumber: number | undefined, flowBlockId: string) =>
  tenantNumber === undefined ? `/blocks/${flowBlockId}` : `/t/${tenantNumber}/blocks/${flowBlockId}`;

/** Custom blocks of a tenant (under `/t/:n/blocks`) or the global ones (`/blocks`), searchable, with a create form. */
export function BlocksPage() {
  const tenantNumber = useTenantInUrl();
  const me = useMe(tenantNumber);
  const [q, setQ] = useState('');
  const [search, setSearch] = useState('');
  const global = tenantNumber === undefined;
  const blocks = useInfiniteQuery({
    queryKey: ['flow-blocks', tenantNumber ?? 'global', search],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => {
      const query = { limit: 50 as const, ...(search ? { q: search } : {}), ...(pageParam ? { cursor: pageParam } : {}) };
      return global
        ? unwrap(api.GET('/v1/flow-blocks', { params: { query } }))
        : unwrap(api.GET('/v1/tenants/{tenantNumber}/flow-blocks', { params: { path: { tenantNumber }, query } }));
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const canWrite = global ? isPlatformAdmin(me.data) : canTenantWide(me.data, tenantNumber, 'blocks:write');
  const items = blocks.data?.pages.flatMap((page) => page.items) ?? [];
  const title = global ? 'Global blocks' : 'Custom blocks';
  return (
    <section aria-labelledby="blocks-title">
      <h1 id="blocks-title">{title}</h1>
      <p className="muted">
        {global
          ? 'Scripts every tenant can use in its flows and that flow templates may use. Platform administrators write and release them.'
          : 'Scripts of this tenant for its flows: payload codecs (TTN decodeUplink, ChirpStack Decode) and transforms. Every version is immutable; a released one can be used in a flow.'}
        {global ? null : (
          <>
            {' '}
            <Link to="/blocks">Global blocks</Link> are available too.
          </>
        )}
      </p>
      <form
        className="filters"
        role="search"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          setSearch(q.trim());
        }}
      >
        <label>
          Search blocks
          <input type="search" value={q} maxLength={200} onChange={(event) => setQ(event.target.value)} />
        </label>
        <button type="submit">Search</button>
      </form>
      {blocks.isPending ? (
        <Loading what="blocks" />
      ) : blocks.error ? (
        <ErrorBox error={blocks.error} onRetry={() => void blocks.refetch()} />
      ) : items.length === 0 ? (
        <Empty>{search ? 'No block matches.' : 'No blocks yet.'}</Empty>
      ) : (
        <>
          <p className="small">{blocks.data.pages[0]?.totalCount ?? items.length} blocks</p>
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">{title}</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Latest version</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {items.map((block) => (
                  <tr key={block.flowBlockId}>
                    <td>
                      <Link to={blockPath(tenantNumber, block.flowBlockId)}>{block.name}</Link>
                      {block.description ? <div className="small">{block.description}</div> : null}
                    </td>
                    <td>
                      <code>{block.key}</code>
                    </td>
                    <td>{block.latestVersionNumber ?? '—'}</td>
                    <td>{formatTime(block.updatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {blocks.hasNextPage ? (
            <div className="row">
              <button type="button" onClick={() => void blocks.fetchNextPage()} disabled={blocks.isFetchingNextPage}>
                Show more blocks
              </button>
            </div>
          ) : null}
        </>
      )}
      {canWrite ? <CreateBlock tenantNumber={tenantNumber} /> : null}
    </section>
  );
}

function CreateBlock({ tenantNumber }: { tenantNumber: number | undefined }) {
  const [key, setKey] = useState('');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: () => {
      const body = { key, name, description };
      return tenantNumber === undefined
        ? unwrap(api.POST('/v1/flow-blocks', { body }))
        : unwrap(api.POST('/v1/tenants/{tenantNumber}/flow-blocks', { params: { path: { tenantNumber } }, body }));
    },
    onSuccess: async (block) => {
      await queryClient.invalidateQueries({ queryKey: ['flow-blocks'] });
      navigate(blockPath(tenantNumber, block.flowBlockId));
    },
  });
  return (
    <details className="card">
      <summary>Create a block</summary>
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <div className="grid2">
          <label>
            Block key
            <input required pattern="[a-z0-9][a-z0-9._\-]{0,127}" maxLength={128} value={key} onChange={(event) => setKey(event.target.value)} />
          </label>
          <label>
            Block name
            <input required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />
          </label>
        </div>
        <label>
          Description
          <input maxLength={500} value={description} onChange={(event) => setDescription(event.target.value)} />
        </label>
        <p className="small">The key is permanent: lower-case letters, digits, dots, dashes and underscores.</p>
        {create.error ? <ErrorBox error={create.error} /> : null}
        <button type="submit" className="primary" disabled={create.isPending}>
          Create the block
        </button>
      </form>
    </details>
  );
}
