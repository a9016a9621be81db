import { DynamicModule, Module, Type } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { LoggerModule } from 'nestjs-pino';
import { AppConfig } from './config/app-config';
import { AppConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { loggerOptions } from './logging/logger-options';
import { DiagnosticsModule } from './modules/diagnostics/diagnostics.module';
import { IdentityModule } from './modules/identity/identity.module';
import { UsersModule } from './modules/users/users.module';
import { TenantsModule } from './modules/tenants/tenants.module';
import { OrganizationUnitsModule } from './modules/organization-units/organization-units.module';
import { MembershipsModule } from './modules/memberships/memberships.module';
import { ActionsModule } from './modules/actions';
import { ImportsModule } from './modules/imports';
import { AuditModule } from './modules/audit/audit.module';
import { SandboxModule } from './modules/sandbox/sandbox.module';
import { BlocksModule } from './modules/blocks/blocks.module';
import { DeviceTypesModule } from './modules/device-types/device-types.module';
import { IngestionModule } from './modules/ingestion/ingestion.module';
import { ProcessingModule } from './modules/processing/processing.module';
import { DevicesModule } from './modules/devices/devices.module';
import { FlowsModule } from './modules/flows/flows.module';
import { FlowTemplatesModule } from './modules/flow-templates/flow-templates.module';
import { TelemetryModule } from './modules/telemetry/telemetry.module';
import { AccountStateGuard } from './shared/auth/account-state.guard';
import { DenyByDefaultGuard } from './shared/auth/deny-by-default.guard';
import { RateLimitGuard } from './shared/auth/rate-limit.guard';
import { SuccessStatusGuard } from './shared/context/success-status.guard';
import { CoreModule } from './shared/core.module';
import { AllExceptionsFilter } from './shared/errors/all-exceptions.filter';
import { HttpPipelineModule } from './shared/http/http-pipeline.module';
import { RequestInputGuard } from './shared/http/request-input.guard';
import { JobsModule } from './shared/jobs/jobs.module';
import { RequestValidationPipe } from './shared/validation/request-validation.pipe';

@Module({})
export class AppModule {
  /** `extraModules` lets tests mount probe routes on the real pipeline; production passes none. */
  static forRoot(config: AppConfig, extraModules: Type[] = []): DynamicModule {
    return {
      module: AppModule,
      imports: [
        AppConfigModule.forRoot(config),
        LoggerModule.forRoot(loggerOptions(config)),
        CqrsModule.forRoot(),
        DatabaseModule,
        HttpPipelineModule,
        CoreModule,
        JobsModule,
        HealthModule,
        IdentityModule,
        UsersModule,
        TenantsModule,
        OrganizationUnitsModule,
        MembershipsModule,
        AuditModule,
        DeviceTypesModule,
        IngestionModule,
        ProcessingModule,
        DevicesModule,
        TelemetryModule,
        FlowsModule,
        DiagnosticsModule,
        SandboxModule,
        BlocksModule,
        ActionsModule,
        FlowTemplatesModule,
        ImportsModule,
        ...extraModules,
      ],
      providers: [
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: APP_PIPE, useClass: RequestValidationPipe },
        // Guards run in this order: the route's success status is recorded (never refuses), authentication
        // (401), the per-user rate limit (429), the account's state (403 forced change, 403
        // platform-admin-only), then path/query input rules and body failures (400) after all three.
        { provide: APP_GUARD, useClass: SuccessStatusGuard },
        { provide: APP_GUARD, useClass: DenyByDefaultGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_GUARD, useClass: AccountStateGuard },
        { provide: APP_GUARD, useClass: RequestInputGuard },
      ],
    };
  }
}
