import { useEffect, useState, type FormEvent } from 'react';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import type { components } from '../../api/schema';
import { canTenantWide, isPlatformAdmin, useMe } from '../../auth/me';
import { DraftEditor, EMPTY_SEED, seedOf, type DraftSeed } from '../../components/blocks/DraftEditor';
import { VersionPanel } from '../../components/blocks/VersionPanel';
import { Empty, ErrorBox, Loading, QueryState, formatTime } from '../../components/status';
import { useTenantInUrl } from '../../tenant';

type Block = components['schemas']['FlowBlockResponse'];

/** A custom block (tenant or global): its versions, the selected one's source and gates, and a new draft. */
export function BlockPage() {
  const tenantNumber = useTenantInUrl();
  const { blockId = '' } = useParams();
  const me = useMe(tenantNumber);
  const [params, setParams] = useSearchParams();
  const [seed, setSeed] = useState<DraftSeed>(EMPTY_SEED);
  const queryClient = useQueryClient();
  const block = useQuery({
    queryKey: ['flow-block', blockId],
    queryFn: () => unwrap(api.GET('/v1/flow-blocks/{flowBlockId}', { params: { path: { flowBlockId: blockId } } })),
  });
  const versions = useInfiniteQuery({
    queryKey: ['flow-block-versions', blockId],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/v1/flow-blocks/{flowBlockId}/versions', {
          params: { path: { flowBlockId: blockId }, query: { limit: 50, ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      ),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const items = versions.data?.pages.flatMap((page) => page.items) ?? [];
  const selected = params.get('version') ?? items[0]?.flowBlockVersionId ?? null;
  const select = (flowBlockVersionId: string) => setParams({ version: flowBlockVersionId }, { replace: false });

  const global = block.data?.scope === 'global';
  const admin = isPlatformAdmin(me.data);
  const canWrite = global ? admin : canTenantWide(me.data, tenantNumber, 'blocks:write');
  const canRelease = global ? admin : canTenantWide(me.data, tenantNumber, 'blocks:release');
  const listPath = tenantNumber === undefined ? '/blocks' : `/t/${tenantNumber}/blocks`;

  return (
    <QueryState query={block} what="the block">
      {(data) => (
        <section aria-labelledby="block-title" className="block-page">
          <p className="small">
            <Link to={listPath}>{tenantNumber === undefined ? 'Global blocks' : 'Custom blocks'}</Link> / {data.name}
          </p>
          <h1 id="block-title">{data.name}</h1>
          <dl className="facts">
            <dt>Key</dt>
            <dd>
              <code>{data.key}</code>
            </dd>
            <dt>Scope</dt>
            <dd>{data.scope === 'global' ? 'global (every tenant)' : 'this tenant'}</dd>
            <dt>Description</dt>
            <dd>{data.description || '—'}</dd>
          </dl>
          {canWrite ? <EditBlock block={data} /> : null}
          <h2>Versions</h2>
          {versions.isPending ? (
            <Loading what="versions" />
          ) : versions.error ? (
            <ErrorBox error={versions.error} onRetry={() => void versions.refetch()} />
          ) : items.length === 0 ? (
            <Empty>No versions yet{canWrite ? ': write the first one below.' : '.'}</Empty>
          ) : (
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">Versions, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Version</th>
                    <th scope="col">Status</th>
                    <th scope="col">Contract</th>
                    <th scope="col">Created</th>
                    <th scope="col">Released</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((version) => (
                    <tr key={version.flowBlockVersionId} aria-current={version.flowBlockVersionId === selected ? 'true' : undefined} className={version.flowBlockVersionId === selected ? 'selected' : undefined}>
                      <td>
                        <button type="button" className="link" onClick={() => select(version.flowBlockVersionId)}>
                          Version {version.versionNumber}
                        </button>
                      </td>
                      <td>
                        <span className={`badge ${version.status}`}>{version.status}</span>
                      </td>
                      <td>{version.scriptContract ? <code>{version.scriptContract}</code> : '—'}</td>
                      <td>{formatTime(version.createdAt)}</td>
                      <td>{formatTime(version.releasedAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {versions.hasNextPage ? (
            <div className="row">
              <button type="button" onClick={() => void versions.fetchNextPage()} disabled={versions.isFetchingNextPage}>
                Show older versions
              </button>
            </div>
          ) : null}
          {selected ? (
            <VersionPanel
              key={selected}
              flowBlockId={blockId}
              flowBlockVersionId={selected}
              canWrite={canWrite}
              canRelease={canRelease}
              onEditAsDraft={(version) => {
                setSeed(seedOf(version, seed.key + 1));
                document.getElementById('draft-title')?.scrollIntoView();
              }}
            />
          ) : null}
          {canWrite ? (
            <DraftEditor
              key={seed.key}
              flowBlockId={blockId}
              seed={seed}
              canLoadRaw={admin}
              onCreated={async (version) => {
                await queryClient.invalidateQueries({ queryKey: ['flow-block-versions', blockId] });
                await queryClient.invalidateQueries({ queryKey: ['flow-block', blockId] });
                select(version.flowBlockVersionId);
                document.getElementById('version-title')?.scrollIntoView();
              }}
            />
          ) : null}
        </section>
      )}
    </QueryState>
  );
}

function EditBlock({ block }: { block: Block }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(block.name);
  const [description, setDescription] = useState(block.description);
  useEffect(() => {
    setName(block.name);
    setDescription(block.description);
  }, [block.name, block.description]);
  const save = useMutation({
    mutationFn: () => unwrap(api.PATCH('/v1/flow-blocks/{flowBlockId}', { params: { path: { flowBlockId: block.flowBlockId } }, body: { name, description } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['flow-block', block.flowBlockId] });
      await queryClient.invalidateQueries({ queryKey: ['flow-blocks'] });
    },
  });
  return (
    <details className="card">
      <summary>Rename or describe the block</summary>
      <form
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
        {save.error ? <ErrorBox error={save.error} /> : null}
        {save.isSuccess ? <p className="notice">Saved.</p> : null}
        <button type="submit" className="primary" disabled={save.isPending}>
          Save
        </button>
      </form>
    </details>
  );
}
