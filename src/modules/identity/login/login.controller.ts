import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiTags, ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../../shared/auth/public.decorator';
import { RefreshCookie } from '../domain/refresh-cookie';
import { TokenResponse } from '../domain/token.response.dto';
import { LoginCommand } from './login.command';
import { LoginRequest } from './login.request.dto';

@ApiTags('auth')
@Controller('v1/auth')
export class LoginController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly cookie: RefreshCookie,
  ) {}

  @Public()
  @Post('login')
  @HttpCode(200)
  @ApiOkResponse({ type: TokenResponse, description: 'Token object; the refresh token is set as a cookie.' })
  @ApiUnauthorizedResponse({ description: 'Generic sign-in failure.' })
  @ApiTooManyRequestsResponse({ description: 'Login throttle; see Retry-After.' })
  async login(
    @Body() body: LoginRequest,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<TokenResponse> {
    const issued = await this.commandBus.execute(new LoginCommand(body.identifier, body.password, req.ip ?? 'unknown'));
    this.cookie.set(res, issued.refreshToken);
    return issued.body;
  }
}
