import type { EntityManager } from 'typeorm';
import { assertLockVersion } from '../concurrency/if-match';
import { ConflictError } from '../errors/domain-error';
import type { TransactionScope } from '../events/unit-of-work';
import { CursorCodec, cursorInvalid } from '../pagination/cursor-codec';
import type { PageRequest } from '../pagination/keyset-paginator';
import type { NewestFirstPage } from '../pagination/newest-first-page';
import { Move, StatusTransitions } from '../state/status-transitions';

export type VersionStatus = 'draft' | 'released' | 'deprecated';
export type VersionAction = 'release' | 'deprecate';

/** `draft -> released -> deprecated` (terminal); a draft is never deprecated, nothing moves back. */
export const VERSION_MOVES: readonly Move<VersionStatus, VersionAction>[] = [
  { from: 'draft', action: 'release', to: 'released', event: 'released' },
  { from: 'released', action: 'deprecate', to: 'deprecated', event: 'deprecated' },
];

/**
 * Where one versioned resource keeps its rows. The parent row (a flow, an e-mail template) holds the active
 * pointer and a lockVersion; each version row holds its parent, its number and its status. The schema must
 * back the numbering with a unique (parent, version number) constraint and refuse changes to a version's
 * content (see `immutableVersionsSql`).
 */
export interface VersionedTables {
  /** Audit entityType of the parent, e.g. `flow`: `flow.activated`, `flow.rolled_back`. */
  parentEntityType: string;
  /** Audit entityType of a version, e.g. `flow_version`: `flow_version.created`, `.released`, `.deprecated`. */
  versionEntityType: string;
  parent: {
    table: string;
    id: string;
    /** Nullable reference to the active version; omit for a resource without an active pointer (custom blocks). */
    activeVersion?: string;
    /** Omit together with `activeVersion`. */
    lockVersion?: string;
    /** The tenant column, for the audit row; omit for a resource outside tenants. */
    tenant?: string;
    /** Touched with the database clock when the active pointer moves. */
    updatedAt?: string;
  };
  version: {
    table: string;
    id: string;
    parent: string;
    number: string;
    status: string;
  };
  /**
   * Whether a move to a lower number is audited as `<parent>.rolled_back` (default true); false audits every move as
   * `<parent>.activated` (the numbers before and after are in its metadata either way).
   */
  auditsRollback?: boolean;
  /** The 404 of the parent (gone between the caller's existence check and the lock). */
  parentNotFound: () => Error;
  /** The 404 (or 400 reference) of a version that is missing or belongs to another parent. */
  versionNotFound: () => Error;
}

export interface ParentRecord {
  parentId: string;
  tenantId: string | null;
  activeVersionId: string | null;
  lockVersion: number;
}

export interface VersionRecord {
  versionId: string;
  parentId: string;
  versionNumber: number;
  status: VersionStatus;
  /** The whole row as PostgreSQL returned it (snake_case columns), for the resource's own response. */
  row: Record<string, unknown>;
}

export interface ActivationResult {
  parent: ParentRecord;
  version: VersionRecord;
  /** The previously active version, if any. */
  previous: VersionRecord | null;
  /** True when the new target's number is lower than the previous active one's. */
  rolledBack: boolean;
}

export interface VersionPageRequest extends Omit<PageRequest, 'filters'> {
  /** Only versions in this status; the filter is bound into the cursor. */
  status?: VersionStatus;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

function quoted(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`VersionStore: "${name}" is not a plain lower-case SQL identifier`);
  return `"${name}"`;
}

/**
 * The shared piece behind every "draft -> released -> deprecated" resource with an active pointer (flows,
 * custom blocks, flow templates, e-mail templates), parameterised by its tables. Every write method runs in the
 * caller's transaction and locks the parent row first, so writes to one resource's versions run one at a time.
 */
export class VersionStore {
  private readonly transitions: StatusTransitions<VersionStatus, VersionAction>;
  private readonly p: { table: string; id: string; activeVersion: string | null; lockVersion: string | null; tenant: string | null; updatedAt: string | null };
  private readonly v: VersionedTables['version'];

  constructor(
    private readonly tables: VersionedTables,
    private readonly codec: CursorCodec,
  ) {
    const { parent, version } = tables;
    this.p = {
      table: quoted(parent.table),
      id: quoted(parent.id),
      activeVersion: parent.activeVersion ? quoted(parent.activeVersion) : null,
      lockVersion: parent.lockVersion ? quoted(parent.lockVersion) : null,
      tenant: parent.tenant ? quoted(parent.tenant) : null,
      updatedAt: parent.updatedAt ? quoted(parent.updatedAt) : null,
    };
    this.v = {
      table: quoted(version.table),
      id: quoted(version.id),
      parent: quoted(version.parent),
      number: quoted(version.number),
      status: quoted(version.status),
    };
    this.transitions = new StatusTransitions(tables.versionEntityType, VERSION_MOVES);
  }

  /** The parent row FOR UPDATE; its 404 when missing. */
  async lockParent(manager: EntityManager, parentId: string): Promise<ParentRecord> {
    const { p } = this;
    const [row] = await manager.query<Record<string, unknown>[]>(
      `SELECT ${p.id} AS "parentId", ${p.tenant ?? 'NULL'} AS "tenantId", ${p.activeVersion ?? 'NULL'} AS "activeVersionId", ${p.lockVersion ?? '1'} AS "lockVersion"
         FROM ${p.table} WHERE ${p.id} = $1 FOR UPDATE`,
      [parentId],
    );
    if (!row) throw this.tables.parentNotFound();
    return {
      parentId: String(row.parentId),
      tenantId: row.tenantId === null ? null : String(row.tenantId),
      activeVersionId: row.activeVersionId === null ? null : String(row.activeVersionId),
      lockVersion: Number(row.lockVersion),
    };
  }

  /**
   * A new `draft` numbered max + 1 under the parent's lock (parallel creates never collide), with the given
   * content columns; audited as `<version>.created`.
   */
  async create(tx: TransactionScope, parentId: string, columns: Record<string, unknown>, metadata: Record<string, unknown> = {}): Promise<VersionRecord> {
    const { v } = this;
    const parent = await this.lockParent(tx.manager, parentId);
    const names = Object.keys(columns).map(quoted);
    const values = Object.values(columns);
    const placeholders = values.map((_, index) => `$${index + 3}`);
    const [row] = await tx.manager.query<Record<string, unknown>[]>(
      `INSERT INTO ${v.table} (${[v.parent, v.number, v.status, ...names].join(', ')})
       VALUES ($1, (SELECT COALESCE(MAX(${v.number}), 0) + 1 FROM ${v.table} WHERE ${v.parent} = $2), 'draft'${placeholders.map((ph) => `, ${ph}`).join('')})
       RETURNING *`,
      [parentId, parentId, ...values],
    );
    const version = this.recordOf(row);
    await tx.audit({
      eventType: `${this.tables.versionEntityType}.created`,
      action: 'create',
      entityType: this.tables.versionEntityType,
      entityId: version.versionId,
      tenantId: parent.tenantId,
      metadata: { ...metadata, [this.parentKey]: parentId, versionNumber: version.versionNumber, status: version.status },
    });
    return version;
  }

  /**
   * `release` (draft -> released) or `deprecate` (released -> deprecated); any other move is 409 `invalid_state`
   * with `currentStatus`. `gate` runs after the move is known to be listed and before the write (e.g. the
   * release's compile check); what it returns is added to the audit metadata. Audited as `<version>.released` / `.deprecated`.
   */
  async transition(
    tx: TransactionScope,
    parentId: string,
    versionId: string,
    action: VersionAction,
    gate?: (version: VersionRecord) => Promise<Record<string, unknown> | void>,
  ): Promise<VersionRecord> {
    const { v } = this;
    const parent = await this.lockParent(tx.manager, parentId);
    await this.transitions.apply(tx, {
      action,
      lock: () => this.findVersion(tx.manager, parentId, versionId),
      update: async (version, move) => {
        const extra = (await gate?.(version)) ?? {};
        await tx.manager.query(`UPDATE ${v.table} SET ${v.status} = $2 WHERE ${v.id} = $1`, [versionId, move.to]);
        return { ...extra, [this.parentKey]: parentId, versionNumber: version.versionNumber };
      },
      entityId: versionId,
      tenantId: parent.tenantId,
    });
    return this.findVersion(tx.manager, parentId, versionId);
  }

  /**
   * Points the parent at `versionId`, checked in this order: parent 404, version 404, If-Match (409
   * `lock_version_mismatch` + `currentLockVersion`), 409 `version_not_released` (+`currentStatus`), 409 `already_active`.
   * Bumps the parent's lockVersion; audited as `<parent>.activated`, or `<parent>.rolled_back` when the new
   * target's number is lower than the active one's (unless `auditsRollback` is false).
   */
  async activate(tx: TransactionScope, parentId: string, versionId: string, expectedLockVersion: number): Promise<ActivationResult> {
    const { p } = this;
    if (!p.activeVersion || !p.lockVersion) throw new Error(`VersionStore: ${this.tables.parent.table} has no active pointer`);
    const parent = await this.lockParent(tx.manager, parentId);
    const version = await this.findVersion(tx.manager, parentId, versionId);
    assertLockVersion(parent.lockVersion, expectedLockVersion);
    if (version.status !== 'released') {
      throw new ConflictError('version_not_released', `Only a released version can be activated; this one is ${version.status}.`, {
        currentStatus: version.status,
      });
    }
    if (parent.activeVersionId === version.versionId) {
      throw new ConflictError('already_active', `Version ${version.versionNumber} is already the active version.`);
    }
    const previous = parent.activeVersionId === null ? null : await this.findVersion(tx.manager, parentId, parent.activeVersionId);
    const rolledBack = previous !== null && version.versionNumber < previous.versionNumber;
    await tx.manager.query(
      `UPDATE ${p.table} SET ${p.activeVersion} = $2, ${p.lockVersion} = ${p.lockVersion} + 1${p.updatedAt ? `, ${p.updatedAt} = clock_timestamp()` : ''}
        WHERE ${p.id} = $1`,
      [parentId, version.versionId],
    );
    const after = { ...parent, activeVersionId: version.versionId, lockVersion: parent.lockVersion + 1 };
    const auditedAsRollback = rolledBack && this.tables.auditsRollback !== false;
    await tx.audit({
      eventType: `${this.tables.parentEntityType}.${auditedAsRollback ? 'rolled_back' : 'activated'}`,
      action: auditedAsRollback ? 'roll_back' : 'activate',
      entityType: this.tables.parentEntityType,
      entityId: parentId,
      tenantId: parent.tenantId,
      metadata: {
        versionId: version.versionId,
        versionNumber: { before: previous?.versionNumber ?? null, after: version.versionNumber },
        previousVersionId: previous?.versionId ?? null,
        lockVersion: { before: parent.lockVersion, after: after.lockVersion },
      },
    });
    return { parent: after, version, previous, rolledBack };
  }

  /** A version of this parent, or the version 404 (also for another parent's version). */
  async findVersion(manager: EntityManager, parentId: string, versionId: string): Promise<VersionRecord> {
    const { v } = this;
    const [row] = await manager.query<Record<string, unknown>[]>(`SELECT * FROM ${v.table} WHERE ${v.id} = $1 AND ${v.parent} = $2`, [versionId, parentId]);
    if (!row) throw this.tables.versionNotFound();
    return this.recordOf(row);
  }

  /** Checks a cursor without reading (a bad cursor is a 400 before the tenant and parent lookups). */
  verify(request: VersionPageRequest): void {
    this.positionOf(request);
  }

  /**
   * One page of the parent's versions, newest first (versionNumber desc), no total; the limit (1..100) is the
   * request DTO's to validate. `scope` should name the parent (`flows/<id>/versions`) so a cursor of one
   * parent's list is refused on another's.
   */
  async list(manager: EntityManager, parentId: string, request: VersionPageRequest): Promise<NewestFirstPage<VersionRecord>> {
    const { v } = this;
    const after = this.positionOf(request);
    const params: unknown[] = [parentId];
    let where = `${v.parent} = $1`;
    if (request.status !== undefined) {
      params.push(request.status);
      where += ` AND ${v.status} = $${params.length}`;
    }
    if (after !== null) {
      params.push(after);
      where += ` AND ${v.number} < $${params.length}`;
    }
    params.push(request.limit + 1);
    const rows = await manager.query<Record<string, unknown>[]>(
      `SELECT * FROM ${v.table} WHERE ${where} ORDER BY ${v.number} DESC LIMIT $${params.length}`,
      params,
    );
    const items = rows.slice(0, request.limit).map((row) => this.recordOf(row));
    if (rows.length <= request.limit) return { items };
    return { items, nextCursor: this.codec.encode(this.bindingOf(request), [items[items.length - 1].versionNumber]) };
  }

  private get parentKey(): string {
    return `${this.tables.parentEntityType.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())}Id`;
  }

  private bindingOf(request: VersionPageRequest): PageRequest {
    return { actorId: request.actorId, scope: request.scope, limit: request.limit, cursor: request.cursor, filters: { status: request.status ?? null } };
  }

  private positionOf(request: VersionPageRequest): number | null {
    if (request.cursor === undefined) return null;
    const binding = this.bindingOf(request);
    const [number, ...rest] = this.codec.decode(request.cursor, binding);
    if (typeof number !== 'number' || !Number.isInteger(number) || rest.length > 0) throw cursorInvalid();
    return number;
  }

  private recordOf(row: Record<string, unknown> | undefined): VersionRecord {
    if (!row) throw new Error('VersionStore: the statement returned no row');
    const { version } = this.tables;
    return {
      versionId: String(row[version.id]),
      parentId: String(row[version.parent]),
      versionNumber: Number(row[version.number]),
      status: row[version.status] as VersionStatus,
      row,
    };
  }
}

/**
 * Migration SQL that makes a version table's rows immutable: an UPDATE may change only `mutableColumns` (the
 * status and its timestamps), and rows are never deleted. Editing a version means creating a new draft.
 */
export function immutableVersionsSql(table: string, mutableColumns: readonly string[]): string {
  const t = quoted(table);
  const fn = quoted(`${table}_immutable`);
  const except = mutableColumns.map((column) => ` - '${quoted(column).slice(1, -1)}'`).join('');
  return `
CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'versions of ${table} are never deleted' USING ERRCODE = 'integrity_constraint_violation', CONSTRAINT = '${table}_immutable';
  END IF;
  IF (to_jsonb(NEW)${except}) IS DISTINCT FROM (to_jsonb(OLD)${except}) THEN
    RAISE EXCEPTION 'versions of ${table} are immutable' USING ERRCODE = 'integrity_constraint_violation', CONSTRAINT = '${table}_immutable';
  END IF;
  RETURN NEW;
END
$fn$;
CREATE TRIGGER ${quoted(`${table}_immutable`)} BEFORE UPDATE OR DELETE ON ${t} FOR EACH ROW EXECUTE FUNCTION ${fn}();`;
}
