import { randomUUID } from 'node:crypto';
import { ConflictError, ResourceNotFoundError } from '../src/shared/errors/domain-error';
import { UnitOfWork } from '../src/shared/events/unit-of-work';
import { CursorCodec } from '../src/shared/pagination/cursor-codec';
import { immutableVersionsSql, VersionStore } from '../src/shared/versioning/version-store';
import { startTestApp, TestApp } from './support/test-app';

/**
 * The shared versioning piece against real PostgreSQL, on a parent/version table pair this test creates (no
 * module uses the piece yet): numbering under the parent's lock, the moves table, activation with If-Match,
 * rollback audit and the newest-first list.
 */
describe('versioned resources (src/shared/versioning)', () => {
  let t: TestApp;
  let uow: UnitOfWork;
  let store: VersionStore;

  beforeAll(async () => {
    t = await startTestApp();
    await t.dataSource.query(`
      CREATE TABLE widgets (
        widget_id uuid PRIMARY KEY,
        active_version_id uuid,
        lock_version integer NOT NULL DEFAULT 1,
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE TABLE widget_versions (
        widget_version_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        widget_id uuid NOT NULL REFERENCES widgets (widget_id),
        version_number integer NOT NULL,
        status varchar(16) NOT NULL CHECK (status IN ('draft', 'released', 'deprecated')),
        body jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT widget_versions_number_key UNIQUE (widget_id, version_number)
      );
      ALTER TABLE widgets ADD FOREIGN KEY (active_version_id) REFERENCES widget_versions (widget_version_id);
      ${immutableVersionsSql('widget_versions', ['status'])}
    `);
    uow = t.app.get(UnitOfWork);
    store = new VersionStore(
      {
        parentEntityType: 'widget',
        versionEntityType: 'widget_version',
        parent: { table: 'widgets', id: 'widget_id', activeVersion: 'active_version_id', lockVersion: 'lock_version', updatedAt: 'updated_at' },
        version: { table: 'widget_versions', id: 'widget_version_id', parent: 'widget_id', number: 'version_number', status: 'status' },
        parentNotFound: () => new ResourceNotFoundError('widget'),
        versionNotFound: () => new ResourceNotFoundError('widget_version'),
      },
      t.app.get(CursorCodec),
    );
  });
  afterAll(() => t.close());

  async function newWidget(): Promise<string> {
    const widgetId = randomUUID();
    await t.dataSource.query(`INSERT INTO widgets (widget_id) VALUES ($1)`, [widgetId]);
    return widgetId;
  }
  const create = (widgetId: string, body: unknown = { n: 1 }) =>
    uow.run((tx) => store.create(tx, widgetId, { body: JSON.stringify(body) }), { constraints: { widget_versions_number_key: () => new Error('numbering collided') } });
  const move = (widgetId: string, versionId: string, action: 'release' | 'deprecate') => uow.run((tx) => store.transition(tx, widgetId, versionId, action));
  const activate = (widgetId: string, versionId: string, lockVersion: number) => uow.run((tx) => store.activate(tx, widgetId, versionId, lockVersion));
  const auditOf = (entityId: string) =>
    t.dataSource.query<{ event_type: string; action: string; metadata: Record<string, unknown> }[]>(
      `SELECT event_type, action, metadata FROM audit_log WHERE entity_id = $1 ORDER BY occurred_at, audit_log_id`,
      [entityId],
    );
  async function released(widgetId: string): Promise<string> {
    const { versionId } = await create(widgetId);
    await move(widgetId, versionId, 'release');
    return versionId;
  }

  it('numbers parallel creates 1..n without collisions, under the lock on the parent', async () => {
    const widgetId = await newWidget();
    const created = await Promise.all(Array.from({ length: 8 }, (_, i) => create(widgetId, { i })));
    expect(created.map((version) => version.versionNumber).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(created.every((version) => version.status === 'draft')).toBe(true);
    const audit = await auditOf(created[0].versionId);
    expect(audit).toEqual([
      expect.objectContaining({ event_type: 'widget_version.created', action: 'create', metadata: expect.objectContaining({ widgetId, status: 'draft' }) }),
    ]);
  });

  it('keeps versions immutable: content updates and deletes are refused by the database', async () => {
    const widgetId = await newWidget();
    const { versionId } = await create(widgetId, { v: 'original' });
    await expect(t.dataSource.query(`UPDATE widget_versions SET body = '{"v":"edited"}' WHERE widget_version_id = $1`, [versionId])).rejects.toThrow(/immutable/);
    await expect(t.dataSource.query(`DELETE FROM widget_versions WHERE widget_version_id = $1`, [versionId])).rejects.toThrow(/never deleted/);
    const [row] = await t.dataSource.query<{ body: unknown }[]>(`SELECT body FROM widget_versions WHERE widget_version_id = $1`, [versionId]);
    expect(row.body).toEqual({ v: 'original' });
  });

  it('moves draft -> released -> deprecated and answers every unlisted move with invalid_state + currentStatus', async () => {
    const widgetId = await newWidget();
    const { versionId } = await create(widgetId);

    await expect(move(widgetId, versionId, 'deprecate')).rejects.toMatchObject({ code: 'CONFLICT', details: { reason: 'invalid_state', currentStatus: 'draft' } });
    expect((await move(widgetId, versionId, 'release')).status).toBe('released');
    await expect(move(widgetId, versionId, 'release')).rejects.toMatchObject({ details: { reason: 'invalid_state', currentStatus: 'released' } });
    expect((await move(widgetId, versionId, 'deprecate')).status).toBe('deprecated');
    for (const action of ['release', 'deprecate'] as const) {
      await expect(move(widgetId, versionId, action)).rejects.toMatchObject({ details: { reason: 'invalid_state', currentStatus: 'deprecated' } });
    }
    expect((await auditOf(versionId)).map((row) => row.event_type)).toEqual(['widget_version.created', 'widget_version.released', 'widget_version.deprecated']);
    expect((await auditOf(versionId))[1].metadata).toMatchObject({ status: { before: 'draft', after: 'released' }, versionNumber: 1, widgetId });
  });

  it("refuses another parent's version with the version 404", async () => {
    const [a, b] = [await newWidget(), await newWidget()];
    const { versionId } = await create(a);
    await expect(move(b, versionId, 'release')).rejects.toBeInstanceOf(ResourceNotFoundError);
    // The version's 404 comes before If-Match: a stale lockVersion does not reveal anything about it.
    await expect(activate(b, versionId, 99)).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND', details: { resourceType: 'widget_version' } });
    await expect(move(randomUUID(), versionId, 'release')).rejects.toMatchObject({ details: { resourceType: 'widget' } });
  });

  it('activates only a released version, checks If-Match first and refuses the active one again', async () => {
    const widgetId = await newWidget();
    const { versionId: draft } = await create(widgetId);
    await expect(activate(widgetId, draft, 2)).rejects.toMatchObject({ details: { reason: 'lock_version_mismatch', currentLockVersion: 1 } });
    await expect(activate(widgetId, draft, 1)).rejects.toMatchObject({ details: { reason: 'version_not_released', currentStatus: 'draft' } });
    await move(widgetId, draft, 'release');
    const first = await activate(widgetId, draft, 1);
    expect(first).toMatchObject({ rolledBack: false, previous: null, parent: { activeVersionId: draft, lockVersion: 2 } });
    await expect(activate(widgetId, draft, 2)).rejects.toMatchObject({ details: { reason: 'already_active' } });
    await move(widgetId, draft, 'deprecate');
    const other = await released(widgetId);
    await expect(activate(widgetId, draft, 2)).rejects.toMatchObject({ details: { reason: 'version_not_released', currentStatus: 'deprecated' } });
    expect((await activate(widgetId, other, 2)).parent.lockVersion).toBe(3);
  });

  it('lets one of two parallel activations win; the other gets lock_version_mismatch with the new version', async () => {
    const widgetId = await newWidget();
    const [v1, v2] = [await released(widgetId), await released(widgetId)];
    const results = await Promise.allSettled([activate(widgetId, v1, 1), activate(widgetId, v2, 1)]);
    const won = results.filter((result) => result.status === 'fulfilled');
    const lost = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0].reason).toBeInstanceOf(ConflictError);
    expect(lost[0].reason).toMatchObject({ details: { reason: 'lock_version_mismatch', currentLockVersion: 2 } });
    const [row] = await t.dataSource.query<{ lock_version: number }[]>(`SELECT lock_version FROM widgets WHERE widget_id = $1`, [widgetId]);
    expect(row.lock_version).toBe(2);
  });

  it('audits activation as <entity>.activated and a move to a lower number as <entity>.rolled_back', async () => {
    const widgetId = await newWidget();
    const [v1, v2] = [await released(widgetId), await released(widgetId)];
    await activate(widgetId, v1, 1);
    await activate(widgetId, v2, 2);
    await activate(widgetId, v1, 3);
    const audit = await auditOf(widgetId);
    expect(audit.map((row) => [row.event_type, row.action])).toEqual([
      ['widget.activated', 'activate'],
      ['widget.activated', 'activate'],
      ['widget.rolled_back', 'roll_back'],
    ]);
    expect(audit[2].metadata).toEqual({
      versionId: v1,
      versionNumber: { before: 2, after: 1 },
      previousVersionId: v2,
      lockVersion: { before: 3, after: 4 },
    });
  });

  it('lists versions newest first with signed cursors, a status filter and bound filters', async () => {
    const widgetId = await newWidget();
    for (let i = 0; i < 5; i++) await create(widgetId, { i });
    const page = await t.dataSource.query<{ widget_version_id: string }[]>(
      `SELECT widget_version_id FROM widget_versions WHERE widget_id = $1 ORDER BY version_number`,
      [widgetId],
    );
    await move(widgetId, page[1].widget_version_id, 'release');
    await move(widgetId, page[3].widget_version_id, 'release');
    const base = { actorId: 'user-1', scope: `widgets/${widgetId}/versions`, limit: 2 };

    const first = await store.list(t.dataSource.manager, widgetId, base);
    expect(first.items.map((v) => v.versionNumber)).toEqual([5, 4]);
    const second = await store.list(t.dataSource.manager, widgetId, { ...base, cursor: first.nextCursor });
    expect(second.items.map((v) => v.versionNumber)).toEqual([3, 2]);
    const third = await store.list(t.dataSource.manager, widgetId, { ...base, cursor: second.nextCursor });
    expect(third.items.map((v) => v.versionNumber)).toEqual([1]);
    expect(third.nextCursor).toBeUndefined();

    const releasedOnly = await store.list(t.dataSource.manager, widgetId, { ...base, limit: 1, status: 'released' });
    expect(releasedOnly.items.map((v) => [v.versionNumber, v.status])).toEqual([[4, 'released']]);
    const rest = await store.list(t.dataSource.manager, widgetId, { ...base, limit: 1, status: 'released', cursor: releasedOnly.nextCursor });
    expect(rest.items.map((v) => v.versionNumber)).toEqual([2]);
    expect(rest.nextCursor).toBeUndefined();

    expect(() => store.verify({ ...base, cursor: first.nextCursor, status: 'draft' })).toThrow(expect.objectContaining({ details: { fields: [expect.objectContaining({ rule: 'cursor_mismatch' })] } }));
    expect(() => store.verify({ ...base, limit: 3, cursor: first.nextCursor })).toThrow(expect.objectContaining({ details: { fields: [expect.objectContaining({ rule: 'cursor_mismatch' })] } }));
    expect(() => store.verify({ ...base, cursor: `${first.nextCursor}x` })).toThrow(expect.objectContaining({ details: { fields: [expect.objectContaining({ rule: 'cursor_invalid' })] } }));
  });
});
