import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { AllowDuringPasswordChange, CurrentPrincipal, Principal } from '../../../shared/auth/principal';
import { GetMeQuery } from './get-me.query';
import { MeResponse } from './me.response.dto';

export class GetMeParams {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(2147483647)
  tenantNumber?: number;
}

@ApiTags('auth')
@ApiBearerAuth()
@Controller('v1/auth')
export class GetMeController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get('me')
  @AllowDuringPasswordChange()
  @ApiOkResponse({ type: MeResponse })
  me(@CurrentPrincipal() principal: Principal, @Query() query: GetMeParams): Promise<MeResponse> {
    return this.queryBus.execute(new GetMeQuery(principal, query.tenantNumber));
  }
}
