import { createHmac } from 'node:crypto';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { AccessService, TenantRow } from '../../../shared/access/access.service';
import { permissionsOf } from '../../../shared/access/permissions';
import type { Principal } from '../../../shared/auth/principal';
import { AuthenticationFailedError, ResourceNotFoundError } from '../../../shared/errors/domain-error';
import { SessionService } from '../domain/session-service';
import { SessionEntity } from '../persistence/session.entity';
import { SessionResponse } from '../dto/session.response.dto';
import { UserEntity } from '../persistence/user.entity';
import { UserResponse } from '../dto/user.response.dto';
import { GetMeQuery } from './get-me.query';
import { TenantResponse } from '../../tenants';
import { MeMembership, MeResponse } from '../dto/me.response.dto';

/**
 * The caller, their session, their effective grants in every tenant (as the access layer counts
 * them on this very request) and the tenant the console should open.
 */
@QueryHandler(GetMeQuery)
export class GetMeHandler implements IQueryHandler<GetMeQuery, MeResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly sessions: SessionService,
    private readonly access: AccessService,
  ) {}

  async execute({ principal, tenantNumber }: GetMeQuery): Promise<MeResponse> {
    // Loaded by the authentication of this very request; a query only when called outside of one.
    const { user, session } = this.sessions.authenticatedRows(principal.sessionId) ?? {
      user: await this.dataSource.getRepository(UserEntity).findOneBy({ userId: principal.userId }),
      session: await this.dataSource.getRepository(SessionEntity).findOneBy({ sessionId: principal.sessionId }),
    };
    if (!user || !session) throw new AuthenticationFailedError('revoked_session', 'The session has ended; sign in again.');

    const grants = await this.access.effectiveGrantsOf(user.userId);
    const memberships: MeMembership[] = grants.map((grant) => ({
      membershipId: grant.membershipId,
      tenantId: grant.tenant.tenantId,
      tenantNumber: grant.tenant.tenantNumber,
      tenantName: grant.tenant.name,
      role: grant.role,
      organizationUnitId: grant.organizationUnitId,
      organizationUnitName: grant.organizationUnitName,
      includeDescendants: grant.includeDescendants,
      permissions: permissionsOf(grant.role),
    }));
    const grantTenants = [...new Map(grants.map((grant) => [grant.tenant.tenantId, grant.tenant])).values()];
    const currentTenant = await this.currentTenant(principal, tenantNumber, grantTenants);

    const me: MeResponse = {
      user: UserResponse.of(user),
      session: SessionResponse.of(session, principal.sessionId),
      platformRoles: user.isPlatformAdmin ? ['platform_admin'] : [],
      passwordChangeRequired: user.passwordChangeRequired,
      currentTenant: currentTenant ? TenantResponse.of(currentTenant) : null,
      memberships,
    };
    if (this.config.analyticsEnabled && this.config.analyticsSecret) {
      // Keyed by the public tenantNumber, valued by a pseudonym: no internal id leaves unhashed.
      const tenants = currentTenant ? [...grantTenants, currentTenant] : grantTenants;
      me.analytics = {
        schemaVersion: 1,
        subjectId: this.pseudonym(user.userId),
        tenantSubjectIds: Object.fromEntries(tenants.map((tenant) => [String(tenant.tenantNumber), this.pseudonym(tenant.tenantId)])),
      };
    }
    return me;
  }

  /** The queried tenant if visible, else the only visible tenant, else none. */
  private async currentTenant(principal: Principal, tenantNumber: number | undefined, grantTenants: TenantRow[]): Promise<TenantRow | null> {
    if (tenantNumber !== undefined) {
      try {
        return (await this.access.tenantByNumber(principal, tenantNumber)).tenant;
      } catch (error) {
        if (!(error instanceof ResourceNotFoundError)) throw error;
      }
    }
    if (!principal.isPlatformAdmin) return grantTenants.length === 1 ? grantTenants[0]! : null;
    // A platform admin sees every tenant.
    return this.access.soleTenant();
  }

  /** base64url HMAC-SHA256: 43 characters, not reversible without ANALYTICS_SECRET. */
  private pseudonym(id: string): string {
    return createHmac('sha256', this.config.analyticsSecret ?? '').update(id).digest('base64url');
  }
}
