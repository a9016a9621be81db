import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { DeviceTypeReader } from '../../device-types';
import { FlowEntity } from '../persistence/flow.entity';
import { FlowRepository } from '../persistence/flow.repository';
import type { FlowResult } from '../dto/flow.response.dto';
import { flowNotFound } from '../persistence/flow-version.store';
import { GetDeviceTypeFlowQuery } from './get-device-type-flow.query';

/** The device type's flow; a visible type without a flow is the flow's 404. */
@QueryHandler(GetDeviceTypeFlowQuery)
export class GetDeviceTypeFlowHandler implements IQueryHandler<GetDeviceTypeFlowQuery, FlowResult> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly deviceTypes: DeviceTypeReader,
    private readonly flows: FlowRepository,
  ) {}

  async execute({ caller, deviceTypeId }: GetDeviceTypeFlowQuery): Promise<FlowResult> {
    const { access } = await this.deviceTypes.resolve(caller.principal, deviceTypeId);
    const flow = await this.dataSource.manager.findOneBy(FlowEntity, { deviceTypeId });
    if (!flow) throw flowNotFound();
    access.require(caller.permission);
    return this.flows.result(this.dataSource.manager, flow.flowId);
  }
}
