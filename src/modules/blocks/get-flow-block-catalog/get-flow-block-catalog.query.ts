import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import { FlowBlockCatalog } from '../dto/flow-block-catalog.response.dto';

export class GetFlowBlockCatalogQuery extends Query<FlowBlockCatalog> {
  constructor(
    readonly caller: Caller,
    readonly tenantNumber: number,
  ) {
    super();
  }
}
