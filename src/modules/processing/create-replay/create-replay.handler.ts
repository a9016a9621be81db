import { randomUUID } from 'node:crypto';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DataSource, EntityManager } from 'typeorm';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { ConflictError, ResourceNotFoundError, ValidationFailedError } from '../../../shared/errors/domain-error';
import type { FieldViolation } from '../../../shared/errors/error-codes';
import { instantOf } from '../../../shared/validation/time-window';
import type { VersionRecord } from '../../../shared/versioning/version-store';
import type { FlowEntity } from '../../flows';
import { FlowRepository, FlowVersionStore } from '../../flows';
import { FlowReplayEntity } from '../persistence/flow-replay.entity';
import { replayInProgress } from '../domain/replay.errors';
import { ReplayResponse } from '../dto/replay.response.dto';
import { REPLAY_JOB, replayJobKey } from '../run-replay/replay-job';
import { CreateReplayCommand } from './create-replay.command';

/**
 * Queues a replay of a released version (default: the active one) over the flow's stored uplinks, with its job
 * and its audit row in one transaction. At most one replay per flow is unfinished: a partial unique index holds
 * it, so of two parallel requests one gets 202 and the other 409 `replay_in_progress`.
 */
@CommandHandler(CreateReplayCommand)
export class CreateReplayHandler implements ICommandHandler<CreateReplayCommand, ReplayResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly unitOfWork: UnitOfWork,
    private readonly flows: FlowRepository,
    private readonly versions: FlowVersionStore,
  ) {}

  async execute({ caller, flowId, body }: CreateReplayCommand): Promise<ReplayResponse> {
    const { access, flow } = await this.flows.resolve(caller.principal, flowId);
    access.require(caller.permission);
    const deviceIds = body.deviceIds ? await this.devicesOf(flow, body.deviceIds) : null;
    const dryRun = body.dryRun ?? false;
    return this.unitOfWork.run(
      async (tx) => {
        // The flow's row lock orders this against activations: the version compared with is the active one.
        const { activeVersionId } = await this.versions.lockParent(tx.manager, flowId);
        const version = await this.versionToReplay(tx.manager, flowId, activeVersionId, body.flowVersionId);
        const comparedWith = dryRun && activeVersionId !== null && activeVersionId !== version.versionId ? activeVersionId : null;
        const replayId = randomUUID();
        await tx.manager.insert(FlowReplayEntity, {
          replayId,
          tenantId: flow.tenantId,
          flowId,
          flowVersionId: version.versionId,
          comparedWithVersionId: comparedWith,
          rangeFrom: new Date(instantOf(body.from)!),
          rangeTo: new Date(instantOf(body.to)!),
          deviceIds,
          dryRun,
          requestedBy: caller.principal.userId,
        });
        await tx.enqueue({ name: REPLAY_JOB, payload: { replayId }, key: replayJobKey(replayId) });
        const replay = await tx.manager.findOneByOrFail(FlowReplayEntity, { replayId });
        await tx.audit({
          eventType: 'flow_replay.created',
          action: 'create',
          entityType: 'flow_replay',
          entityId: replayId,
          tenantId: flow.tenantId,
          metadata: {
            flowId,
            flowVersionId: version.versionId,
            versionNumber: version.versionNumber,
            comparedWith,
            from: replay.rangeFrom.toISOString(),
            to: replay.rangeTo.toISOString(),
            deviceCount: deviceIds?.length ?? null,
            dryRun,
            status: replay.status,
          },
        });
        return ReplayResponse.of(replay);
      },
      { constraints: { flow_replays_one_unfinished: replayInProgress } },
    );
  }

  /** Lower-cased; each must be a device of the flow's device type in its tenant (else 400 `reference_not_found`). */
  private async devicesOf(flow: FlowEntity, requested: string[]): Promise<string[]> {
    const ids = requested.map((id) => id.toLowerCase());
    const rows = await this.dataSource.query<{ device_id: string }[]>(
      `SELECT device_id FROM devices WHERE device_id = ANY($1::uuid[]) AND tenant_id = $2 AND device_type_id = $3`,
      [ids, flow.tenantId, flow.deviceTypeId],
    );
    const found = new Set(rows.map((row) => row.device_id));
    const missing: FieldViolation[] = ids.flatMap((id, index) =>
      found.has(id) ? [] : [{ path: `body.deviceIds[${index}]`, rule: 'reference_not_found' as const, message: 'No device of the flow’s device type has this id.' }],
    );
    if (missing.length > 0) throw new ValidationFailedError(missing);
    return ids;
  }

  /**
   * The named version (a version of another flow is 400 `reference_not_found`), which must be released or be the
   * active one (a deprecated active version still runs live); else the active version (409 `no_active_version`).
   */
  private async versionToReplay(manager: EntityManager, flowId: string, activeVersionId: string | null, requested: string | undefined): Promise<VersionRecord> {
    if (requested === undefined) {
      if (activeVersionId === null) throw new ConflictError('no_active_version', 'The flow has no active version; name a released flowVersionId.');
      return this.versions.findVersion(manager, flowId, activeVersionId);
    }
    const version = await this.versions.findVersion(manager, flowId, requested.toLowerCase()).catch((error: unknown) => {
      if (error instanceof ResourceNotFoundError) {
        throw ValidationFailedError.single('body.flowVersionId', 'reference_not_found', 'This flow has no version with this id.');
      }
      throw error;
    });
    if (version.status !== 'released' && version.versionId !== activeVersionId) {
      throw new ConflictError('version_not_released', `Only a released version can be replayed; this one is ${version.status}.`, { currentStatus: version.status });
    }
    return version;
  }
}
