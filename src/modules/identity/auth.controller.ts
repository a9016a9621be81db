import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCookieAuth,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { OperationId } from '../../openapi/operation-id';
import { AllowDuringPasswordChange, CurrentPrincipal, Principal } from '../../shared/auth/principal';
import { Public } from '../../shared/auth/public.decorator';
import { AuthenticationFailedError, DomainError } from '../../shared/errors/domain-error';
import { ChangePasswordCommand } from './change-password/change-password.command';
import { ChangePasswordRequest } from './dto/change-password.request.dto';
import { RefreshCookie } from './domain/refresh-cookie';
import { TokenResponse } from './dto/token.response.dto';
import { GetMeQuery } from './get-me/get-me.query';
import { GetMeParams } from './dto/get-me.request.dto';
import { MeResponse } from './dto/me.response.dto';
import { LoginCommand } from './login/login.command';
import { LoginRequest } from './dto/login.request.dto';
import { LogoutAllCommand } from './logout-all/logout-all.command';
import { LogoutCommand } from './logout/logout.command';
import { RefreshCommand } from './refresh/refresh.command';

@ApiTags('auth')
@Controller('v1/auth')
export class AuthController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly cookie: RefreshCookie,
    private readonly queryBus: QueryBus,
  ) {}

  @Public()
  @Post('login')
  @OperationId('LoginController_login')
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

  /** Cookie-authenticated (no bearer): the access token may already have expired. */
  @Public()
  @Post('refresh')
  @OperationId('RefreshController_refresh')
  @HttpCode(200)
  @ApiCookieAuth('refreshCookie')
  @ApiOkResponse({ type: TokenResponse, description: 'Token object; the cookie is rotated.' })
  @ApiUnauthorizedResponse({ description: 'Cookie missing, invalid, expired, revoked or reused; the cookie is cleared.' })
  @ApiForbiddenResponse({ description: '`origin_not_allowed`' })
  @ApiConflictResponse({ description: '`refresh_in_progress` with Retry-After: 1' })
  async refresh(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<TokenResponse> {
    this.cookie.assertAllowedOrigin(req);
    const token = this.cookie.read(req);
    try {
      if (!token) throw new AuthenticationFailedError(undefined, 'The refresh cookie is missing.');
      const issued = await this.commandBus.execute(new RefreshCommand(token));
      this.cookie.set(res, issued.refreshToken);
      return issued.body;
    } catch (error) {
      if (error instanceof DomainError && error.code === 'AUTHENTICATION_FAILED') this.cookie.clear(res);
      throw error;
    }
  }

  @Post('logout')
  @OperationId('LogoutController_logout')
  @HttpCode(204)
  @AllowDuringPasswordChange()
  @ApiNoContentResponse({ description: 'Session revoked, cookie cleared.' })
  @ApiForbiddenResponse({ description: '`origin_not_allowed`' })
  @ApiBearerAuth()
  async logout(
    @CurrentPrincipal() principal: Principal,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    this.cookie.assertAllowedOrigin(req);
    await this.commandBus.execute(new LogoutCommand(principal.userId, principal.sessionId, this.cookie.read(req)));
    this.cookie.clear(res);
  }

  @Post('logout-all')
  @OperationId('LogoutAllController_logoutAll')
  @HttpCode(204)
  @AllowDuringPasswordChange()
  @ApiNoContentResponse({ description: 'Every session of the caller revoked, cookie cleared.' })
  @ApiBearerAuth()
  async logoutAll(@CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) res: Response): Promise<void> {
    await this.commandBus.execute(new LogoutAllCommand(principal.userId));
    this.cookie.clear(res);
  }

  @Get('me')
  @OperationId('GetMeController_me')
  @AllowDuringPasswordChange()
  @ApiOkResponse({ type: MeResponse })
  @ApiBearerAuth()
  me(@CurrentPrincipal() principal: Principal, @Query() query: GetMeParams): Promise<MeResponse> {
    return this.queryBus.execute(new GetMeQuery(principal, query.tenantNumber));
  }

  @Post('change-password')
  @OperationId('ChangePasswordController_changePassword')
  @HttpCode(200)
  @AllowDuringPasswordChange()
  @ApiOkResponse({ type: TokenResponse, description: 'Token and cookie of one new session; every earlier one revoked.' })
  @ApiBearerAuth()
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
