import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ConflictError, ResourceNotFoundError } from '../../../shared/errors/domain-error';
import { TenantEntity } from '../../tenancy/domain/tenant.entity';

/** The tenancy migration's unique index on `tenants.key`. */
const KEY_CONSTRAINT = 'tenants_key_key';

export const duplicateTenantKey = () => new ConflictError('duplicate_key', 'A tenant with this key already exists.');

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

/** A concurrent create that passed the key check still answers 409, never 500 (unique violation 23505). */
export async function withDuplicateKeyAsConflict<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error, KEY_CONSTRAINT)) throw duplicateTenantKey();
    throw error;
  }
}

export function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 3; depth++) {
    const candidate = current as { code?: unknown; constraint?: unknown; driverError?: unknown };
    if (candidate.code === '23505') return candidate.constraint === constraint;
    current = candidate.driverError;
  }
  return false;
}

/** Whether two metadata maps hold the same entries. */
export function sameMap(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key]);
}
