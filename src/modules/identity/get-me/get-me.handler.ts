import { createHmac } from 'node:crypto';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { AuthenticationFailedError } from '../../../shared/errors/domain-error';
import { SessionService } from '../domain/session-service';
import { SessionEntity } from '../domain/session.entity';
import { SessionResponse } from '../domain/session.response.dto';
import { UserEntity } from '../domain/user.entity';
import { UserResponse } from '../domain/user.response.dto';
import { GetMeQuery } from './get-me.query';
import { MeResponse } from './me.response.dto';

@QueryHandler(GetMeQuery)
export class GetMeHandler implements IQueryHandler<GetMeQuery, MeResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly sessions: SessionService,
  ) {}

  async execute({ principal }: GetMeQuery): Promise<MeResponse> {
    // Loaded by the authentication of this very request; a query only when called outside of one.
    const { user, session } = this.sessions.authenticatedRows(principal.sessionId) ?? {
      user: await this.dataSource.getRepository(UserEntity).findOneBy({ userId: principal.userId }),
      session: await this.dataSource.getRepository(SessionEntity).findOneBy({ sessionId: principal.sessionId }),
    };
    if (!user || !session) throw new AuthenticationFailedError('revoked_session', 'The session has ended; sign in again.');
    const me: MeResponse = {
      user: UserResponse.of(user),
      session: SessionResponse.of(session, principal.sessionId),
      platformRoles: user.isPlatformAdmin ? ['platform_admin'] : [],
      passwordChangeRequired: user.passwordChangeRequired,
      // Tenants and grants arrive with the tenancy module; until then nobody has a visible tenant.
      currentTenant: null,
      memberships: [],
    };
    if (this.config.analyticsEnabled && this.config.analyticsSecret) {
      me.analytics = { schemaVersion: 1, subjectId: this.pseudonym(user.userId), tenantSubjectIds: {} };
    }
    return me;
  }

  /** base64url HMAC-SHA256: 43 characters, not reversible without ANALYTICS_SECRET. */
  private pseudonym(id: string): string {
    return createHmac('sha256', this.config.analyticsSecret ?? '').update(id).digest('base64url');
  }
}
