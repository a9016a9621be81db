import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiConflictResponse, ApiCookieAuth, ApiForbiddenResponse, ApiOkResponse, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../../shared/auth/public.decorator';
import { AuthenticationFailedError, DomainError } from '../../../shared/errors/domain-error';
import { RefreshCookie } from '../domain/refresh-cookie';
import { TokenResponse } from '../domain/token.response.dto';
import { RefreshCommand } from './refresh.command';

@ApiTags('auth')
@Controller('v1/auth')
export class RefreshController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly cookie: RefreshCookie,
  ) {}

  /** Cookie-authenticated (no bearer): the access token may already have expired. */
  @Public()
  @Post('refresh')
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
}
