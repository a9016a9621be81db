import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Body, Controller, Get, HttpCode, Injectable, Module, Post, Query } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, EventsHandler, ICommandHandler, IEventHandler } from '@nestjs/cqrs';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { Length } from '../../src/shared/validation/text-length';
import { DataSource } from 'typeorm';
import { Public } from '../../src/shared/auth/public.decorator';
import { ConflictError } from '../../src/shared/errors/domain-error';
import { UnitOfWork } from '../../src/shared/events/unit-of-work';
import { UuidParam } from '../../src/shared/validation/uuid-param';

/*
 * Test-only routes mounted on the real pipeline (never in production): they let the e2e tests drive validation,
 * unexpected failures, database access, slow requests and a transactional command through the same stack
 * every feature module uses.
 */

class ProbeItem {
  @IsString()
  @Length(1, 20)
  name!: string;
}

export class ProbeBody {
  @IsString()
  @Length(1, 10)
  name!: string;

  @IsOptional()
  @Matches(/^[a-z]+$/)
  code?: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(5)
  count?: number;

  @IsOptional()
  @IsUUID()
  ref?: string;

  @IsOptional()
  @ValidateNested({ each: true })
  @ArrayMaxSize(3)
  @Type(() => ProbeItem)
  items?: ProbeItem[];
}

export class ProbeQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @IsIn([25, 50, 100])
  limit?: number;
}

export class ProbeCommandBody {
  @IsString()
  @Length(1, 50)
  name!: string;

  @IsOptional()
  @IsBoolean()
  fail?: boolean;
}

export class RecordProbeCommand extends Command<{ probeId: string }> {
  constructor(
    readonly name: string,
    readonly fail: boolean,
  ) {
    super();
  }
}

export class ProbeRecordedEvent {
  constructor(readonly probeId: string) {}
}

export interface DeliveredProbeEvent {
  probeId: string;
  /** Whether another connection could already see the command's audit row when the event arrived. */
  committedWhenDelivered: boolean;
}

/** Every ProbeRecordedEvent the EventBus delivered, in this process. */
export const deliveredProbeEvents: DeliveredProbeEvent[] = [];

@CommandHandler(RecordProbeCommand)
export class RecordProbeHandler implements ICommandHandler<RecordProbeCommand> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute(command: RecordProbeCommand): Promise<{ probeId: string }> {
    return this.unitOfWork.run(async (tx) => {
      const probeId = randomUUID();
      await tx.audit({
        eventType: 'probe.recorded',
        action: 'record',
        entityType: 'probe',
        entityId: probeId,
        metadata: { name: command.name, password: 'must-not-be-stored', nested: { accessToken: 'nope', kept: 1 } },
      });
      tx.publish(new ProbeRecordedEvent(probeId));
      if (command.fail) throw new ConflictError('probe_failed', 'The probe was asked to fail.');
      return { probeId };
    });
  }
}

@Injectable()
@EventsHandler(ProbeRecordedEvent)
export class ProbeRecordedListener implements IEventHandler<ProbeRecordedEvent> {
  constructor(private readonly dataSource: DataSource) {}

  async handle(event: ProbeRecordedEvent): Promise<void> {
    // A pool connection outside the command's transaction: it sees the row only if COMMIT already happened.
    const rows = await this.dataSource.query<unknown[]>('SELECT 1 FROM audit_log WHERE entity_id = $1', [event.probeId]);
    deliveredProbeEvents.push({ probeId: event.probeId, committedWhenDelivered: rows.length === 1 });
  }
}

@Controller('v1/_probe')
export class PipelineProbeController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly commandBus: CommandBus,
  ) {}

  @Public()
  @Post('validate')
  @HttpCode(200)
  validate(@Body() body: ProbeBody): ProbeBody {
    return body;
  }

  @Public()
  @Get('query')
  query(@Query() query: ProbeQuery): ProbeQuery {
    return query;
  }

  @Public()
  @Get('items/:itemId')
  item(@UuidParam('itemId') itemId: string): { itemId: string } {
    return { itemId };
  }

  @Public()
  @Get('boom')
  boom(): never {
    throw new Error('secret internal detail at /srv/uplink/src/secret.ts');
  }

  @Public()
  @Get('sql-error')
  async sqlError(): Promise<unknown> {
    return this.dataSource.query('SELECT secret_column FROM no_such_table');
  }

  @Public()
  @Get('db')
  async db(): Promise<{ ok: true }> {
    await this.dataSource.query('SELECT 1');
    return { ok: true };
  }

  @Public()
  @Get('slow')
  async slow(@Query('ms') ms = '500'): Promise<{ sleptMs: number }> {
    const duration = Math.min(Number(ms) || 0, 10_000);
    await sleep(duration);
    return { sleptMs: duration };
  }

  @Public()
  @Post('commands')
  record(@Body() body: ProbeCommandBody): Promise<{ probeId: string }> {
    return this.commandBus.execute(new RecordProbeCommand(body.name, body.fail ?? false));
  }

  /** No @Public(): must be refused by the deny-by-default guard. */
  @Get('private')
  privateRoute(): { secret: true } {
    return { secret: true };
  }
}

@Module({
  controllers: [PipelineProbeController],
  providers: [RecordProbeHandler, ProbeRecordedListener],
})
export class PipelineProbeModule {}
