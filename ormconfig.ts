import { existsSync } from 'node:fs';
import { AppConfig } from './src/config/app-config';
import { createDataSource } from './src/database/data-source';
import { EMBEDDED_DATABASE_NAME } from './src/database/database-connection';
import { EmbeddedPostgresServer } from './src/database/embedded-postgres';

// The TypeORM CLI (migration:generate/run/revert) uses the same definition as the service. Without
// DATABASE_URL it targets the embedded cluster, which must be running (start the service first).
if (existsSync('.env')) process.loadEnvFile('.env');
const config = AppConfig.fromEnv(process.env);
const url = config.databaseUrl ?? EmbeddedPostgresServer.urlFor(config.embeddedPgPort, EMBEDDED_DATABASE_NAME);

export default createDataSource(url);
