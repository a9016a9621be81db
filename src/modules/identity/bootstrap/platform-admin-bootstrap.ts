import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { dataDirOf } from '../../../config/development-secrets';
import { SYSTEM_ACTOR } from '../../../shared/context/request-context';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { PasswordHasher, passwordPolicyViolation } from '../domain/password-hasher';
import { UserEntity } from '../persistence/user.entity';

/** Arbitrary constant shared by every replica: only one of them may create the first admin. */
const BOOTSTRAP_LOCK_KEY = 4_711_2027;

export class BootstrapConfigurationError extends Error {}

/** Where a development start keeps the first admin's one-time password (`.data/initial-admin-password`). */
export function initialAdminPasswordFile(config: Pick<AppConfig, 'embeddedPgDir'>): string {
  return join(dataDirOf(config), 'initial-admin-password');
}

/**
 * Deletes the one-time password file once the password it holds has stopped working (`password` was just
 * replaced). The file is only ever removed for the password it holds, so another user's change never touches it.
 */
export function discardInitialAdminPassword(config: Pick<AppConfig, 'embeddedPgDir'>, password: string): boolean {
  const file = initialAdminPasswordFile(config);
  try {
    if (!existsSync(file) || readFileSync(file, 'utf8').trim() !== password) return false;
    rmSync(file, { force: true });
    return true;
  } catch {
    return false;
  }
}

export type BootstrapOutcome = 'created' | 'present' | 'unconfigured' | 'no_schema';

/** NODE_ENV=development without PLATFORM_ADMIN_*: a local admin with a random one-time password. */
function developmentAdmin(): NonNullable<AppConfig['platformAdmin']> {
  return {
    username: 'admin',
    email: 'admin@localhost',
    password: randomBytes(18).toString('base64url'),
    displayName: 'Platform Administrator',
    passwordChangeRequired: true,
  };
}

/**
 * At startup, if no user holds platform_admin and PLATFORM_ADMIN_* are set, create that user
 * (protected) under an advisory lock. Existing admins are never touched; a password that breaks the policy
 * stops the start.
 */
@Injectable()
export class PlatformAdminBootstrap implements OnApplicationBootstrap {
  private readonly logger = new Logger('Bootstrap');
  /** What the start did about the first admin (for the start-up summary); null before it ran. */
  outcome: { result: BootstrapOutcome; username: string | null } | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly unitOfWork: UnitOfWork,
    private readonly hasher: PasswordHasher,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const development = !this.config.platformAdmin && this.config.nodeEnv === 'development';
    const wanted = this.config.platformAdmin ?? (development ? developmentAdmin() : null);
    if (wanted) {
      const violation = passwordPolicyViolation(wanted.password, wanted);
      if (violation) throw new BootstrapConfigurationError(`Invalid configuration: PLATFORM_ADMIN_PASSWORD: ${violation}`);
    }
    const passwordHash = wanted ? await this.hasher.hash(wanted.password) : null;
    const outcome = await this.unitOfWork.run(async (tx) => {
      // With DB_MIGRATIONS_RUN=false the schema may be behind: readiness reports it; bootstrap waits for a restart.
      const [{ present }] = await tx.manager.query<{ present: boolean }[]>(`SELECT to_regclass('users') IS NOT NULL AS present`);
      if (!present) return 'no_schema';
      await tx.manager.query('SELECT pg_advisory_xact_lock($1)', [BOOTSTRAP_LOCK_KEY]);
      const [existing] = await tx.manager.query<unknown[]>(`SELECT 1 FROM users WHERE is_platform_admin LIMIT 1`);
      if (existing) return 'present';
      if (!wanted || !passwordHash) return 'unconfigured';
      const user = await tx.manager.save(
        tx.manager.create(UserEntity, {
          username: wanted.username,
          email: wanted.email,
          displayName: wanted.displayName,
          isProtected: true,
          isPlatformAdmin: true,
          passwordHash,
          passwordChangeRequired: wanted.passwordChangeRequired,
        }),
      );
      await tx.audit({
        eventType: 'user.bootstrapped',
        action: 'bootstrap',
        entityType: 'user',
        entityId: user.userId,
        actor: SYSTEM_ACTOR,
        metadata: { passwordChangeRequired: wanted.passwordChangeRequired, development },
      });
      return 'created';
    });
    this.outcome = { result: outcome, username: wanted?.username ?? null };
    if (outcome === 'created' && development && wanted) {
      // Never in a log line: the password goes to a private file next to the embedded database; changing the
      // password deletes it.
      const file = initialAdminPasswordFile(this.config);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `${wanted.password}\n`, { mode: 0o600 });
      this.logger.warn(
        `Development: created platform admin '${wanted.username}'; its one-time password is in ${file} ` +
          '(change it at first sign-in). Set PLATFORM_ADMIN_* to choose your own.',
      );
    } else if (outcome === 'created') {
      this.logger.log(`Created the first platform admin '${wanted?.username}'`);
    }
    if (outcome === 'no_schema') this.logger.warn('The users table does not exist yet (migrations pending): bootstrap skipped');
    if (outcome === 'unconfigured') {
      this.logger.warn('No platform admin exists and PLATFORM_ADMIN_USERNAME/_EMAIL/_PASSWORD are not set: nobody can sign in');
    }
  }
}
