import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessService } from '../../../shared/access/access.service';
import { KillSwitchResponse } from '../dto/kill-switch.dto';
import { ActionKillSwitches } from '../persistence/action-kill-switches';
import { GetKillSwitchQuery } from './get-kill-switch.query';

@QueryHandler(GetKillSwitchQuery)
export class GetKillSwitchHandler implements IQueryHandler<GetKillSwitchQuery, KillSwitchResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accessService: AccessService,
    private readonly switches: ActionKillSwitches,
  ) {}

  async execute({ caller, tenantNumber }: GetKillSwitchQuery): Promise<KillSwitchResponse> {
    const access = await this.accessService.tenantByNumber(caller.principal, tenantNumber);
    access.require(caller.permission);
    return KillSwitchResponse.of(await this.switches.read(this.dataSource.manager, access.tenant.tenantId));
  }
}
