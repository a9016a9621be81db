import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { RequestContext } from '../../../shared/context/request-context';
import { EchoResponse } from '../dto/echo.response.dto';
import { EchoQuery } from './echo.query';

/** Exercises the whole request path: auth, validation, a database round trip, context and the error filter. */
@QueryHandler(EchoQuery)
export class EchoHandler implements IQueryHandler<EchoQuery, EchoResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly context: RequestContext,
  ) {}

  async execute(query: EchoQuery): Promise<EchoResponse> {
    const started = process.hrtime.bigint();
    await this.dataSource.query('SELECT 1');
    const roundTripMs = Number(process.hrtime.bigint() - started) / 1e6;
    return {
      message: query.message,
      correlationId: this.context.correlationId ?? '',
      receivedAt: new Date().toISOString(),
      userId: query.userId,
      databaseRoundTripMs: Math.round(roundTripMs * 100) / 100,
    };
  }
}
