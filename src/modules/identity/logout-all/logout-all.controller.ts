import { Controller, HttpCode, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AllowDuringPasswordChange, CurrentPrincipal, Principal } from '../../../shared/auth/principal';
import { RefreshCookie } from '../domain/refresh-cookie';
import { LogoutAllCommand } from './logout-all.command';

@ApiTags('auth')
@ApiBearerAuth()
@Controller('v1/auth')
export class LogoutAllController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly cookie: RefreshCookie,
  ) {}

  @Post('logout-all')
  @HttpCode(204)
  @AllowDuringPasswordChange()
  @ApiNoContentResponse({ description: 'Every session of the caller revoked, cookie cleared.' })
  async logoutAll(@CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) res: Response): Promise<void> {
    await this.commandBus.execute(new LogoutAllCommand(principal.userId));
    this.cookie.clear(res);
  }
}
