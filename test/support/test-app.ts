import type { Server } from 'node:http';
import type { Type } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app.factory';
import { AppConfig } from '../../src/config/app-config';
import { ConnectionGuard, guardSecondConnections } from './connection-guard';
import { PipelineProbeModule } from './pipeline-probe.module';
import { createTestDatabase, TestDatabase } from './test-database';

export interface TestApp {
  app: NestExpressApplication;
  /** supertest bound to the listening server. */
  http: () => ReturnType<typeof request>;
  baseUrl: string;
  dataSource: DataSource;
  database: TestDatabase;
  /** Fails any second pool connection taken while a transaction is open (see connection-guard.ts). */
  connectionGuard: ConnectionGuard;
  close(): Promise<void>;
}

/** The bootstrapped platform admin of every test app. */
export const TEST_ADMIN = { username: 'root-admin', email: 'root@uplink.test', password: 'root-admin-password-1' };
export const TEST_ORIGIN = 'https://console.uplink.test';

export interface TestAppOptions {
  /** Extra environment on top of the test defaults (validated like production). */
  env?: Record<string, string>;
  /** Use this URL instead of a fresh clone (e.g. through a proxy the test can cut). */
  databaseUrl?: (database: TestDatabase) => Promise<string>;
  extraModules?: Type[];
  /** `false` starts on an empty database (for migration and readiness tests). */
  migrated?: boolean;
  /** Listen on this port instead of a random one (when the URL must be known before the start, e.g. PUBLIC_URL). */
  port?: number;
}

/**
 * The production application (same factory as main.ts) on its own fresh database, listening on a random port,
 * with the probe routes of PipelineProbeModule mounted for pipeline tests.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase({ migrated: options.migrated ?? true });
  let app: NestExpressApplication;
  let connectionGuard: ConnectionGuard;
  try {
    ({ app, connectionGuard } = await listening(database, options));
  } catch (error) {
    await database.drop();
    throw error;
  }
  const address = (app.getHttpServer() as Server).address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const baseUrl = `http://127.0.0.1:${port}`;
  let closed = false;
  return {
    app,
    http: () => request(baseUrl),
    baseUrl,
    dataSource: app.get(DataSource),
    database,
    connectionGuard,
    close: async () => {
      if (closed) return;
      closed = true;
      await app.close();
      await database.drop();
    },
  };
}

async function listening(database: TestDatabase, options: TestAppOptions): Promise<{ app: NestExpressApplication; connectionGuard: ConnectionGuard }> {
  const config = AppConfig.fromEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: options.databaseUrl ? await options.databaseUrl(database) : database.url,
    // Long enough for a starved machine to open a connection (a cut database refuses at once, whatever this is):
    // 5 s ran out in a CI run while one file started two more apps side by side on a loaded 2-core machine.
    DB_CONNECT_TIMEOUT_MS: '15000',
    ALLOWED_ORIGINS: 'https://console.uplink.test',
    BCRYPT_COST: '4',
    REFRESH_COOKIE_SECURE: 'false',
    // High enough that ordinary test traffic never trips them; throttle tests lower them.
    LOGIN_IP_ATTEMPTS_PER_MINUTE: '10000',
    RATE_LIMIT_PER_MINUTE: '100000',
    PLATFORM_ADMIN_USERNAME: TEST_ADMIN.username,
    PLATFORM_ADMIN_EMAIL: TEST_ADMIN.email,
    PLATFORM_ADMIN_PASSWORD: TEST_ADMIN.password,
    PLATFORM_ADMIN_PASSWORD_CHANGE_REQUIRED: 'false',
    ...options.env,
  });
  const app = await createApp(config, [PipelineProbeModule, ...(options.extraModules ?? [])]);
  const connectionGuard = guardSecondConnections(app.get(DataSource));
  try {
    await app.listen(options.port ?? 0, '127.0.0.1');
    return { app, connectionGuard };
  } catch (error) {
    // A start refused by a lifecycle hook (a bootstrap check) leaves the hooks that already ran running (the job
    // worker, the authorization cache's LISTEN connection): Nest does not close such an app by itself.
    await app.close().catch(() => undefined);
    throw error;
  }
}
