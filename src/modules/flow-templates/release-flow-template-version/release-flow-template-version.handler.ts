import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { compileFailure } from '../../flows';
import { FlowTemplateVersionResponse } from '../dto/flow-template-version.response.dto';
import { TemplateVersionValidator } from '../domain/template-version-validator';
import { FlowTemplateStore } from '../persistence/flow-template.store';
import { ReleaseFlowTemplateVersionCommand } from './release-flow-template-version.command';

/**
 * `draft -> released` when the draft compiles without errors (checked under the template's lock, against the
 * global blocks of that moment): records the checksum, exactly as a flow version's, and the required fields. A
 * refused release is 422 FLOW_FAILURE with the issues, audited as a failure.
 */
@CommandHandler(ReleaseFlowTemplateVersionCommand)
export class ReleaseFlowTemplateVersionHandler implements ICommandHandler<ReleaseFlowTemplateVersionCommand, FlowTemplateVersionResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly store: FlowTemplateStore,
    private readonly validator: TemplateVersionValidator,
  ) {}

  async execute({ flowTemplateId, flowTemplateVersionId }: ReleaseFlowTemplateVersionCommand): Promise<FlowTemplateVersionResponse> {
    await this.store.find(flowTemplateId);
    const refusal: { failure?: DomainError; versionNumber?: number; errors?: number } = {};
    try {
      return await this.unitOfWork.run(async (tx) => {
        const version = await this.store.versions.transition(tx, flowTemplateId, flowTemplateVersionId, 'release', async (draft) => {
          const report = await this.validator.report(tx.manager, draft);
          if (!report.valid) {
            const failure = compileFailure(report.issues);
            Object.assign(refusal, { failure, versionNumber: draft.versionNumber, errors: report.issues.filter((issue) => issue.severity === 'error').length });
            throw failure;
          }
          await tx.manager.query(
            `UPDATE flow_template_versions SET checksum = $2, required_fields = $3, released_at = clock_timestamp() WHERE flow_template_version_id = $1`,
            [flowTemplateVersionId, report.checksum, JSON.stringify(report.requiredFields)],
          );
          return { checksum: report.checksum, requiredFieldCount: report.requiredFields.length };
        });
        return FlowTemplateVersionResponse.of(version);
      });
    } catch (error) {
      // A refused release is audited as a failure in its own transaction (the release's was rolled back).
      if (refusal.failure !== undefined && error === refusal.failure) {
        await this.unitOfWork.run((tx) =>
          tx.audit({
            eventType: 'flow_template_version.release_failed',
            action: 'release',
            entityType: 'flow_template_version',
            entityId: flowTemplateVersionId,
            tenantId: null,
            outcome: 'failure',
            errorCode: 'FLOW_FAILURE',
            metadata: { flowTemplateId, versionNumber: refusal.versionNumber, gate: 'compile', errorCount: refusal.errors },
          }),
        );
      }
      throw error;
    }
  }
}
