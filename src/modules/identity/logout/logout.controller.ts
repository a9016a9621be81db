import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiForbiddenResponse, ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AllowDuringPasswordChange, CurrentPrincipal, Principal } from '../../../shared/auth/principal';
import { RefreshCookie } from '../domain/refresh-cookie';
import { LogoutCommand } from './logout.command';

@ApiTags('auth')
@ApiBearerAuth()
@Controller('v1/auth')
export class LogoutController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly cookie: RefreshCookie,
  ) {}

  @Post('logout')
  @HttpCode(204)
  @AllowDuringPasswordChange()
  @ApiNoContentResponse({ description: 'Session revoked, cookie cleared.' })
  @ApiForbiddenResponse({ description: '`origin_not_allowed`' })
  async logout(
    @CurrentPrincipal() principal: Principal,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    this.cookie.assertAllowedOrigin(req);
    await this.commandBus.execute(new LogoutCommand(principal.userId, principal.sessionId, this.cookie.read(req)));
    this.cookie.clear(res);
  }
}
