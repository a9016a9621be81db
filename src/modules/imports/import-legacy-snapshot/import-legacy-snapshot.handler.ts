import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccessService } from '../../../shared/access/access.service';
import type { AuditEntry } from '../../../shared/audit/audit-writer';
import type { Actor } from '../../../shared/context/request-context';
import { ConflictError, DependencyFailureError } from '../../../shared/errors/domain-error';
import { TransactionScope, UnitOfWork } from '../../../shared/events/unit-of-work';
import { DeviceBulkStore } from '../../devices';
import { DeviceTypeBulkStore } from '../../device-types';
import { BaseUrlPolicy } from '../domain/base-url-policy';
import { devEuisOf, ImportPlan, MAX_ISSUES, planImport, typeKeysOf } from '../domain/legacy-import-plan';
import { ImportResultResponse } from '../dto/import-result.response.dto';
import { ImportLock } from '../persistence/import-lock';
import { LegacySnapshot, LegacySourceClient } from '../source/legacy-source.client';
import { SourceFailure } from '../source/source-failure';
import { ImportLegacySnapshotCommand } from './import-legacy-snapshot.command';

/** Plans computed again when a devEui or key was taken concurrently between reading and inserting. */
const MAX_ATTEMPTS = 5;

/**
 * Reads the legacy snapshot, then creates its valid device types and devices in the target tenant in one
 * transaction, create-only: existing records are never changed. The plan is made inside that transaction from what
 * the target holds; a devEui or key another transaction takes between that read and the insert (the insert skips
 * it, waiting for that transaction if needed) makes the plan be made again, so a concurrent device creation ends as
 * `existing` or `device_exists_in_other_tenant`, never as a failure. A dry run makes the same plan and persists
 * nothing but its `import.previewed` audit event.
 */
@CommandHandler(ImportLegacySnapshotCommand)
export class ImportLegacySnapshotHandler implements ICommandHandler<ImportLegacySnapshotCommand, ImportResultResponse> {
  constructor(
    private readonly policy: BaseUrlPolicy,
    private readonly source: LegacySourceClient,
    private readonly accessService: AccessService,
    private readonly unitOfWork: UnitOfWork,
    private readonly lock: ImportLock,
    private readonly types: DeviceTypeBulkStore,
    private readonly devices: DeviceBulkStore,
  ) {}

  async execute({ principal, tenantNumber, input, dryRun }: ImportLegacySnapshotCommand): Promise<ImportResultResponse> {
    const base = this.policy.accept(input.baseUrl);
    const { tenant } = await this.accessService.tenantByNumber(principal, tenantNumber);
    if (tenant.status !== 'active') throw tenantDisabled();
    const tenantId = tenant.tenantId;
    const actor: Actor = { actorType: 'import', actorId: principal.userId };
    const sourceHost = base.url.host;

    const release = dryRun ? null : await this.lock.tryAcquire(tenantId);
    if (!dryRun && !release) throw new ConflictError('import_in_progress', 'Another import into this tenant is running; try again when it has finished.');
    try {
      let snapshot: LegacySnapshot;
      try {
        snapshot = await this.source.fetchSnapshot(base, { username: input.username, password: input.password });
      } catch (error) {
        if (!(error instanceof SourceFailure)) throw error;
        // Audited in a transaction of its own: nothing else of the import exists.
        await this.unitOfWork.run((tx) =>
          tx.audit({
            eventType: 'import.failed',
            action: dryRun ? 'preview' : 'import',
            entityType: 'import',
            entityId: tenantId,
            tenantId,
            outcome: 'failure',
            errorCode: 'DEPENDENCY_FAILURE',
            status: 502,
            actor,
            metadata: { reason: error.reason, sourceHost, dryRun },
          }),
        );
        throw new DependencyFailureError('import_source', error.reason, error.message);
      }

      return await this.unitOfWork.run(async (tx) => {
        // The source may take a minute: the tenant is checked again, and kept from being disabled until the commit.
        const [current] = await tx.manager.query<{ status: string }[]>(`SELECT status FROM tenants WHERE tenant_id = $1 FOR SHARE`, [tenantId]);
        if (current?.status !== 'active') throw tenantDisabled();
        const plan = dryRun ? await this.plan(tx, snapshot, tenantId) : await this.persist(tx, snapshot, tenantId, actor);
        const result = resultOf(plan, snapshot, tenantId);
        await tx.audit({
          eventType: dryRun ? 'import.previewed' : 'import.completed',
          action: dryRun ? 'preview' : 'import',
          entityType: 'import',
          entityId: tenantId,
          tenantId,
          actor,
          metadata: {
            source: result.source,
            deviceTypes: result.deviceTypes,
            devices: result.devices,
            issueCount: plan.issues.length,
            sourceHost,
          },
        });
        return result;
      });
    } finally {
      await release?.();
    }
  }

  private async plan(tx: TransactionScope, snapshot: LegacySnapshot, tenantId: string): Promise<ImportPlan> {
    const types = await this.types.findByKeys(tx.manager, tenantId, typeKeysOf(snapshot));
    const holders = await this.devices.findHolders(tx.manager, devEuisOf(snapshot));
    return planImport(snapshot, {
      tenantId,
      typesByKey: new Map(types.map((type) => [type.key, type])),
      devicesByDevEui: new Map(holders.map((holder) => [holder.devEui, holder])),
    });
  }

  /** Plans and inserts behind a savepoint, planning again if a concurrent transaction took a key or devEui. */
  private async persist(tx: TransactionScope, snapshot: LegacySnapshot, tenantId: string, actor: Actor): Promise<ImportPlan> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await tx.manager.query('SAVEPOINT legacy_import');
      const plan = await this.plan(tx, snapshot, tenantId);
      const createdTypes = await this.types.insertNew(tx.manager, tenantId, plan.newTypes);
      const createdDevices = createdTypes.size === plan.newTypes.length ? await this.devices.insertNew(tx.manager, tenantId, plan.newDevices) : new Set();
      if (createdTypes.size !== plan.newTypes.length || createdDevices.size !== plan.newDevices.length) {
        await tx.manager.query('ROLLBACK TO SAVEPOINT legacy_import');
        continue;
      }
      await tx.manager.query('RELEASE SAVEPOINT legacy_import');
      const audits: AuditEntry[] = [
        ...plan.newTypes.map((type) => ({
          eventType: 'device_type.created',
          action: 'create',
          entityType: 'device_type',
          entityId: type.deviceTypeId,
          tenantId,
          actor,
          metadata: { key: type.key, name: type.name, lockVersion: 1 },
        })),
        ...plan.newDevices.map((device) => ({
          eventType: 'device.created',
          action: 'create',
          entityType: 'device',
          entityId: device.deviceId,
          tenantId,
          actor,
          metadata: { devEui: device.devEui, deviceTypeId: device.deviceTypeId, name: device.name, organizationUnitId: null },
        })),
      ];
      await tx.auditMany(audits);
      return plan;
    }
    throw new ConflictError('import_in_progress', 'Devices or device types with the snapshot’s devEuis or keys kept being created meanwhile; try again.');
  }
}

const tenantDisabled = () => new ConflictError('tenant_disabled', 'The tenant is disabled: nothing can be imported into it.');

function resultOf(plan: ImportPlan, snapshot: LegacySnapshot, targetTenantId: string): ImportResultResponse {
  return {
    targetTenantId,
    completedAt: new Date().toISOString(),
    source: { tenantCount: snapshot.tenantCount, deviceTypeCount: snapshot.deviceTypes.length, deviceCount: snapshot.devices.length },
    deviceTypes: plan.deviceTypes,
    devices: plan.devices,
    issues: plan.issues.slice(0, MAX_ISSUES),
  };
}
