import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { FlowRepository } from '../persistence/flow.repository';
import { FlowValidator } from '../domain/flow-validator';
import { FlowVersionStore } from '../persistence/flow-version.store';
import type { ValidationReportResponse } from '../dto/validation-report.response.dto';
import { ValidateFlowVersionQuery } from './validate-flow-version.query';

/** The compile report of a version in any status, against the device type's current fields and blocks. */
@QueryHandler(ValidateFlowVersionQuery)
export class ValidateFlowVersionHandler implements IQueryHandler<ValidateFlowVersionQuery, ValidationReportResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly flows: FlowRepository,
    private readonly versions: FlowVersionStore,
    private readonly validator: FlowValidator,
  ) {}

  async execute({ caller, flowId, flowVersionId }: ValidateFlowVersionQuery): Promise<ValidationReportResponse> {
    const { access, flow } = await this.flows.resolve(caller.principal, flowId);
    const version = await this.versions.findVersion(this.dataSource.manager, flowId, flowVersionId);
    access.require(caller.permission);
    return this.validator.report(this.dataSource.manager, flow.tenantId, flow.deviceTypeId, version);
  }
}
