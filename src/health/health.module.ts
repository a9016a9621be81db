import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DatabaseHealthIndicator } from './database.health';
import { HealthController } from './health.controller';
import { ReportedChecks } from './reported-checks';

@Module({
  imports: [TerminusModule],
  controllers: [HealthController],
  providers: [DatabaseHealthIndicator, ReportedChecks],
  exports: [DatabaseHealthIndicator, ReportedChecks],
})
export class HealthModule {}
