import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { FlowResult } from '../dto/flow.response.dto';

export class GetDeviceTypeFlowQuery extends Query<FlowResult> {
  constructor(
    readonly caller: Caller,
    readonly deviceTypeId: string,
  ) {
    super();
  }
}
