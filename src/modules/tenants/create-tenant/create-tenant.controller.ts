import { Body, Controller, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiCreatedResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { PlatformAdminOnly } from '../../../shared/auth/principal';
import { TenantResponse } from '../tenant.response.dto';
import { CreateTenantCommand } from './create-tenant.command';
import { CreateTenantRequest } from './create-tenant.request.dto';

@ApiTags('tenants')
@ApiBearerAuth()
@Controller('v1/tenants')
export class CreateTenantController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post()
  @PlatformAdminOnly()
  @ApiCreatedResponse({ type: TenantResponse, description: '`Location: /v1/tenants/{tenantNumber}`; its e-mail kill-switch starts `running`.' })
  @ApiConflictResponse({ description: '`duplicate_key` (tenant keys are globally unique).' })
  async create(@Body() body: CreateTenantRequest, @Res({ passthrough: true }) res: Response): Promise<TenantResponse> {
    const tenant = await this.commandBus.execute(new CreateTenantCommand(body));
    res.location(`/v1/tenants/${tenant.tenantNumber}`);
    return tenant;
  }
}
