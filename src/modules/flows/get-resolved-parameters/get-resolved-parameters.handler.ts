import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { ConflictError, ValidationFailedError } from '../../../shared/errors/domain-error';
import { FlowRepository } from '../persistence/flow.repository';
import { FlowParameterOverrideEntity } from '../persistence/flow-parameter-override.entity';
import { FlowVersionStore } from '../persistence/flow-version.store';
import type { ParameterDeclaration } from '../domain/graph/flow-graph';
import { ParameterOverrideRepository } from '../persistence/parameter-override.repository';
import { resolveParameters } from '../domain/parameter-resolution';
import { GetResolvedParametersQuery } from './get-resolved-parameters.query';
import type { ResolvedParametersResponse } from '../dto/resolved-parameters.response.dto';

/**
 * The values a device's executions of a version (default: the active one) get: device > device type > tenant
 * override > declared default, skipping overrides of the wrong type; with the source of each value.
 */
@QueryHandler(GetResolvedParametersQuery)
export class GetResolvedParametersHandler implements IQueryHandler<GetResolvedParametersQuery, ResolvedParametersResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly flows: FlowRepository,
    private readonly versions: FlowVersionStore,
    private readonly overrides: ParameterOverrideRepository,
  ) {}

  async execute({ caller, flowId, params }: GetResolvedParametersQuery): Promise<ResolvedParametersResponse> {
    const { access, flow } = await this.flows.resolve(caller.principal, flowId);
    access.require(caller.permission);
    const deviceId = params.deviceId.toLowerCase();
    if (!(await this.overrides.deviceOfFlow(flow, deviceId))) {
      throw ValidationFailedError.single('query.deviceId', 'reference_not_found', "No device of the flow's device type has this id.");
    }
    const manager = this.dataSource.manager;
    let versionId = params.flowVersionId?.toLowerCase() ?? null;
    if (versionId === null) {
      if (flow.activeVersionId === null) throw new ConflictError('no_active_version', 'The flow has no active version; name a flowVersionId.');
      versionId = flow.activeVersionId;
    }
    const version = await this.versions.findVersion(manager, flowId, versionId).catch(() => {
      throw ValidationFailedError.single('query.flowVersionId', 'reference_not_found', 'This flow has no version with this id.');
    });
    const rows = await manager
      .getRepository(FlowParameterOverrideEntity)
      .createQueryBuilder('o')
      .where('o.tenant_id = :tenantId', { tenantId: flow.tenantId })
      .andWhere(
        `(o.level = 'tenant' OR (o.level = 'device_type' AND o.device_type_id = :deviceTypeId) OR (o.level = 'device' AND o.device_type_id = :deviceTypeId AND o.device_id = :deviceId))`,
        { deviceTypeId: flow.deviceTypeId, deviceId },
      )
      .getMany();
    return {
      flowId,
      deviceId,
      flowVersionId: version.versionId,
      parameters: resolveParameters(version.row.parameters as ParameterDeclaration[], rows),
    };
  }
}
