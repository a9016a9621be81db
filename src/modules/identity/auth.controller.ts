import { Body, Controller, Query, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCookieAuth, ApiTags, ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
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
import { ApiDocs } from '../../shared/http/route-docs';
import { AUTH_DOCS } from './auth.docs';
import { IDENTITY_PARAMETER_EXAMPLES, IDENTITY_SCHEMA_EXAMPLES } from './identity.examples';
import { Route } from '../../shared/http/routes';

@ApiTags('auth')
@ApiDocs(AUTH_DOCS, { schemas: IDENTITY_SCHEMA_EXAMPLES, parameters: IDENTITY_PARAMETER_EXAMPLES })
@Controller('v1/auth')
export class AuthController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly cookie: RefreshCookie,
    private readonly queryBus: QueryBus,
  ) {}

  @Route('post', 'login', {
    operationId: 'auth_login',
    status: 200,
    type: TokenResponse,
    description: 'Token object; the refresh token is set as a cookie.',
    extra: [Public(), ApiUnauthorizedResponse({ description: 'Generic sign-in failure.' }), ApiTooManyRequestsResponse({ description: 'Login throttle; see Retry-After.' })],
  })
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
  @Route('post', 'refresh', {
    operationId: 'auth_refresh',
    status: 200,
    type: TokenResponse,
    description: 'Token object; the cookie is rotated.',
    forbidden: '`origin_not_allowed`',
    conflict: '`refresh_in_progress` with Retry-After: 1',
    extra: [Public(), ApiCookieAuth('refreshCookie'), ApiUnauthorizedResponse({ description: 'Cookie missing, invalid, expired, revoked or reused; the cookie is cleared.' })],
  })
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

  @Route('post', 'logout', {
    operationId: 'auth_logout',
    status: 204,
    description: 'Session revoked, cookie cleared.',
    forbidden: '`origin_not_allowed`',
    extra: [AllowDuringPasswordChange(), ApiBearerAuth()],
  })
  async logout(
    @CurrentPrincipal() principal: Principal,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    this.cookie.assertAllowedOrigin(req);
    await this.commandBus.execute(new LogoutCommand(principal.userId, principal.sessionId, this.cookie.read(req)));
    this.cookie.clear(res);
  }

  @Route('post', 'logout-all', {
    operationId: 'auth_logoutAll',
    status: 204,
    description: 'Every session of the caller revoked, cookie cleared.',
    extra: [AllowDuringPasswordChange(), ApiBearerAuth()],
  })
  async logoutAll(@CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) res: Response): Promise<void> {
    await this.commandBus.execute(new LogoutAllCommand(principal.userId));
    this.cookie.clear(res);
  }

  @Route('get', 'me', { operationId: 'auth_me', type: MeResponse, extra: [AllowDuringPasswordChange(), ApiBearerAuth()] })
  me(@CurrentPrincipal() principal: Principal, @Query() query: GetMeParams): Promise<MeResponse> {
    return this.queryBus.execute(new GetMeQuery(principal, query.tenantNumber));
  }

  @Route('post', 'change-password', {
    operationId: 'auth_changePassword',
    status: 200,
    type: TokenResponse,
    description: 'Token and cookie of one new session; every earlier one revoked.',
    extra: [AllowDuringPasswordChange(), ApiBearerAuth()],
  })
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
