import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ConstraintErrors } from '../../../shared/database/pg-errors';
import { ConflictError, ResourceNotFoundError } from '../../../shared/errors/domain-error';
import { TenantEntity } from '../../tenancy';

export const duplicateTenantKey = () => new ConflictError('duplicate_key', 'A tenant with this key already exists.');

/** A concurrent create that passed the key check still answers 409, never 500 (the unique index on `tenants.key`). */
export const TENANT_CONSTRAINTS: ConstraintErrors = { tenants_key_key: duplicateTenantKey };

/** Row access of the tenants API; every method runs on the command's transaction manager. */
@Injectable()
export class TenantRepository {
  async find(manager: EntityManager, tenantId: string): Promise<TenantEntity> {
    const tenant = await manager.findOneBy(TenantEntity, { tenantId });
    if (!tenant) throw new ResourceNotFoundError('tenant');
    return tenant;
  }

  /** The tenant, locked until the end of the transaction. */
  async lock(manager: EntityManager, tenantId: string): Promise<TenantEntity> {
    const tenant = await manager.findOne(TenantEntity, { where: { tenantId }, lock: { mode: 'pessimistic_write' } });
    if (!tenant) throw new ResourceNotFoundError('tenant');
    return tenant;
  }

  async assertKeyAvailable(manager: EntityManager, key: string): Promise<void> {
    if (await manager.existsBy(TenantEntity, { key })) throw duplicateTenantKey();
  }
}

/** Whether two metadata maps hold the same entries. */
export function sameMap(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key]);
}
