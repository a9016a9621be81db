import { ConstraintErrors } from '../../../shared/database/pg-errors';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ConflictError } from '../../../shared/errors/domain-error';
import { OrganizationUnitEntity } from '../../tenancy';
import { unitNotFound } from './organization-unit.reader';

/** At most 16 levels (the migration's CHECK agrees). */
export const MAX_UNIT_DEPTH = 16;

/** The tenancy migration's UNIQUE (tenant_id, key). */
const KEY_CONSTRAINT = 'organization_units_tenant_id_key_key';

const duplicateUnitKey = () => new ConflictError('duplicate_key', 'An organization unit with this key already exists in the tenant.');

/** Row access of the organization-units API. */
@Injectable()
export class OrganizationUnitRepository {
  constructor(private readonly dataSource: DataSource) {}

  get defaultManager(): EntityManager {
    return this.dataSource.manager;
  }

  async find(manager: EntityManager, organizationUnitId: string): Promise<OrganizationUnitEntity> {
    const unit = await manager.findOneBy(OrganizationUnitEntity, { organizationUnitId });
    if (!unit) throw unitNotFound();
    return unit;
  }

  findInTenant(manager: EntityManager, tenantId: string, organizationUnitId: string): Promise<OrganizationUnitEntity | null> {
    return manager.findOneBy(OrganizationUnitEntity, { tenantId, organizationUnitId });
  }

  /** The unit, locked until the end of the transaction. */
  async lock(manager: EntityManager, organizationUnitId: string): Promise<OrganizationUnitEntity> {
    const unit = await manager.findOne(OrganizationUnitEntity, { where: { organizationUnitId }, lock: { mode: 'pessimistic_write' } });
    if (!unit) throw unitNotFound();
    return unit;
  }

  /** The units of a path (a parent and its ancestors), FOR SHARE, root first: a disable of any of them waits for us. */
  lockPathForShare(manager: EntityManager, ids: string[]): Promise<{ organization_unit_id: string; status: string }[]> {
    return manager.query(
      `SELECT organization_unit_id, status FROM organization_units WHERE organization_unit_id = ANY($1::uuid[]) ORDER BY depth FOR SHARE`,
      [ids],
    );
  }

  async assertKeyAvailable(manager: EntityManager, tenantId: string, key: string): Promise<void> {
    if (await manager.existsBy(OrganizationUnitEntity, { tenantId, key })) throw duplicateUnitKey();
  }
}

/** A concurrent create that passed the key check still answers 409 `duplicate_key`, never 500. */
export const UNIT_CONSTRAINTS: ConstraintErrors = { [KEY_CONSTRAINT]: duplicateUnitKey };
