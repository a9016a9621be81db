import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID, Matches } from 'class-validator';
import { TimeWindowPageParams } from '../../../shared/pagination/newest-first-page';
import { DateTimeFormat } from '../../../shared/validation/time-window';
import { INGEST_SOURCES, IngestSource, PROCESSING_STATUSES, ProcessingStatus } from '../persistence/raw-ingestion-message.entity';

export class ListRawMessagesParams extends TimeWindowPageParams {
  @ApiPropertyOptional({ format: 'uuid', description: 'Unknown → 400 reference_not_found.' })
  @IsOptional()
  @IsUUID()
  tenantId?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  deviceId?: string;

  @ApiPropertyOptional({ pattern: '^[0-9A-Fa-f]{16}$', description: 'Any case.' })
  @IsOptional()
  @IsString()
  @Matches(/^[0-9A-Fa-f]{16}$/)
  devEui?: string;

  @ApiPropertyOptional({ enum: INGEST_SOURCES })
  @IsOptional()
  @IsString()
  @IsIn([...INGEST_SOURCES])
  source?: IngestSource;

  @ApiPropertyOptional({ enum: PROCESSING_STATUSES })
  @IsOptional()
  @IsString()
  @IsIn([...PROCESSING_STATUSES])
  processingStatus?: ProcessingStatus;

  @ApiPropertyOptional({ format: 'uuid', description: 'Unknown → 400 reference_not_found.' })
  @IsOptional()
  @IsUUID()
  credentialId?: string;
}

export class GetRawMessageParams {
  @ApiPropertyOptional({ format: 'date-time', description: 'The message\'s `receivedAt`, if known: a lookup hint; a different value finds nothing (404).' })
  @IsOptional()
  @IsString()
  @DateTimeFormat()
  receivedAt?: string;
}
