import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { AppConfig } from '../../config/app-config';
import { AccessTokenAuthenticator } from '../../shared/auth/access-token-authenticator';
import { AuthController } from './auth.controller';
import { PlatformAdminBootstrap } from './bootstrap/platform-admin-bootstrap';
import { ChangePasswordHandler } from './change-password/change-password.handler';
import { JwtAuthenticator } from './domain/jwt-authenticator';
import { EndedSessionsPruneJob, LoginThrottlePruneJob } from './domain/identity-housekeeping';
import { LoginThrottle } from './domain/login-throttle';
import { PasswordHasher } from './domain/password-hasher';
import { RefreshCookie } from './domain/refresh-cookie';
import { SessionService } from './domain/session-service';
import { TokenIssuer } from './domain/token-issuer';
import { GetMeHandler } from './get-me/get-me.handler';
import { ListSessionsHandler } from './list-sessions/list-sessions.handler';
import { LoginHandler } from './login/login.handler';
import { LogoutAllHandler } from './logout-all/logout-all.handler';
import { LogoutHandler } from './logout/logout.handler';
import { RefreshHandler } from './refresh/refresh.handler';
import { RevokeSessionHandler } from './revoke-session/revoke-session.handler';
import { SessionsController } from './sessions.controller';

/** Sign-in, sessions and the access token every other module trusts. */
@Module({
  imports: [
    JwtModule.registerAsync({ inject: [AppConfig], useFactory: (config: AppConfig) => ({ secret: config.jwtSecret }) }),
  ],
  controllers: [AuthController, SessionsController],
  providers: [
    { provide: RefreshCookie, inject: [AppConfig], useFactory: (config: AppConfig) => new RefreshCookie(config) },
    PasswordHasher,
    TokenIssuer,
    SessionService,
    LoginThrottle,
    LoginThrottlePruneJob,
    EndedSessionsPruneJob,
    { provide: AccessTokenAuthenticator, useClass: JwtAuthenticator },
    PlatformAdminBootstrap,
    LoginHandler,
    RefreshHandler,
    LogoutHandler,
    LogoutAllHandler,
    GetMeHandler,
    ListSessionsHandler,
    RevokeSessionHandler,
    ChangePasswordHandler,
  ],
  exports: [PasswordHasher, SessionService, TokenIssuer, AccessTokenAuthenticator],
})
export class IdentityModule {}
