import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { DomainError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { FlowRepository } from '../persistence/flow.repository';
import { compileFailure, FlowValidator } from '../domain/flow-validator';
import { FlowVersionResponse } from '../dto/flow-version.response.dto';
import { FlowVersionStore } from '../persistence/flow-version.store';
import { ReleaseFlowVersionCommand } from './release-flow-version.command';

/**
 * `draft -> released` when the draft compiles without errors: records the checksum and `releasedAt`; does not
 * activate. A refused release is 422 FLOW_FAILURE with the issues, audited as a failure.
 */
@CommandHandler(ReleaseFlowVersionCommand)
export class ReleaseFlowVersionHandler implements ICommandHandler<ReleaseFlowVersionCommand, FlowVersionResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly unitOfWork: UnitOfWork,
    private readonly flows: FlowRepository,
    private readonly versions: FlowVersionStore,
    private readonly validator: FlowValidator,
  ) {}

  async execute({ caller, flowId, flowVersionId }: ReleaseFlowVersionCommand): Promise<FlowVersionResponse> {
    const { access, flow } = await this.flows.resolve(caller.principal, flowId);
    await this.versions.findVersion(this.dataSource.manager, flowId, flowVersionId);
    access.require(caller.permission);
    const refusal: { failure?: DomainError; versionNumber?: number; errors?: number } = {};
    try {
      return await this.unitOfWork.run(async (tx) => {
        const version = await this.versions.transition(tx, flowId, flowVersionId, 'release', async (draft) => {
          const report = await this.validator.report(tx.manager, flow.tenantId, flow.deviceTypeId, draft);
          if (!report.valid) {
            const failure = compileFailure(report.issues);
            Object.assign(refusal, { failure, versionNumber: draft.versionNumber, errors: report.issues.filter((issue) => issue.severity === 'error').length });
            throw failure;
          }
          await tx.manager.query(`UPDATE flow_versions SET checksum = $2, released_at = clock_timestamp() WHERE flow_version_id = $1`, [
            flowVersionId,
            report.checksum,
          ]);
        });
        return FlowVersionResponse.of(version);
      });
    } catch (error) {
      // A refused release is audited as a failure in its own transaction (the release's was rolled back).
      if (refusal.failure !== undefined && error === refusal.failure) {
        await this.unitOfWork.run((tx) =>
          tx.audit({
            eventType: 'flow_version.release_failed',
            action: 'release',
            entityType: 'flow_version',
            entityId: flowVersionId,
            tenantId: flow.tenantId,
            outcome: 'failure',
            errorCode: 'FLOW_FAILURE',
            metadata: { flowId, versionNumber: refusal.versionNumber, gate: 'compile', errorCount: refusal.errors },
          }),
        );
      }
      throw error;
    }
  }
}
