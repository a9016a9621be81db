import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * One import per tenant at a time, across replicas: a PostgreSQL session advisory lock held on a connection of
 * its own from before the source is read until the import has committed. A replica that dies releases it with its
 * connection, so a crash never leaves a tenant locked.
 */
@Injectable()
export class ImportLock {
  private readonly logger = new Logger(ImportLock.name);

  constructor(private readonly dataSource: DataSource) {}

  /** The release function, or null when another import of the tenant holds the lock. */
  async tryAcquire(tenantId: string): Promise<(() => Promise<void>) | null> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    let locked = false;
    try {
      const rows = (await runner.query(`SELECT pg_try_advisory_lock(hashtext('legacy_import'), hashtext($1)) AS locked`, [tenantId])) as { locked: boolean }[];
      locked = rows[0]?.locked === true;
    } finally {
      if (!locked) await runner.release();
    }
    if (!locked) return null;
    return async () => {
      try {
        await runner.query(`SELECT pg_advisory_unlock(hashtext('legacy_import'), hashtext($1))`, [tenantId]);
      } catch (error) {
        this.logger.warn(`Releasing the import lock failed: ${(error as Error).message}`);
      } finally {
        await runner.release();
      }
    };
  }
}
