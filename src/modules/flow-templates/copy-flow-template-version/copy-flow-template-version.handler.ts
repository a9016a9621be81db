import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { ConflictError, ResourceNotFoundError, ValidationFailedError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import type { VersionRecord } from '../../../shared/versioning/version-store';
import { FlowRepository, FlowVersionResponse, FlowVersionStore } from '../../flows';
import type { FlowGraph, ResolvedFlow } from '../../flows';
import { FlowTemplateStore } from '../persistence/flow-template.store';
import { CopyFlowTemplateVersionCommand } from './copy-flow-template-version.command';

const flowReferenceNotFound = () => ValidationFailedError.single('body.flowId', 'reference_not_found', 'No flow with this id is visible to the caller.');

const notReleased = (status: string) =>
  new ConflictError('version_not_released', `Only a released template version can be copied; this one is ${status}.`, { currentStatus: status });

/**
 * Copies a released template version into a flow as a new draft: the template's graph with the flow's device
 * type and the template's parameter declarations, recording where it came from (`sourceTemplate`). The draft is
 * not checked against the device type's fields here: its validate report names what the device type lacks.
 * Order: template and version (404), the flow (400 `reference_not_found`, also for another tenant's flow),
 * `flows:write` on the flow (403), the version's status (409 `version_not_released`, re-checked under lock).
 */
@CommandHandler(CopyFlowTemplateVersionCommand)
export class CopyFlowTemplateVersionHandler implements ICommandHandler<CopyFlowTemplateVersionCommand, FlowVersionResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly unitOfWork: UnitOfWork,
    private readonly templates: FlowTemplateStore,
    private readonly flows: FlowRepository,
    private readonly flowVersions: FlowVersionStore,
  ) {}

  async execute({ caller, flowTemplateId, flowTemplateVersionId, flowId }: CopyFlowTemplateVersionCommand): Promise<FlowVersionResponse> {
    await this.templates.find(flowTemplateId);
    await this.templates.versions.findVersion(this.dataSource.manager, flowTemplateId, flowTemplateVersionId);
    const { access, flow } = await this.resolveFlow(caller, flowId);
    access.require(caller.permission);
    return this.unitOfWork.run(async (tx) => {
      const source = await this.lockedSource(tx.manager, flowTemplateId, flowTemplateVersionId);
      if (source.status !== 'released') throw notReleased(source.status);
      const graph: FlowGraph = { ...(source.row.graph as FlowGraph), deviceTypeId: flow.deviceTypeId };
      const sourceTemplate = { flowTemplateId, flowTemplateVersionId, versionNumber: source.versionNumber };
      const version = await this.flowVersions.create(
        tx,
        flow.flowId,
        {
          tenant_id: flow.tenantId,
          graph: JSON.stringify(graph),
          parameters: JSON.stringify(source.row.parameters),
          source_flow_template_id: flowTemplateId,
          source_flow_template_version_id: flowTemplateVersionId,
          source_template_version_number: source.versionNumber,
        },
        { sourceTemplate },
      );
      await tx.audit({
        eventType: 'flow_template_version.copied',
        action: 'copy',
        entityType: 'flow_template_version',
        entityId: flowTemplateVersionId,
        tenantId: flow.tenantId,
        metadata: { ...sourceTemplate, flowId: flow.flowId, flowVersionId: version.versionId, flowVersionNumber: version.versionNumber },
      });
      return FlowVersionResponse.of(version);
    });
  }

  /** The target flow; missing, another tenant's or out of reach all answer the same 400. */
  private async resolveFlow(caller: CopyFlowTemplateVersionCommand['caller'], flowId: string): Promise<ResolvedFlow> {
    try {
      return await this.flows.resolve(caller.principal, flowId);
    } catch (error) {
      if (error instanceof ResourceNotFoundError) throw flowReferenceNotFound();
      throw error;
    }
  }

  /** The template version under a share lock, so a deprecation cannot commit between this check and the copy. */
  private async lockedSource(manager: Parameters<FlowVersionStore['findVersion']>[0], flowTemplateId: string, flowTemplateVersionId: string): Promise<VersionRecord> {
    await manager.query(`SELECT 1 FROM flow_template_versions WHERE flow_template_version_id = $1 FOR SHARE`, [flowTemplateVersionId]);
    return this.templates.versions.findVersion(manager, flowTemplateId, flowTemplateVersionId);
  }
}
