import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AllowDuringPasswordChange, CurrentPrincipal, Principal } from '../../../shared/auth/principal';
import { RefreshCookie } from '../domain/refresh-cookie';
import { TokenResponse } from '../domain/token.response.dto';
import { ChangePasswordCommand } from './change-password.command';
import { ChangePasswordRequest } from './change-password.request.dto';

@ApiTags('auth')
@ApiBearerAuth()
@Controller('v1/auth')
export class ChangePasswordController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly cookie: RefreshCookie,
  ) {}

  @Post('change-password')
  @HttpCode(200)
  @AllowDuringPasswordChange()
  @ApiOkResponse({ type: TokenResponse, description: 'Token and cookie of one new session; every earlier one revoked.' })
  async changePassword(
    @CurrentPrincipal() principal: Principal,
    @Body() body: ChangePasswordRequest,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<TokenResponse> {
    const issued = await this.commandBus.execute(
      new ChangePasswordCommand(principal, body.currentPassword, body.newPassword, req.ip ?? 'unknown'),
    );
    this.cookie.set(res, issued.refreshToken);
    return issued.body;
  }
}
