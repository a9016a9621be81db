import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { Logger } from 'nestjs-pino';
import { createApp } from './app.factory';
import { AppConfig, ConfigValidationError } from './config/app-config';
import { withDevelopmentSecrets } from './config/development-secrets';
import { shutdownGracefully } from './lifecycle/graceful-shutdown';
import { nextSteps } from './lifecycle/next-steps';
import { PlatformAdminBootstrap } from './modules/identity/bootstrap/platform-admin-bootstrap';

function loadConfigOrExit(): AppConfig {
  if (existsSync('.env')) process.loadEnvFile('.env');
  try {
    return withDevelopmentSecrets(process.env, AppConfig.fromEnv(process.env));
  } catch (error) {
    if (!(error instanceof ConfigValidationError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

async function bootstrap(): Promise<void> {
  const config = loadConfigOrExit();
  const app = await createApp(config);
  const logger = app.get(Logger);
  await app.listen(config.port, config.host);
  logger.log(`Uplink ${config.version} listening on http://${config.host}:${config.port}`, 'Bootstrap');
  // The last lines of the start: where to go next.
  const admin = app.get(PlatformAdminBootstrap, { strict: false }).outcome;
  for (const step of nextSteps(config, admin)) {
    if (step.warn) logger.warn(step.text, 'Next');
    else logger.log(step.text, 'Next');
  }

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal} received: draining`, 'Shutdown');
    shutdownGracefully(app, config.shutdownTimeoutMs, logger)
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        logger.error(error, 'Shutdown');
        process.exit(1);
      });
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`Uplink failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
